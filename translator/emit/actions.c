/* actions.c - the static MAXACTION bounds of bodies (pass 3).
 *
 * stap 4.8 checks a body without a loop of its own once, on entry: it
 * needs as many actions left as its longest path takes (one per
 * statement), and then it charges nothing as it runs.  A probe's bound
 * also covers the bounds of the functions it calls directly (a loop in
 * one of them makes the probe count as it goes); a function's covers its
 * own statements only.  A body that counts as it runs charges a
 * loop-free callee's bound at the call.  These numbers decide where a
 * runaway script stops, so they are stap's, quirks included.
 */
#include "emit/emit_int.h"
#include "ast/ast_walk.h"

struct call_sum {
	int64_t n;	/* -1 once a callee may loop */
};

static int64_t add(int64_t a, int64_t b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

static int add_call(struct walker *w, struct exp *x)
{
	struct call_sum *cs = w->arg;

	if (x->kind == EX_CALL && x->u.call.func)
		cs->n = add(cs->n, actions_func_bound(x->u.call.func));
	return 0;
}

/* What the calls in X add to a probe's bound (0 for a function's). */
static int64_t calls_in(struct exp *x, int with_calls)
{
	struct call_sum cs = { 0 };
	struct walker w = { .exp = add_call, .arg = &cs };

	if (with_calls)
		walk_exp(&w, x);
	return cs.n;
}

/* The longest path through ST in actions, or -1 when it has a loop. */
static int64_t bound(struct stmt *st, int with_calls)
{
	int64_t n, m;
	int i;

	if (!st)
		return 0;
	switch (st->kind) {
	case ST_BLOCK:
		for (n = 0, i = 0; i < st->u.block.n && n >= 0; i++)
			n = add(n, bound(st->u.block.v[i], with_calls));
		return n;
	case ST_EXP: case ST_DELETE: case ST_RETURN:
		return add(1, calls_in(st->u.exp, with_calls));
	case ST_IF:
		n = bound(st->u.if_.then, with_calls);
		m = bound(st->u.if_.els, with_calls);
		if (n < 0 || m < 0)
			return -1;
		return add(1 + (n > m ? n : m), calls_in(st->u.if_.cond, with_calls));
	case ST_TRY:
		return add(bound(st->u.try_.body, with_calls),
			   bound(st->u.try_.handler, with_calls));
	case ST_FOR: case ST_FOREACH:
		return -1;
	case ST_NEXT: case ST_BREAK: case ST_CONTINUE: case ST_EMBEDDED:
		return 1;
	case ST_NULL: case ST_KIND_COUNT:
		return 0;
	}
	return 0;
}

int64_t actions_probe_bound(struct stmt *body)
{
	return bound(body, 1);
}

int64_t actions_func_bound(struct func *f)
{
	if (f->body->kind == ST_EMBEDDED)
		return 0;
	return bound(f->body, 0);
}
