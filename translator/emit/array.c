/* array.c - C for arrays and aggregates (pass 3).
 *
 * Arrays are the runtime's maps (runtime/map.h), keyed by a union
 * _stp_key per column; arrays of aggregates are per-CPU maps and scalar
 * aggregates per-CPU records (runtime/stat.h).  Each aggregate's histogram
 * kind, @variance shift and whether @variance is kept at all (its upkeep
 * costs two divisions per sample) are fixed for the whole script: they
 * come from how the script reads it (hist_init).  Full arrays, empty aggregates and
 * bad histogram indexes are runtime errors with stap's messages.
 */
#define _GNU_SOURCE	/* strverscmp */
#include <string.h>

#include "ast/ast_walk.h"
#include "emit/emit_int.h"

#define A emit_sprintf

static struct sym *array_sym(struct exp *x)
{
	if (x && x->kind == EX_SYM)
		return x->u.sym.sym;
	return NULL;
}

static int is_stats(const struct sym *sym)
{
	return sym->type == TY_STATS;
}

/* The key array for INDEXES (NULL entries are '*': *WILD gets their bits). */
/* The key array of INDEXES; VALS, when given, holds each one's value
 * already computed (emit_exp's text otherwise). */
static const char *key_array(struct emit *e, struct vec *indexes,
			     const char *const *vals, unsigned *wild)
{
	struct strbuf sb = {0};
	const char *r, *v;
	int i;

	if (wild)
		*wild = 0;
	sb_puts(&sb, "(union _stp_key[]){ ");
	for (i = 0; i < indexes->n; i++) {
		struct exp *ix = indexes->v[i];
		if (!ix) {
			sb_puts(&sb, "{ .n = 0 }, ");
			if (wild)
				*wild |= 1u << i;
			continue;
		}
		v = vals ? vals[i] : emit_exp(e, ix);
		sb_printf(&sb, ix->type == TY_STRING ? "{ .s = %s }, " :
			  "{ .n = %s }, ", v);
	}
	sb_puts(&sb, "}");
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&sb);
	return r;
}

static const char *keys(struct emit *e, struct vec *indexes, unsigned *wild)
{
	return key_array(e, indexes, NULL, wild);
}

/* A foreach's slice keys, evaluated once after its limit (as stap 4.8:
 * their side effects happen once, and a body changing what they read
 * does not change the slice); strings are copied, for the same reason. */
static const char *slice_once(struct emit *e, struct vec *indexes,
			      unsigned *wild)
{
	const char **vals = arena_alloc(e->s->arena,
					(indexes->n + 1) * sizeof *vals);
	struct exp *ix;
	int i;

	VEC_EACH(*indexes, i, ix) {
		if (!ix)
			continue;
		vals[i] = emit_temp(e, ix->type);
		if (ix->type == TY_STRING)
			emit_line(e, "_stp_strlcpy(%s, %s, MAXSTRINGLEN);",
				  vals[i], emit_exp(e, ix));
		else
			emit_line(e, "%s = %s;", vals[i], emit_exp(e, ix));
	}
	return key_array(e, indexes, vals, wild);
}

static const char *where(struct emit *e, struct exp *x, const char *name)
{
	return emit_where(e, A(e, "identifier '%s'", name), x->loc);
}

static const char *overflow(struct emit *e, const struct sym *sym,
			    struct exp *at)
{
	const char *msg = sym->decl->max_entries ?
		A(e, "\"Array overflow, check size limit (%lld)\"",
		  (long long)sym->decl->max_entries) :
		"STP_MAP_OVERFLOW_MSG";

	return A(e, "{ _stp_error_at(c, %s, %s); goto %s; }", msg,
		 where(e, at, sym->name), e->err_label);
}

const char *emit_array_get(struct emit *e, struct exp *x)
{
	struct exp *base = x->u.index.base;
	struct sym *sym = array_sym(base);
	const char *g, *k, *t;

	if (base && base->kind == EX_HIST)
		return emit_stat_op(e, x);
	if (!sym || is_stats(sym)) {
		emit_unsupported(e, x->loc, "this array reference");
		return "0";
	}
	g = emit_sym_ref(e, sym);
	k = keys(e, &x->u.index.indexes, NULL);
	if (sym->type != TY_STRING)
		return A(e, "_stp_map_get_int(%s, %s)", g, k);
	t = emit_temp(e, TY_STRING);
	return A(e, "({ _stp_strlcpy(%s, _stp_map_get_str(%s, %s), MAXSTRINGLEN); (const char *)%s; })",
		 t, g, k, t);
}

const char *emit_array_in(struct emit *e, struct exp *x)
{
	struct sym *sym = array_sym(x->u.index.in_array);
	unsigned wild;
	const char *k;

	if (!sym) {
		emit_unsupported(e, x->loc, "'in' on this expression");
		return "0";
	}
	k = keys(e, &x->u.index.indexes, &wild);
	if (is_stats(sym))
		return wild ? A(e, "((int64_t)_stp_pmap_slice_exists(%s, %s, %uu))",
				emit_sym_ref(e, sym), k, wild)
			    : A(e, "((int64_t)_stp_pmap_exists(%s, %s))",
				emit_sym_ref(e, sym), k);
	return wild ? A(e, "((int64_t)_stp_map_slice_exists(%s, %s, %uu))",
			emit_sym_ref(e, sym), k, wild)
		    : A(e, "((int64_t)_stp_map_exists(%s, %s))",
			emit_sym_ref(e, sym), k);
}

/* x <<< v: into a scalar aggregate or an element of an array of them. */
static const char *accumulate(struct emit *e, struct exp *x)
{
	struct exp *l = x->u.bin.left;
	const char *v = emit_exp(e, x->u.bin.right);
	struct sym *sym;

	if (l->kind == EX_SYM) {
		sym = l->u.sym.sym;
		return A(e, "({ int64_t _v = %s; _stp_stat_add(%s, smp_processor_id(), _v); _v; })",
			 v, emit_sym_ref(e, sym));
	}
	sym = array_sym(l->u.index.base);
	return A(e, "({ int64_t _v = %s; if (_stp_pmap_add(%s, smp_processor_id(), %s, _v)) %s _v; })",
		 v, emit_sym_ref(e, sym), keys(e, &l->u.index.indexes, NULL),
		 overflow(e, sym, l));
}

const char *emit_array_assign(struct emit *e, struct exp *x)
{
	struct exp *l = x->u.bin.left;
	struct sym *sym = array_sym(l->u.index.base);
	enum op op = x->u.bin.op, base = op_base(op);
	const char *g, *k, *v, *t;

	if (op == OP_APPEND)
		return accumulate(e, x);
	if (!sym || is_stats(sym)) {
		emit_unsupported(e, x->loc, "this assignment");
		return "0";
	}
	g = emit_sym_ref(e, sym);
	k = keys(e, &l->u.index.indexes, NULL);
	v = emit_exp(e, x->u.bin.right);
	if (sym->type == TY_STRING) {
		t = emit_temp(e, TY_STRING);
		if (op == OP_ASSIGN)
			return A(e, "({ _stp_strlcpy(%s, %s, MAXSTRINGLEN); if (_stp_map_set_str(%s, %s, %s)) %s (const char *)%s; })",
				 t, v, g, k, t, overflow(e, sym, l), t);
		return A(e, "({ int _id; _stp_strlcpy(%s, %s, MAXSTRINGLEN); _id = _stp_map_ref(%s, %s, 1); if (_id < 0) %s _stp_strlcat(_stp_map_val_str(%s, _id), %s, MAXSTRINGLEN); (const char *)_stp_map_val_str(%s, _id); })",
			 t, v, g, k, overflow(e, sym, l), g, t, g);
	}
	if (op == OP_ASSIGN)
		return A(e, "({ int64_t _v = %s; if (_stp_map_set_int(%s, %s, _v)) %s _v; })",
			 v, g, k, overflow(e, sym, l));
	if (op_has(base, OPF_DIVIDES))
		return A(e, "({ int64_t _v = %s, *_p; int _id; %s_id = _stp_map_ref(%s, %s, 1); if (_id < 0) %s _p = _stp_map_val_int(%s, _id); *_p = %s(*_p, _v); })",
			 v, emit_div_check(e, "_v", op, x->loc), g, k,
			 overflow(e, sym, l), g,
			 base == OP_DIV ? "_stp_div64" : "_stp_mod64");
	{
		const char *expr;
		if (base == OP_SHL)
			expr = "(int64_t)((uint64_t)*_p << (_v & 63))";
		else if (base == OP_SHR)
			expr = "(*_p >> (_v & 63))";
		else if (op_has(base, OPF_WRAPS))
			expr = A(e, "(int64_t)((uint64_t)*_p %s (uint64_t)_v)", op_c(base));
		else
			expr = A(e, "(*_p %s _v)", op_c(base));
		return A(e, "({ int64_t _v = %s, *_p; int _id = _stp_map_ref(%s, %s, 1); if (_id < 0) %s _p = _stp_map_val_int(%s, _id); *_p = %s; })",
			 v, g, k, overflow(e, sym, l), g, expr);
	}
}

const char *emit_array_incdec(struct emit *e, struct exp *x, int post)
{
	struct exp *o = x->u.un.operand;
	struct sym *sym = array_sym(o->u.index.base);
	const char *g, *k, *op = op_c(op_base(x->u.un.op));

	if (!sym || is_stats(sym)) {
		emit_unsupported(e, x->loc, "this increment");
		return "0";
	}
	g = emit_sym_ref(e, sym);
	k = keys(e, &o->u.index.indexes, NULL);
	return A(e, "({ int64_t *_p, _old; int _id = _stp_map_ref(%s, %s, 1); if (_id < 0) %s _p = _stp_map_val_int(%s, _id); _old = *_p; *_p = (int64_t)((uint64_t)_old %s 1); %s; })",
		 g, k, overflow(e, sym, o), g, op, post ? "_old" : "*_p");
}

static const char *stat_op_name(const char *op)
{
	static const char *const names[][2] = {
		{ "count", "STP_STAT_COUNT" }, { "sum", "STP_STAT_SUM" },
		{ "min", "STP_STAT_MIN" }, { "max", "STP_STAT_MAX" },
		{ "avg", "STP_STAT_AVG" }, { "variance", "STP_STAT_VARIANCE" },
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(op, names[i][0]))
			return names[i][1];
	return "STP_STAT_COUNT";
}

/* C expression for the merged record of aggregate X (EX_SYM or EX_INDEX
 * into an array of aggregates), and its sym. */
static const char *stat_data(struct emit *e, struct exp *x, struct sym **out)
{
	struct sym *sym;

	if (x->kind == EX_SYM) {
		sym = x->u.sym.sym;
		*out = sym;
		return A(e, "_stp_stat_get(%s)", emit_sym_ref(e, sym));
	}
	sym = array_sym(x->u.index.base);
	*out = sym;
	if (!sym)
		return "NULL";
	return A(e, "_stp_pmap_get(%s, %s)", emit_sym_ref(e, sym),
		 keys(e, &x->u.index.indexes, NULL));
}

const char *emit_stat_op(struct emit *e, struct exp *x)
{
	struct sym *sym;
	const char *d;

	if (x->kind == EX_INDEX) {	/* @hist_*(s)[i] */
		struct exp *h = x->u.index.base;
		const char *i = emit_exp(e, x->u.index.indexes.v[0]);
		d = stat_data(e, h->u.hist.stat, &sym);
		return A(e, "({ int64_t _o, _i = %s; int _r = _stp_stat_bucket(&%s_h, %s, _i, &_o); if (_r) { _stp_error_at(c, _r == -ERANGE ? STP_HIST_INDEX_MSG : STP_STAT_EMPTY_MSG, %s); goto %s; } _o; })",
			 i, emit_sym_ref(e, sym), d,
			 emit_where(e, A(e, "operator '@%s'", h->u.hist.is_log ?
					 "hist_log" : "hist_linear"), h->loc),
			 e->err_label);
	}
	d = stat_data(e, x->u.stat.stat, &sym);
	if (!sym)
		return "0";
	/* before 1.5, @sum of an empty aggregate was an error too */
	int empty_err = !strcmp(x->u.stat.op, "sum") && e->s->compatible &&
			strverscmp(e->s->compatible, "1.5") < 0;
	return A(e, "({ int64_t _o; const struct _stp_stat_data *_sd = %s; if (%s_stp_stat_extract(&%s_h, _sd, %s, &_o)) { _stp_error_at(c, STP_STAT_EMPTY_MSG, %s); goto %s; } _o; })",
		 d, empty_err ? "!_sd || !_sd->count || " : "",
		 emit_sym_ref(e, sym), stat_op_name(x->u.stat.op),
		 emit_where(e, A(e, "operator '@%s'", x->u.stat.op), x->loc),
		 e->err_label);
}

/* print(@hist_log(x)) and friends: the histogram's text.  An empty
 * aggregate is an error "near" the print call, as in stap 4.8. */
const char *emit_hist_print(struct emit *e, struct exp *h, const char *to,
			    const char *where)
{
	struct sym *sym;
	const char *d = stat_data(e, h->u.hist.stat, &sym), *check;

	if (!sym)
		return "";
	check = A(e, "const struct _stp_stat_data *_hd = %s; if (!_hd || !_hd->count) { _stp_error_at(c, STP_STAT_EMPTY_MSG, %s); goto %s; } ",
		  d, where, e->err_label);
	if (to)
		return A(e, "{ %s_stp_hist_sprint(%s + strlen(%s), MAXSTRINGLEN - strlen(%s), &%s_h, _hd); } ",
			 check, to, to, to, emit_sym_ref(e, sym));
	return A(e, "{ %s_stp_hist_print(&%s_h, _hd, _stp_print_emit, c); } ",
		 check, emit_sym_ref(e, sym));
}

static void foreach_keys(struct emit *e, struct stmt *st, const char *m,
			 const char *id)
{
	int i;

	for (i = 0; i < st->u.foreach.keys.n; i++) {
		struct exp *k = st->u.foreach.keys.v[i];
		const char *ref = emit_sym_ref(e, k->u.sym.sym);
		if (k->type == TY_STRING)
			emit_line(e, "_stp_strlcpy(%s, _stp_map_key_str(%s, %s, %d), MAXSTRINGLEN);",
				  ref, m, id, i);
		else
			emit_line(e, "%s = _stp_map_key_int(%s, %s, %d);", ref, m, id, i);
	}
}

/* The loop's body, its count of actions, and the ends of the loop and of
 * its block, with the continue and break labels. */
static void foreach_body(struct emit *e, struct stmt *st)
{
	emit_stmt(e, st->u.foreach.body);
	emit_actions(e, 0, emit_body_where(e, st, st->u.foreach.body), 1);
	emit_line(e, "%s: __attribute__((unused));", e->continue_label);
	emit_close(e, "");
	emit_line(e, "%s: __attribute__((unused));", e->break_label);
	emit_close(e, "");
}

/* foreach (b in @hist_*(x)): every bucket index in order, whatever the
 * sort direction, as stap 4.8; the value is the bucket's count. */
static void emit_foreach_hist(struct emit *e, struct stmt *st)
{
	struct exp *h = st->u.foreach.array;
	struct sym *sym;
	const char *d = stat_data(e, h->u.hist.stat, &sym);
	int n = e->nlabels++;
	const char *rec = A(e, "_fr%d", n), *done = A(e, "_fn%d", n);
	struct exp *key;
	const char *b;

	if (!sym || st->u.foreach.keys.n != 1)
		return;
	key = st->u.foreach.keys.v[0];
	b = emit_sym_ref(e, key->u.sym.sym);
	emit_open(e, "%s", "");
	if (st->u.foreach.limit)	/* evaluated once, before the loop */
		emit_line(e, "int64_t %s = 0, _fl%d = %s;", done, n,
			  emit_exp(e, st->u.foreach.limit));
	emit_line(e, "const struct _stp_stat_data *%s __attribute__((unused)) = %s;",
		  rec, d);
	emit_actions(e, 1, emit_where(e, "keyword", st->loc), 1);
	emit_open(e, "for (%s = 0; %s < %s_h.buckets; %s++)", b, b,
		  emit_sym_ref(e, sym), b);
	if (st->u.foreach.limit)
		emit_line(e, "if (%s++ >= _fl%d) break;", done, n);
	emit_actions(e, 1, emit_where(e, "keyword", st->loc), 0);
	e->break_label = emit_new_label(e, "brk");
	e->continue_label = emit_new_label(e, "cont");
	if (st->u.foreach.value)
		emit_line(e, "%s = %s ? %s->histogram[%s] : 0;",
			  emit_sym_ref(e, st->u.foreach.value->u.sym.sym), rec,
			  rec, b);
	foreach_body(e, st);
}

void emit_foreach(struct emit *e, struct stmt *st)
{
	struct exp *arr = st->u.foreach.array;
	struct sym *sym = array_sym(arr);
	int n = e->nlabels++;
	const char *m = A(e, "_fm%d", n), *id = A(e, "_id%d", n);
	const char *left = A(e, "_left%d", n);
	unsigned wild = 0;
	const char *slice = NULL;

	if (arr->kind == EX_HIST) {
		emit_foreach_hist(e, st);
		return;
	}
	if (!sym) {
		emit_unsupported(e, st->loc, "foreach over this expression");
		return;
	}
	emit_open(e, "%s", "");
	/* declarations first: some kernels (5.10) build with
	 * -Wdeclaration-after-statement */
	emit_line(e, "struct _stp_map *%s;", m);
	emit_line(e, "int %s;", id);
	if (st->u.foreach.limit)
		emit_line(e, "int64_t %s;", left);
	if (is_stats(sym)) {
		emit_line(e, "%s = _stp_pmap_agg(%s);", m, emit_sym_ref(e, sym));
		emit_line(e, "if (!%s) { _stp_error_at(c, STP_PMAP_AGG_OVERFLOW_MSG \"%s\", %s); goto %s; }",
			  m, sym->name, where(e, arr, sym->name), e->err_label);
	} else {
		emit_line(e, "%s = %s;", m, emit_sym_ref(e, sym));
	}
	if (st->u.foreach.limit)
		emit_line(e, "%s = %s;", left, emit_exp(e, st->u.foreach.limit));
	if (st->u.foreach.sort_dir) {
		int col = st->u.foreach.sort_col > 0 ? st->u.foreach.sort_col - 1
						     : -1;
		/* the limit as given: 0 (or none) sorts all, a negative
		 * one runs stap's partial sort and no iteration */
		emit_line(e, "_stp_map_sort(%s, %d, %d, %s, %s);", m,
			  col, st->u.foreach.sort_dir,
			  stat_op_name(st->u.foreach.sort_stat ?
				       st->u.foreach.sort_stat : "count"),
			  st->u.foreach.limit ? left : "0");
	}
	emit_actions(e, 1, emit_where(e, "keyword", st->loc), 1);
	if (st->u.foreach.slice.n) {
		slice = slice_once(e, &st->u.foreach.slice, &wild);
		emit_open(e, "for (%s = _stp_map_slice_next(%s, -1, %s, %uu); %s >= 0; %s = _stp_map_slice_next(%s, %s, %s, %uu))",
			  id, m, slice, wild, id, id, m, id, slice, wild);
	} else {
		emit_open(e, "for (%s = _stp_map_first(%s); %s >= 0; %s = _stp_map_next(%s, %s))",
			  id, m, id, id, m, id);
	}
	emit_actions(e, 1, emit_where(e, "keyword", st->loc), 0);
	if (st->u.foreach.limit)
		emit_line(e, "if (%s-- <= 0) break;", left);
	e->break_label = emit_new_label(e, "brk");
	e->continue_label = emit_new_label(e, "cont");
	foreach_keys(e, st, m, id);
	if (st->u.foreach.value) {
		struct exp *v = st->u.foreach.value;
		const char *ref = emit_sym_ref(e, v->u.sym.sym);
		if (v->type == TY_STRING)
			emit_line(e, "_stp_strlcpy(%s, _stp_map_val_str(%s, %s), MAXSTRINGLEN);",
				  ref, m, id);
		else
			emit_line(e, "%s = *_stp_map_val_int(%s, %s);", ref, m, id);
	}
	foreach_body(e, st);
}

void emit_delete(struct emit *e, struct stmt *st)
{
	struct exp *x = st->u.exp;
	struct sym *sym;
	unsigned wild;
	const char *k;

	if (x->kind == EX_SYM) {
		sym = x->u.sym.sym;
		if (is_stats(sym) && sym->arity > 0)
			emit_line(e, "_stp_pmap_clear(%s);", emit_sym_ref(e, sym));
		else if (is_stats(sym))
			emit_line(e, "_stp_stat_clear(%s);", emit_sym_ref(e, sym));
		else if (sym->arity > 0)
			emit_line(e, "_stp_map_clear(%s);", emit_sym_ref(e, sym));
		else if (sym->type == TY_STRING)
			emit_line(e, "%s[0] = '\\0';", emit_sym_ref(e, sym));
		else
			emit_line(e, "%s = 0;", emit_sym_ref(e, sym));
		return;
	}
	sym = array_sym(x->kind == EX_INDEX ? x->u.index.base : NULL);
	if (!sym) {
		emit_unsupported(e, st->loc, "delete of this expression");
		return;
	}
	k = keys(e, &x->u.index.indexes, &wild);
	if (wild)
		emit_line(e, "%s(%s, %s, %uu);", is_stats(sym) ?
			  "_stp_pmap_slice_delete" : "(void)_stp_map_slice_delete",
			  emit_sym_ref(e, sym), k, wild);
	else
		emit_line(e, "(void)%s(%s, %s);", is_stats(sym) ?
			  "_stp_pmap_delete" : "_stp_map_delete",
			  emit_sym_ref(e, sym), k);
}

/* ---- storage: declarations, creation, the end-of-run display ---- */

struct agg_scan {
	struct emit *e;
	struct sym *sym;
	struct exp *hist;	/* first @hist_* use */
	struct exp *variance;	/* first @variance(x, shift) */
	int any_variance;	/* @variance read, or sorted on */
};

static struct sym *stat_sym(struct exp *x)
{
	if (!x)
		return NULL;
	if (x->kind == EX_SYM)
		return x->u.sym.sym;
	if (x->kind == EX_INDEX)
		return array_sym(x->u.index.base);
	return NULL;
}

static int scan_agg(struct walker *w, struct exp *x)
{
	struct agg_scan *a = w->arg;

	if (x->kind == EX_HIST && stat_sym(x->u.hist.stat) == a->sym) {
		/* pass 2 refused a mix of kinds (sema.hist-conflict) */
		if (!a->hist)
			a->hist = x;
	}
	if (x->kind == EX_STAT && !strcmp(x->u.stat.op, "variance") &&
	    stat_sym(x->u.stat.stat) == a->sym)
		a->any_variance = 1;
	if (x->kind == EX_STAT && x->u.stat.shift &&
	    stat_sym(x->u.stat.stat) == a->sym && !a->variance)
		a->variance = x;
	return 0;
}

static int scan_agg_sort(struct walker *w, struct stmt *st)
{
	struct agg_scan *a = w->arg;

	if (st->kind == ST_FOREACH && st->u.foreach.sort_stat &&
	    !strcmp(st->u.foreach.sort_stat, "variance") &&
	    stat_sym(st->u.foreach.array) == a->sym)
		a->any_variance = 1;
	return 0;
}

/* A histogram's or @variance's parameter: pass 1 accepts only number
 * literals there (parse.stat-args, parse.hist-args). */
static int64_t const_arg(struct exp *x)
{
	int64_t v;

	return exp_int_literal(x, &v) ? v : 1;
}

static void scan_sym(struct emit *e, struct sym *sym, struct agg_scan *a)
{
	struct walker w = { .exp = scan_agg, .stmt = scan_agg_sort, .arg = a };
	struct derived_probe *dp;
	struct func *f;
	int i;

	*a = (struct agg_scan){ e, sym, NULL, NULL, 0 };
	VEC_EACH(e->prog->probes, i, dp)
		walk_stmt(&w, dp->body);
	VEC_EACH(e->prog->funcs, i, f)
		walk_stmt(&w, f->body);
}

/* @hist_linear's start, stop and interval for SYM; 1 if stap 4.8 refuses
 * them: it builds the module, which then fails to start (emit_array_init).
 * It takes 1 to 126 buckets: (stop - start) / interval + 1. */
static int linear_refused(const struct agg_scan *a, int64_t *lo, int64_t *hi,
			  int64_t *step)
{
	if (!a->hist || a->hist->u.hist.is_log)
		return 0;
	*lo = const_arg(a->hist->u.hist.lo);
	*hi = const_arg(a->hist->u.hist.hi);
	*step = const_arg(a->hist->u.hist.step);
	return *step == 0 || (*hi - *lo) / *step + 1 < 1 ||
	       (*hi - *lo) / *step + 1 > 126;
}

static const char *hist_init(struct emit *e, struct sym *sym)
{
	struct agg_scan a;
	int64_t lo, hi, step;
	int shift = 0;

	scan_sym(e, sym, &a);
	if (a.variance)	/* 0 to 62: pass 2 checked (sema.variance-shift) */
		shift = (int)const_arg(a.variance->u.stat.shift);
	if (!a.hist || linear_refused(&a, &lo, &hi, &step))
		return A(e, "STP_HIST_NONE_INIT_V(%d, %d)", shift, a.any_variance);
	if (a.hist->u.hist.is_log)
		return A(e, "STP_HIST_LOG_INIT_V(%d, %d)", shift, a.any_variance);
	return A(e, "STP_HIST_LINEAR_INIT_V(%lld, %lld, %lld, %d, %d)",
		 (long long)lo, (long long)hi, (long long)step, shift,
		 a.any_variance);
}

static const char *keysig(struct emit *e, const struct sym *sym)
{
	char sig[MAX_ARITY + 1];
	int i;

	for (i = 0; i < sym->arity && i < MAX_ARITY; i++)
		sig[i] = sym->index_types[i] == TY_STRING ? 's' : 'i';
	sig[i] = '\0';
	return arena_strdup(e->s->arena, sig);
}

/* Declare the storage of an array or aggregate global; returns 1 if SYM
 * is one (scalars are emitted by the caller). */
int emit_array_decl(struct emit *e, struct sym *sym)
{
	const char *g = emit_sym_ref(e, sym);

	if (is_stats(sym)) {
		emit_line(e, "static const struct _stp_hist %s_h = %s;", g,
			  hist_init(e, sym));
		emit_line(e, "static struct %s *%s;", sym->arity > 0 ?
			  "_stp_pmap" : "_stp_stat", g);
		return 1;
	}
	if (sym->arity <= 0)
		return 0;
	emit_line(e, "static struct _stp_map *%s;", g);
	return 1;
}

void emit_array_init(struct emit *e, struct sym *sym)
{
	const char *g = emit_sym_ref(e, sym);
	const char *max = sym->decl->max_entries ?
		A(e, "%lld", (long long)sym->decl->max_entries) : "MAXMAPENTRIES";

	if (is_stats(sym)) {
		struct agg_scan a;
		int64_t lo, hi, step;

		scan_sym(e, sym, &a);
		if (linear_refused(&a, &lo, &hi, &step)) {
			emit_line(e, "return _stp_hist_refused(%lld, %lld, %lld, \"__global_%s\");",
				  (long long)lo, (long long)hi, (long long)step, sym->name);
			return;
		}
	}
	if (is_stats(sym) && sym->arity <= 0)
		emit_line(e, "if (!(%s = _stp_stat_new(&%s_h, nr_cpu_ids))) return -ENOMEM;",
			  g, g);
	else if (is_stats(sym))
		emit_line(e, "if (!(%s = _stp_pmap_new(%s, %d, \"%s\", &%s_h, nr_cpu_ids))) return -ENOMEM;",
			  g, max, sym->decl->wrap, keysig(e, sym), g);
	else if (sym->arity > 0)
		emit_line(e, "if (!(%s = _stp_map_new(%s, %d, \"%s\", %s, NULL))) return -ENOMEM;",
			  g, max, sym->decl->wrap, keysig(e, sym),
			  sym->type == TY_STRING ? "STP_T_STRING" : "STP_T_INT64");
}

void emit_array_free(struct emit *e, struct sym *sym)
{
	const char *g = emit_sym_ref(e, sym);

	if (is_stats(sym) && sym->arity <= 0)
		emit_line(e, "if (%s) _stp_stat_free(%s);", g, g);
	else if (is_stats(sym))
		emit_line(e, "if (%s) _stp_pmap_del(%s);", g, g);
	else if (sym->arity > 0)
		emit_line(e, "if (%s) _stp_map_del(%s);", g, g);
	else
		return;
	emit_line(e, "%s = NULL;", g);
}

/* The end-of-run display of a written-only array or aggregate. */
void emit_array_display(struct emit *e, struct sym *sym)
{
	const char *g = emit_sym_ref(e, sym);
	int i;

	if (is_stats(sym) && sym->arity <= 0) {
		emit_line(e, "_stp_display_stat(c, \"%s\", &%s_h, _stp_stat_get(%s));",
			  sym->name, g, g);
		return;
	}
	emit_open(e, "%s", "");
	if (is_stats(sym))
		emit_line(e, "struct _stp_map *_m = _stp_pmap_agg(%s);", g);
	else
		emit_line(e, "struct _stp_map *_m = %s;", g);
	emit_line(e, "int _id;");
	/* stap shows the elements by value, largest first (stats by @count) */
	emit_line(e, "if (_m) _stp_map_sort(_m, STP_SORT_VALUE, -1, STP_STAT_COUNT, 0);");
	emit_open(e, "for (_id = _m ? _stp_map_first(_m) : -1; _id >= 0; _id = _stp_map_next(_m, _id))");
	emit_line(e, "_stp_print_str(c, \"%s[\");", sym->name);
	for (i = 0; i < sym->arity; i++) {
		if (i)
			emit_line(e, "_stp_print_str(c, \",\");");
		if (sym->index_types[i] == TY_STRING)
			emit_line(e, "_stp_print_quoted(c, _stp_map_key_str(_m, _id, %d));", i);
		else
			emit_line(e, "_stp_print_long(c, _stp_map_key_int(_m, _id, %d));", i);
	}
	if (is_stats(sym))
		emit_line(e, "_stp_display_stat(c, \"]\", &%s_h, _stp_map_val_stat(_m, _id));", g);
	else if (sym->type == TY_STRING)
		emit_line(e, "_stp_print_str(c, \"]=\"); _stp_print_quoted(c, _stp_map_val_str(_m, _id)); _stp_print_str(c, \"\\n\");");
	else
		emit_line(e, "_stp_print_str(c, \"]=\"); _stp_print_long(c, *_stp_map_val_int(_m, _id)); _stp_print_str(c, \"\\n\");");
	emit_close(e, "");
	emit_close(e, "");
}
