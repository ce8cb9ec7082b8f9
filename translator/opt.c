/* opt.c - the optimizations of pass 2 that change what a script does.
 *
 * stap removes code whose only effect is on variables nobody reads, and
 * scripts observe that: `x = 1/0` with x never read raises no error, and a
 * probe left empty is dropped (a script of only empty probes has "no
 * probes").  So this pass does the same, unless -u: assignments to locals
 * that are never read keep only their side effects, expression statements
 * without side effects go, then probes whose bodies are empty.  It repeats
 * until nothing changes (removing `y = x` may leave x unread).  Warnings
 * name what was elided, for the user's own code only.
 */
#include <string.h>

#include "ast_walk.h"
#include "elab.h"

struct opt {
	struct elab *el;
	int changed;
	struct vec *locals;	/* of the body being optimized */
};

static int side_effect_visit(struct walker *w, struct exp *e)
{
	int *found = w->arg;

	switch (e->kind) {
	case EX_ASSIGN: case EX_PRE_INC: case EX_POST_INC: case EX_CALL:
	case EX_EMBEDDED: case EX_REGEX:
		*found = 1;
		return 1;
	case EX_PRINT:
		if (!e->u.print.to_string) {
			*found = 1;
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

static int has_side_effects(struct exp *e)
{
	int found = 0;
	struct walker w = { .exp = side_effect_visit, .arg = &found };

	walk_exp(&w, e);
	return found;
}

static int user_code(struct loc loc)
{
	return loc.file && loc.file->is_user;
}

/* Mark which locals are read, as bind.c does: the target of `=` is
 * written, not read. */
static int read_visit(struct walker *w, struct exp *e)
{
	int i;

	if (e->kind == EX_SYM) {
		e->u.sym.sym->read = 1;
		return 0;
	}
	if (e->kind == EX_ASSIGN && (!strcmp(e->u.bin.op, "=") ||
				     !strcmp(e->u.bin.op, "<<<"))) {
		struct exp *l = e->u.bin.left;
		if (l->kind == EX_INDEX)
			for (i = 0; i < l->u.index.indexes.n; i++)
				walk_exp(w, l->u.index.indexes.v[i]);
		else if (l->kind != EX_SYM)
			walk_exp(w, l);
		walk_exp(w, e->u.bin.right);
		return 1;
	}
	return 0;
}

static void mark_reads(struct stmt *body, struct exp *cond, struct vec *locals)
{
	struct walker w = { .exp = read_visit };
	struct sym *sym;
	int i;

	VEC_EACH(*locals, i, sym)
		sym->read = 0;
	walk_stmt(&w, body);
	walk_exp(&w, cond);
}

static int unread_local(struct exp *lhs)
{
	return lhs->kind == EX_SYM && lhs->u.sym.sym->kind == SYM_LOCAL &&
	       !lhs->u.sym.sym->read && !lhs->u.sym.sym->is_foreach_key;
}

/* x = e with x an unread local: becomes e, or nothing at all. */
static int elide_assign(struct walker *w, struct exp *e)
{
	struct opt *o = w->arg;

	if (e->kind != EX_ASSIGN || !strcmp(e->u.bin.op, "<<<") ||
	    !unread_local(e->u.bin.left))
		return 0;
	if (user_code(e->loc))
		diag_warning(&o->el->s->diags, e->loc, "opt.elide-assignment",
			     "eliding assignment to '%s', which is never read",
			     e->u.bin.left->u.sym.name);
	*e = *e->u.bin.right;
	o->changed = 1;
	walk_exp(w, e);
	return 1;
}

static int elide_stmt(struct walker *w, struct stmt *st)
{
	struct opt *o = w->arg;
	struct walker aw = { .exp = elide_assign, .arg = o };

	switch (st->kind) {
	case ST_EXP:
		walk_exp(&aw, st->u.exp);
		if (!has_side_effects(st->u.exp)) {
			if (user_code(st->loc))
				diag_warning(&o->el->s->diags, st->u.exp->loc,
					     "opt.elide-expression",
					     "eliding side-effect-free expression");
			st->kind = ST_NULL;
			o->changed = 1;
		}
		return 1;
	case ST_IF:
		walk_exp(&aw, st->u.if_.cond);
		break;
	case ST_FOR:
		walk_exp(&aw, st->u.for_.init);
		walk_exp(&aw, st->u.for_.cond);
		walk_exp(&aw, st->u.for_.incr);
		break;
	case ST_RETURN:
		walk_exp(&aw, st->u.exp);
		break;
	default:
		break;
	}
	return 0;
}

static int empty_body(const struct stmt *st)
{
	int i;

	if (!st)
		return 1;
	if (st->kind == ST_NULL)
		return 1;
	if (st->kind != ST_BLOCK)
		return 0;
	for (i = 0; i < st->u.block.n; i++)
		if (!empty_body(st->u.block.v[i]))
			return 0;
	return 1;
}

static void optimize_body(struct opt *o, struct stmt *body, struct exp *cond,
			  struct vec *locals)
{
	struct walker w = { .stmt = elide_stmt, .arg = o };

	mark_reads(body, cond, locals);
	walk_stmt(&w, body);
}

/* Drop locals no longer mentioned anywhere. */
static int mention_visit(struct walker *w, struct exp *e)
{
	if (e->kind == EX_SYM && e->u.sym.sym->kind != SYM_GLOBAL)
		e->u.sym.sym->index = -1;	/* mentioned */
	return 0;
}

static void prune_locals(struct arena *a, struct vec *locals, struct stmt *body,
			 struct exp *cond)
{
	struct walker w = { .exp = mention_visit };
	struct vec kept = {0};
	struct sym *sym;
	int i;

	VEC_EACH(*locals, i, sym)
		sym->index = 0;
	walk_stmt(&w, body);
	walk_exp(&w, cond);
	VEC_EACH(*locals, i, sym)
		if (sym->index == -1) {
			sym->index = kept.n;
			vec_push(a, &kept, sym);
		}
	*locals = kept;
}

void elab_optimize(struct elab *el)
{
	struct program *p = el->prog;
	struct opt o = { .el = el };
	struct derived_probe *dp;
	struct func *f;
	struct vec kept = {0};
	int i, rounds = 0;

	if (el->s->unoptimized)
		return;
	do {
		o.changed = 0;
		VEC_EACH(p->probes, i, dp)
			optimize_body(&o, dp->body, dp->cond, &dp->locals);
		VEC_EACH(p->funcs, i, f)
			if (f->body->kind != ST_EMBEDDED)
				optimize_body(&o, f->body, NULL, &f->info->locals);
	} while (o.changed && ++rounds < 50);
	VEC_EACH(p->probes, i, dp) {
		prune_locals(el->s->arena, &dp->locals, dp->body, dp->cond);
		if (empty_body(dp->body)) {
			if (user_code(dp->loc))
				diag_warning(&el->s->diags, dp->loc, "opt.elide-probe",
					     "probe '%s' has been elided: it does nothing",
					     dp->pp);
			continue;
		}
		dp->index = kept.n;
		vec_push(el->s->arena, &kept, dp);
	}
	p->probes = kept;
	VEC_EACH(p->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			prune_locals(el->s->arena, &f->info->locals, f->body, NULL);
}
