/* types.c - type inference and checking (pass 2).
 *
 * Types flow both ways between variables, array indexes and values,
 * function parameters and returns, until nothing changes; then one more
 * round reports every conflict with the place the type was first inferred,
 * and every variable whose type stayed unknown.  Writes exp->type,
 * sym->type/arity/index_types and func->type; nothing else.
 */
#include "ast/ast_walk.h"
#include "elab/elab.h"
#include "elab/regexcheck.h"

const char *elab_type_name(enum type t)
{
	static const char *const names[] = {
		[TY_UNKNOWN] = "unknown", [TY_LONG] = "long",
		[TY_STRING] = "string", [TY_STATS] = "stats",
		[TY_VOID] = "unknown",
	};
	return names[t];
}

static void mismatch(struct elab *el, struct loc loc, const char *what,
		     enum type have, enum type want, struct loc first)
{
	if (!el->report)
		return;
	diag_error(&el->s->diags, loc, "sema.type-mismatch",
		   "type mismatch: %s is %s here, but %s elsewhere", what,
		   elab_type_name(want), elab_type_name(have));
	if (first.file)
		diag_note(&el->s->diags, first, "type was first inferred here (%s)",
			  elab_type_name(have));
}

/* Unify *SLOT (with its first-inference location) with T seen at LOC. */
static void unify(struct elab *el, enum type *slot, struct loc *slot_loc,
		  enum type t, struct loc loc, const char *what)
{
	if (t == TY_UNKNOWN || t == TY_VOID)
		return;
	if (*slot == TY_UNKNOWN) {
		*slot = t;
		*slot_loc = loc;
		el->changed = 1;
	} else if (*slot != t) {
		mismatch(el, loc, what, *slot, t, *slot_loc);
	}
}

static const char *sym_what(struct elab *el, struct sym *sym)
{
	return arena_printf(el->s->arena, "'%s'", sym->name);
}

static void set_arity(struct elab *el, struct sym *sym, int n, struct loc loc)
{
	if (sym->arity == -1 || (sym->arity == -2 && n > 0)) {
		sym->arity = n;
		sym->arity_loc = loc;
		el->changed = 1;
	} else if (sym->arity == -2 && n == 0) {
		if (el->report)
			diag_error(&el->s->diags, loc, "sema.arity",
				   "'%s' is declared as an array but used as a scalar",
				   sym->name);
	} else if (sym->arity >= 0 && sym->arity != n && el->report) {
		elab_arity_error(el, sym, n, loc, sym->arity, sym->arity_loc);
	}
}

void elab_arity_error(struct elab *el, const struct sym *sym, int n,
		      struct loc loc, int first, struct loc first_loc)
{
	diag_error(&el->s->diags, loc, "sema.arity",
		   "inconsistent arity (%d vs %d)", first, n);
	diag_note(&el->s->diags, first_loc, "arity %d first inferred here",
		  first);
}

static enum type infer(struct elab *el, struct exp *e, enum type want);

static void set_exp_type(struct exp *e, enum type t)
{
	if (t != TY_UNKNOWN)
		e->type = t;
}

/* An array reference: EX_SYM naming an array with N index expressions. */
static enum type infer_array(struct elab *el, struct exp *base,
			     struct vec *idx, enum type want)
{
	struct sym *sym;
	int i;

	if (!base)
		return TY_UNKNOWN;
	if (base->kind == EX_HIST) {
		infer(el, base, TY_UNKNOWN);
		for (i = 0; i < idx->n; i++)
			infer(el, idx->v[i], TY_LONG);
		return TY_LONG;
	}
	if (base->kind != EX_SYM)
		return infer(el, base, want);
	sym = base->u.sym.sym;
	if (sym->kind != SYM_GLOBAL && el->report) {
		diag_error(&el->s->diags, base->loc, "sema.local-array",
			   "unresolved arity-%d global array %s, missing global declaration?",
			   idx->n, sym->name);
		return TY_UNKNOWN;
	}
	set_arity(el, sym, idx->n, base->loc);
	for (i = 0; i < idx->n && i < MAX_ARITY; i++) {
		struct exp *ix = idx->v[i];
		struct loc dummy = ix ? ix->loc : base->loc;
		enum type t;
		if (!ix)
			continue;
		t = infer(el, ix, TY_UNKNOWN);
		if (t == TY_UNKNOWN)
			t = infer(el, ix, sym->index_types[i]);
		if (t == TY_STATS && el->report)
			diag_error(&el->s->diags, ix->loc, "sema.stats-index",
				   "an aggregate cannot be an array index");
		else if (sym->index_types[i] == TY_UNKNOWN && t != TY_UNKNOWN) {
			sym->index_types[i] = t;
			sym->index_locs[i] = dummy;
			el->changed = 1;
		} else if (t != TY_UNKNOWN && t != sym->index_types[i] && el->report) {
			diag_error(&el->s->diags, dummy, "sema.type-mismatch",
				   "type mismatch: index %d of '%s' is %s here, but %s elsewhere",
				   i + 1, sym->name, elab_type_name(t),
				   elab_type_name(sym->index_types[i]));
			if (sym->index_locs[i].file)
				diag_note(&el->s->diags, sym->index_locs[i],
					  "type of index %d was first inferred here (%s)",
					  i + 1, elab_type_name(sym->index_types[i]));
		}
	}
	unify(el, &sym->type, &sym->type_loc, want, base->loc, sym_what(el, sym));
	set_exp_type(base, sym->type);
	return sym->type;
}

static enum type infer_sym(struct elab *el, struct exp *e, enum type want)
{
	struct sym *sym = e->u.sym.sym;

	set_arity(el, sym, 0, e->loc);
	unify(el, &sym->type, &sym->type_loc, want, e->loc, sym_what(el, sym));
	if (el->report && !el->unreached && sym->type == TY_UNKNOWN &&
	    !sym->use_loc.file)
		sym->use_loc = e->loc;
	return sym->type;
}

static void stats_as_value(struct elab *el, struct exp *e)
{
	if (el->report)
		diag_error(&el->s->diags, e->loc, "sema.stats-value",
			   "an aggregate cannot be used as a value: extract one with @count, @sum, @min, @max, @avg or @variance");
}

static enum type infer_compare(struct elab *el, struct exp *e);

static enum type infer_assign(struct elab *el, struct exp *e, enum type want)
{
	enum op op = e->u.bin.op;
	struct exp *l = e->u.bin.left, *r = e->u.bin.right;
	enum type lt, rt;

	if (op == OP_APPEND) {
		infer(el, l, TY_STATS);
		infer(el, r, TY_LONG);
		return TY_LONG;
	}
	if (op == OP_CAT_ASSIGN) {
		infer(el, l, TY_STRING);
		infer(el, r, TY_STRING);
		return TY_STRING;
	}
	if (op != OP_ASSIGN) {
		infer(el, l, TY_LONG);
		infer(el, r, TY_LONG);
		return TY_LONG;
	}
	/* the value first, so that a conflict is reported at the variable
	 * with the place its type came from */
	rt = infer(el, r, TY_UNKNOWN);
	if (rt == TY_STATS) {
		/* the variable is not made an aggregate by this */
		stats_as_value(el, r);
		return infer(el, l, TY_UNKNOWN);
	}
	lt = infer(el, l, rt != TY_UNKNOWN ? rt : want);
	if (rt == TY_UNKNOWN && lt != TY_UNKNOWN)
		infer(el, r, lt);
	return lt;
}

/* Both sides of a comparison have one type, long or string; an aggregate
 * is reported as a mismatch with where it became one. */
static enum type infer_compare(struct elab *el, struct exp *e)
{
	struct exp *l = e->u.bin.left, *r = e->u.bin.right;
	enum type lt = infer(el, l, TY_UNKNOWN), rt = infer(el, r, TY_UNKNOWN);

	if (lt == TY_STATS || rt == TY_STATS) {
		if (lt == TY_STATS)
			infer(el, l, rt == TY_STATS || rt == TY_UNKNOWN ? TY_LONG : rt);
		if (rt == TY_STATS)
			infer(el, r, lt == TY_STATS || lt == TY_UNKNOWN ? TY_LONG : lt);
	} else if (lt == TY_UNKNOWN && rt != TY_UNKNOWN) {
		infer(el, l, rt);
	} else if (rt == TY_UNKNOWN && lt != TY_UNKNOWN) {
		infer(el, r, lt);
	} else if (lt != rt && el->report) {
		diag_error(&el->s->diags, e->loc, "sema.type-mismatch",
			   "type mismatch: comparing a %s with a %s",
			   elab_type_name(lt), elab_type_name(rt));
	}
	return TY_LONG;
}

static void infer_args_call(struct elab *el, struct exp *e)
{
	struct func *f = e->u.call.func, *g;
	int i;

	for (i = 0; i < e->u.call.args.n; i++) {
		struct exp *a = e->u.call.args.v[i];
		enum type t = infer(el, a, TY_UNKNOWN);
		if (t == TY_UNKNOWN && f && f->info)
			t = infer(el, a, ((struct sym *)f->info->params.v[i])->type);
		for (g = f; g && g->info; g = g->info->next_overload) {
			struct sym *p = g->info->params.v[i];
			unify(el, &p->type, &p->type_loc, t, a->loc,
			      arena_printf(el->s->arena, "argument %d of '%s'", i + 1,
					   g->name));
		}
	}
}

static int want_is_known(enum type t)
{
	return t != TY_UNKNOWN && t != TY_VOID;
}

static enum type infer_call(struct elab *el, struct exp *e, enum type want)
{
	struct func *f = e->u.call.func, *g;

	infer_args_call(el, e);
	if (!f)
		return TY_UNKNOWN;
	for (g = f; g && g->info; g = g->info->next_overload)
		if (want != TY_VOID)
			unify(el, &g->type, &g->type_loc, want, e->loc,
			      arena_printf(el->s->arena, "the value of '%s'", g->name));
	/* the overloads of one call return one value: share its type */
	for (g = f; g && g->info; g = g->info->next_overload)
		if (g->type != TY_UNKNOWN && g->type != TY_VOID && !want_is_known(want))
			want = g->type;
	for (g = f; g && g->info && want_is_known(want); g = g->info->next_overload)
		unify(el, &g->type, &g->type_loc, want, e->loc,
		      arena_printf(el->s->arena, "the value of '%s'", g->name));
	return f->type != TY_UNKNOWN ? f->type : want_is_known(want) ? want : f->type;
}

static enum type infer_print(struct elab *el, struct exp *e)
{
	int i;

	for (i = 0; i < e->u.print.args.n; i++) {
		struct exp *a = e->u.print.args.v[i];
		enum type want = TY_UNKNOWN;
		if (i < e->u.print.directives.n)
			want = (enum type)(intptr_t)e->u.print.directives.v[i];
		infer(el, a, want);
		/* a call whose value nothing types: a function returning
		 * nothing, or embedded C without a declared type */
		if (el->report && !el->unreached && a->kind == EX_CALL &&
		    (a->type == TY_UNKNOWN || a->type == TY_VOID))
			diag_error(&el->s->diags, a->loc, "sema.unresolved-type",
				   "cannot infer the type of the value of '%s'",
				   a->u.call.name);
		if (el->report && a->type == TY_STATS && a->kind != EX_HIST)
			diag_error(&el->s->diags, a->loc, "sema.print-stats",
				   "an aggregate cannot be printed directly: use @count, @sum, … or @hist_*");
	}
	if (e->u.print.delim)
		infer(el, e->u.print.delim, TY_STRING);
	return e->u.print.to_string ? TY_STRING : TY_VOID;
}

static enum type infer_stat(struct elab *el, struct exp *e)
{
	if (e->kind == EX_HIST) {
		infer(el, e->u.hist.stat, TY_STATS);
		infer(el, e->u.hist.lo, TY_LONG);
		infer(el, e->u.hist.hi, TY_LONG);
		infer(el, e->u.hist.step, TY_LONG);
		return TY_STATS;
	}
	infer(el, e->u.stat.stat, TY_STATS);
	infer(el, e->u.stat.shift, TY_LONG);
	if (el->report && e->u.stat.shift) {
		const struct exp *n = e->u.stat.shift;
		int neg = n->kind == EX_UNARY;
		int64_t v;

		if (neg)
			n = n->u.un.operand;
		v = n->kind == EX_NUM ? (neg ? -n->u.num : n->u.num) : 0;
		if (v < 0 || v > 62)
			diag_error(&el->s->diags, e->loc, "sema.variance-shift",
				   "bit shift (%lld) out of range <0..62>",
				   (long long)v);
	}
	return TY_LONG;
}

/* Target variables and @cast: their families typed them (pass 2,
 * targets.c); index expressions and @cast's address are longs. */
static enum type infer_target(struct elab *el, struct exp *e)
{
	struct vec *comps = e->kind == EX_CAST || e->kind == EX_ATVAR ||
			    e->kind == EX_AUTOCAST ?
			    &e->u.op.comps : &e->u.target.comps;
	struct target_comp *c;
	int i;

	if (e->kind == EX_CAST || e->kind == EX_AUTOCAST)
		infer(el, e->u.op.operand, TY_LONG);
	VEC_EACH(*comps, i, c)
		if (c->kind == TC_INDEX_EXP)
			infer(el, c->index, TY_LONG);
	/* a $var its family could not resolve has no type (-L shows a
	 * variable set from it as "unknown", as stap does); only these two
	 * kinds have u.target */
	if ((e->kind == EX_TARGET || e->kind == EX_TARGET_LIST) &&
	    e->u.target.unresolved)
		return TY_UNKNOWN;
	/* nor has a @cast that did not resolve (its type or member not
	 * found, no module), or one without a member (the struct itself,
	 * an error if kept) */
	if (e->kind == EX_CAST &&
	    (!e->u.op.resolved || (!e->u.op.comps.n && !e->u.op.addr_of)))
		return TY_UNKNOWN;
	return e->type != TY_UNKNOWN ? e->type : TY_LONG;
}

static enum type infer_kind(struct elab *el, struct exp *e, enum type want)
{
	enum type t;

	switch (e->kind) {
	case EX_NUM:
		return TY_LONG;
	case EX_STR:
		return TY_STRING;
	case EX_EMBEDDED:
		return want == TY_STRING ? TY_STRING : TY_LONG;
	case EX_BINARY: case EX_LOG_OR: case EX_LOG_AND:
		/* stap shifts unsigned at run time, but its folding has
		 * no >>> for two literals */
		if (el->report && e->u.bin.op == OP_USHR &&
		    e->u.bin.left->kind == EX_NUM && e->u.bin.right->kind == EX_NUM)
			diag_error(&el->s->diags, e->loc, "sema.unsupported-operator",
				   "unsupported binary operator >>>");
		infer(el, e->u.bin.left, TY_LONG);
		infer(el, e->u.bin.right, TY_LONG);
		return TY_LONG;
	case EX_UNARY: case EX_PRE_INC: case EX_POST_INC:
		infer(el, e->u.un.operand, TY_LONG);
		return TY_LONG;
	case EX_CONCAT:
		infer(el, e->u.bin.left, TY_STRING);
		infer(el, e->u.bin.right, TY_STRING);
		return TY_STRING;
	case EX_REGEX:
		infer(el, e->u.bin.left, TY_STRING);
		infer(el, e->u.bin.right, TY_STRING);
		if (el->report)
			regex_check(&el->s->diags, e);
		return TY_LONG;
	case EX_CMP:
		return infer_compare(el, e);
	case EX_TERNARY:
		infer(el, e->u.tern.cond, TY_LONG);
		t = infer(el, e->u.tern.yes, want);
		if (t == TY_UNKNOWN)
			t = infer(el, e->u.tern.no, want);
		infer(el, e->u.tern.no, t);
		infer(el, e->u.tern.yes, t);
		return t;
	case EX_ASSIGN:
		return infer_assign(el, e, want);
	case EX_SYM:
		return infer_sym(el, e, want);
	case EX_INDEX:
		return infer_array(el, e->u.index.base, &e->u.index.indexes, want);
	case EX_IN:
		infer_array(el, e->u.index.in_array, &e->u.index.indexes,
			    TY_UNKNOWN);
		return TY_LONG;
	case EX_CALL:
		return infer_call(el, e, want);
	case EX_PRINT:
		return infer_print(el, e);
	case EX_STAT: case EX_HIST:
		return infer_stat(el, e);
	case EX_DEFINED: case EX_PROBEWRITE:
		return TY_LONG;
	case EX_TARGET: case EX_TARGET_LIST: case EX_CAST: case EX_ATVAR:
	case EX_AUTOCAST:
		return infer_target(el, e);
	default:
		/* target variables and friends: their families type them */
		return e->type != TY_UNKNOWN ? e->type : TY_LONG;
	}
}

static enum type infer(struct elab *el, struct exp *e, enum type want)
{
	enum type t;

	if (!e)
		return TY_UNKNOWN;
	if (e->fold_type && (want == TY_UNKNOWN || want == TY_VOID))
		want = e->fold_type;	/* what the folded operator implied */
	t = infer_kind(el, e, want);
	if (want != TY_UNKNOWN && want != TY_VOID && t != TY_UNKNOWN &&
	    t != TY_VOID && t != want && e->kind != EX_SYM &&
	    e->kind != EX_INDEX && el->report)
		diag_error(&el->s->diags, e->loc, "sema.type-mismatch",
			   "type mismatch: expected %s, but this expression is %s",
			   elab_type_name(want), elab_type_name(t));
	set_exp_type(e, t);
	return t;
}

struct tctx {
	struct elab *el;
	struct func *func;	/* the function whose body this is, or NULL */
};

static void infer_foreach(struct elab *el, struct stmt *st)
{
	struct exp *arr = st->u.foreach.array;
	struct sym *sym;
	int i;

	if (arr && arr->kind == EX_HIST) {
		if (st->u.foreach.keys.n != 1 && el->report)
			diag_error(&el->s->diags, st->loc, "sema.hist-foreach-keys",
				   "a 'foreach' over a histogram takes one index, the bucket");
		infer(el, arr, TY_UNKNOWN);
		for (i = 0; i < st->u.foreach.keys.n; i++)
			infer(el, st->u.foreach.keys.v[i], TY_LONG);
		infer(el, st->u.foreach.value, TY_LONG);	/* a bucket's count */
		infer(el, st->u.foreach.limit, TY_LONG);
		return;
	}
	if (!arr || arr->kind != EX_SYM)
		return;
	sym = arr->u.sym.sym;
	if (sym->kind != SYM_GLOBAL) {
		if (el->report)
			diag_error(&el->s->diags, arr->loc, "sema.local-array",
				   "unresolved arity-%d global array %s, missing global declaration?",
				   st->u.foreach.keys.n, sym->name);
		return;
	}
	set_arity(el, sym, st->u.foreach.keys.n, arr->loc);
	if (st->u.foreach.slice.n)	/* arr[*, *]: as many as the keys */
		set_arity(el, sym, st->u.foreach.slice.n, arr->loc);
	if (st->u.foreach.sort_stat && el->report && sym->type != TY_STATS &&
	    sym->type != TY_UNKNOWN)
		diag_error(&el->s->diags, arr->loc, "sema.foreach-sort-stat",
			   "'%s' is sorted by @%s, but it is an array of %s values, not of aggregates",
			   sym->name, st->u.foreach.sort_stat, elab_type_name(sym->type));
	for (i = 0; i < st->u.foreach.keys.n && i < MAX_ARITY; i++) {
		struct exp *k = st->u.foreach.keys.v[i];
		enum type t = infer(el, k, sym->index_types[i]);
		if (sym->index_types[i] == TY_UNKNOWN && t != TY_UNKNOWN) {
			sym->index_types[i] = t;
			el->changed = 1;
		}
	}
	for (i = 0; i < st->u.foreach.slice.n && i < MAX_ARITY; i++)
		if (st->u.foreach.slice.v[i])
			infer(el, st->u.foreach.slice.v[i], sym->index_types[i]);
	if (st->u.foreach.value) {
		enum type vt = sym->type == TY_STATS ? TY_UNKNOWN : sym->type;
		enum type t = infer(el, st->u.foreach.value, vt);
		if (vt == TY_UNKNOWN && t != TY_UNKNOWN && sym->type == TY_UNKNOWN)
			unify(el, &sym->type, &sym->type_loc, t,
			      st->u.foreach.value->loc, sym_what(el, sym));
	}
	infer(el, st->u.foreach.limit, TY_LONG);
}

/* A 'return' without a value in a function that has one (from another
 * return, its declaration or a caller's use) is stap's type mismatch. */
static void bare_return(struct elab *el, struct func *f, struct loc loc)
{
	if (!el->report || (f->type != TY_LONG && f->type != TY_STRING))
		return;
	diag_error(&el->s->diags, loc, "sema.type-mismatch",
		   "type mismatch: 'return' without a value in '%s', whose value is %s",
		   f->name, elab_type_name(f->type));
	if (f->type_loc.file)
		diag_note(&el->s->diags, f->type_loc, "type was first inferred here (%s)",
			  elab_type_name(f->type));
}

static int infer_stmt(struct walker *w, struct stmt *st)
{
	struct tctx *tc = w->arg;
	struct elab *el = tc->el;
	struct func *f = tc->func;
	struct exp *e;

	switch (st->kind) {
	case ST_EXP:
		infer(el, st->u.exp, TY_VOID);
		return 1;
	case ST_IF:
		infer(el, st->u.if_.cond, TY_LONG);
		walk_stmt(w, st->u.if_.then);
		walk_stmt(w, st->u.if_.els);
		return 1;
	case ST_FOR:
		infer(el, st->u.for_.init, TY_VOID);
		infer(el, st->u.for_.cond, TY_LONG);
		infer(el, st->u.for_.incr, TY_VOID);
		walk_stmt(w, st->u.for_.body);
		return 1;
	case ST_RETURN:
		e = st->u.exp;
		if (!f)		/* parse.return-outside-function */
			return 1;
		if (e) {
			enum type t = infer(el, e, TY_UNKNOWN);
			if (t == TY_UNKNOWN)
				t = infer(el, e, f->type);
			unify(el, &f->type, &f->type_loc, t, e->loc,
			      arena_printf(el->s->arena, "the value of '%s'", f->name));
		} else {
			bare_return(el, f, st->loc);
		}
		return 1;
	case ST_DELETE:
		e = st->u.exp;
		if (e && e->kind == EX_SYM && e->u.sym.sym->arity < 0 &&
		    e->u.sym.sym->kind == SYM_GLOBAL)
			return 1;	/* delete of a whole array: arity from elsewhere */
		if (e && e->kind == EX_SYM)
			return 1;
		infer(el, e, TY_UNKNOWN);
		return 1;
	case ST_FOREACH:
		infer_foreach(el, st);
		walk_stmt(w, st->u.foreach.body);
		return 1;
	case ST_TRY:
		walk_stmt(w, st->u.try_.body);
		/* as in stap, the message types the variable only when it is
		 * read: an unused catch variable has no type */
		if (st->u.try_.catch_var && st->u.try_.catch_var->u.sym.sym &&
		    st->u.try_.catch_var->u.sym.sym->read)
			infer(el, st->u.try_.catch_var, TY_STRING);
		walk_stmt(w, st->u.try_.handler);
		return 1;
	default:
		break;
	}
	return 0;
}

static int infer_exp_stmt(struct walker *w, struct exp *e)
{
	struct tctx *tc = w->arg;

	infer(tc->el, e, TY_UNKNOWN);
	return 1;
}

static void infer_body(struct elab *el, struct stmt *body, struct exp *cond,
		       struct func *f)
{
	struct tctx tc = { el, f };
	struct walker w = { .exp = infer_exp_stmt, .stmt = infer_stmt, .arg = &tc };

	walk_stmt(&w, body);
	if (cond)
		infer(el, cond, TY_LONG);
}

static void infer_all(struct elab *el)
{
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp)
		infer_body(el, dp->body, dp->cond, NULL);
	VEC_EACH(el->prog->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED) {
			el->unreached = !f->used;
			infer_body(el, f->body, NULL, f);
			el->unreached = 0;
		}
}

static void check_sym(struct elab *el, struct sym *sym)
{
	if (sym->kind == SYM_GLOBAL && sym->decl && sym->decl->wrap &&
	    sym->arity == 0)
		diag_error(&el->s->diags, sym->decl->loc, "sema.wrap-scalar",
			   "wrapping not supported for scalars: '%s' is declared with %% but used as a scalar",
			   sym->name);
	if (!sym->read && !sym->written)
		return;
	if (sym->type == TY_UNKNOWN)
		diag_error(&el->s->diags, sym->use_loc.file ? sym->use_loc : sym->loc,
			   "sema.unresolved-type",
			   "cannot infer the type of '%s'", sym->name);
	else if (sym->type == TY_STATS && sym->kind != SYM_GLOBAL)
		diag_error(&el->s->diags, sym->loc, "sema.local-stats",
			   "stat locals not supported, missing global declaration?");
}

void elab_infer_types(struct elab *el)
{
	struct derived_probe *dp;
	struct func *f;
	struct sym *sym;
	int i, j, rounds = 0;

	do {
		el->changed = 0;
		infer_all(el);
	} while (el->changed && ++rounds < 100);
	el->report = 1;
	infer_all(el);
	VEC_EACH(el->prog->globals, i, sym)
		check_sym(el, sym);
	VEC_EACH(el->prog->probes, i, dp)
		VEC_EACH(dp->locals, j, sym)
			check_sym(el, sym);
	VEC_EACH(el->prog->funcs, i, f) {
		if (!f->used)
			continue;	/* -u: no longer called (elaborate.c) */
		VEC_EACH(f->info->params, j, sym)
			check_sym(el, sym);
		VEC_EACH(f->info->locals, j, sym)
			check_sym(el, sym);
	}
}

/* Infer what can be inferred, report nothing (--dump-functions). */
void elab_infer_types_quietly(struct elab *el)
{
	int rounds = 0;

	do {
		el->changed = 0;
		infer_all(el);
	} while (el->changed && ++rounds < 100);
}
