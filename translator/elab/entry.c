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
#include <string.h>

#include "ast/ast_new.h"
#include "ast/ast_walk.h"
#include "util/diag.h"
#include "elab/elab.h"

#define TID_LOCAL "_entry_tvar_tid"

struct entries {
	struct arena *a;
	struct vec found;	/* struct exp *: the @entry nodes */
	struct session *s;
	const struct derived_probe *dp;
};

static int find_entry(struct walker *w, struct exp *e)
{
	struct entries *en = w->arg;
	const struct probe_family *fam = en->dp->family;

	if (e->kind == EX_DEFINED)	/* asks only whether $NAME resolves */
		return 1;
	if ((e->kind == EX_TARGET || e->kind == EX_TARGET_LIST) &&
	    fam->entry_target &&
	    fam->entry_target(en->s, en->dp, e->u.target.name)) {
		struct exp *target = ARENA_NEW(en->a, struct exp);

		diag_warning(&en->s->diags, e->loc, "sema.entry-captured",
			     "confusing usage, value is captured as @entry($%s) in .return probe",
			     e->u.target.name);
		*target = *e;	/* $NAME becomes @entry($NAME), in place */
		memset(&e->u, 0, sizeof e->u);
		e->kind = EX_ENTRY;
		e->u.op.operand = target;
	}
	if (e->kind != EX_ENTRY)
		return 0;
	vec_push(en->a, &en->found, e);
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

/* The statements that save entry K (E's operand) in the call probe, and
 * those that take it back in the return probe; E becomes the value. */
static void split(struct elab *el, struct exp *e, int k, struct vec *call,
		  struct vec *ret)
{
	struct arena *a = el->s->arena;
	struct loc loc = e->loc;
	const char *g = arena_printf(a, "__global_entry_tvar_entry_%d", k);
	const char *ctr = arena_printf(a, "%s_ctr", g);
	const char *tmp = arena_printf(a, "%s_tmp", g);

	add_global(el, g, loc);
	add_global(el, ctr, loc);
	vec_push(a, call, assign(a, loc, cell(a, loc, g,
		ast_unary(a, EX_PRE_INC, loc, OP_INC, cell(a, loc, ctr, NULL))),
		e->u.op.operand));
	vec_push(a, ret, assign(a, loc, sym(a, loc, tmp),
		cell(a, loc, g, cell(a, loc, ctr, NULL))));
	vec_push(a, ret, ast_exp_stmt(a, ST_DELETE, loc, cell(a, loc, g,
		ast_unary(a, EX_POST_INC, loc, OP_DEC, cell(a, loc, ctr, NULL)))));
	vec_push(a, ret, ast_if(a, loc,
		ast_unary(a, EX_UNARY, loc, OP_NOT, cell(a, loc, ctr, NULL)),
		ast_exp_stmt(a, ST_DELETE, loc, cell(a, loc, ctr, NULL)), NULL));
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
		struct entries en = { a, {0}, el->s, dp };
		struct walker w = { .exp = find_entry, .arg = &en };
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
			split(el, en.found.v[j], k++, &call, &ret);
		cp->body = ast_block(a, dp->body->loc, call);
		prepend(a, dp, &ret);
		vec_push(a, &probes, cp);
		vec_push(a, &probes, dp);
	}
	el->prog->probes = probes;
	VEC_EACH(el->prog->probes, i, dp)
		dp->index = i;
}
