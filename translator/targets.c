/* targets.c - the probe families' own context variables (pass 2).
 *
 * Some families give their probes variables: procfs's $value, a
 * tracepoint's $argument.  Right after derivation each probe's body is
 * searched for target expressions; the probe's family (its target_var
 * callback) says how each is read and written in C, or rejects it.  The
 * answer hangs on the expression (u.target.access); types.c sees its type
 * and emit_exp.c its C.  Families without the callback leave $names to
 * the passes that handle debug-info variables.
 */
#include <string.h>

#include "ast_walk.h"
#include "elab.h"

struct tv {
	struct elab *el;
	struct derived_probe *dp;
};

static void resolve_one(struct tv *t, struct exp *x, const char *op)
{
	struct session *s = t->el->s;
	struct target_access acc = {0}, *p;
	int rc = t->dp->family->target_var(s, t->dp, x, op, &acc);

	if (rc < 0)
		return;
	if (rc == 0) {
		diag_error(&s->diags, x->loc, "sema.target-unresolved",
			   "unresolved target-symbol expression '$%s' in probe '%s'",
			   x->u.target.name, t->dp->pp);
		return;
	}
	p = ARENA_NEW(s->arena, struct target_access);
	*p = acc;
	x->u.target.access = p;
	x->type = acc.type;
}

static int visit(struct walker *w, struct exp *e)
{
	struct tv *t = w->arg;
	struct exp *l;

	switch (e->kind) {
	case EX_ASSIGN:
		l = e->u.bin.left;
		if (l->kind != EX_TARGET)
			return 0;
		resolve_one(t, l, e->u.bin.op);
		walk_exp(w, e->u.bin.right);
		return 1;
	case EX_PRE_INC: case EX_POST_INC:
		if (e->u.un.operand->kind != EX_TARGET)
			return 0;
		resolve_one(t, e->u.un.operand, e->u.un.op);
		return 1;
	case EX_TARGET:
		resolve_one(t, e, NULL);
		return 1;
	default:
		return 0;
	}
}

void elab_target_vars(struct elab *el)
{
	struct derived_probe *dp;
	struct tv t = { .el = el };
	struct walker w = { .exp = visit, .arg = &t };
	int i;

	VEC_EACH(el->prog->probes, i, dp) {
		if (!dp->family->target_var)
			continue;
		t.dp = dp;
		walk_stmt(&w, dp->body);
		walk_exp(&w, dp->cond);
	}
}
