/* aritycheck.c - one arity per variable, checked before the optimizer.
 *
 * stap checks how many indexes each variable takes while it resolves
 * symbols, before any code is dropped: `foo = 1` and `4 in foo` in a probe
 * the optimizer would elide are still an error.  Type inference (types.c)
 * owns sym->arity and checks it again on what is left; this walk only
 * compares the concrete uses it sees (a scalar use, N indexes) and keeps
 * its own table, so it changes nothing.  Runs after binding.
 */
#include "ast/ast_walk.h"
#include "elab/elab.h"

struct ause {
	struct sym *sym;
	int n;
	struct loc loc;
	int reported;	/* one message per variable */
};

struct acheck {
	struct elab *el;
	struct vec uses;	/* struct ause *: the first use per variable */
};

static void use(struct acheck *ac, struct exp *e, int n)
{
	struct sym *sym;
	struct ause *u;
	int i;

	if (!e || e->kind != EX_SYM)
		return;
	sym = e->u.sym.sym;
	VEC_EACH(ac->uses, i, u) {
		if (u->sym != sym)
			continue;
		if (u->n != n && !u->reported) {
			elab_arity_error(ac->el, sym, n, e->loc, u->n, u->loc);
			u->reported = 1;
		}
		return;
	}
	u = ARENA_NEW(ac->el->s->arena, struct ause);
	u->sym = sym;
	u->n = n;
	u->loc = e->loc;
	vec_push(ac->el->s->arena, &ac->uses, u);
}

static int check_exp(struct walker *w, struct exp *e)
{
	struct acheck *ac = w->arg;
	struct exp *ix;
	int i;

	switch (e->kind) {
	case EX_SYM:
		use(ac, e, 0);
		return 0;
	case EX_INDEX:
	case EX_IN:
		use(ac, e->kind == EX_IN ? e->u.index.in_array : e->u.index.base,
		    e->u.index.indexes.n);
		VEC_EACH(e->u.index.indexes, i, ix)
			walk_exp(w, ix);
		if (e->kind == EX_INDEX && e->u.index.base &&
		    e->u.index.base->kind != EX_SYM)
			walk_exp(w, e->u.index.base);
		if (e->kind == EX_IN && e->u.index.in_array &&
		    e->u.index.in_array->kind != EX_SYM)
			walk_exp(w, e->u.index.in_array);
		return 1;
	default:
		return 0;
	}
}

static int check_stmt(struct walker *w, struct stmt *st)
{
	struct acheck *ac = w->arg;
	struct exp *k;
	int i;

	if (st->kind == ST_DELETE && st->u.exp && st->u.exp->kind == EX_SYM)
		return 1;	/* delete arr: any arity */
	if (st->kind != ST_FOREACH)
		return 0;
	use(ac, st->u.foreach.array, st->u.foreach.keys.n);
	if (st->u.foreach.slice.n)
		use(ac, st->u.foreach.array, st->u.foreach.slice.n);
	VEC_EACH(st->u.foreach.keys, i, k)
		walk_exp(w, k);
	VEC_EACH(st->u.foreach.slice, i, k)
		walk_exp(w, k);
	walk_exp(w, st->u.foreach.value);
	walk_exp(w, st->u.foreach.limit);
	walk_stmt(w, st->u.foreach.body);
	return 1;
}

void elab_check_arity(struct elab *el)
{
	struct acheck ac = { .el = el };
	struct walker w = { .exp = check_exp, .stmt = check_stmt, .arg = &ac };
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp) {
		walk_stmt(&w, dp->body);
		walk_exp(&w, dp->cond);
	}
	VEC_EACH(el->prog->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			walk_stmt(&w, f->body);
}
