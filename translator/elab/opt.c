/* opt.c - the optimizations of pass 2 that change what a script does.
 *
 * stap removes code whose only effect is on variables nobody reads, and
 * scripts observe that: `x = 1/0` with x never read raises no error, and a
 * probe left empty is dropped (a script of only empty probes has "no
 * probes").  So this pass does the same, unless -u: assignments to locals
 * that are never read keep only their side effects, expression statements
 * without side effects go, then probes whose bodies are empty.  It repeats
 * until nothing changes (removing `y = x` may leave x unread).  Warnings
 * name what was elided, for the user's own code only.  Splitting an
 * unused value into its parts (reduce_void) happens with -u too.
 */
#include <string.h>

#include "ast/ast_new.h"
#include "ast/ast_walk.h"
#include "elab/elab.h"

struct opt {
	struct elab *el;
	int changed;
	struct vec *locals;	/* of the body being optimized */
	struct vec shown;	/* warning texts already printed */
	struct vec silent;	/* struct exp *: what was left of an
				   assignment elided without a warning */
};

/* Side effects of a function, as stap judges them: writing a global,
 * printing, embedded C that is not pure, or calling a function that has
 * side effects.  Writing its own locals does not count, and a function on
 * the current call path (recursion) counts as free of them. */
enum { FX_UNKNOWN, FX_BUSY, FX_NONE, FX_SOME };

static int func_side_effects(struct func *f);

static int lvalue_is_global(struct exp *e)
{
	if (e && e->kind == EX_INDEX)
		e = e->u.index.base;
	return !e || e->kind != EX_SYM || !e->u.sym.sym ||
	       e->u.sym.sym->kind == SYM_GLOBAL;
}

struct fx {
	int in_func;	/* writes to locals do not count */
	int found;
};

static int side_effect_visit(struct walker *w, struct exp *e)
{
	struct fx *fx = w->arg;
	struct func *f;

	switch (e->kind) {
	case EX_ASSIGN:
		if (!fx->in_func || lvalue_is_global(e->u.bin.left))
			fx->found = 1;
		return fx->found;
	case EX_PRE_INC: case EX_POST_INC:
		if (!fx->in_func || lvalue_is_global(e->u.un.operand))
			fx->found = 1;
		return fx->found;
	case EX_CALL:
		for (f = e->u.call.func; f; f = f->info ? f->info->next_overload : NULL)
			if (func_side_effects(f))
				fx->found = 1;
		if (!e->u.call.func)
			fx->found = 1;
		return fx->found;
	case EX_EMBEDDED: case EX_REGEX:
		fx->found = 1;
		return 1;
	case EX_PRINT:
		if (!e->u.print.to_string) {
			fx->found = 1;
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

static int side_effect_stmt(struct walker *w, struct stmt *st)
{
	struct fx *fx = w->arg;

	if (st->kind == ST_EMBEDDED ||
	    (st->kind == ST_DELETE && lvalue_is_global(st->u.exp)) ||
	    (st->kind == ST_FOREACH && st->u.foreach.value &&
	     lvalue_is_global(st->u.foreach.value)))
		fx->found = 1;
	return fx->found;
}

static int func_side_effects(struct func *f)
{
	struct fx fx = { .in_func = 1 };
	struct walker w = { .exp = side_effect_visit, .stmt = side_effect_stmt,
			    .arg = &fx };

	if (!f->info)
		return 1;
	switch (f->info->effects) {
	case FX_BUSY: case FX_NONE:
		return 0;
	case FX_SOME:
		return 1;
	default:
		break;
	}
	if (f->body->kind == ST_EMBEDDED) {
		f->info->effects = f->pure ? FX_NONE : FX_SOME;
		return !f->pure;
	}
	f->info->effects = FX_BUSY;
	walk_stmt(&w, f->body);
	f->info->effects = fx.found ? FX_SOME : FX_NONE;
	return fx.found;
}

static int has_side_effects(struct exp *e)
{
	struct fx fx = { 0 };
	struct walker w = { .exp = side_effect_visit, .arg = &fx };

	walk_exp(&w, e);
	return fx.found;
}

/* stap prints each distinct warning text once, unless -v. */
static int first_time(struct opt *o, const char *text)
{
	const char *seen;
	int i;

	if (o->el->s->verbose)
		return 1;
	VEC_EACH(o->shown, i, seen)
		if (!strcmp(seen, text))
			return 0;
	vec_push(o->el->s->arena, &o->shown, (void *)text);
	return 1;
}

static int user_code(struct loc loc)
{
	return loc.file && loc.file->is_user;
}

/* Mark which locals are read, as bind.c does: the target of `=` is
 * written, not read. */
static int read_visit(struct walker *w, struct exp *e)
{
	int i;

	if (e->kind == EX_SYM) {
		e->u.sym.sym->read = 1;
		return 0;
	}
	if (e->kind == EX_ASSIGN && (e->u.bin.op == OP_ASSIGN ||
				     e->u.bin.op == OP_APPEND)) {
		struct exp *l = e->u.bin.left;
		if (l->kind == EX_INDEX)
			for (i = 0; i < l->u.index.indexes.n; i++)
				walk_exp(w, l->u.index.indexes.v[i]);
		else if (l->kind != EX_SYM)
			walk_exp(w, l);
		walk_exp(w, e->u.bin.right);
		return 1;
	}
	return 0;
}

static void mark_reads(struct stmt *body, struct exp *cond, struct vec *locals)
{
	struct walker w = { .exp = read_visit };
	struct sym *sym;
	int i;

	VEC_EACH(*locals, i, sym)
		sym->read = 0;
	walk_stmt(&w, body);
	walk_exp(&w, cond);
}

static int unread_local(struct exp *lhs)
{
	return lhs->kind == EX_SYM && lhs->u.sym.sym->kind == SYM_LOCAL &&
	       !lhs->u.sym.sym->read && !lhs->u.sym.sym->is_foreach_key;
}

/* x = e with x an unread local: becomes e, or nothing at all. */
static int elide_assign(struct walker *w, struct exp *e)
{
	struct opt *o = w->arg;

	if (e->kind != EX_ASSIGN || !unread_local(e->u.bin.left))
		return 0;	/* x <<< v too: stap elides an unread local's */
	/* stap says nothing when folding took the reads away */
	if (e->u.bin.left->u.sym.sym->read_as_bound)
		vec_push(o->el->s->arena, &o->silent, e);
	else if (user_code(e->loc) &&
		 first_time(o, arena_printf(o->el->s->arena, "assign %s",
					    e->u.bin.left->u.sym.name)))
		diag_warning(&o->el->s->diags, e->loc, "opt.elide-assignment",
			     "Eliding assignment to '%s'",
			     e->u.bin.left->u.sym.name);
	*e = *e->u.bin.right;
	o->changed = 1;
	walk_exp(w, e);
	return 1;
}

static int is_silent(const struct opt *o, const struct exp *e)
{
	int i;

	for (i = 0; i < o->silent.n; i++)
		if (o->silent.v[i] == e)
			return 1;
	return 0;
}

static int empty_body(const struct stmt *st)
{
	int i;

	if (!st)
		return 1;
	if (st->kind == ST_NULL)
		return 1;
	if (st->kind != ST_BLOCK)
		return 0;
	for (i = 0; i < st->u.block.n; i++)
		if (!empty_body(st->u.block.v[i]))
			return 0;
	return 1;
}

/* A statement found to do nothing becomes ';'. */
static void drop_if(struct opt *o, struct stmt *st, int dead)
{
	if (dead) {
		st->kind = ST_NULL;
		o->changed = 1;
	}
}

static int elide_stmt(struct walker *w, struct stmt *st)
{
	struct opt *o = w->arg;
	struct walker aw = { .exp = elide_assign, .arg = o };

	switch (st->kind) {
	case ST_EXP:
		walk_exp(&aw, st->u.exp);
		if (!has_side_effects(st->u.exp)) {
			if (user_code(st->loc) && !is_silent(o, st->u.exp) &&
			    first_time(o, "expression"))
				diag_warning(&o->el->s->diags, st->loc,
					     "opt.elide-expression",
					     "Eliding side-effect-free expression");
			st->kind = ST_NULL;
			o->changed = 1;
		}
		return 1;
	case ST_IF:
		walk_exp(&aw, st->u.if_.cond);
		walk_stmt(w, st->u.if_.then);
		walk_stmt(w, st->u.if_.els);
		/* a literal condition (a folded @defined, say) keeps one
		 * branch, as a block: the node is no larger than that */
		if (st->u.if_.cond && st->u.if_.cond->kind == EX_NUM) {
			struct stmt *keep = st->u.if_.cond->u.num ?
				st->u.if_.then : st->u.if_.els;
			struct vec v = {0};

			if (keep)
				vec_push(o->el->s->arena, &v, keep);
			st->kind = ST_BLOCK;
			st->u.block = v;
			o->changed = 1;
			return 1;
		}
		/* nothing in either branch: only the condition is left */
		if (empty_body(st->u.if_.then) && empty_body(st->u.if_.els)) {
			struct exp *cond = st->u.if_.cond;

			if (has_side_effects(cond)) {
				st->kind = ST_EXP;
				st->u.exp = cond;
			} else {
				st->kind = ST_NULL;
			}
			o->changed = 1;
		}
		return 1;
	case ST_FOR:
		walk_exp(&aw, st->u.for_.init);
		walk_exp(&aw, st->u.for_.cond);
		walk_exp(&aw, st->u.for_.incr);
		walk_stmt(w, st->u.for_.body);
		drop_if(o, st, empty_body(st->u.for_.body) &&
			!has_side_effects(st->u.for_.init) &&
			!has_side_effects(st->u.for_.cond) &&
			!has_side_effects(st->u.for_.incr));
		return 1;
	case ST_FOREACH:
		walk_stmt(w, st->u.foreach.body);
		drop_if(o, st, empty_body(st->u.foreach.body) &&
			!has_side_effects(st->u.foreach.limit));
		return 1;
	case ST_TRY:
		walk_stmt(w, st->u.try_.body);
		walk_stmt(w, st->u.try_.handler);
		drop_if(o, st, empty_body(st->u.try_.body));
		return 1;
	case ST_RETURN:
		walk_exp(&aw, st->u.exp);
		break;
	default:
		break;
	}
	return 0;
}

/* In void context stap evaluates only the parts of an expression that
 * can do something, each as a statement of its own: a + b (any operator,
 * comparison or concatenation) as a; b;, -a as a;, a || b as if (!a) b,
 * a && b as if (a) b, c ? a : b as if (c) a else b, and a call to a
 * function free of side effects (or an sprint*) as its arguments.  It
 * does so before types are inferred and also with -u, so `"a" + 1;` is no
 * type error, and a global read only in such a statement (`k(g . "")`
 * with k pure) stays untyped.  Optimizing, it splits only statements that
 * have side effects (the others go whole), and what it leaves goes
 * without a warning. */
struct reducer {
	struct elab *el;
	struct opt *o;	/* NULL with -u */
	int changed;
};

static struct stmt *void_stmt(struct reducer *r, struct exp *e)
{
	if (r->o)
		vec_push(r->el->s->arena, &r->o->silent, e);
	return ast_exp_stmt(r->el->s->arena, ST_EXP, e->loc, e);
}

static int pure_call(struct exp *e)
{
	struct func *f;

	if (!e->u.call.func || !e->u.call.args.n)
		return 0;
	for (f = e->u.call.func; f; f = f->info ? f->info->next_overload : NULL)
		if (func_side_effects(f))
			return 0;
	return 1;
}

/* ST (an expression statement) split, or NULL when it stays. */
static struct stmt *split_void(struct reducer *r, struct stmt *st)
{
	struct arena *a = r->el->s->arena;
	struct exp *e = st->u.exp, *arg;
	struct vec v = {0};
	int i;

	switch (e->kind) {
	case EX_BINARY: case EX_CMP: case EX_CONCAT:
		vec_push(a, &v, void_stmt(r, e->u.bin.left));
		vec_push(a, &v, void_stmt(r, e->u.bin.right));
		break;
	case EX_UNARY:
		if (e->u.un.op == OP_ADDR)
			return NULL;
		vec_push(a, &v, void_stmt(r, e->u.un.operand));
		break;
	case EX_LOG_OR:
		return ast_if(a, st->loc, ast_unary(a, EX_UNARY, e->loc, OP_NOT,
						    e->u.bin.left),
			      void_stmt(r, e->u.bin.right), NULL);
	case EX_LOG_AND:
		return ast_if(a, st->loc, e->u.bin.left,
			      void_stmt(r, e->u.bin.right), NULL);
	case EX_TERNARY:
		return ast_if(a, st->loc, e->u.tern.cond,
			      void_stmt(r, e->u.tern.yes),
			      void_stmt(r, e->u.tern.no));
	case EX_CALL:
		if (!pure_call(e))
			return NULL;
		VEC_EACH(e->u.call.args, i, arg)
			vec_push(a, &v, void_stmt(r, arg));
		break;
	case EX_PRINT:
		if (!e->u.print.to_string)
			return NULL;
		VEC_EACH(e->u.print.args, i, arg)
			vec_push(a, &v, void_stmt(r, arg));
		break;
	default:
		return NULL;
	}
	return ast_block(a, st->loc, v);
}

/* The statements a split made split further, side effects or not. */
static void split_all(struct reducer *r, struct stmt **slot)
{
	struct stmt *n;
	int i;

	if (!*slot || (*slot)->kind != ST_EXP || !(n = split_void(r, *slot)))
		return;
	*slot = n;
	r->changed = 1;
	if (n->kind == ST_BLOCK) {
		for (i = 0; i < n->u.block.n; i++)
			split_all(r, (struct stmt **)&n->u.block.v[i]);
	} else {
		split_all(r, &n->u.if_.then);
		split_all(r, &n->u.if_.els);
	}
}

static void reduce_leave(struct walker *w, struct stmt **slot)
{
	struct reducer *r = w->arg;

	if ((*slot)->kind == ST_EXP &&
	    (!r->o || has_side_effects((*slot)->u.exp)))
		split_all(r, slot);
}

static int reduce_void(struct elab *el, struct opt *o)
{
	struct reducer r = { .el = el, .o = o };
	struct walker w = { .leave = reduce_leave, .arg = &r };
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp)
		walk_slot(&w, &dp->body);
	VEC_EACH(el->prog->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			walk_slot(&w, &f->body);
	return r.changed;
}

/* With -u this is all that pass 2 takes away; nonzero if it did. */
int elab_reduce_void(struct elab *el)
{
	return reduce_void(el, NULL);
}

/* Like stap, each round first elides the assignments to unread locals in
 * every probe and function, then the statements that do nothing. */
static void elide_assigns(struct opt *o, struct stmt *body, struct exp *cond,
			  struct vec *locals)
{
	struct walker w = { .exp = elide_assign, .arg = o };

	mark_reads(body, cond, locals);
	walk_stmt(&w, body);
}

static void elide_stmts(struct opt *o, struct stmt *body)
{
	struct walker w = { .stmt = elide_stmt, .arg = o };

	walk_stmt(&w, body);
}

/* Drop locals no longer mentioned anywhere. */
static int mention_visit(struct walker *w, struct exp *e)
{
	if (e->kind == EX_SYM && e->u.sym.sym->kind != SYM_GLOBAL)
		e->u.sym.sym->index = -1;	/* mentioned */
	return 0;
}

static void prune_locals(struct arena *a, struct vec *locals, struct stmt *body,
			 struct exp *cond)
{
	struct walker w = { .exp = mention_visit };
	struct vec kept = {0};
	struct sym *sym;
	int i;

	VEC_EACH(*locals, i, sym)
		sym->index = 0;
	walk_stmt(&w, body);
	walk_exp(&w, cond);
	VEC_EACH(*locals, i, sym)
		if (sym->index == -1) {
			sym->index = kept.n;
			vec_push(a, &kept, sym);
		}
	*locals = kept;
}

/* The functions in stap's order (its map of them): by name, stably. */
static struct vec funcs_by_name(struct arena *a, const struct vec *funcs)
{
	struct vec v = {0};
	struct func *f;
	int i, j;

	VEC_EACH(*funcs, i, f) {
		vec_push(a, &v, f);
		for (j = v.n - 1; j > 0 &&
		     strcmp(((struct func *)v.v[j - 1])->name, f->name) > 0; j--)
			v.v[j] = v.v[j - 1];
		v.v[j] = f;
	}
	return v;
}

void elab_optimize(struct elab *el)
{
	struct program *p = el->prog;
	struct opt o = { .el = el };
	struct derived_probe *dp;
	struct func *f;
	struct vec kept = {0}, by_name;
	int i, rounds = 0;

	if (el->s->unoptimized)
		return;
	by_name = funcs_by_name(el->s->arena, &p->funcs);
	do {
		o.changed = 0;
		VEC_EACH(p->probes, i, dp)
			elide_assigns(&o, dp->body, dp->cond, &dp->locals);
		VEC_EACH(by_name, i, f)
			if (f->body->kind != ST_EMBEDDED)
				elide_assigns(&o, f->body, NULL, &f->info->locals);
		VEC_EACH(p->probes, i, dp)
			elide_stmts(&o, dp->body);
		VEC_EACH(by_name, i, f) {
			if (f->body->kind == ST_EMBEDDED)
				continue;
			elide_stmts(&o, f->body);
			/* stap says so of a function left with nothing */
			if (empty_body(f->body) && user_code(f->loc) &&
			    first_time(&o, arena_printf(el->s->arena,
							"function %s", f->name)))
				diag_warning(&el->s->diags, f->loc,
					     "opt.side-effect-free-function",
					     "side-effect-free function '%s'",
					     f->name);
		}
		if (reduce_void(el, &o))
			o.changed = 1;
	} while (o.changed && ++rounds < 50);
	VEC_EACH(p->probes, i, dp) {
		prune_locals(el->s->arena, &dp->locals, dp->body, dp->cond);
		/* stap keeps an empty probe whose condition reads globals */
		if (empty_body(dp->body) &&
		    (!dp->cond || !elab_cond_reads_globals(dp->cond))) {
			const struct pp_comp *c = dp->comps.v[0];
			if (user_code(dp->elide_loc) &&
			    first_time(&o, arena_printf(el->s->arena, "probe %s", c->name)))
				diag_warning(&el->s->diags, dp->elide_loc, "opt.elide-probe",
					     "Probe '%s' has been elided",
					     c->name);
			continue;
		}
		dp->index = kept.n;
		vec_push(el->s->arena, &kept, dp);
	}
	p->probes = kept;
	VEC_EACH(p->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			prune_locals(el->s->arena, &f->info->locals, f->body, NULL);
}

/* @defined(e) is false unless e is a target expression ($var, @cast, …),
 * which the probe families decide on; stap 4.8 folds the rest to 0 (even
 * a plain variable), so their types are never needed.  Also with -u. */
static int fold_defined(struct walker *w, struct exp *e)
{
	(void)w;
	if (e->kind != EX_DEFINED || !e->u.op.operand)
		return 0;
	switch (e->u.op.operand->kind) {
	case EX_TARGET: case EX_TARGET_LIST: case EX_CAST: case EX_ATVAR:
	case EX_AUTOCAST: case EX_ENTRY: case EX_PERF: case EX_CONST:
	case EX_REGISTER: case EX_DEREF: case EX_PROBEWRITE:
		return 0;
	default:
		e->kind = EX_NUM;
		e->u.num = 0;
		return 1;
	}
}

static int is_num(const struct exp *e)
{
	return e && e->kind == EX_NUM;
}

static int is_str(const struct exp *e)
{
	return e && e->kind == EX_STR;
}

static void to_num(struct exp *e, int64_t v)
{
	e->kind = EX_NUM;
	e->type = TY_LONG;
	e->u.num = v;
}

static int num_is(const struct exp *e, int64_t v)
{
	return is_num(e) && e->u.num == v;
}

/* E becomes its operand X (x + 0, x * 1, x . ""): stap keeps X whatever
 * it does. */
static int fold_identity(struct exp *e, struct exp *l, struct exp *r)
{
	enum op op = e->u.bin.op;
	const struct op_info *o = &op_table[op];
	struct exp *x = NULL;

	if (e->kind == EX_CONCAT) {
		if (is_str(r) && !r->u.str.len)
			x = l;
		else if (is_str(l) && !l->u.str.len)
			x = r;
	} else if (e->kind == EX_BINARY) {
		if ((o->flags & OPF_IDENT_R) && num_is(r, o->ident))
			x = l;
		else if ((o->flags & OPF_IDENT_L) && num_is(l, o->ident))
			x = r;
	}
	if (!x)
		return 0;
	*e = *x;
	e->fold_type = op == OP_CAT ? TY_STRING : TY_LONG;
	return 1;
}

/* E becomes a number whatever its other operand is, when that operand
 * has no side effects (x * 0, x & 0, x | -1, x % 1, 0 << x, x && 0,
 * x || 1). */
static void fold_annihilator(struct exp *e, struct exp *l, struct exp *r)
{
	const struct op_info *o = &op_table[e->u.bin.op];
	struct exp *other;
	int64_t v;

	if (e->kind == EX_LOG_AND || e->kind == EX_LOG_OR) {
		int lit = e->kind == EX_LOG_OR;	/* the deciding truth */

		if (is_num(l) && !l->u.num == !lit) {
			to_num(e, lit);	/* the right side never runs */
			return;
		}
		if (is_num(r) && !r->u.num == !lit)
			other = l;
		else
			return;
		v = lit;
	} else if (e->kind != EX_BINARY) {
		return;
	} else {
		v = o->absorbed;
		other = (o->flags & OPF_ABSORB_R) && num_is(r, o->absorb) ? l :
			(o->flags & OPF_ABSORB_L) && num_is(l, o->absorb) ? r : NULL;
	}
	/* a string there is a type error stap reports ("foo" * 0) */
	if (other && !has_side_effects(other) && other->kind != EX_STR &&
	    other->kind != EX_CONCAT)
		to_num(e, v);
}

/* stap's constant folding of literal operands, after the children
 * (a probe condition is listed folded by -p2); under -u, where stap does
 * not optimize, x - 0 and x * 0 stay (their operand's type counts).  A node only ever becomes
 * a smaller kind: a number, or a string from a concatenation. */
static void fold_literals(struct elab *el, struct exp *e, int root)
{
	struct exp *l = NULL, *r = NULL;
	int64_t v;

	if (!e)
		return;
	switch (e->kind) {
	case EX_BINARY: case EX_CMP: case EX_CONCAT: case EX_LOG_AND:
	case EX_LOG_OR:
		fold_literals(el, l = e->u.bin.left, 0);
		fold_literals(el, r = e->u.bin.right, 0);
		break;
	case EX_UNARY:
		fold_literals(el, e->u.un.operand, 0);
		break;
	case EX_TERNARY:
		fold_literals(el, e->u.tern.cond, 0);
		fold_literals(el, e->u.tern.yes, 0);
		fold_literals(el, e->u.tern.no, 0);
		return;
	default:
		return;
	}
	if (root)	/* stap never replaces a condition's root */
		return;
	switch (e->kind) {
	case EX_UNARY:
		l = e->u.un.operand;
		if (!is_num(l))
			return;
		if (op_fold_unary(e->u.un.op, l->u.num, &v))
			to_num(e, v);
		return;
	case EX_BINARY:
		if (is_num(l) && is_num(r)) {
			if (op_fold_binary(e->u.bin.op, l->u.num, r->u.num, &v))
				to_num(e, v);
		} else if (!el->s->unoptimized && !fold_identity(e, l, r)) {
			fold_annihilator(e, l, r);
		}
		return;
	case EX_LOG_AND: case EX_LOG_OR:
		if (is_num(l) && is_num(r))
			to_num(e, e->kind == EX_LOG_AND ? l->u.num && r->u.num :
						       l->u.num || r->u.num);
		else if (!el->s->unoptimized)
			fold_annihilator(e, l, r);
		return;
	case EX_CMP:
		if (is_num(l) && is_num(r))
			to_num(e, op_fold_cmp(e->u.bin.op, l->u.num < r->u.num ? -1 :
							  l->u.num > r->u.num));
		else if (is_str(l) && is_str(r))
			to_num(e, op_fold_cmp(e->u.bin.op, strcmp(l->u.str.s, r->u.str.s)));
		return;
	case EX_CONCAT:
		if (fold_identity(e, l, r))
			return;
		if (is_str(l) && is_str(r)) {
			char *s = arena_alloc(el->s->arena, l->u.str.len + r->u.str.len + 1);
			const char *raw = arena_printf(el->s->arena, "%s%s",
				l->u.str.raw ? l->u.str.raw : l->u.str.s,
				r->u.str.raw ? r->u.str.raw : r->u.str.s);

			memcpy(s, l->u.str.s, l->u.str.len);
			memcpy(s + l->u.str.len, r->u.str.s, r->u.str.len);
			e->kind = EX_STR;
			e->type = TY_STRING;
			e->u.str.s = s;
			e->u.str.len = l->u.str.len + r->u.str.len;
			e->u.str.raw = raw;
		}
		return;
	default:
		return;
	}
}

/* ---- stap's constant folding in bodies, also with -u ---- */

/* c ? x : y with a literal c becomes x or y when that fits the node (a
 * literal or a variable). */
static void fold_ternary(struct exp *e)
{
	const struct exp *b;

	if (e->kind != EX_TERNARY || e->u.tern.cond->kind != EX_NUM)
		return;
	b = e->u.tern.cond->u.num ? e->u.tern.yes : e->u.tern.no;
	if (b->kind == EX_NUM || b->kind == EX_STR || b->kind == EX_SYM)
		memcpy(e, b, ast_exp_size(b->kind));
}

static int fold_visit(struct walker *w, struct exp *e)
{
	fold_literals(w->arg, e, 0);
	fold_ternary(e);
	return 0;
}

/* Of a foreach, only the limit folds (its array and slice stay as
 * written), then the body. */
static int fold_foreach(struct walker *w, struct stmt *st)
{
	if (st->kind != ST_FOREACH)
		return 0;
	walk_exp(w, st->u.foreach.limit);
	walk_slot(w, &st->u.foreach.body);
	return 1;
}

/* An `if` or a loop on a literal condition becomes what runs: the branch
 * taken, the loop's init (a statement of it), or a null statement. */
static void fold_branch(struct walker *w, struct stmt **slot)
{
	struct arena *a = ((struct elab *)w->arg)->s->arena;
	struct stmt *st = *slot, *keep;

	switch (st->kind) {
	case ST_IF:
		/* optimizing, stap first elides in both branches, with its
		 * warnings, then keeps one (elide_stmt) */
		if (st->u.if_.cond->kind != EX_NUM ||
		    !((struct elab *)w->arg)->s->unoptimized)
			return;
		keep = st->u.if_.cond->u.num ? st->u.if_.then : st->u.if_.els;
		break;
	case ST_FOR:
		if (!st->u.for_.cond || st->u.for_.cond->kind != EX_NUM ||
		    st->u.for_.cond->u.num)
			return;
		keep = NULL;
		if (st->u.for_.init) {
			keep = arena_alloc(a, ast_stmt_size(ST_EXP));
			keep->kind = ST_EXP;
			keep->loc = st->loc;
			keep->u.exp = st->u.for_.init;
		}
		break;
	default:
		return;
	}
	if (!keep) {
		keep = arena_alloc(a, ast_stmt_size(ST_NULL));
		keep->kind = ST_NULL;
		keep->loc = st->loc;
	}
	*slot = keep;
}

void elab_fold_defined(struct elab *el)
{
	struct walker w = { .exp = fold_defined };
	struct walker fw = { .exp = fold_visit, .stmt = fold_foreach,
			     .leave = fold_branch, .arg = el };
	struct derived_probe *dp;
	struct func *f;
	int i;

	struct file_ast *fa;
	struct probe *p;
	struct probe_point *pt;
	int j, k;

	VEC_EACH(el->prog->probes, i, dp) {
		walk_stmt(&w, dp->body);
		walk_exp(&w, dp->cond);
		fold_literals(el, dp->cond, 1);
		walk_slot(&fw, &dp->body);
	}
	VEC_EACH(el->prog->funcs, i, f) {
		walk_stmt(&w, f->body);
		walk_slot(&fw, &f->body);
	}
	/* the user's conditions as written, for the -p2 listing's
	 * "<- points" comments */
	VEC_EACH(el->s->user_files, i, fa)
		VEC_EACH(fa->probes, j, p)
			VEC_EACH(p->points, k, pt) {
				walk_exp(&w, pt->cond);
				fold_literals(el, pt->cond, 1);
			}
}
