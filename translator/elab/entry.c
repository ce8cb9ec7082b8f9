/* entry.c - @entry(expr) in return probes (pass 2).
 *
 * As in stap, each @entry of a .return probe is evaluated by a synthesized
 * .call probe on the same point, which stores the value by thread and call
 * depth in a global array; the return probe takes it back out (deleting
 * it) before its own body runs, and the @entry becomes that value.  Runs
 * after the probes are derived and before binding, so the synthesized
 * globals, locals and tid() calls bind like the user's.  The call probe
 * comes from the family's entry_probe callback; an @entry anywhere else
 * stays, and targets.c rejects it.  A parameter of the function ($count in
 * a .return probe, where the family says so) is taken at entry the same
 * way, as stap does, and so is a list of them ($$parms).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/ast_new.h"
#include "ast/ast_walk.h"
#include "ast/dump.h"
#include "util/diag.h"
#include "elab/elab.h"

#define TID_LOCAL "_entry_tvar_tid"

struct entries {
	struct arena *a;
	struct vec found;	/* struct exp *: the @entry nodes */
	struct vec guards;	/* struct exp * (or NULL): each one's guard */
	struct exp *guard;	/* the @defined guards around the walk, and'ed */
	struct session *s;
	const struct derived_probe *dp;
};

/* The live side of a @defined guard C (or its other side, NEG) as a
 * condition: C cloned (its @defined(@entry(x)) already @defined(x)),
 * and'ed with the guards around it. */
static struct exp *guarded(struct entries *en, struct exp *c, int neg)
{
	struct exp *g = exp_clone(en->a, c);

	if (neg)
		g = ast_unary(en->a, EX_UNARY, c->loc, OP_NOT, g);
	return en->guard ? ast_binary(en->a, EX_LOG_AND, c->loc, OP_LOG_AND,
				      exp_clone(en->a, en->guard), g) : g;
}

static void walk_guarded(struct walker *w, struct exp *c, int neg,
			 struct exp *e, struct stmt *st)
{
	struct entries *en = w->arg;
	struct exp *outer = en->guard;

	en->guard = guarded(en, c, neg);
	if (e)
		walk_exp(w, e);
	if (st)
		walk_stmt(w, st);
	en->guard = outer;
}

/* The sides of a @defined guard go with it (targets.c drops the dead
 * one, as stap; an @entry there must not be saved at the entry either). */
static int find_guard(struct walker *w, struct exp *e)
{
	struct exp *c;

	switch (e->kind) {
	case EX_TERNARY:
		if (!elab_is_defined_guard(c = e->u.tern.cond))
			return 0;
		walk_exp(w, c);
		walk_guarded(w, c, 0, e->u.tern.yes, NULL);
		walk_guarded(w, c, 1, e->u.tern.no, NULL);
		return 1;
	case EX_LOG_AND: case EX_LOG_OR:
		if (!elab_is_defined_guard(c = e->u.bin.left))
			return 0;
		walk_exp(w, c);
		walk_guarded(w, c, e->kind == EX_LOG_OR, e->u.bin.right, NULL);
		return 1;
	default:
		return 0;
	}
}

static int find_entry_stmt(struct walker *w, struct stmt *st)
{
	struct exp *c;

	if (st->kind != ST_IF || !elab_is_defined_guard(c = st->u.if_.cond))
		return 0;
	walk_exp(w, c);
	walk_guarded(w, c, 0, NULL, st->u.if_.then);
	if (st->u.if_.els)
		walk_guarded(w, c, 1, NULL, st->u.if_.els);
	return 1;
}

/* The target expression E as stap's warning names it: its members and
 * indexes too ($file->f_flags, $buf[2]). */
static const char *target_text(struct arena *a, const struct exp *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *out;

	if (f) {
		dump_exp(f, e);
		fclose(f);
	}
	out = arena_strdup(a, buf ? buf : "");
	free(buf);
	return out;
}

static int find_entry(struct walker *w, struct exp *e)
{
	struct entries *en = w->arg;
	const struct probe_family *fam = en->dp->family;

	if (e->kind == EX_DEFINED && e->u.op.operand &&
	    e->u.op.operand->kind == EX_ENTRY) {
		/* @defined(@entry(x)): whether x resolves (as stap, which
		 * expands x for the entry first) */
		e->u.op.operand = e->u.op.operand->u.op.operand;
		return 1;
	}
	if (e->kind == EX_DEFINED)	/* asks only whether $NAME resolves */
		return 1;
	if (find_guard(w, e))
		return 1;

	if ((e->kind == EX_TARGET || e->kind == EX_TARGET_LIST) &&
	    fam->entry_target &&
	    fam->entry_target(en->s, en->dp, e->u.target.name)) {
		struct exp *target = ARENA_NEW(en->a, struct exp);

		diag_warning(&en->s->diags, e->loc, "sema.entry-captured",
			     "confusing usage, value is captured as @entry(%s) in .return probe",
			     target_text(en->a, e));
		*target = *e;	/* $NAME becomes @entry($NAME), in place */
		memset(&e->u, 0, sizeof e->u);
		e->kind = EX_ENTRY;
		e->u.op.operand = target;
	}
	if (e->kind != EX_ENTRY)
		return 0;
	vec_push(en->a, &en->found, e);
	vec_push(en->a, &en->guards, en->guard);
	return 1;	/* an @entry inside is the call probe's to reject */
}

static struct exp *sym(struct arena *a, struct loc loc, const char *name)
{
	return ast_sym(a, loc, name);
}

/* NAME[_entry_tvar_tid] or NAME[_entry_tvar_tid, DEPTH] */
static struct exp *cell(struct arena *a, struct loc loc, const char *name,
			struct exp *depth)
{
	struct vec ix = {0};

	vec_push(a, &ix, sym(a, loc, TID_LOCAL));
	if (depth)
		vec_push(a, &ix, depth);
	return ast_index(a, loc, sym(a, loc, name), ix);
}

static struct stmt *assign(struct arena *a, struct loc loc, struct exp *l,
			   struct exp *r)
{
	return ast_exp_stmt(a, ST_EXP, loc,
			    ast_binary(a, EX_ASSIGN, loc, OP_ASSIGN, l, r));
}

static struct stmt *tid_stmt(struct arena *a, struct loc loc)
{
	return assign(a, loc, sym(a, loc, TID_LOCAL),
		      ast_call(a, loc, "tid", (struct vec){0}));
}

static void add_global(struct elab *el, const char *name, struct loc loc)
{
	struct global *g = ARENA_NEW(el->s->arena, struct global);
	struct sym *s = ARENA_NEW(el->s->arena, struct sym);

	g->loc = loc;
	g->name = name;
	g->is_array_decl = 1;
	s->kind = SYM_GLOBAL;
	s->name = name;
	s->loc = loc;
	s->decl = g;
	s->arity = -2;
	vec_push(el->s->arena, &el->globals, s);
}

/* STMTS as one statement, under GUARD when there is one. */
static struct stmt *under(struct arena *a, struct loc loc, struct exp *guard,
			  struct vec stmts)
{
	struct stmt *b = ast_block(a, loc, stmts);

	return guard ? ast_if(a, loc, exp_clone(a, guard), b, NULL) : b;
}

/* The statements that save entry K (E's operand) in the call probe, and
 * those that take it back in the return probe, both under E's @defined
 * GUARD (NULL: none); E becomes the value. */
static void split(struct elab *el, struct exp *e, struct exp *guard, int k,
		  struct vec *call, struct vec *ret)
{
	struct arena *a = el->s->arena;
	struct loc loc = e->loc;
	const char *g = arena_printf(a, "__global_entry_tvar_entry_%d", k);
	const char *ctr = arena_printf(a, "%s_ctr", g);
	const char *tmp = arena_printf(a, "%s_tmp", g);
	struct vec save = {0}, take = {0};
	int i;

	add_global(el, g, loc);
	add_global(el, ctr, loc);
	vec_push(a, &save, assign(a, loc, cell(a, loc, g,
		ast_unary(a, EX_PRE_INC, loc, OP_INC, cell(a, loc, ctr, NULL))),
		e->u.op.operand));
	vec_push(a, &take, assign(a, loc, sym(a, loc, tmp),
		cell(a, loc, g, cell(a, loc, ctr, NULL))));
	vec_push(a, &take, ast_exp_stmt(a, ST_DELETE, loc, cell(a, loc, g,
		ast_unary(a, EX_POST_INC, loc, OP_DEC, cell(a, loc, ctr, NULL)))));
	vec_push(a, &take, ast_if(a, loc,
		ast_unary(a, EX_UNARY, loc, OP_NOT, cell(a, loc, ctr, NULL)),
		ast_exp_stmt(a, ST_DELETE, loc, cell(a, loc, ctr, NULL)), NULL));
	if (guard) {
		vec_push(a, call, under(a, loc, guard, save));
		vec_push(a, ret, under(a, loc, guard, take));
	} else {
		vec_push(a, call, save.v[0]);
		for (i = 0; i < take.n; i++)
			vec_push(a, ret, take.v[i]);
	}
	e->kind = EX_SYM;
	e->u.sym.name = tmp;
	e->u.sym.sym = NULL;
}

/* The return probe's statements go before its body's own. */
static void prepend(struct arena *a, struct derived_probe *dp, struct vec *pro)
{
	struct vec all = *pro;
	int i;

	if (dp->body->kind != ST_BLOCK) {
		vec_push(a, &all, dp->body);
	} else {
		for (i = 0; i < dp->body->u.block.n; i++)
			vec_push(a, &all, dp->body->u.block.v[i]);
	}
	dp->body = ast_block(a, dp->body->loc, all);
}

struct entry_use {
	struct session *s;
	const struct derived_probe *dp;
	int use;		/* enum elab_entry_use */
};

static int note_entry(struct walker *w, struct exp *e)
{
	struct entry_use *u = w->arg;
	const struct probe_family *fam = u->dp->family;

	if (e->kind == EX_ENTRY) {
		u->use = ENTRY_EXPLICIT;
		return 1;
	}
	if ((e->kind == EX_TARGET || e->kind == EX_TARGET_LIST) &&
	    fam->entry_target &&
	    fam->entry_target(u->s, u->dp, e->u.target.name) &&
	    u->use == ENTRY_NONE)
		u->use = ENTRY_CAPTURED;
	return 0;
}

enum elab_entry_use elab_entry_use(struct session *s,
				   const struct derived_probe *dp)
{
	struct entry_use u = { s, dp, ENTRY_NONE };
	struct walker w = { .exp = note_entry, .arg = &u };

	if (!dp->family->entry_probe)
		return ENTRY_NONE;
	walk_stmt(&w, dp->body);
	return u.use;
}

void elab_expand_entries(struct elab *el)
{
	struct arena *a = el->s->arena;
	struct vec probes = {0};
	struct derived_probe *dp, *cp;
	int i, j, k = 0;

	VEC_EACH(el->prog->probes, i, dp) {
		struct entries en = { a, {0}, {0}, NULL, el->s, dp };
		struct walker w = { .exp = find_entry, .stmt = find_entry_stmt,
				    .arg = &en };
		struct vec call = {0}, ret = {0};

		if (dp->family->entry_probe)
			walk_stmt(&w, dp->body);
		if (!en.found.n ||
		    !(cp = dp->family->entry_probe(el->s, dp))) {
			vec_push(a, &probes, dp);
			continue;
		}
		vec_push(a, &call, tid_stmt(a, dp->loc));
		vec_push(a, &ret, tid_stmt(a, dp->loc));
		for (j = 0; j < en.found.n; j++)
			split(el, en.found.v[j], en.guards.v[j], k++, &call,
			      &ret);
		cp->body = ast_block(a, dp->body->loc, call);
		cp->entry_call = 1;
		prepend(a, dp, &ret);
		vec_push(a, &probes, cp);
		vec_push(a, &probes, dp);
	}
	el->prog->probes = probes;
	VEC_EACH(el->prog->probes, i, dp)
		dp->index = i;
}
