/* ast_clone.c - deep copies of expressions and statements.
 *
 * Elaboration binds symbols and types into the tree, but one written body can
 * run at several probe points (a probe with several points, an alias used by
 * many probes), each with its own locals.  So every derived probe gets its
 * own copy of the bodies it runs.  Strings and locations are shared: they
 * are never modified.
 */
#include <string.h>

#include "ast/ast.h"

static void clone_exps(struct arena *a, struct vec *dst, const struct vec *src)
{
	int i;

	*dst = (struct vec){0};
	for (i = 0; i < src->n; i++)
		vec_push(a, dst, exp_clone(a, src->v[i]));
}

static void clone_comps(struct arena *a, struct vec *dst, const struct vec *src)
{
	int i;

	*dst = (struct vec){0};
	for (i = 0; i < src->n; i++) {
		const struct target_comp *c = src->v[i];
		struct target_comp *n = ARENA_NEW(a, struct target_comp);
		*n = *c;
		n->index = exp_clone(a, c->index);
		vec_push(a, dst, n);
	}
}

struct exp *exp_clone(struct arena *a, const struct exp *e)
{
	struct exp *n;

	if (!e)
		return NULL;
	n = ARENA_NEW(a, struct exp);
	memcpy(n, e, ast_exp_size(e->kind));
	switch (e->kind) {
	case EX_NUM: case EX_STR: case EX_EMBEDDED: case EX_SYM:
		break;
	case EX_BINARY: case EX_LOG_OR: case EX_LOG_AND: case EX_REGEX:
	case EX_CMP: case EX_CONCAT: case EX_ASSIGN:
		n->u.bin.left = exp_clone(a, e->u.bin.left);
		n->u.bin.right = exp_clone(a, e->u.bin.right);
		break;
	case EX_UNARY: case EX_PRE_INC: case EX_POST_INC:
		n->u.un.operand = exp_clone(a, e->u.un.operand);
		break;
	case EX_TERNARY:
		n->u.tern.cond = exp_clone(a, e->u.tern.cond);
		n->u.tern.yes = exp_clone(a, e->u.tern.yes);
		n->u.tern.no = exp_clone(a, e->u.tern.no);
		break;
	case EX_IN: case EX_INDEX:
		n->u.index.base = exp_clone(a, e->u.index.base);
		n->u.index.in_array = exp_clone(a, e->u.index.in_array);
		clone_exps(a, &n->u.index.indexes, &e->u.index.indexes);
		break;
	case EX_CALL:
		clone_exps(a, &n->u.call.args, &e->u.call.args);
		break;
	case EX_PRINT:
		n->u.print.delim = exp_clone(a, e->u.print.delim);
		clone_exps(a, &n->u.print.args, &e->u.print.args);
		break;
	case EX_STAT:
		n->u.stat.stat = exp_clone(a, e->u.stat.stat);
		n->u.stat.shift = exp_clone(a, e->u.stat.shift);
		break;
	case EX_HIST:
		n->u.hist.stat = exp_clone(a, e->u.hist.stat);
		n->u.hist.lo = exp_clone(a, e->u.hist.lo);
		n->u.hist.hi = exp_clone(a, e->u.hist.hi);
		n->u.hist.step = exp_clone(a, e->u.hist.step);
		break;
	case EX_TARGET: case EX_TARGET_LIST:
		clone_comps(a, &n->u.target.comps, &e->u.target.comps);
		break;
	case EX_CAST: case EX_ATVAR: case EX_DEFINED: case EX_PROBEWRITE:
	case EX_ENTRY: case EX_PERF: case EX_CONST: case EX_REGISTER:
	case EX_DEREF: case EX_AUTOCAST:
		n->u.op.operand = exp_clone(a, e->u.op.operand);
		n->u.op.size = exp_clone(a, e->u.op.size);
		clone_comps(a, &n->u.op.comps, &e->u.op.comps);
		break;
	case EX_KIND_COUNT:
		break;
	}
	return n;
}

struct stmt *stmt_clone(struct arena *a, const struct stmt *st)
{
	struct stmt *n;
	int i;

	if (!st)
		return NULL;
	n = ARENA_NEW(a, struct stmt);
	memcpy(n, st, ast_stmt_size(st->kind));
	switch (st->kind) {
	case ST_BLOCK:
		n->u.block = (struct vec){0};
		for (i = 0; i < st->u.block.n; i++)
			vec_push(a, &n->u.block, stmt_clone(a, st->u.block.v[i]));
		break;
	case ST_EXP: case ST_DELETE: case ST_RETURN:
		n->u.exp = exp_clone(a, st->u.exp);
		break;
	case ST_IF:
		n->u.if_.cond = exp_clone(a, st->u.if_.cond);
		n->u.if_.then = stmt_clone(a, st->u.if_.then);
		n->u.if_.els = stmt_clone(a, st->u.if_.els);
		break;
	case ST_FOR:
		n->u.for_.init = exp_clone(a, st->u.for_.init);
		n->u.for_.cond = exp_clone(a, st->u.for_.cond);
		n->u.for_.incr = exp_clone(a, st->u.for_.incr);
		n->u.for_.body = stmt_clone(a, st->u.for_.body);
		break;
	case ST_FOREACH:
		clone_exps(a, &n->u.foreach.keys, &st->u.foreach.keys);
		clone_exps(a, &n->u.foreach.slice, &st->u.foreach.slice);
		n->u.foreach.value = exp_clone(a, st->u.foreach.value);
		n->u.foreach.array = exp_clone(a, st->u.foreach.array);
		n->u.foreach.limit = exp_clone(a, st->u.foreach.limit);
		n->u.foreach.body = stmt_clone(a, st->u.foreach.body);
		break;
	case ST_TRY:
		n->u.try_.body = stmt_clone(a, st->u.try_.body);
		n->u.try_.handler = stmt_clone(a, st->u.try_.handler);
		n->u.try_.catch_var = exp_clone(a, st->u.try_.catch_var);
		break;
	case ST_EMBEDDED: case ST_NULL: case ST_BREAK: case ST_CONTINUE:
	case ST_NEXT: case ST_KIND_COUNT:
		break;
	}
	return n;
}
