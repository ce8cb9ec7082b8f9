/* elaborate.c - pass 2: from parsed files to the resolved program.
 *
 * Order: collect declarations; derive probes from the user's probe points;
 * bind names in each probe and, through a worklist, in every function the
 * probes reach; check print formats; infer types; drop what is unused.
 * Prints the -p2 listing when it is the last pass.
 */
#include <string.h>

#include "elab.h"

static void bind_all(struct elab *el)
{
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(el->prog->probes, i, dp)
		elab_bind_probe(el, dp);
	for (i = 0; i < el->func_work.n; i++) {
		f = el->func_work.v[i];
		f->info->index = el->prog->funcs.n;
		vec_push(el->s->arena, &el->prog->funcs, f);
		elab_bind_func(el, f);
	}
}

/* Keep the globals some probe uses, in declaration order. */
static void keep_globals(struct elab *el)
{
	struct sym *sym;
	int i;

	VEC_EACH(el->globals, i, sym) {
		if (!sym->read && !sym->written && !el->s->unoptimized) {
			if (sym->decl->file && sym->decl->file->is_user)
				diag_warning(&el->s->diags, sym->loc, "sema.unused-global",
					     "eliding unused variable '%s'", sym->name);
			continue;
		}
		sym->index = el->prog->globals.n;
		vec_push(el->s->arena, &el->prog->globals, sym);
	}
}

/* Top-level %{ %} blocks of the user's files, and of tapset files that
 * contribute a function or probe. */
static void keep_embeds(struct elab *el)
{
	struct file_ast *fa;
	struct func *f;
	int i, j, k;

	VEC_EACH(el->s->user_files, i, fa)
		for (j = 0; j < fa->embeds.n; j++)
			vec_push(el->s->arena, &el->prog->embeds, fa->embeds.v[j]);
	VEC_EACH(el->s->library_files, i, fa) {
		int used = 0;
		VEC_EACH(el->prog->funcs, k, f)
			if (f->file == fa->file)
				used = 1;
		if (used)
			for (j = 0; j < fa->embeds.n; j++)
				vec_push(el->s->arena, &el->prog->embeds,
					 fa->embeds.v[j]);
	}
}

/* Longest chain of calls from a probe, counting each function once.
 * Recursion is bounded at run time by MAXNESTING nested calls: this + 11,
 * but at least 13 — the limits stap 4.8 enforces (measured). */
static int call_depth(struct func *f, int depth)
{
	struct func *g;
	int i, best = 0, d;

	if (f->info->index < 0 || depth > 1000)
		return 0;
	f->info->index = -1 - f->info->index;	/* on the path */
	VEC_EACH(f->info->callees, i, g) {
		d = call_depth(g, depth + 1);
		if (d > best)
			best = d;
	}
	for (g = f->info->next_overload; g; g = g->info->next_overload) {
		d = call_depth(g, depth + 1) - 1;
		if (d > best)
			best = d;
	}
	f->info->index = -1 - f->info->index;
	return best + 1;
}

static int max_nesting(struct program *p)
{
	struct derived_probe *dp;
	struct func *f;
	int i, j, best = 0, d;

	VEC_EACH(p->probes, i, dp)
		VEC_EACH(dp->callees, j, f) {
			d = call_depth(f, 0);
			if (d > best)
				best = d;
		}
	return best + 11 > 13 ? best + 11 : 13;
}

static void warn_locals(struct elab *el, struct vec *locals)
{
	struct sym *sym;
	int i;

	VEC_EACH(*locals, i, sym)
		if (!sym->written && sym->loc.file && sym->loc.file->is_user)
			diag_warning(&el->s->diags, sym->loc, "sema.never-assigned",
				     "never-assigned local variable '%s'", sym->name);
}

int pass_elaborate(struct session *s)
{
	struct elab el;
	struct derived_probe *dp;
	int i;

	memset(&el, 0, sizeof el);
	el.s = s;
	el.prog = ARENA_NEW(s->arena, struct program);
	s->program = el.prog;
	elab_collect(&el);
	elab_derive_probes(&el);
	if (s->diags.errors)
		return 1;
	if (s->list_probes || s->list_probes_vars) {
		s->exit_status = elab_list_probes(s, el.prog) ? 0 : 1;
		return 0;
	}
	if (!el.prog->probes.n) {
		diag_fatal(&s->diags, "no probes found");
		return 1;
	}
	bind_all(&el);
	elab_resolve_targets(&el);
	elab_close_globals(&el);
	keep_globals(&el);
	keep_embeds(&el);
	VEC_EACH(el.prog->probes, i, dp)
		warn_locals(&el, &dp->locals);
	printcheck_program(s, el.prog);
	elab_infer_types(&el);
	if (s->diags.errors)
		return 1;
	elab_optimize(&el);
	if (!el.prog->probes.n) {
		diag_fatal(&s->diags, "no probes found: every probe was elided, since none does anything");
		return 1;
	}
	el.prog->max_nesting = max_nesting(el.prog);
	if (s->last_pass == 2)
		elab_print_program(s, el.prog);
	return 0;
}
