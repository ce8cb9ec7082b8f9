/* foreachcheck.c - no array may change while a foreach iterates it.
 *
 * stap 4.8 rejects, inside `foreach (k in a)`, any store into a: a[k] = v,
 * a[k]++, a[k] <<< v, delete a[k] (deleting the whole array is allowed),
 * and any call to a function that itself stores into a.  Runs after type
 * inference on what the probes reach.
 */
#include "ast/ast_walk.h"
#include "elab/elab.h"

struct fcheck {
	struct elab *el;
	struct vec iterating;	/* struct exp *: the foreach arrays (EX_SYM)
				   enclosing the current point */
};

static struct sym *array_sym(struct exp *e)
{
	if (e && e->kind == EX_INDEX)
		e = e->u.index.base;
	if (e && e->kind == EX_SYM && e->u.sym.sym &&
	    e->u.sym.sym->kind == SYM_GLOBAL)
		return e->u.sym.sym;
	return NULL;
}

/* The foreach array expression iterating SYM, or NULL. */
static struct exp *iterated(struct fcheck *fc, struct sym *sym)
{
	struct exp *arr;
	int i;

	if (!sym)
		return NULL;
	VEC_EACH(fc->iterating, i, arr)
		if (arr->u.sym.sym == sym)
			return arr;
	return NULL;
}

static void modified(struct fcheck *fc, struct exp *lv)
{
	struct sym *sym = array_sym(lv);
	struct exp *arr = iterated(fc, sym);
	struct exp *at = lv->kind == EX_INDEX ? lv->u.index.base : lv;

	if (!arr)
		return;
	diag_error(&fc->el->s->diags, at->loc, "sema.foreach-modified",
		   "variable '%s' modified during 'foreach' iteration", sym->name);
	diag_note(&fc->el->s->diags, arr->loc, "the 'foreach' over '%s' is here",
		  sym->name);
}

/* Does F (or an overload tried after it) store into SYM itself?  stap 4.8
 * looks no further: a store made by a function F calls is not caught. */
static int func_writes(struct func *f, struct sym *sym)
{
	int i;

	for (; f && f->info; f = f->info->next_overload)
		for (i = 0; i < f->info->globals_written.n; i++)
			if (f->info->globals_written.v[i] == sym)
				return 1;
	return 0;
}

static void check_call(struct fcheck *fc, struct exp *e)
{
	struct exp *arr;
	int i;

	if (!e->u.call.func)
		return;
	VEC_EACH(fc->iterating, i, arr) {
		struct sym *sym = arr->u.sym.sym;

		if (!func_writes(e->u.call.func, sym))
			continue;
		diag_error(&fc->el->s->diags, e->loc, "sema.foreach-modified",
			   "function call modifies var '%s' during 'foreach' iteration",
			   sym->name);
		diag_note(&fc->el->s->diags, arr->loc, "the 'foreach' over '%s' is here",
			  sym->name);
	}
}

static int check_exp(struct walker *w, struct exp *e)
{
	struct fcheck *fc = w->arg;

	switch (e->kind) {
	case EX_ASSIGN:
		if (e->u.bin.left->kind == EX_INDEX)
			modified(fc, e->u.bin.left);
		break;
	case EX_PRE_INC: case EX_POST_INC:
		if (e->u.un.operand->kind == EX_INDEX)
			modified(fc, e->u.un.operand);
		break;
	case EX_CALL:
		check_call(fc, e);
		break;
	default:
		break;
	}
	return 0;
}

static int check_stmt(struct walker *w, struct stmt *st)
{
	struct fcheck *fc = w->arg;
	struct exp *arr;
	int n;

	if (st->kind == ST_DELETE && st->u.exp && st->u.exp->kind == EX_INDEX)
		modified(fc, st->u.exp);
	if (st->kind != ST_FOREACH)
		return 0;
	arr = st->u.foreach.array;
	walk_exp(w, st->u.foreach.limit);
	for (n = 0; n < st->u.foreach.slice.n; n++)
		walk_exp(w, st->u.foreach.slice.v[n]);
	n = fc->iterating.n;
	if (arr && arr->kind == EX_SYM && arr->u.sym.sym &&
	    arr->u.sym.sym->kind == SYM_GLOBAL)
		vec_push(fc->el->s->arena, &fc->iterating, arr);
	walk_stmt(w, st->u.foreach.body);
	fc->iterating.n = n;
	return 1;
}

void elab_check_foreach(struct elab *el)
{
	struct fcheck fc = { .el = el };
	struct walker w = { .exp = check_exp, .stmt = check_stmt, .arg = &fc };
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp)
		walk_stmt(&w, dp->body);
	VEC_EACH(el->prog->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			walk_stmt(&w, f->body);
}
