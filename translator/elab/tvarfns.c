/* tvarfns.c - the functions stap 4.8 lists for DWARF accesses (pass 2).
 *
 * stap turns each $var, $return, @var and each part of a $$vars it
 * resolves against DWARF into a function of its own
 * (__private_FILE__dwarf_tvar_get_NAME_N), numbered in the order it
 * expands them (tvar_name_fn); its optimizer then keeps one of the
 * functions whose signatures and bodies are equal (the first by name)
 * and drops those no access uses any more.  We read the values inline;
 * this step only works out which of those functions stap would keep, so
 * that -p2 lists them and pass 2's summary counts them.  Reads the
 * optimized program; writes program.accessors.
 */
#include <stdlib.h>
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"
#include "elab/listing_body.h"
#include "elab/tvar.h"

struct found {
	struct session *s;
	struct vec fns;		/* struct tvar_fn *, each once */
};

static void add(struct found *fd, struct tvar *tv)
{
	int i;

	if (!tv)
		return;
	if (tv->fn)
		vec_add_unique(fd->s->arena, &fd->fns, tv->fn);
	for (i = 0; i < tv->nparts; i++)
		add(fd, tv->parts[i]);
}

static int note(struct walker *w, struct exp *e)
{
	if (e->kind == EX_TARGET || e->kind == EX_TARGET_LIST)
		add(w->arg, e->u.target.resolved);
	else if (e->kind == EX_ATVAR)
		add(w->arg, e->u.op.resolved);
	return 0;
}

/* stap's name for FN: its file's tag first, as a private function's. */
const char *elab_tvar_fn_name(struct arena *a, const struct tvar_fn *fn)
{
	return arena_printf(a, "__private_%s_%s",
			    listing_file_tag(a, fn->file), fn->name);
}

static struct arena *sort_arena;

static int cmp_mangled(const void *x, const void *y)
{
	const struct tvar_fn *a = *(const struct tvar_fn *const *)x;
	const struct tvar_fn *b = *(const struct tvar_fn *const *)y;

	return strcmp(elab_tvar_fn_name(sort_arena, a),
		      elab_tvar_fn_name(sort_arena, b));
}

void elab_keep_tvar_fns(struct elab *el)
{
	struct session *s = el->s;
	struct found fd = { s, {0} };
	struct walker w = { .exp = note, .arg = &fd };
	struct derived_probe *dp;
	struct tvar_fn *fn, *k;
	struct func *f;
	int i, j;

	VEC_EACH(el->prog->probes, i, dp) {
		walk_stmt(&w, dp->body);
		if (dp->cond)
			walk_exp(&w, dp->cond);
	}
	VEC_EACH(el->prog->funcs, i, f)
		if (f->body->kind != ST_EMBEDDED)
			walk_stmt(&w, f->body);
	sort_arena = s->arena;
	qsort(fd.fns.v, (size_t)fd.fns.n, sizeof *fd.fns.v, cmp_mangled);
	VEC_EACH(fd.fns, i, fn) {
		fn->kept = fn;
		for (j = 0; j < el->prog->accessors.n && !s->unoptimized; j++) {
			k = el->prog->accessors.v[j];
			if (!strcmp(k->key, fn->key))
				fn->kept = k;
		}
		if (fn->kept == fn)
			vec_push(s->arena, &el->prog->accessors, fn);
	}
}
