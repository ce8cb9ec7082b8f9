/* bind.c - binding names to symbols and calls to functions (pass 2).
 *
 * In a probe or function body a name is, in order: a parameter, a global
 * (private ones only from their own file), or else a local, created on
 * first sight.  Calls resolve by name and arity; every function reached is
 * queued and bound in turn, so only what the probes use is kept.  Records,
 * per body, the globals it reads and writes and the functions it calls;
 * elab_close_globals then folds callees' globals into each probe, which
 * decides the locks the probe takes.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"
#include "util/similar.h"

static struct sym *find_in(struct vec *v, const char *name)
{
	struct sym *sym;
	int i;

	if (!v)
		return NULL;
	VEC_EACH(*v, i, sym)
		if (!strcmp(sym->name, name))
			return sym;
	return NULL;
}

static struct sym *lookup(struct elab *el, struct exp *e)
{
	const char *name = e->u.sym.name;
	struct sym *sym;

	if ((sym = find_in(el->params, name)))
		return sym;
	/* a private global is visible from the file the name is written in
	 * (an alias's body in a probe keeps its tapset file's privates) */
	if ((sym = elab_find_global(el, name, e->loc.file ? e->loc.file : el->file)))
		return sym;
	if ((sym = find_in(el->locals, name)))
		return sym;
	sym = ARENA_NEW(el->s->arena, struct sym);
	sym->kind = SYM_LOCAL;
	sym->name = name;
	sym->loc = e->loc;
	sym->arity = -1;
	sym->index = el->locals->n;
	vec_push(el->s->arena, el->locals, sym);
	return sym;
}

static int find_next(struct walker *w, struct stmt *st)
{
	if (st->kind == ST_NEXT)
		*(int *)w->arg = 1;
	return 0;
}

static int may_next(struct func *f)
{
	int found = 0;
	struct walker w = { .stmt = find_next, .arg = &found };

	walk_stmt(&w, f->body);
	return found;
}

static void arity_error(struct elab *el, struct exp *e)
{
	struct func *f, *last = NULL;
	int i;

	VEC_EACH(el->funcs, i, f)	/* stap names the last declaration's */
		if (!strcmp(f->name, e->u.call.name) &&
		    (!f->is_private || f->file == el->file))
			last = f;
	diag_error(&el->s->diags, e->loc, "sema.call-arity",
		   "arity mismatch found (function '%s' takes %d args)",
		   e->u.call.name, last ? last->params.n : 0);
	VEC_EACH(el->funcs, i, f)
		if (!strcmp(f->name, e->u.call.name) &&
		    (!f->is_private || f->file == el->file))
			diag_note(&el->s->diags, f->loc, "'%s' is declared here with %d parameter%s",
				  f->name, f->params.n, f->params.n == 1 ? "" : "s");
}

/* " (similar: a, b)" for the visible functions named like NAME, or "". */
static const char *similar_functions(struct elab *el, const char *name)
{
	static const char *const builtins[] = {
		"print", "println", "printf", "printd", "printdln", "sprint",
		"sprintln", "sprintf", "sprintd", "sprintdln",
	};
	struct vec names = {0};
	struct func *f;
	size_t j;
	int i;

	for (j = 0; j < sizeof builtins / sizeof builtins[0]; j++)
		vec_push(el->s->arena, &names, (void *)builtins[j]);
	VEC_EACH(el->funcs, i, f)
		if (!f->is_private || f->file == el->file)
			vec_push(el->s->arena, &names, (void *)f->name);
	return similar_names(el->s->arena, name, &names);
}

/* Candidates for a call: same name and arity, visible from this file,
 * ordered by priority (stable).  Returns the first; the rest chain through
 * func_info->next_overload. */
static struct func *resolve_call(struct elab *el, struct exp *e)
{
	struct func *f, *best = NULL, **tail = &best;
	struct vec cands = {0};
	int i, j, n = e->u.call.args.n, any_name = 0;

	VEC_EACH(el->funcs, i, f) {
		if (strcmp(f->name, e->u.call.name))
			continue;
		if (f->is_private && f->file != (e->loc.file ? e->loc.file : el->file))
			continue;
		any_name = 1;
		if (f->params.n != n)
			continue;
		vec_push(el->s->arena, &cands, f);
	}
	if (!cands.n) {
		if (any_name)
			arity_error(el, e);
		else
			diag_error(&el->s->diags, e->loc, "sema.unresolved-function",
				   "unresolved function '%s'%s", e->u.call.name,
				   similar_functions(el, e->u.call.name));
		return NULL;
	}
	/* insertion sort by priority keeps declaration order on ties */
	for (i = 1; i < cands.n; i++)
		for (j = i; j > 0 && ((struct func *)cands.v[j - 1])->priority >
				     ((struct func *)cands.v[j])->priority; j--) {
			void *t = cands.v[j];
			cands.v[j] = cands.v[j - 1];
			cands.v[j - 1] = t;
		}
	/* An overload that never does `next` hides the ones after it; as in
	 * stap they are still checked with the rest (their return types must
	 * agree) until elab_drop_hidden_overloads. */
	for (i = 0, j = 1; i < cands.n; i++) {
		f = cands.v[i];
		if (!f->info) {
			f->info = ARENA_NEW(el->s->arena, struct func_info);
			f->info->func = f;
			vec_push(el->s->arena, &el->func_work, f);
		}
		f->info->tried |= j;
		j = j && may_next(f);
		*tail = f;
		tail = &f->info->next_overload;
	}
	*tail = NULL;
	return best;
}

static void note_global(struct elab *el, struct sym *sym, int write)
{
	if (sym->kind != SYM_GLOBAL)
		return;
	vec_add_unique(el->s->arena, el->used, sym);
	if (write)
		vec_add_unique(el->s->arena, el->written, sym);
	else
		vec_add_unique(el->s->arena, el->read, sym);
}

/* The symbol an lvalue or array reference names, if any. */
static struct sym *target_sym(struct exp *e)
{
	if (!e)
		return NULL;
	if (e->kind == EX_SYM)
		return e->u.sym.sym;
	if (e->kind == EX_INDEX && e->u.index.base &&
	    e->u.index.base->kind == EX_SYM)
		return e->u.index.base->u.sym.sym;
	return NULL;
}

static void mark_written(struct elab *el, struct exp *e)
{
	struct sym *sym = target_sym(e);

	if (!sym)
		return;
	sym->written = 1;
	note_global(el, sym, 1);
}

/* What an assignment may change: a variable, an array element, or one of
 * the target expressions (whose families say whether they are writable);
 * never a value (1 = 2, f() = 1, (c ? x : y) = 3). */
static int is_lvalue(const struct exp *e)
{
	switch (e->kind) {
	case EX_NUM: case EX_STR: case EX_BINARY: case EX_UNARY:
	case EX_PRE_INC: case EX_POST_INC: case EX_LOG_OR: case EX_LOG_AND:
	case EX_IN: case EX_REGEX: case EX_CMP: case EX_CONCAT:
	case EX_TERNARY: case EX_ASSIGN: case EX_CALL: case EX_PRINT:
	case EX_STAT: case EX_HIST: case EX_DEFINED: case EX_PROBEWRITE:
		return 0;
	default:
		return 1;
	}
}

static int bind_exp(struct walker *w, struct exp *e)
{
	struct elab *el = w->arg;
	struct func *f;

	switch (e->kind) {
	case EX_SYM:
		e->u.sym.sym = lookup(el, e);
		break;
	case EX_ASSIGN:
		if (!is_lvalue(e->u.bin.left))
			diag_error(&el->s->diags, e->loc, "sema.lvalue",
				   "the left of '%s' must be a variable or an array element",
				   op_name(e->u.bin.op));
		break;
	case EX_CALL:
		f = resolve_call(el, e);
		if (f && f->guru && !el->s->guru && el->file && el->file->is_user)
			diag_error(&el->s->diags, e->loc, "sema.guru-function",
				   "function may not be used unless -g is specified");
		e->u.call.func = f;
		break;
	default:
		break;
	}
	return 0;
}

/* After binding: which symbols are written, and which are read.  The
 * target of a plain assignment, `<<<` or delete is written, not read (its
 * index expressions are read); every other mention reads. */
static int mark_exp(struct walker *w, struct exp *e);

static void mark_lvalue_indexes(struct walker *w, struct exp *lv)
{
	int i;

	if (lv && lv->kind == EX_INDEX)
		for (i = 0; i < lv->u.index.indexes.n; i++)
			walk_exp(w, lv->u.index.indexes.v[i]);
}

/* A global only updated in place (x++, x[k] += n) where the update's
 * value is unused (a statement, a for's init or step) still counts as
 * written-only: stap displays it at the end.  `if (x++)` reads x. */
static int global_update(struct elab *el, struct exp *e, struct exp *target)
{
	struct sym *sym = target_sym(target);

	return sym && sym->kind == SYM_GLOBAL &&
	       (el->discarded[0] == e || el->discarded[1] == e);
}

static int mark_exp(struct walker *w, struct exp *e)
{
	struct elab *el = w->arg;

	switch (e->kind) {
	case EX_SYM:
		e->u.sym.sym->read = 1;
		note_global(el, e->u.sym.sym, 0);
		break;
	case EX_CALL:
		if (e->u.call.func)
			vec_add_unique(el->s->arena, el->callees, e->u.call.func);
		break;
	case EX_ASSIGN:
		mark_written(el, e->u.bin.left);
		if (!is_lvalue(e->u.bin.left))	/* sema.lvalue: all of it is read */
			break;
		if (e->u.bin.op == OP_ASSIGN || e->u.bin.op == OP_APPEND ||
		    global_update(el, e, e->u.bin.left)) {
			mark_lvalue_indexes(w, e->u.bin.left);
			walk_exp(w, e->u.bin.right);
			return 1;
		}
		break;
	case EX_PRE_INC: case EX_POST_INC:
		mark_written(el, e->u.un.operand);
		if (global_update(el, e, e->u.un.operand)) {
			mark_lvalue_indexes(w, e->u.un.operand);
			return 1;
		}
		break;
	default:
		break;
	}
	return 0;
}

static int mark_stmt(struct walker *w, struct stmt *st)
{
	struct elab *el = w->arg;
	int i;

	switch (st->kind) {
	case ST_EXP:
		el->discarded[0] = st->u.exp;
		break;
	case ST_FOR:
		el->discarded[0] = st->u.for_.init;
		el->discarded[1] = st->u.for_.incr;
		break;
	case ST_DELETE:
		/* stap counts a delete as reading its array too: a deleted
		 * global is not displayed at the end, a deleted local kept */
		mark_written(el, st->u.exp);
		break;
	case ST_FOREACH:
		for (i = 0; i < st->u.foreach.keys.n; i++) {
			struct sym *k = target_sym(st->u.foreach.keys.v[i]);
			if (k) {
				k->written = 1;
				k->is_foreach_key = 1;
			}
		}
		mark_written(el, st->u.foreach.value);
		break;
	case ST_TRY:
		/* the catch variable is written, not read */
		mark_written(el, st->u.try_.catch_var);
		walk_stmt(w, st->u.try_.body);
		walk_stmt(w, st->u.try_.handler);
		return 1;
	default:
		break;
	}
	return 0;
}

static int bind_stmt(struct walker *w, struct stmt *st)
{
	int64_t limit;

	/* stap 4.8 drops a foreach whose limit is a number <= 0 before
	 * resolving its symbols (also with -u): its array may then be
	 * written only, and displayed at the end */
	if (st->kind == ST_FOREACH && exp_int_literal(st->u.foreach.limit, &limit) &&
	    limit <= 0) {
		st->kind = ST_NULL;
		return 1;
	}
	return 0;
}

/* Record, for the body in el's current scope, what it reads, writes and
 * calls. */
static void scan_body(struct elab *el, struct stmt *body, struct exp *cond)
{
	struct walker m = { .exp = mark_exp, .stmt = mark_stmt, .arg = el };

	walk_stmt(&m, body);
	walk_exp(&m, cond);
}

static void bind_body(struct elab *el, struct stmt *body, struct exp *cond)
{
	struct walker w = { .exp = bind_exp, .stmt = bind_stmt, .arg = el };

	walk_stmt(&w, body);
	walk_exp(&w, cond);
	scan_body(el, body, cond);
}

/* A probe's `if (…)` condition is evaluated outside the probe, when
 * globals change: it may read globals, nothing else (stap's rules). */
static int check_cond_exp(struct walker *w, struct exp *e)
{
	struct elab *el = w->arg;

	switch (e->kind) {
	case EX_SYM:
		if (e->u.sym.sym && e->u.sym.sym->kind != SYM_GLOBAL)
			diag_error(&el->s->diags, e->loc, "sema.probe-cond",
				   "probe condition must not reference undeclared global");
		break;
	case EX_CALL: case EX_PRINT:
		diag_error(&el->s->diags, e->loc, "sema.probe-cond",
			   "probe condition must not reference function");
		break;
	case EX_ASSIGN: case EX_PRE_INC: case EX_POST_INC:
		diag_error(&el->s->diags, e->loc, "sema.probe-cond",
			   "probe condition must not modify any variables");
		break;
	default:
		break;
	}
	return 0;
}

void elab_bind_probe(struct elab *el, struct derived_probe *dp)
{
	struct vec callees = {0};

	el->locals = &dp->locals;
	el->params = NULL;
	el->file = dp->loc.file;
	el->used = &dp->globals_used;
	el->written = &dp->globals_written;
	el->read = &dp->globals_read;
	el->callees = &callees;
	bind_body(el, dp->body, dp->cond);
	dp->callees = callees;
	if (dp->cond) {
		struct walker w = { .exp = check_cond_exp, .arg = el };

		walk_exp(&w, dp->cond);
	}
}

void elab_bind_func(struct elab *el, struct func *f)
{
	struct func_info *fi = f->info;
	struct param *p;
	int i;

	VEC_EACH(f->params, i, p) {
		struct sym *sym = ARENA_NEW(el->s->arena, struct sym);
		sym->kind = SYM_PARAM;
		sym->name = p->name;
		sym->loc = p->loc;
		sym->type = p->decl_type;
		sym->type_loc = p->loc;
		sym->index = i;
		sym->written = 1;
		vec_push(el->s->arena, &fi->params, sym);
	}
	if (f->decl_type != TY_UNKNOWN) {
		f->type = f->decl_type;
		f->type_loc = f->loc;
	}
	el->locals = &fi->locals;
	el->params = &fi->params;
	el->file = f->file;
	el->used = &fi->globals_used;
	el->written = &fi->globals_written;
	el->read = &fi->globals_read;
	el->callees = &fi->callees;
	bind_body(el, f->body, NULL);
	f->used = 1;
}

/* Fold the globals of every function reachable from each probe into the
 * probe's own lists (a simple worklist over the call graph). */
void elab_close_globals(struct elab *el)
{
	struct derived_probe *dp;
	struct arena *a = el->s->arena;
	int i, j, k;

	VEC_EACH(el->prog->probes, i, dp) {
		struct vec seen = {0};
		struct func *f;

		VEC_EACH(dp->callees, j, f)
			vec_add_unique(a, &seen, f);
		for (j = 0; j < seen.n; j++) {
			struct func_info *fi = ((struct func *)seen.v[j])->info;
			struct func *g;
			struct sym *sym;

			for (g = fi->func; g; g = g->info->next_overload)
				vec_add_unique(a, &seen, g);
			VEC_EACH(fi->callees, k, g)
				vec_add_unique(a, &seen, g);
			VEC_EACH(fi->globals_used, k, sym)
				vec_add_unique(a, &dp->globals_used, sym);
			VEC_EACH(fi->globals_written, k, sym)
				vec_add_unique(a, &dp->globals_written, sym);
			VEC_EACH(fi->globals_read, k, sym)
				vec_add_unique(a, &dp->globals_read, sym);
		}
	}
}

static void clear_flags(struct vec *syms, int written)
{
	struct sym *sym;
	int i;

	VEC_EACH(*syms, i, sym) {
		sym->read = 0;
		sym->written = written;
	}
}

static void set_scope(struct elab *el, struct vec *locals, struct vec *params,
		      const struct src_file *file, struct vec *used,
		      struct vec *written, struct vec *read, struct vec *callees)
{
	*used = *written = *read = *callees = (struct vec){0};
	el->locals = locals;
	el->params = params;
	el->file = file;
	el->used = used;
	el->written = written;
	el->read = read;
	el->callees = callees;
}

/* Once types are checked: overloads that no call can reach (hidden behind
 * one that never does `next`) leave the chains and the program. */
void elab_drop_hidden_overloads(struct elab *el)
{
	struct program *p = el->prog;
	struct vec kept = {0};
	struct func *f, **link;
	int i;

	VEC_EACH(p->funcs, i, f) {
		for (link = &f->info->next_overload; *link;
		     link = &(*link)->info->next_overload)
			if (!(*link)->info->tried) {
				*link = NULL;
				break;
			}
		if (!f->info->tried)
			continue;
		f->info->index = kept.n;
		vec_push(el->s->arena, &kept, f);
	}
	p->funcs = kept;
}

/* After code was removed: recompute what each body reads, writes and
 * calls, which functions are still reached (f->used; with DROP the others
 * leave prog->funcs, which keeps its order and renumbers), and the globals
 * of each probe. */
static void rescan(struct elab *el, int drop)
{
	struct program *p = el->prog;
	struct arena *a = el->s->arena;
	struct vec reached = {0}, kept = {0};
	struct derived_probe *dp;
	struct func *f, *g;
	int i, j;

	clear_flags(&el->globals, 0);
	VEC_EACH(p->probes, i, dp) {
		clear_flags(&dp->locals, 0);
		set_scope(el, &dp->locals, NULL, dp->loc.file, &dp->globals_used,
			  &dp->globals_written, &dp->globals_read, &dp->callees);
		scan_body(el, dp->body, dp->cond);
		VEC_EACH(dp->callees, j, f)
			vec_add_unique(a, &reached, f);
	}
	for (i = 0; i < reached.n; i++) {
		struct func_info *fi = ((struct func *)reached.v[i])->info;

		for (g = fi->func; g; g = g->info->next_overload)
			vec_add_unique(a, &reached, g);
		if (fi->func->body->kind == ST_EMBEDDED)
			continue;
		clear_flags(&fi->locals, 0);
		clear_flags(&fi->params, 1);
		set_scope(el, &fi->locals, &fi->params, fi->func->file,
			  &fi->globals_used, &fi->globals_written,
			  &fi->globals_read, &fi->callees);
		scan_body(el, fi->func->body, NULL);
		VEC_EACH(fi->callees, j, g)
			vec_add_unique(a, &reached, g);
	}
	VEC_EACH(p->funcs, i, f) {
		for (j = 0; j < reached.n && reached.v[j] != f; j++)
			;
		f->used = j < reached.n;
		if (!f->used && drop)
			continue;
		f->info->index = kept.n;
		vec_push(a, &kept, f);
	}
	p->funcs = kept;
	elab_close_globals(el);
}

void elab_rescan(struct elab *el)
{
	rescan(el, 1);
}

/* -u: stap infers types in the functions no longer reached too (they may
 * type a global), reports nothing in them, then drops them. */
void elab_rescan_marking(struct elab *el)
{
	rescan(el, 0);
}

void elab_drop_unreached(struct elab *el)
{
	struct vec kept = {0};
	struct func *f;
	int i;

	VEC_EACH(el->prog->funcs, i, f)
		if (f->used) {
			f->info->index = kept.n;
			vec_push(el->s->arena, &kept, f);
		}
	el->prog->funcs = kept;
}
