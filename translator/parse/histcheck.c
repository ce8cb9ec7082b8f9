/* histcheck.c - where a histogram may stand (pass 1).
 *
 * @hist_linear(…) and @hist_log(…) are not values: stap 4.8's grammar
 * takes one only as the whole argument of print, println, sprint or
 * sprintln, indexed (@hist_log(x)[3]), or as the array of a foreach.
 * Run on each file parsed without errors; reports through parse_error.
 */
#include "ast/ast_walk.h"
#include "parse/parse.h"

struct hctx {
	struct parser *p;
	struct vec ok;		/* struct exp *: the histograms in place */
};

static void allow(struct hctx *h, struct exp *e)
{
	if (e && e->kind == EX_HIST)
		vec_push(h->p->a, &h->ok, e);
}

static int mark_exp(struct walker *w, struct exp *e)
{
	struct hctx *h = w->arg;

	if (e->kind == EX_INDEX)
		allow(h, e->u.index.base);
	else if (e->kind == EX_PRINT && e->u.print.args.n == 1 &&
		 (e->u.print.pkind == PR_PRINT || e->u.print.pkind == PR_PRINTLN))
		allow(h, e->u.print.args.v[0]);
	return 0;
}

static int mark_stmt(struct walker *w, struct stmt *st)
{
	if (st->kind == ST_FOREACH)
		allow(w->arg, st->u.foreach.array);
	return 0;
}

static int check_exp(struct walker *w, struct exp *e)
{
	struct hctx *h = w->arg;
	int i;

	if (e->kind != EX_HIST)
		return 0;
	for (i = 0; i < h->ok.n; i++)
		if (h->ok.v[i] == e)
			return 0;
	parse_error(h->p, e->loc, "parse.hist-context",
		    "base histogram operator where expression expected: a histogram is only printed alone (print(@hist_log(x))), indexed or walked by foreach");
	return 0;
}

static void walk_file(struct walker *w, struct file_ast *f)
{
	struct probe *pr;
	struct probe_alias *al;
	struct func *fn;
	struct global *g;
	int i;

	VEC_EACH(f->probes, i, pr)
		walk_stmt(w, pr->body);
	VEC_EACH(f->aliases, i, al) {
		walk_stmt(w, al->body);
		walk_stmt(w, al->epilogue);
	}
	VEC_EACH(f->funcs, i, fn)
		walk_stmt(w, fn->body);
	VEC_EACH(f->globals, i, g)
		walk_exp(w, g->init);
}

void histcheck_file(struct parser *p)
{
	struct hctx h = { .p = p };
	struct walker mark = { .exp = mark_exp, .stmt = mark_stmt, .arg = &h };
	struct walker check = { .exp = check_exp, .arg = &h };

	walk_file(&mark, p->out);
	walk_file(&check, p->out);
}
