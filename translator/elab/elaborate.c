/* elaborate.c - pass 2: from parsed files to the resolved program.
 *
 * The table steps[] at the end runs it in order: collect declarations;
 * derive probes from the user's probe points; bind names in each probe
 * and, through a worklist, in every function the probes reach; check print
 * formats; infer types; drop what is unused.  Some steps run only under an
 * option (-l/-L, -u, -p2); some may end the pass (a dump or a listing is
 * all that was asked for; errors so far stop it).  Prints the -p2 listing
 * when it is the last pass.
 */
#include <stdlib.h>
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"

/* Binds the probes, then the functions they reach; a tapset file the
 * program comes to use brings its own probes, which are bound in turn. */
static void bind_all(struct elab *el)
{
	struct func *f;
	int np = 0, nf = 0;

	do {
		for (; np < el->prog->probes.n; np++)
			elab_bind_probe(el, el->prog->probes.v[np]);
		for (; nf < el->func_work.n; nf++) {
			f = el->func_work.v[nf];
			f->info->index = el->prog->funcs.n;
			vec_push(el->s->arena, &el->prog->funcs, f);
			elab_bind_func(el, f);
		}
	} while (elab_derive_tapset_probes(el));
}

static int note_mention(struct walker *w, struct exp *e)
{
	struct elab *el = w->arg;
	struct sym *sym;

	if (e->kind != EX_SYM || !(sym = e->u.sym.sym) ||
	    sym->kind != SYM_GLOBAL || (!sym->read && !sym->written))
		return 0;
	vec_add_unique(el->s->arena, &el->prog->globals, sym);
	return 0;
}

static int cmp_func_name(const void *a, const void *b)
{
	const struct func *x = *(const struct func *const *)a;
	const struct func *y = *(const struct func *const *)b;
	int c = x->is_private - y->is_private;

	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : x->info->index - y->info->index;
}

/* Keep the globals the program uses, in the order stap 4.8 lists them:
 * as first mentioned by the probes in order, then by the functions in
 * the order -p2 lists them. */
static int cmp_mention(const void *a, const void *b)
{
	const struct sym *x = *(const struct sym *const *)a;
	const struct sym *y = *(const struct sym *const *)b;

	return (x->mention > y->mention) - (x->mention < y->mention);
}

static void keep_globals(struct elab *el)
{
	struct walker w = { .exp = note_mention, .arg = el };
	struct derived_probe *dp;
	struct vec funcs = {0};
	struct func *f;
	struct sym *sym;
	int i;

	el->prog->globals = (struct vec){0};
	VEC_EACH(el->prog->probes, i, dp) {
		walk_stmt(&w, dp->body);
		walk_exp(&w, dp->cond);
	}
	VEC_EACH(el->prog->funcs, i, f)
		vec_push(el->s->arena, &funcs, f);
	if (funcs.n)
		qsort(funcs.v, (size_t)funcs.n, sizeof(void *), cmp_func_name);
	VEC_EACH(funcs, i, f)
		walk_stmt(&w, f->body);
	/* -u: what splitting took away still needs a type, as declared */
	VEC_EACH(el->globals_before_split, i, sym) {
		if (!sym->read && !sym->written) {
			sym->read = 1;
			sym->use_loc = (struct loc){0};
		}
		vec_add_unique(el->s->arena, &el->prog->globals, sym);
	}
	/* in the order of the first mentions before optimization, once
	 * rank_globals has ranked them (all or none) */
	if (el->prog->globals.n &&
	    ((struct sym *)el->prog->globals.v[0])->mention)
		qsort(el->prog->globals.v, (size_t)el->prog->globals.n,
		      sizeof(void *), cmp_mention);
	VEC_EACH(el->prog->globals, i, sym)
		sym->index = i;
}

/* -u: stap still splits expressions whose value is unused (opt.c), after
 * it chose the globals, so a global only read there stays, untyped; the
 * functions no longer called go after types are inferred. */
static void split_void(struct elab *el)
{
	keep_globals(el);
	el->globals_before_split = el->prog->globals;
	if (elab_reduce_void(el))
		elab_rescan_marking(el);
}

/* Before optimizing: the order stap lists globals in. */
static void rank_globals(struct elab *el)
{
	struct sym *sym;
	int i;

	keep_globals(el);
	VEC_EACH(el->prog->globals, i, sym)
		sym->mention = i + 1;
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

/* A probe point list or alias gives several probes the same body: warn
 * once per place. */
static void warn_locals(struct elab *el, struct vec *locals, struct vec *seen)
{
	struct sym *sym, *prev;
	int i, j;

	VEC_EACH(*locals, i, sym) {
		if (sym->written || !sym->loc.file || !sym->loc.file->is_user)
			continue;
		VEC_EACH(*seen, j, prev)
			if (prev->loc.file == sym->loc.file &&
			    prev->loc.line == sym->loc.line &&
			    prev->loc.col == sym->loc.col)
				break;
		if (j < seen->n)
			continue;
		vec_push(el->s->arena, seen, sym);
		diag_warning(&el->s->diags, sym->loc, "sema.never-assigned",
			     "never-assigned local variable '%s'", sym->name);
	}
}

static int set_by_option(struct session *s, const char *name)
{
	struct kv *kv;
	int i;

	VEC_EACH(s->globals_set, i, kv)
		if (!strcmp(kv->name, name))
			return 1;
	return 0;
}

/* Globals of the user's files that the program reads but nothing assigns
 * (an initializer assigns, and so does -G VAR=VALUE). */
static void warn_globals(struct elab *el)
{
	struct sym *sym;
	int i;

	VEC_EACH(el->globals, i, sym)
		if (sym->read && !sym->written && !sym->decl->init &&
		    sym->decl->file && sym->decl->file->is_user &&
		    !set_by_option(el->s, sym->name))
			diag_warning(&el->s->diags, sym->loc, "sema.never-assigned-global",
				     "never-assigned global variable '%s'", sym->name);
}

/* Does the program keep a function or global of tapset file F? */
static int keeps_file(const struct program *p, const struct src_file *f)
{
	const struct func *fn;
	const struct sym *sym;
	int i;

	if (!p)
		return 0;
	VEC_EACH(p->funcs, i, fn)
		if (fn->file == f)
			return 1;
	VEC_EACH(p->globals, i, sym)
		if (sym->decl && sym->decl->file == f)
			return 1;
	return 0;
}

/* Every script argument neither $N nor @N named (in code that was kept),
 * warned about at the end of pass 2 whatever its outcome, as stap. */
static void warn_unused_args(struct session *s)
{
	const struct arg_use *u;
	int i;

	VEC_EACH(s->tapset_arg_uses, i, u)
		if (keeps_file(s->program, u->file)) {
			if (!s->args_used)
				s->args_used = arena_alloc(s->arena, (size_t)s->args.n);
			s->args_used[u->n - 1] = 1;
		}
	for (i = 0; i < s->args.n; i++)
		if (!s->args_used || !s->args_used[i])
			diag_plain_warning(&s->diags,
					   "unused command line option $%d/@%d",
					   i + 1, i + 1);
}

/* Which locals the script reads before folding takes any read away. */
static void note_reads(struct elab *el)
{
	struct derived_probe *dp;
	struct func *f;
	struct sym *sym;
	int i, j;

	VEC_EACH(el->prog->probes, i, dp)
		VEC_EACH(dp->locals, j, sym)
			sym->read_as_bound = sym->read;
	VEC_EACH(el->prog->funcs, i, f)
		if (f->info)
			VEC_EACH(f->info->locals, j, sym)
				sym->read_as_bound = sym->read;
}

/* stap warns of never-assigned variables from its optimizer */
static void warn_unassigned(struct elab *el)
{
	struct derived_probe *dp;
	struct func *f;
	struct vec seen = {0};
	int i;

	warn_globals(el);
	VEC_EACH(el->prog->probes, i, dp)
		warn_locals(el, &dp->locals, &seen);
	VEC_EACH(el->prog->funcs, i, f)
		warn_locals(el, &f->info->locals, &seen);
}

/* -L lists the aliases' locals with their types */
static void type_for_listing(struct elab *el)
{
	bind_all(el);
	/* target variables typed by their families ($value is a string);
	 * one that does not resolve stays untyped, quietly */
	el->s->diags.quiet++;
	elab_resolve_targets(el);
	/* a printf's formats type its arguments (an untyped one %d makes
	   a long, as stap's -L shows it) */
	printcheck_program(el->s, el->prog);
	el->s->diags.quiet--;
	elab_infer_types_quietly(el);
}

static void check_prints(struct elab *el)
{
	printcheck_program(el->s, el->prog);
}

static void measure(struct elab *el)
{
	el->prog->max_nesting = max_nesting(el->prog);
	el->prog->nsynthesized = elab_synthesized_probes(el->s, el->prog);
	el->prog->declared_funcs = el->funcs;
}

/* How a step that may end pass 2 leaves it. */
enum outcome { GO_ON, PASS_DONE, PASS_FAILED };

static enum outcome no_errors(struct elab *el)
{
	return el->s->diags.errors ? PASS_FAILED : GO_ON;
}

static enum outcome dump_info(struct elab *el)
{
	if (!elab_dump_info(el))
		return GO_ON;
	el->s->last_pass = 2;	/* nothing more to do */
	return PASS_DONE;
}

static enum outcome list_probes(struct elab *el)
{
	el->s->exit_status = elab_list_probes(el->s, el->prog) ? 0 : 1;
	return PASS_DONE;
}

static enum outcome some_probe(struct elab *el)
{
	if (el->prog->probes.n)
		return GO_ON;
	diag_fatal(&el->s->diags, "no probes found");
	return PASS_FAILED;
}

static enum outcome optimize(struct elab *el)
{
	elab_optimize(el);
	if (el->prog->probes.n)
		return GO_ON;
	diag_fatal(&el->s->diags, "no probes found: every probe was elided, since none does anything");
	return PASS_FAILED;
}

static int listing_vars(const struct session *s)
{
	return s->list_probes_vars != NULL;
}

static int listing(const struct session *s)
{
	return s->list_probes || s->list_probes_vars;
}

static int optimizing(const struct session *s)
{
	return !s->unoptimized;
}

static int unoptimizing(const struct session *s)
{
	return s->unoptimized;
}

static int last_pass_2(const struct session *s)
{
	return s->last_pass == 2;
}

/* One step of pass 2: exactly one of run and end is set. */
struct step {
	const char *what;
	int (*when)(const struct session *s);	/* NULL: always */
	void (*run)(struct elab *el);		/* a step that goes on, */
	enum outcome (*end)(struct elab *el);	/* or one that may end the pass */
};

static const struct step steps[] = {
	{ "collect declarations", NULL, elab_collect, NULL },
	{ "--dump-*: the dump is all", NULL, NULL, dump_info },
	{ "derive probes", NULL, elab_derive_probes, NULL },
	{ "errors so far", NULL, NULL, no_errors },
	{ "-L: type the aliases' locals", listing_vars, type_for_listing, NULL },
	{ "-l/-L: the listing is all", listing, NULL, list_probes },
	{ "a probe at least", NULL, NULL, some_probe },
	{ "expand @entry", NULL, elab_expand_entries, NULL },
	{ "bind probes and functions", NULL, bind_all, NULL },
	{ "check arities", NULL, elab_check_arity, NULL },
	{ "check --privilege", NULL, elab_check_privilege, NULL },
	{ "note reads", NULL, note_reads, NULL },
	{ "resolve target variables", NULL, elab_resolve_targets, NULL },
	{ "resolve autocasts", NULL, elab_resolve_autocasts, NULL },
	{ "close globals", NULL, elab_close_globals, NULL },
	{ "warn of never-assigned", optimizing, warn_unassigned, NULL },
	{ "errors so far", NULL, NULL, no_errors },
	{ "-u: split void expressions", unoptimizing, split_void, NULL },
	{ "fold @defined and literals", NULL, elab_fold_defined, NULL },
	{ "rank globals", optimizing, rank_globals, NULL },
	{ "optimize", optimizing, NULL, optimize },
	{ "hoist stable calls", optimizing, elab_hoist_stable, NULL },
	{ "rescan", optimizing, elab_rescan, NULL },
	{ "report unresolved targets", NULL, elab_report_unresolved_targets, NULL },
	{ "errors so far", NULL, NULL, no_errors },
	{ "keep used globals", NULL, keep_globals, NULL },
	{ "keep used embeds", NULL, keep_embeds, NULL },
	{ "check print formats", NULL, check_prints, NULL },
	{ "infer types", NULL, elab_infer_types, NULL },
	{ "errors so far", NULL, NULL, no_errors },
	{ "-u: drop functions no longer called", unoptimizing, elab_drop_unreached, NULL },
	{ "drop hidden overloads", NULL, elab_drop_hidden_overloads, NULL },
	{ "check foreach", NULL, elab_check_foreach, NULL },
	{ "check histograms", NULL, elab_check_hists, NULL },
	{ "errors so far", NULL, NULL, no_errors },
	{ "nesting, synthesized probes, declared functions", NULL, measure, NULL },
	{ "functions stap keeps for DWARF accesses", NULL, elab_keep_tvar_fns, NULL },
	{ "-p2 listing", last_pass_2, elab_print_program, NULL },
};

static int elaborate(struct session *s)
{
	struct elab el;
	const struct step *st;
	enum outcome o;

	memset(&el, 0, sizeof el);
	el.s = s;
	el.prog = ARENA_NEW(s->arena, struct program);
	s->program = el.prog;
	for (st = steps; st < steps + sizeof steps / sizeof steps[0]; st++) {
		if (st->when && !st->when(s))
			continue;
		if (st->run)
			st->run(&el);
		else if ((o = st->end(&el)) != GO_ON)
			return o == PASS_FAILED;
	}
	return 0;
}

int pass_elaborate(struct session *s)
{
	int rc = elaborate(s);

	warn_unused_args(s);
	return rc;
}
