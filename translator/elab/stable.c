/* stable.c - calls to stable functions computed once per scope (pass 2).
 *
 * A tapset function whose embedded code has the "stable" pragma
 * (execname(), cpu(), uid(), …) returns the same value throughout a probe hit.  As
 * stap 4.8 does when optimizing, each call to one becomes a local
 * __stable_<C name>_value, assigned at the start of its scope: a probe's
 * or function's body, or a branch of an `if` (loops and try blocks are
 * not scopes of their own, so a call in a loop is made once).  A branch
 * reuses a value its enclosing scopes computed before it; the -p2
 * listing shows the result.  Runs after elab_optimize, before rescan
 * binds the new symbols.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"

struct scope {
	struct stmt **slot;	/* the scope's statement, to prepend to */
	struct vec calls;	/* struct exp *: a call each, for the
				   assignments, in the order found */
	struct vec names;	/* const char *: their locals' names */
	struct vec syms;	/* struct sym *: the locals */
	struct scope *up;
};

struct hoist {
	struct elab *el;
	struct vec *locals;	/* the probe's or function's */
	struct scope *scope;
};

static const char *local_name(struct hoist *h, const struct func *f)
{
	return arena_printf(h->el->s->arena, "__stable___global_%s__overload_0_value",
			    f->name);
}

static int in_scopes(const struct scope *sc, const char *name)
{
	int i;

	for (; sc; sc = sc->up)
		for (i = 0; i < sc->names.n; i++)
			if (!strcmp(sc->names.v[i], name))
				return 1;
	return 0;
}

static struct sym *local(struct hoist *h, const char *name,
			 const struct exp *call)
{
	struct sym *sym;
	int i;

	VEC_EACH(*h->locals, i, sym)
		if (!strcmp(sym->name, name))
			return sym;
	sym = ARENA_NEW(h->el->s->arena, struct sym);
	sym->kind = SYM_LOCAL;
	sym->name = name;
	sym->loc = call->loc;
	sym->type = call->u.call.func->type;
	sym->arity = 0;
	sym->index = h->locals->n;
	vec_push(h->el->s->arena, h->locals, sym);
	return sym;
}

/* A stable call becomes its local (the node shrinks to EX_SYM). */
static int visit_exp(struct walker *w, struct exp *e)
{
	struct hoist *h = w->arg;
	struct arena *a = h->el->s->arena;
	const struct func *f;
	const char *name;
	struct sym *sym;

	if (e->kind != EX_CALL || !(f = e->u.call.func) || !f->stable ||
	    e->u.call.args.n)
		return 0;
	name = local_name(h, f);
	sym = local(h, name, e);
	if (!in_scopes(h->scope, name)) {
		vec_push(a, &h->scope->calls, exp_clone(a, e));
		vec_push(a, &h->scope->names, (void *)name);
		vec_push(a, &h->scope->syms, sym);
	}
	e->kind = EX_SYM;
	e->u.sym.name = name;
	e->u.sym.sym = sym;
	return 1;
}

/* Each assignment goes first in turn, so the last found runs first. */
static void close_scope(struct hoist *h, struct scope *sc)
{
	struct arena *a = h->el->s->arena;
	struct stmt *st = *sc->slot, *as;
	struct exp *e;
	int i;

	if (!sc->calls.n)
		return;
	if (st->kind != ST_BLOCK) {
		struct stmt *b = ARENA_NEW(a, struct stmt);

		b->kind = ST_BLOCK;
		b->loc = st->loc;
		vec_push(a, &b->u.block, st);
		*sc->slot = st = b;
	}
	for (i = 0; i < sc->calls.n; i++) {
		struct exp *call = sc->calls.v[i];

		e = arena_alloc(a, ast_exp_size(EX_ASSIGN));
		e->kind = EX_ASSIGN;
		e->loc = call->loc;
		e->u.bin.op = OP_ASSIGN;
		e->u.bin.left = ARENA_NEW(a, struct exp);
		e->u.bin.left->kind = EX_SYM;
		e->u.bin.left->loc = call->loc;
		e->u.bin.left->u.sym.name = sc->names.v[i];
		e->u.bin.left->u.sym.sym = sc->syms.v[i];
		e->type = e->u.bin.left->type = call->type;
		e->u.bin.right = call;
		as = arena_alloc(a, ast_stmt_size(ST_EXP));
		as->kind = ST_EXP;
		as->loc = call->loc;
		as->u.exp = e;
		vec_push(a, &st->u.block, NULL);
		memmove(st->u.block.v + 1, st->u.block.v,
			sizeof(void *) * (size_t)(st->u.block.n - 1));
		st->u.block.v[0] = as;
	}
}

/* Returns how many assignments went first in the scope. */
static int hoist_scope(struct walker *w, struct stmt **slot)
{
	struct hoist *h = w->arg;
	struct scope sc = { .slot = slot, .up = h->scope };

	if (!*slot)
		return 0;
	h->scope = &sc;
	walk_slot(w, slot);
	h->scope = sc.up;
	close_scope(h, &sc);
	return sc.calls.n;
}

/* Each branch of an `if` is a scope of its own; a foreach's array (a
 * histogram's arguments) is left as written. */
static int visit_stmt(struct walker *w, struct stmt *st)
{
	int i;

	switch (st->kind) {
	case ST_IF:
		walk_exp(w, st->u.if_.cond);
		hoist_scope(w, &st->u.if_.then);
		hoist_scope(w, &st->u.if_.els);
		return 1;
	case ST_FOREACH:
		for (i = 0; i < st->u.foreach.slice.n; i++)
			walk_exp(w, st->u.foreach.slice.v[i]);
		walk_exp(w, st->u.foreach.limit);
		walk_slot(w, &st->u.foreach.body);
		return 1;
	default:
		return 0;
	}
}

void elab_hoist_stable(struct elab *el)
{
	struct program *p = el->prog;
	struct hoist h = { .el = el };
	struct walker w = { .exp = visit_exp, .stmt = visit_stmt, .arg = &h };
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(p->probes, i, dp) {
		if (dp->family->keeps_stable_calls)
			continue;
		h.locals = &dp->locals;
		dp->nstable = hoist_scope(&w, &dp->body);
	}
	VEC_EACH(p->funcs, i, f) {
		if (f->body->kind == ST_EMBEDDED)
			continue;
		h.locals = &f->info->locals;
		hoist_scope(&w, &f->body);
	}
}
