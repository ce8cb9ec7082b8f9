/* parse_help.c - what the grammar actions need beyond plain constructors.
 *
 * Recognising the print family among calls, splitting $var$$ into a name
 * and a pretty-printing suffix, assembling foreach headers, expanding
 * brace alternatives of probe points, and the checks stap makes while
 * parsing (embedded C needs -g, printf needs a literal format).
 */
#define _GNU_SOURCE	/* strverscmp */
#include <string.h>

#include "ast/ast_new.h"
#include "format.h"
#include "parse/parse_help.h"

struct vec help_vec1(struct parser *p, void *item)
{
	struct vec v = {0};

	vec_push(p->a, &v, item);
	return v;
}

struct vec help_vec_add(struct parser *p, struct vec v, void *item)
{
	vec_push(p->a, &v, item);
	return v;
}

struct vec help_param_add(struct parser *p, struct vec v, struct param *pa)
{
	struct param *q;
	int i;

	VEC_EACH(v, i, q)
		if (!strcmp(q->name, pa->name)) {
			parse_error(p, pa->loc, "parse.duplicate-param",
				    "duplicate parameter names");
			break;
		}
	return help_vec_add(p, v, pa);
}

void help_global_add(struct parser *p, struct global *g, int is_private)
{
	struct global *q;
	int i;

	g->is_private = is_private;
	VEC_EACH(p->out->globals, i, q) {
		if (strcmp(q->name, g->name))
			continue;
		parse_error(p, g->loc, "parse.duplicate-global",
			    q->is_private == is_private ? "duplicate global name" :
			    "global versus private variable declaration conflict");
		return;
	}
	vec_push(p->a, &p->out->globals, g);
}

int64_t help_array_size(struct parser *p, const struct token *n)
{
	if (n->num < 1 || n->num > 0x7fffffff)
		parse_error(p, n->loc, "parse.array-size",
			    "array size out of range");
	return n->num;
}

int help_version_dep(struct parser *p)
{
	return p->sysv_conds != p->sysv_mark;
}

struct probe_alias *help_alias_version(struct parser *p,
				       struct probe_alias *al)
{
	al->version_dependent = help_version_dep(p);
	return al;
}

void help_alias_name(struct parser *p, struct vec points)
{
	struct probe_point *pt = points.n ? points.v[0] : NULL;

	if (pt && (pt->optional || pt->sufficient))
		parse_error(p, pt->loc, "parse.alias-optional",
			    "probe point alias name cannot be optional nor sufficient");
}

struct vec help_vec_cat(struct parser *p, struct vec a, struct vec b)
{
	int i;

	for (i = 0; i < b.n; i++)
		vec_push(p->a, &a, b.v[i]);
	return a;
}

/* ---- literals ---- */

struct exp *help_string(struct parser *p, const struct token *t)
{
	return ast_str(p->a, t->loc, t->str, t->str_len, t->text);
}

/* "a" "b": adjacent literals are one string. */
struct exp *help_concat(struct parser *p, struct exp *e, const struct token *t)
{
	size_t n = e->u.str.len;
	char *s = arena_alloc(p->a, n + t->str_len + 1);

	memcpy(s, e->u.str.s, n);
	memcpy(s + n, t->str, t->str_len);
	e->u.str.s = s;
	e->u.str.len = n + t->str_len;
	e->u.str.raw = arena_printf(p->a, "%s%s", e->u.str.raw, t->text);
	return e;
}

/* L OP R.  Before SystemTap 4.0 (--compatible) '?:' bound looser than
 * assignment: 'c ? x : y = 5' assigned y in the false branch, where it now
 * assigns to the whole '?:' (sema.lvalue). */
struct exp *help_assign(struct parser *p, struct loc loc, enum op op,
			struct exp *l, struct exp *r)
{
	if (l->kind == EX_TERNARY && !l->parens && p->s->compatible &&
	    strverscmp(p->s->compatible, "4.0") < 0) {
		l->u.tern.no = help_assign(p, loc, op, l->u.tern.no, r);
		return l;
	}
	return ast_binary(p->a, EX_ASSIGN, loc, op, l, r);
}

/* return [EXP]: in a function only.  Without a value it must end with
 * ';' or the block's '}' (ENDED: it had its ';'); anything else is where
 * stap 4.8 reads the value, as in a 'return' on a line of its own before
 * an 'if'. */
struct stmt *help_return(struct parser *p, struct loc loc, struct exp *value,
			 int ended)
{
	if (!p->in_function)
		parse_error(p, loc, "parse.return-outside-function",
			    "found 'return' not in function context");
	else if (!ended && p->last.type != '}' && p->last.type != 0)
		parse_error(p, p->last.loc, "parse.expected-expression",
			    "expected an expression, found %s",
			    token_desc(p, &p->last));
	return ast_exp_stmt(p->a, ST_RETURN, loc, value);
}

/* -5 in a global initializer or probe-point argument is one literal. */
struct exp *help_neg_literal(struct parser *p, struct loc loc, struct exp *e)
{
	e->u.num = (int64_t)(0 - (uint64_t)e->u.num);
	e->loc = loc;
	return e;
}

/* @variance(s, N): N is a number, written as a literal (stap 4.8). */
void help_variance_shift(struct parser *p, const struct exp *e)
{
	if (e->kind == EX_UNARY && e->u.un.op == OP_NEG)
		e = e->u.un.operand;
	if (e->kind != EX_NUM)
		parse_error(p, e->loc, "parse.stat-args",
			    "expected a number: @variance's bit shift is a literal");
}

/* @hist_linear(s, START, STOP, INTERVAL): each a number literal,
 * possibly negative (stap 4.8 parses them so). */
void help_hist_bound(struct parser *p, const struct exp *e)
{
	int64_t v;

	if (!exp_int_literal(e, &v) || e->parens)
		parse_error(p, e->loc, "parse.hist-args",
			    "expected a number: @hist_linear's bounds and interval are literals");
}

void help_embedded_ok(struct parser *p, struct loc loc)
{
	if (!p->privileged)
		parse_error(p, loc, "parse.embedded-unprivileged",
			    "embedded code in unprivileged script; need stap -g");
}

/* @const, @kregister and @kderef reach into the kernel: guru only. */
void help_guru_op(struct parser *p, const struct token *t)
{
	if (!p->privileged)
		parse_error(p, t->loc, "parse.guru-operator",
			    "using %s operator not permitted; need stap -g",
			    t->text);
}

void help_func_pragmas(struct func *f)
{
	const char *c;

	if (!f->body || f->body->kind != ST_EMBEDDED)
		return;
	c = f->body->u.embedded.code;
	f->pure = strstr(c, "/* pure */") != NULL;
	f->unprivileged = strstr(c, "/* unprivileged */") != NULL;
	f->myproc_unprivileged = strstr(c, "/* myproc-unprivileged */") != NULL;
	f->guru = strstr(c, "/* guru */") != NULL;
	f->unmangled = strstr(c, "/* unmangled */") != NULL;
	f->unmodified_fnargs = strstr(c, "/* unmodified-fnargs */") != NULL;
	f->stable = strstr(c, "/* stable */") != NULL;
}

/* ---- calls and the print family ---- */

static const struct {
	const char *name;
	enum print_kind kind;
	int to_string;
} printers[] = {
	{ "print", PR_PRINT, 0 }, { "println", PR_PRINTLN, 0 },
	{ "printd", PR_PRINTD, 0 }, { "printdln", PR_PRINTDLN, 0 },
	{ "printf", PR_PRINTF, 0 }, { "sprint", PR_PRINT, 1 },
	{ "sprintln", PR_PRINTLN, 1 }, { "sprintd", PR_PRINTD, 1 },
	{ "sprintdln", PR_PRINTDLN, 1 }, { "sprintf", PR_PRINTF, 1 },
};

#define NPRINTERS (sizeof printers / sizeof printers[0])

/* NAME's index in printers[], or NPRINTERS.  Every one of them starts
 * with "print" or "sprint": most names are out at the first letters. */
static size_t printer(const char *name)
{
	size_t i;

	if (strncmp(name + (name[0] == 's'), "print", 5))
		return NPRINTERS;
	for (i = 0; i < NPRINTERS; i++)
		if (!strcmp(name, printers[i].name))
			break;
	return i;
}

static int print_family(const char *name)
{
	return printer(name) < NPRINTERS;
}

/* A plain name; the print family's names are taken. */
struct exp *help_sym(struct parser *p, const struct token *t)
{
	if (print_family(t->text))
		parse_error(p, t->loc, "parse.print-needs-parens",
			    "expected '(' after '%s'", t->text);
	return ast_sym(p->a, t->loc, t->text);
}

/* A printf format is checked while parsing, as stap does (the arguments
 * against it in pass 2, printcheck.c). */
static void check_format(struct parser *p, const struct token *name,
			 const struct exp *fmt)
{
	enum _stp_fmt_type types[1];
	struct _stp_fmt_error err;

	if (_stp_fmt_check(fmt->u.str.s, types, 0, &err) < 0)
		parse_error(p, name->loc, "parse.printf-format",
			    "invalid format string: %s (at byte %zu of the format)",
			    err.msg, err.offset);
}

/* The operand E starts with, leftmost (a @hist_…(…)[i] under `+ 1`). */
static const struct exp *leftmost(const struct exp *e)
{
	for (;;) {
		if (e->parens)
			return e;
		switch (e->kind) {
		case EX_BINARY: case EX_CMP: case EX_LOG_AND: case EX_LOG_OR:
		case EX_CONCAT: case EX_ASSIGN: case EX_REGEX:
			e = e->u.bin.left;
			break;
		case EX_TERNARY:
			e = e->u.tern.cond;
			break;
		case EX_POST_INC:
			e = e->u.un.operand;
			break;
		default:
			return e;
		}
	}
}

static int is_hist(const struct exp *e)
{
	return e->kind == EX_HIST ||
	       (e->kind == EX_INDEX && e->u.index.base->kind == EX_HIST);
}

/* print(@hist_log(h)) prints the histogram: stap's grammar takes a
 * leading @hist_… argument (or a bucket of it) whole, so it cannot go on
 * into a larger expression. */
static void check_leading_hist(struct parser *p, const struct exp *arg)
{
	const struct exp *l = leftmost(arg);

	if (l != arg && is_hist(l) && !l->parens && !arg->parens)
		parse_error(p, arg->kind == EX_TERNARY ? l->loc : arg->loc,
			    "parse.hist-leading",
			    "expected ',' or ')' after a histogram argument (put the expression in parentheses)");
}

struct exp *help_call(struct parser *p, const struct token *name,
		      struct vec args)
{
	size_t i;
	struct exp *e, *first;
	enum print_kind k;

	i = printer(name->text);
	if (i == NPRINTERS)
		return ast_call(p->a, name->loc, name->text, args);
	k = printers[i].kind;
	/* print and sprint need a value; printd and printdln a delimiter
	 * and two values (stap 4.8 has them in its grammar) */
	if (k == PR_PRINT && !args.n)
		parse_error(p, name->loc, "parse.print-args",
			    "%s needs at least one argument", name->text);
	if ((k == PR_PRINTD || k == PR_PRINTDLN) && args.n < 3 &&
	    args.n && ((struct exp *)args.v[0])->kind == EX_STR)
		parse_error(p, name->loc, "parse.print-args",
			    "%s needs a delimiter and at least two values",
			    name->text);
	if ((k == PR_PRINT || k == PR_PRINTLN) && args.n)
		check_leading_hist(p, args.v[0]);
	if (k != PR_PRINTF && k != PR_PRINTD && k != PR_PRINTDLN)
		return ast_print(p->a, name->loc, k, printers[i].to_string, args);
	first = args.n ? args.v[0] : NULL;
	if (!first || first->kind != EX_STR) {
		parse_error(p, first ? first->loc : name->loc,
			    "parse.format-not-literal",
			    "%s: the %s must be a literal string", name->text,
			    k == PR_PRINTF ? "format" : "delimiter");
		return ast_call(p->a, name->loc, name->text, args);
	}
	args.v++;
	args.n--;
	args.cap = args.n;
	e = ast_print(p->a, name->loc, k, printers[i].to_string, args);
	if (k == PR_PRINTF) {
		check_format(p, name, first);
		e->u.print.fmt = first->u.str.s;
		e->u.print.fmt_len = first->u.str.len;
		e->u.print.fmt_raw = first->u.str.raw;
	} else {
		e->u.print.delim = first;
	}
	return e;
}

/* ---- target variables ---- */

static struct vec *comps_of(struct exp *e)
{
	return e->kind == EX_TARGET || e->kind == EX_TARGET_LIST ?
		&e->u.target.comps : &e->u.op.comps;
}

/* Strip a trailing $ or $$ from NAME (length *LEN); returns the depth. */
static int pretty_suffix(const char *name, size_t *len)
{
	int d = 0;

	while (*len > 1 && name[*len - 1] == '$' && d < 2) {
		(*len)--;
		d++;
	}
	return d;
}

static void add_pretty(struct parser *p, struct exp *e, struct loc loc, int d)
{
	if (d)
		vec_push(p->a, comps_of(e),
			 ast_comp(p->a, TC_PRETTY, loc, NULL, d, NULL));
}

struct exp *help_target(struct parser *p, const struct token *t)
{
	static const char *const lists[] = { "$vars", "$locals", "$parms",
					     "$return" };
	const char *name = t->text + 1;
	size_t len = strlen(name), i;
	int d = pretty_suffix(name, &len);
	struct exp *e;
	enum exp_kind kind = EX_TARGET;

	name = parse_intern(p->s, name, len);
	for (i = 0; i < sizeof lists / sizeof lists[0]; i++)
		if (!strcmp(name, lists[i]))
			kind = EX_TARGET_LIST;
	e = ast_target(p->a, kind, t->loc, name);
	add_pretty(p, e, t->loc, d);
	return e;
}

struct exp *help_member(struct parser *p, struct exp *e, const struct token *t)
{
	size_t len = strlen(t->text);
	const char *name = t->text;
	int d;

	/* Only a TARGET token's text starts with '$' (lexer.l) */
	if (name[0] == '$' && strspn(name, "$") == len) {
		add_pretty(p, e, t->loc, (int)(len > 2 ? 2 : len));
		return e;
	}
	d = pretty_suffix(name, &len);
	vec_push(p->a, comps_of(e),
		 ast_comp(p->a, TC_MEMBER, t->loc, parse_intern(p->s, name, len), 0,
			  NULL));
	add_pretty(p, e, t->loc, d);
	return e;
}

struct exp *help_target_index(struct parser *p, struct exp *e,
			      struct exp *index, struct loc loc)
{
	struct target_comp *c;

	if (index->kind == EX_NUM)
		c = ast_comp(p->a, TC_INDEX_NUM, loc, NULL, index->u.num, NULL);
	else
		c = ast_comp(p->a, TC_INDEX_EXP, loc, NULL, 0, index);
	vec_push(p->a, comps_of(e), c);
	return e;
}

/* &$var marks the target itself; & on anything else stays an operator
 * for the semantic pass to reject. */
struct exp *help_addr_of(struct parser *p, struct loc loc, struct exp *e)
{
	switch (e->kind) {
	case EX_TARGET:
		e->u.target.addr_of = 1;
		e->loc = loc;
		return e;
	case EX_CAST:
	case EX_ATVAR:
	case EX_AUTOCAST:
		e->u.op.addr_of = 1;
		e->loc = loc;
		return e;
	default:
		return ast_unary(p->a, EX_UNARY, loc, OP_ADDR, e);
	}
}

/* ---- foreach ---- */

struct fe_head *help_fe_new(struct parser *p)
{
	return arena_alloc(p->a, sizeof(struct fe_head));
}

static void fe_sort(struct parser *p, struct fe_head *h, struct loc loc,
		    int col, int dir, const char *stat)
{
	if (!dir && !stat)
		return;
	if (h->nsorts++) {
		parse_error(p, loc, "parse.foreach-multiple-sort",
			    "multiple sort directives in foreach");
		return;
	}
	h->sort_col = col;
	h->sort_dir = dir;
	h->sort_stat = stat;
}

void help_fe_key(struct parser *p, struct fe_head *h, const struct token *k,
		 int dir)
{
	vec_push(p->a, &h->keys, ast_sym(p->a, k->loc, k->text));
	fe_sort(p, h, k->loc, h->keys.n, dir, NULL);
}

void help_fe_value(struct parser *p, struct fe_head *h, const struct token *v,
		   int dir)
{
	h->value = ast_sym(p->a, v->loc, v->text);
	fe_sort(p, h, v->loc, -1, dir, NULL);
}

void help_fe_sort(struct parser *p, struct fe_head *h, struct loc loc,
		  const char *stat, int dir)
{
	if (stat && !dir) {
		parse_error(p, loc, "parse.foreach-sort",
			    "expected sort directive '+' or '-' after %s", stat);
		return;
	}
	fe_sort(p, h, loc, -1, dir, stat ? stat + 1 : NULL);
}

struct stmt *help_foreach(struct parser *p, struct loc loc, struct fe_head *h,
			  struct stmt *body)
{
	struct stmt *s = ast_stmt(p->a, ST_FOREACH, loc);

	s->u.foreach.keys = h->keys;
	s->u.foreach.value = h->value;
	s->u.foreach.array = h->array;
	s->u.foreach.slice = h->slice;
	s->u.foreach.sort_col = h->sort_col;
	s->u.foreach.sort_dir = h->sort_dir;
	s->u.foreach.sort_stat = h->sort_stat;
	s->u.foreach.limit = h->limit;
	s->u.foreach.body = body;
	if (h->keys.n > 9)
		parse_error(p, loc, "parse.foreach-keys",
			    "foreach has %d keys; at most 9 are allowed",
			    h->keys.n);
	return s;
}

/* ---- probe points and their brace alternatives ---- */

/* One alternative of a probe point being parsed: its components, and the
 * suffix or condition written inside a brace group, at its end. */
struct pp_alt {
	struct vec comps;	/* first: the alternatives are used as vecs */
	int suffix;		/* 0, '?' or '!' */
	struct exp *cond;
};

static struct pp_alt *pp_alt_new(struct parser *p)
{
	return arena_alloc(p->a, sizeof(struct pp_alt));
}

struct vec help_pp_one(struct parser *p, struct pp_comp *c)
{
	struct pp_alt *alt = pp_alt_new(p);

	vec_push(p->a, &alt->comps, c);
	return help_vec1(p, alt);
}

/* The suffix or condition of the alternatives ALTS, inside braces. */
struct vec help_pp_mark(struct parser *p, struct vec alts, int suffix,
			struct exp *cond)
{
	int i;

	for (i = 0; (suffix || cond) && i < alts.n; i++) {
		struct pp_alt *alt = alts.v[i];

		alt->suffix = suffix;
		alt->cond = cond;
	}
	return alts;
}

static void marked_inside(struct parser *p, const struct pp_alt *alt)
{
	const struct pp_comp *c = alt->comps.n ? alt->comps.v[0] : NULL;

	parse_error(p, c ? c->loc : (struct loc){0}, "parse.pp-suffix",
		    "'?', '!' or condition must only be specified in suffix");
}

/* Every alternative on the left followed by every one on the right; a
 * left one may not end in a suffix or condition. */
struct vec help_pp_cat(struct parser *p, struct vec left, struct vec right)
{
	struct vec out = {0};
	int i, j;

	for (i = 0; i < left.n; i++) {
		const struct pp_alt *l = left.v[i];

		if (l->suffix || l->cond)
			marked_inside(p, l);
		for (j = 0; j < right.n; j++) {
			const struct pp_alt *r = right.v[j];
			struct pp_alt *seq = pp_alt_new(p);

			seq->comps = help_vec_cat(p, (struct vec){0}, l->comps);
			seq->comps = help_vec_cat(p, seq->comps, r->comps);
			seq->suffix = r->suffix;
			seq->cond = r->cond;
			vec_push(p->a, &out, seq);
		}
	}
	return out;
}

struct vec help_pp_union(struct parser *p, struct vec a, struct vec b)
{
	return help_vec_cat(p, a, b);
}

/* SUFFIX: 0, '?' or '!'; an alternative's own (from inside braces) may
 * not be written twice. */
struct vec help_pp_points(struct parser *p, struct loc loc, struct vec alts,
			  int suffix, struct exp *cond)
{
	struct vec out = {0};
	int i;

	for (i = 0; i < alts.n; i++) {
		const struct pp_alt *alt = alts.v[i];
		struct probe_point *pp = ast_probe_point(p->a, loc, alt->comps);
		int s = alt->suffix ? alt->suffix : suffix;

		if ((alt->suffix && suffix) || (alt->cond && cond))
			parse_error(p, loc, "parse.pp-suffix",
				    alt->cond && cond ? "condition respecified" :
				    "'?' or '!' respecified");
		pp->optional = s != 0;
		pp->sufficient = s == '!';
		pp->cond = alt->cond ? alt->cond : cond;
		vec_push(p->a, &out, pp);
	}
	return out;
}
