/* targets.c - resolving target variables in probe bodies (pass 2).
 *
 * After binding, every $var, $$parms and @defined(…) of a probe body goes
 * to the probe's family (its target_var callback), which types it and
 * records how to read it.  @defined becomes the literal 1 or 0 here, as in
 * stap, so code under a false @defined is never resolved further.  @cast
 * resolves here too, against the kernel's types (cast.c), and @var,
 * against its DWARF (atvar.c).  Writing a target variable is refused
 * unless its family takes it.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"
#include "elab/targets.h"

struct tctx {
	struct elab *el;
	struct derived_probe *dp;
	const char *cast_module;	/* a @cast's module when it names
					   none; NULL: none (stap's error) */
};

/* A @cast that names no module takes a DWARF probe's (kernel.function:
 * "kernel", module("m").function: "m"); elsewhere it has none.  stap
 * gives a function called from DWARF probes a copy per probe: here a
 * function reached from DWARF probes of one module only takes theirs. */
static const char *probe_cast_module(const struct derived_probe *dp)
{
	if (!dp || strcmp(dp->family->name, "dwarf"))
		return NULL;
	return dp->kmodule ? dp->kmodule : "kernel";
}

#define CAST_MIXED ((const char *)1)	/* reached from probes that differ */

struct reach {
	struct func *f;
	const char *module;	/* NULL: not reached yet */
};

static void reach_from(struct arena *a, struct vec *seen,
		       const struct vec *callees, const char *module)
{
	struct func *f;
	struct reach *r;
	int i, j;

	VEC_EACH(*callees, i, f) {
		r = NULL;
		for (j = 0; j < seen->n; j++)
			if (((struct reach *)seen->v[j])->f == f)
				r = seen->v[j];
		if (r && (r->module == module || r->module == CAST_MIXED ||
			  (module && r->module && module != CAST_MIXED &&
			   !strcmp(r->module, module))))
			continue;	/* nothing new */
		if (!r) {
			r = ARENA_NEW(a, struct reach);
			r->f = f;
			r->module = module ? module : CAST_MIXED;
			vec_push(a, seen, r);
		} else {
			r->module = CAST_MIXED;
		}
		if (f->info)
			reach_from(a, seen, &f->info->callees, r->module);
	}
}

static int resolve(struct tctx *t, struct exp *e, int quiet)
{
	const struct probe_family *fam;
	struct session *s = t->el->s;

	if (!t->dp)	/* in a function: not resolved (pass 3 says so) */
		return -1;
	fam = t->dp->family;

	if (fam->target_var) {
		int rc = fam->target_var(s, t->dp, e, quiet);
		if (rc != -2)
			return rc;
	}
	if (!quiet)
		diag_error(&s->diags, e->loc, "sema.target-unresolved",
			   "unresolved target-symbol expression");
	return -1;
}

/* Resolve E with its errors held back (report() gives them if E
 * survives the optimizer): 0, or -1 when it failed. */
static int resolve_held(struct tctx *t, struct exp *e)
{
	struct diags *d = &t->el->s->diags;
	int before = d->quieted, rc;

	d->quiet++;
	rc = resolve(t, e, 0);
	d->quiet--;
	return rc || d->quieted != before ? -1 : 0;
}

/* A probe on a function's return (kprobe.function("f").return). */
static int is_return_probe(const struct derived_probe *dp)
{
	const struct pp_comp *last;

	if (!dp || !dp->comps.n)
		return 0;
	last = dp->comps.v[dp->comps.n - 1];
	return !strcmp(last->name, "return");
}

/* A guard made literal by @defined decides which code exists: the dead
 * side is dropped unresolved, as stap folds it away.  Returns 1 when E
 * was such a guard (and is now handled). */
/* The value of C when it is literal: a number, or ! - ~ of one (after
 * @defined was folded); 0 when it is not. */
static int literal_value(const struct exp *c, int64_t *v)
{
	if (c->kind == EX_NUM) {
		*v = c->u.num;
		return 1;
	}
	if (c->kind != EX_UNARY || !literal_value(c->u.un.operand, v))
		return 0;
	return op_fold_unary(c->u.un.op, *v, v);
}

int elab_is_defined_guard(const struct exp *c)
{
	while (c && c->kind == EX_UNARY && c->u.un.op == OP_NOT)
		c = c->u.un.operand;
	return c && c->kind == EX_DEFINED;
}

static int guard_exp(struct walker *w, struct exp *e)
{
	struct exp *c;
	int64_t v;
	int guard;

	switch (e->kind) {
	case EX_TERNARY:
		guard = elab_is_defined_guard(e->u.tern.cond);
		walk_exp(w, c = e->u.tern.cond);
		if (!guard || !literal_value(c, &v)) {
			walk_exp(w, e->u.tern.yes);
			walk_exp(w, e->u.tern.no);
			return 1;
		}
		*e = *(v ? e->u.tern.yes : e->u.tern.no);
		walk_exp(w, e);
		return 1;
	case EX_LOG_AND: case EX_LOG_OR:
		guard = elab_is_defined_guard(e->u.bin.left);
		walk_exp(w, c = e->u.bin.left);
		if (guard && literal_value(c, &v) &&
		    (e->kind == EX_LOG_AND ? !v : v != 0)) {
			e->u.num = e->kind == EX_LOG_OR;	/* 0 && …, 1 || … */
			e->kind = EX_NUM;
			e->type = TY_LONG;
			return 1;
		}
		walk_exp(w, e->u.bin.right);
		return 1;
	default:
		return 0;
	}
}

/* if (@defined(…)) keeps one branch, as a block (no larger a node). */
static int guard_stmt(struct walker *w, struct stmt *st)
{
	struct stmt *keep;
	struct vec block = {0};
	int64_t v;
	int written;

	if (st->kind != ST_IF)
		return 0;
	/* a literal as written, optimizing: the optimizer elides in both
	 * branches first, with stap's warnings (opt.c) */
	written = literal_value(st->u.if_.cond, &v) &&
		  !((struct tctx *)w->arg)->el->s->unoptimized;
	walk_exp(w, st->u.if_.cond);
	if (written || !literal_value(st->u.if_.cond, &v)) {
		walk_stmt(w, st->u.if_.then);
		walk_stmt(w, st->u.if_.els);
		return 1;
	}
	keep = v ? st->u.if_.then : st->u.if_.els;
	if (keep)
		vec_push(((struct tctx *)w->arg)->el->s->arena, &block, keep);
	st->kind = ST_BLOCK;
	st->folded = 1;
	st->u.block = block;
	walk_stmt(w, st);
	return 1;
}

/* @var: with "kernel" (or a DWARF probe's own unit, which its family
 * knows) from the kernel's DWARF; without either, stap's complaint. */
static int resolve_atvar(struct tctx *t, struct exp *e, int quiet)
{
	struct session *s = t->el->s;
	const char *mod = e->u.op.module;

	if (mod && !strcmp(mod, "kernel"))
		return atvar_resolve(s, e, NULL, 0, "kernel", 0, quiet);
	if (!mod && t->dp && t->dp->family->atvar)
		return t->dp->family->atvar(s, t->dp, e, quiet);
	if (mod)
		return atvar_resolve(s, e, NULL, 0, mod, 0, quiet);
	if (!quiet)
		diag_error(&s->diags, e->loc, "sema.atvar-unresolved",
			   "unresolved @var() expression: name the module, as in @var(\"%s\", \"kernel\")",
			   e->u.op.name);
	return -1;
}

static int visit(struct walker *w, struct exp *e)
{
	struct tctx *t = w->arg;
	struct exp *op;

	if (guard_exp(w, e))
		return 1;
	switch (e->kind) {
	case EX_TARGET: case EX_TARGET_LIST:
		/* as stap, an unresolvable one is an error only if the
		 * optimizer keeps it (an alias's unused variable goes) */
		if (t->dp && resolve_held(t, e))
			e->u.target.unresolved = 1;
		return 0;	/* index expressions inside are walked too */
	case EX_CAST:	/* as stap, an error only if the optimizer keeps it
			   (but a struct's value, which @defined accepts) */
		if (!e->u.op.module && t->cast_module)
			e->u.op.module = t->cast_module;
		cast_resolve(t->el->s, e,
			     e->u.op.comps.n || e->u.op.addr_of);
		return 0;
	case EX_ENTRY:	/* as stap, an error only if the optimizer keeps it */
		e->u.op.misplaced = !is_return_probe(t->dp);
		return 0;
	case EX_ATVAR:
		resolve_atvar(t, e, 0);
		return 0;
	case EX_DEFINED:
		op = e->u.op.operand;
		if (op && op->kind == EX_ATVAR) {
			e->kind = EX_NUM;
			e->u.num = resolve_atvar(t, op, 1) == 0;
			e->type = TY_LONG;
			return 1;
		}
		if (!op || (op->kind != EX_TARGET && op->kind != EX_TARGET_LIST &&
			    op->kind != EX_CAST))
			return 0;
		if (op->kind == EX_CAST && !op->u.op.module && t->cast_module)
			op->u.op.module = t->cast_module;
		e->kind = EX_NUM;
		e->u.num = (op->kind == EX_CAST ? cast_resolve(t->el->s, op, 1) :
			    resolve(t, op, 1)) == 0;
		e->type = TY_LONG;
		return 1;
	case EX_ASSIGN:
		op = e->u.bin.left;
		break;
	case EX_PRE_INC: case EX_POST_INC:
		op = e->u.un.operand;
		break;
	default:
		return 0;
	}
	if (op && op->kind == EX_TARGET && t->dp &&
	    t->dp->family->target_assign) {	/* a writable family variable */
		t->dp->family->target_assign(t->el->s, t->dp, op,
					      e->kind == EX_ASSIGN ? e->u.bin.op :
					      e->u.un.op);
		if (e->kind == EX_ASSIGN)
			walk_exp(w, e->u.bin.right);
		return 1;
	}
	if (op && op->kind == EX_TARGET)
		diag_error(&t->el->s->diags, op->loc, "sema.target-write",
			   "target variable '$%s' cannot be written to",
			   op->u.target.name);
	return 0;
}

void elab_resolve_targets(struct elab *el)
{
	struct derived_probe *dp;
	int i;

	struct func *f;
	struct vec seen = {0};
	int j;

	VEC_EACH(el->prog->probes, i, dp) {
		struct tctx t;
		struct walker w = { .exp = visit, .stmt = guard_stmt, .arg = &t };

		/* as stap, an @entry's .call probe after its .return, which
		 * numbers their accesses in that order (tvar_name_fn) */
		if (dp->entry_call && i + 1 < el->prog->probes.n)
			dp = el->prog->probes.v[i + 1];
		else if (i > 0 && ((struct derived_probe *)
				   el->prog->probes.v[i - 1])->entry_call)
			dp = el->prog->probes.v[i - 1];
		t = (struct tctx){ el, dp, probe_cast_module(dp) };
		walk_stmt(&w, dp->body);
		if (dp->cond)
			walk_exp(&w, dp->cond);
		reach_from(el->s->arena, &seen, &dp->callees,
			   probe_cast_module(dp));
	}
	VEC_EACH(el->prog->funcs, i, f) {	/* @cast in functions */
		struct tctx t = { el, NULL, NULL };
		struct walker w = { .exp = visit, .stmt = guard_stmt, .arg = &t };
		for (j = 0; j < seen.n; j++)
			if (((struct reach *)seen.v[j])->f == f &&
			    ((struct reach *)seen.v[j])->module != CAST_MIXED)
				t.cast_module = ((struct reach *)seen.v[j])->module;
		if (f->body->kind != ST_EMBEDDED)
			walk_stmt(&w, f->body);
	}
}

static int report(struct walker *w, struct exp *e)
{
	if ((e->kind == EX_TARGET || e->kind == EX_TARGET_LIST) &&
	    e->u.target.unresolved)
		resolve(w->arg, e, 0);
	if (e->kind == EX_CAST && !e->u.op.resolved &&
	    (e->u.op.comps.n || e->u.op.addr_of))
		cast_resolve(((struct tctx *)w->arg)->el->s, e, 0);
	if (e->kind == EX_ENTRY && e->u.op.misplaced)
		diag_error(&((struct tctx *)w->arg)->el->s->diags, e->loc,
			   "sema.entry-context",
			   "internal error: @entry is only valid in .return probes");
	if (e->kind == EX_AUTOCAST && !e->u.op.resolved) {
		elab_report_autocast(((struct tctx *)w->arg)->el, e);
		return 1;
	}
	return 0;
}

void elab_report_unresolved_targets(struct elab *el)
{
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp) {
		struct tctx t = { el, dp, NULL };
		struct walker w = { .exp = report, .arg = &t };
		walk_stmt(&w, dp->body);
		if (dp->cond)
			walk_exp(&w, dp->cond);
	}
	VEC_EACH(el->prog->funcs, i, f) {	/* their autocasts */
		struct tctx t = { el, NULL, NULL };
		struct walker w = { .exp = report, .arg = &t };
		if (f->used && f->body->kind != ST_EMBEDDED)
			walk_stmt(&w, f->body);
	}
}
