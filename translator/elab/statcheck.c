/* statcheck.c - one kind of histogram, one @variance shift per aggregate.
 *
 * The runtime keeps the buckets of an aggregate with its values, so an
 * aggregate (all elements of an aggregate array alike) may be shown by
 * @hist_log or by @hist_linear with one set of bounds, not both; stap 4.8
 * rejects mixing them.  Likewise it keeps the variance scaled by one bit
 * shift: two @variance with different nonzero shifts conflict (0 and no
 * shift are the default, which agrees with any).  Runs after type
 * inference.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"

struct hcheck {
	struct elab *el;
	struct vec first;	/* struct exp *: the first EX_HIST per global */
	struct vec shifts;	/* struct exp *: the first @variance with a
				   nonzero shift per aggregate */
};

static struct sym *stat_sym(struct exp *e)
{
	if (e && e->kind == EX_INDEX)
		e = e->u.index.base;
	return e && e->kind == EX_SYM ? e->u.sym.sym : NULL;
}

static struct sym *hist_sym(struct exp *h)
{
	return stat_sym(h->u.hist.stat);
}

/* @variance(x, N)'s N when it is a nonzero literal, else 0. */
static int64_t variance_shift(struct exp *e)
{
	int64_t v;

	if (e->kind != EX_STAT || strcmp(e->u.stat.op, "variance") ||
	    !e->u.stat.shift || !exp_int_literal(e->u.stat.shift, &v))
		return 0;
	return v;
}

static void check_shift(struct hcheck *hc, struct exp *e)
{
	int64_t v = variance_shift(e);
	struct sym *sym = v ? stat_sym(e->u.stat.stat) : NULL;
	struct exp *prev;
	int i;

	if (!sym)
		return;
	VEC_EACH(hc->shifts, i, prev) {
		if (stat_sym(prev->u.stat.stat) != sym)
			continue;
		if (variance_shift(prev) != v)
			diag_error(&hc->el->s->diags, e->loc, "sema.variance-conflict",
				   "conflicting bit shifts declared (previously %lld)",
				   (long long)variance_shift(prev));
		return;
	}
	vec_push(hc->el->s->arena, &hc->shifts, e);
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

	if (e->kind == EX_STAT)
		check_shift(hc, e);
	if (e->kind != EX_HIST || !(sym = hist_sym(e)))
		return 0;
	VEC_EACH(hc->first, i, prev) {
		if (hist_sym(prev) != sym)
			continue;
		if (!same_hist(prev, e)) {
			diag_error(&hc->el->s->diags, e->loc, "sema.hist-conflict",
				   "multiple histogram types declared on '__global_%s'",
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
