/* statcheck.c - one kind of histogram per aggregate.
 *
 * The runtime keeps the buckets of an aggregate with its values, so an
 * aggregate (all elements of an aggregate array alike) may be shown by
 * @hist_log or by @hist_linear with one set of bounds, not both; stap 4.8
 * rejects mixing them.  Runs after type inference.
 */
#include "ast/ast_walk.h"
#include "elab/elab.h"

struct hcheck {
	struct elab *el;
	struct vec first;	/* struct exp *: the first EX_HIST per global */
};

static struct sym *hist_sym(struct exp *h)
{
	struct exp *e = h->u.hist.stat;

	if (e && e->kind == EX_INDEX)
		e = e->u.index.base;
	return e && e->kind == EX_SYM ? e->u.sym.sym : NULL;
}

static int same_bound(struct exp *a, struct exp *b)
{
	int64_t x, y;

	if (!a || !b)
		return a == b;
	return exp_int_literal(a, &x) && exp_int_literal(b, &y) && x == y;
}

static int same_hist(struct exp *a, struct exp *b)
{
	if (a->u.hist.is_log || b->u.hist.is_log)
		return a->u.hist.is_log == b->u.hist.is_log;
	return same_bound(a->u.hist.lo, b->u.hist.lo) &&
	       same_bound(a->u.hist.hi, b->u.hist.hi) &&
	       same_bound(a->u.hist.step, b->u.hist.step);
}

static int check_hist(struct walker *w, struct exp *e)
{
	struct hcheck *hc = w->arg;
	struct sym *sym;
	struct exp *prev;
	int i;

	if (e->kind != EX_HIST || !(sym = hist_sym(e)))
		return 0;
	VEC_EACH(hc->first, i, prev) {
		if (hist_sym(prev) != sym)
			continue;
		if (!same_hist(prev, e)) {
			diag_error(&hc->el->s->diags, e->loc, "sema.hist-conflict",
				   "'%s' already has another kind of histogram: an aggregate takes one @hist_log or one @hist_linear with one set of bounds",
				   sym->name);
			diag_note(&hc->el->s->diags, prev->loc, "its first histogram is here");
		}
		return 0;
	}
	vec_push(hc->el->s->arena, &hc->first, e);
	return 0;
}

void elab_check_hists(struct elab *el)
{
	struct hcheck hc = { .el = el };
	struct walker w = { .exp = check_hist, .arg = &hc };
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp)
		walk_stmt(&w, dp->body);
	VEC_EACH(el->prog->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			walk_stmt(&w, f->body);
}
