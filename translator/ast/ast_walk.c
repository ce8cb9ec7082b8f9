/* ast_walk.c - see ast_walk.h. */
#include "ast/ast_walk.h"

static void walk_exps(struct walker *w, struct vec *v)
{
	int i;

	for (i = 0; i < v->n; i++)
		walk_exp(w, v->v[i]);
}

static void walk_comps(struct walker *w, struct vec *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		struct target_comp *c = v->v[i];
		walk_exp(w, c->index);
	}
}

void walk_exp(struct walker *w, struct exp *e)
{
	if (!e || (w->exp && w->exp(w, e)))
		return;
	switch (e->kind) {
	case EX_NUM: case EX_STR: case EX_EMBEDDED: case EX_SYM:
	case EX_KIND_COUNT:
		break;
	case EX_BINARY: case EX_LOG_OR: case EX_LOG_AND: case EX_REGEX:
	case EX_CMP: case EX_CONCAT: case EX_ASSIGN:
		walk_exp(w, e->u.bin.left);
		walk_exp(w, e->u.bin.right);
		break;
	case EX_UNARY: case EX_PRE_INC: case EX_POST_INC:
		walk_exp(w, e->u.un.operand);
		break;
	case EX_TERNARY:
		walk_exp(w, e->u.tern.cond);
		walk_exp(w, e->u.tern.yes);
		walk_exp(w, e->u.tern.no);
		break;
	case EX_IN: case EX_INDEX:
		walk_exp(w, e->u.index.base);
		walk_exp(w, e->u.index.in_array);
		walk_exps(w, &e->u.index.indexes);
		break;
	case EX_CALL:
		walk_exps(w, &e->u.call.args);
		break;
	case EX_PRINT:
		walk_exp(w, e->u.print.delim);
		walk_exps(w, &e->u.print.args);
		break;
	case EX_STAT:
		walk_exp(w, e->u.stat.stat);
		walk_exp(w, e->u.stat.shift);
		break;
	case EX_HIST:
		walk_exp(w, e->u.hist.stat);
		walk_exp(w, e->u.hist.lo);
		walk_exp(w, e->u.hist.hi);
		walk_exp(w, e->u.hist.step);
		break;
	case EX_TARGET: case EX_TARGET_LIST:
		walk_comps(w, &e->u.target.comps);
		break;
	case EX_CAST: case EX_ATVAR: case EX_DEFINED: case EX_PROBEWRITE:
	case EX_ENTRY: case EX_PERF: case EX_CONST: case EX_REGISTER:
	case EX_DEREF: case EX_AUTOCAST:
		walk_exp(w, e->u.op.operand);
		walk_exp(w, e->u.op.size);
		walk_comps(w, &e->u.op.comps);
		break;
	}
}

void walk_stmt(struct walker *w, struct stmt *st)
{
	walk_slot(w, &st);
}

/* The statement's own expressions, then its child statements. */
static void walk_children(struct walker *w, struct stmt *st)
{
	int i;

	switch (st->kind) {
	case ST_BLOCK:
		for (i = 0; i < st->u.block.n; i++)
			walk_slot(w, (struct stmt **)&st->u.block.v[i]);
		break;
	case ST_EXP: case ST_DELETE: case ST_RETURN:
		walk_exp(w, st->u.exp);
		break;
	case ST_IF:
		walk_exp(w, st->u.if_.cond);
		walk_slot(w, &st->u.if_.then);
		walk_slot(w, &st->u.if_.els);
		break;
	case ST_FOR:
		walk_exp(w, st->u.for_.init);
		walk_exp(w, st->u.for_.cond);
		walk_exp(w, st->u.for_.incr);
		walk_slot(w, &st->u.for_.body);
		break;
	case ST_FOREACH:
		walk_exps(w, &st->u.foreach.keys);
		walk_exp(w, st->u.foreach.value);
		walk_exp(w, st->u.foreach.array);
		walk_exps(w, &st->u.foreach.slice);
		walk_exp(w, st->u.foreach.limit);
		walk_slot(w, &st->u.foreach.body);
		break;
	case ST_TRY:
		walk_slot(w, &st->u.try_.body);
		walk_exp(w, st->u.try_.catch_var);
		walk_slot(w, &st->u.try_.handler);
		break;
	case ST_EMBEDDED: case ST_NULL: case ST_BREAK: case ST_CONTINUE:
	case ST_NEXT: case ST_KIND_COUNT:
		break;
	}
}

void walk_slot(struct walker *w, struct stmt **slot)
{
	if (!*slot)
		return;
	if (!w->stmt || !w->stmt(w, *slot))
		walk_children(w, *slot);
	if (w->leave)
		w->leave(w, slot);
}
