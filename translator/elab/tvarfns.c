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
#include "ast/dump.h"
#include "elab/cnames.h"
#include "elab/elab.h"
#include "kernel/ksyms.h"
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
			    cname_file_tag(a, fn->file), fn->name);
}

static struct arena *sort_arena;
static struct session *tvar_session;	/* the listing's */

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
	tvar_session = s;
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

/* ---- with -v: their bodies, and the calls in place of the accesses ---- */


/* X + OFF as stap builds it: nothing added for 0. */
static const char *plus(struct arena *a, const char *x, long long off)
{
	return off ? arena_printf(a, "(%s) + (%lld)", x, off) : x;
}

/* A local on the stack (DW_OP_fbreg over a CFA that is a register plus
 * an offset, as at a kernel function's entry): stap computes the frame
 * base into its local first, "(_fb_N) = (CFA);" into *PRE, and the
 * variable is at _fb_N + OFFSET.  NULL for another shape. */
static const char *frame_base_text(struct arena *a, const struct tvar *tv,
				   const char **pre)
{
	long long cfa_off, off;
	char tail;
	int reg;

	if (!tv->fn || !tv->fn->locals ||
	    sscanf(tv->base, "(((_stp_dwarf_reg(c, %d) + (uint64_t)%lldLL)) + (uint64_t)%lldLL)%c",
		   &reg, &cfa_off, &off, &tail) != 3)
		return NULL;
	*pre = arena_printf(a, "(%s) = (%s);\n", tv->fn->locals,
			    plus(a, arena_printf(a, "@%cregister(%d)",
						 tv->user ? 'u' : 'k', reg),
				 cfa_off));
	return plus(a, tv->fn->locals, off);
}

/* The base as stap's body shows it (a register, a kernel variable's
 * address, a local on the stack: its frame base's statement in *PRE),
 * or NULL when we cannot say. */
static const char *base_text(struct arena *a, const struct tvar *tv,
			     const char **pre)
{
	const struct ksyms *k = ksyms_kernel(tvar_session);
	unsigned long long addr, anchor;
	uint64_t stext = k ? ksyms_addr(k, "_stext") : 0;
	char tail;
	int reg;

	*pre = NULL;
	if (tv->fn && tv->fn->locals)
		return frame_base_text(a, tv, pre);

	if (!strcmp(tv->base, "_stp_kprobe_retval(c)") ||
	    !strcmp(tv->base, "_stp_uprobe_retval(c)"))	/* $return: ax */
		return arena_printf(a, "@%cregister(0)", tv->user ? 'u' : 'k');
	if (sscanf(tv->base, "_stp_dwarf_reg(c, %d)%c", &reg, &tail) == 1)
		return arena_printf(a, "@%cregister(%d)", tv->user ? 'u' : 'k',
				    reg);
	if (!tv->user && stext &&
	    sscanf(tv->base, "_stp_kaddr_at(0x%llxULL, 0x%llxULL)%c", &addr,
		   &anchor, &tail) == 2)
		return arena_printf(a, "%%{ ({ unsigned long addr = 0; addr = _stp_kmodule_relocate (\"kernel\", \"_stext\", 0x%llx); addr; }) %%}",
				    (unsigned long long)(addr - stext));
	return NULL;
}

/* The value narrowed to its SIZE bytes, as stap's body does it. */
static const char *narrowed(struct arena *a, const char *x, int size,
			    int is_signed)
{
	int bits = 64 - 8 * size;

	if (size >= 8 || size <= 0)
		return x;
	if (is_signed)
		return arena_printf(a, "((%s) << (%d)) >> (%d)", x, bits, bits);
	return arena_printf(a, "(%s) & (%llu)", x,
			    (unsigned long long)((1ULL << (8 * size)) - 1));
}

/* The index parameters' names in FN->params, one by one. */
static const char *next_index(struct arena *a, const char **p)
{
	const char *s = strstr(*p, "index"), *e;

	if (!s)
		return NULL;
	e = strchr(s, ':');
	*p = e ? e : s + strlen(s);
	return arena_strndup(a, s, (size_t)(*p - s));
}

/* FN's body as stap's -v prints it, for the accesses whose shape we know
 * stap's form of (a register, a kernel variable or a local on the stack,
 * members, pointers, byte indexes); NULL for the others (a bitfield:
 * for DWARF 5's DW_AT_data_bit_offset stap 4.8 prints a byte offset
 * that is not the member's, differing between accesses to the same
 * one). */
static const char *body_text(struct arena *a, const struct tvar *tv,
			     const struct tvar_fn *fn)
{
	const char *pre, *x = base_text(a, tv, &pre), *params = fn->params, *ix;
	char d = tv->user ? 'u' : 'k';
	int i;

	if (!x || tv->bit_size || tv->base_exp)
		return NULL;
	for (i = 0; i < tv->nops; i++) {
		const struct tvar_op *op = &tv->ops[i];

		if (op->kind == TV_LOAD_PTR)
			x = arena_printf(a, "@%cderef(8, %s)", d, x);
		else if (op->kind == TV_ADD)
			x = plus(a, x, (long long)op->off);
		else if (op->kind == TV_ADD_INDEX) {
			if (op->off != 1 || !(ix = next_index(a, &params)))
				return NULL;
			x = arena_printf(a, "(%s) + (%s)", x, ix);
		}
	}
	if (tv->final == TV_LOAD_INT && tv->size)
		x = arena_printf(a, "@%cderef(%d, %s)", d, tv->size, x);
	else if (tv->final == TV_VALUE)
		x = narrowed(a, x, tv->size, tv->is_signed);
	if (strstr(fn->name, "_set_"))
		x = arena_printf(a, "(%s) = (rvalue)", x);
	if (pre)
		return arena_printf(a, "{ {\n%sreturn %s;\n} }", pre, x);
	return arena_printf(a, "{ return %s }", x);
}

/* FN's access: any one of those it names. */
static const struct tvar *fn_access;

static int find_access(struct walker *w, struct exp *e)
{
	struct tvar *tv = e->kind == EX_TARGET || e->kind == EX_TARGET_LIST ?
		e->u.target.resolved : e->kind == EX_ATVAR ? e->u.op.resolved : NULL;
	int i;

	if (tv && tv->fn == w->arg)
		fn_access = tv;
	for (i = 0; tv && i < tv->nparts; i++)
		if (tv->parts[i]->fn == w->arg)
			fn_access = tv->parts[i];
	return 0;
}

void elab_print_tvar_fn_body(FILE *f, const struct tvar_fn *fn)
{
	struct program *p = tvar_session->program;
	struct walker w = { .exp = find_access, .arg = (void *)fn };
	const struct derived_probe *dp;
	struct func *fu;
	const char *b;
	int i;

	fn_access = NULL;
	VEC_EACH(p->probes, i, dp)
		walk_stmt(&w, dp->body);
	VEC_EACH(p->funcs, i, fu)
		if (fu->body->kind != ST_EMBEDDED)
			walk_stmt(&w, fu->body);
	b = fn_access ? body_text(tvar_session->arena, fn_access, fn) : NULL;
	if (b)
		fprintf(f, "%s\n", b);
}

/* The call to FN (the one stap keeps) with E's index expressions, and
 * RVALUE for a write. */
static void call(FILE *o, const struct tvar_fn *fn, const struct vec *comps,
		 const struct exp *rvalue)
{
	struct target_comp *c;
	int i, n = 0;

	fprintf(o, "%s(", elab_tvar_fn_name(tvar_session->arena, fn->kept));
	VEC_EACH(*comps, i, c)
		if (c->kind == TC_INDEX_EXP) {
			fputs(n++ ? ", " : "", o);
			dump_exp(o, c->index);
		}
	if (rvalue) {
		fputs(n ? ", " : "", o);
		dump_exp(o, rvalue);
	}
	fputc(')', o);
}

/* $$vars: stap's sprintf of "name=%#x" over the parts' calls. */
static int list_call(FILE *o, const struct tvar *tv)
{
	int i, n = 0;

	for (i = 0; i < tv->nparts; i++)
		if (!tv->parts[i]->fn && !tv->parts[i]->pretty)
			return 0;
	fputs("sprintf(\"", o);
	for (i = 0; i < tv->nparts; i++) {
		const char *t = tv->parts[i]->fn ? "%#x" : tv->parts[i]->pretty;
		size_t len = strlen(t);

		if (!tv->parts[i]->fn && len >= 2 && t[0] == '"')
			fprintf(o, "%s%s=%.*s", i ? " " : "", tv->labels[i],
				(int)len - 2, t + 1);
		else
			fprintf(o, "%s%s=%s", i ? " " : "", tv->labels[i], t);
	}
	fputc('"', o);
	for (i = 0; i < tv->nparts; i++)
		if (tv->parts[i]->fn && ++n) {
			fputs(", ", o);
			call(o, tv->parts[i]->fn, &(struct vec){0}, NULL);
		}
	fputc(')', o);
	return 1;
}

static int access_call(FILE *o, const struct tvar *tv, const struct vec *comps)
{
	if (!tv || !tv->fn)
		return 0;
	call(o, tv->fn, comps, NULL);
	return 1;
}

int elab_tvar_fn_exp(FILE *o, const struct exp *e)
{
	const struct exp *l;

	switch (e->kind) {
	case EX_TARGET:
		return access_call(o, e->u.target.resolved, &e->u.target.comps);
	case EX_TARGET_LIST:
		return e->u.target.resolved && e->u.target.resolved->nparts &&
		       list_call(o, e->u.target.resolved);
	case EX_ATVAR:
		return access_call(o, e->u.op.resolved, &e->u.op.comps);
	case EX_ASSIGN:
		l = e->u.bin.left;
		if (e->u.bin.op != OP_ASSIGN || l->kind != EX_TARGET ||
		    !l->u.target.resolved || !l->u.target.resolved->fn)
			return 0;
		call(o, l->u.target.resolved->fn, &l->u.target.comps,
		     e->u.bin.right);
		return 1;
	default:
		return 0;
	}
}
