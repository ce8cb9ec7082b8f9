/* tvar.c - walking target-variable components through C types (pass 2).
 *
 * The walk keeps one state: either the value is still the base value (a
 * register, an argument) or it lives in memory at an address being
 * computed.  `->m` on a pointer to a struct moves to the member's address;
 * on a struct in memory (an embedded member) it just adds the offset.
 * `[i]` indexes an array in memory or the memory a pointer points to.  At
 * the end an integer, enum or pointer is read as a long; an array is its
 * address (a long, even for char arrays, as in stap: strings come from
 * the `$` pretty-printing suffix or kernel_string()).
 */
#include <string.h>

#include "elab/tvar.h"

struct walk {
	struct session *s;
	struct exp *e;
	struct tvar *tv;
	const char *what;
	const char *label;	/* "$prev", "@cast" */
	int quiet;
	int in_mem;
	struct ctype *type;
	int cap;
	int pretty;		/* a trailing $ or $$ */
};

static void op(struct walk *w, enum tvar_op_kind kind, int64_t off,
	       struct exp *index)
{
	struct tvar *tv = w->tv;

	if (tv->nops == w->cap) {
		struct tvar_op *n;
		w->cap = w->cap ? 2 * w->cap : 4;
		n = arena_alloc(w->s->arena, (size_t)w->cap * sizeof *n);
		if (tv->nops)
			memcpy(n, tv->ops, (size_t)tv->nops * sizeof *n);
		tv->ops = n;
	}
	tv->ops[tv->nops++] = (struct tvar_op){ kind, off, index };
}

static const char *tname(struct walk *w, struct ctype *t)
{
	char buf[512];

	return arena_strdup(w->s->arena, ctype_name(t, buf, sizeof buf));
}

static int is_aggregate(struct ctype *t)
{
	t = ctype_strip(t);
	return t && (t->kind == CT_STRUCT || t->kind == CT_UNION);
}

/* Make the current value an address to walk from: the pointer's target. */
static int follow_pointer(struct walk *w)
{
	struct ctype *t = ctype_strip(w->type);

	if (!t || t->kind != CT_PTR)
		return -1;
	op(w, w->in_mem ? TV_LOAD_PTR : TV_ADDR, 0, NULL);
	w->in_mem = 1;
	w->type = t->target;
	return 0;
}

static int member(struct walk *w, struct target_comp *c)
{
	const struct ctype_member *m;
	struct ctype *t = ctype_strip(w->type);
	uint32_t bits;

	if (t && t->kind == CT_PTR && is_aggregate(t->target))
		follow_pointer(w);
	else if (!w->in_mem || !is_aggregate(t)) {
		if (!w->quiet)
			diag_error(&w->s->diags, c->loc, "sema.target-not-struct",
				   "%s '%s' may not be used as a structure",
				   w->what, w->label);
		return -1;
	}
	m = ctype_member(w->type, c->name, &bits);
	if (!m) {
		if (!w->quiet)
			diag_error(&w->s->diags, c->loc, "sema.target-member",
				   "unable to find member '%s' for %s", c->name,
				   tname(w, ctype_strip(w->type)));
		return -1;
	}
	if (m->bit_size) {
		w->tv->bit_offset = (int)(bits % 8);
		w->tv->bit_size = (int)m->bit_size;
	} else {
		w->tv->bit_offset = w->tv->bit_size = 0;
	}
	op(w, TV_ADD, bits / 8, NULL);
	w->type = m->type;
	return 0;
}

static int index_comp(struct walk *w, struct target_comp *c)
{
	struct ctype *t = ctype_strip(w->type);
	struct exp *ix = c->kind == TC_INDEX_EXP ? c->index : NULL;
	int64_t scale;

	if (t && t->kind == CT_ARRAY && w->in_mem) {
		w->type = t->target;
	} else if (t && t->kind == CT_PTR &&
		   ctype_strip(t->target)->kind != CT_VOID) {
		follow_pointer(w);
	} else {
		if (!w->quiet)
			diag_error(&w->s->diags, c->loc, "sema.target-index",
				   "'%s' cannot be indexed (%s '%s')",
				   tname(w, w->type), w->what, w->label);
		return -1;
	}
	scale = (int64_t)ctype_strip(w->type)->size;
	if (ix)
		op(w, TV_ADD_INDEX, scale, ix);
	else
		op(w, TV_ADD, c->num * scale, NULL);
	w->tv->bit_size = 0;
	return 0;
}

/* What the value at the end of the walk becomes. */
static int finish(struct walk *w)
{
	struct tvar *tv = w->tv;
	struct ctype *t = ctype_strip(w->type);

	tv->type = w->type;
	switch (t ? t->kind : CT_VOID) {
	case CT_INT: case CT_ENUM: case CT_PTR:
		tv->final = w->in_mem ? TV_LOAD_INT : TV_VALUE;
		tv->size = t->kind == CT_PTR ? 8 : (int)t->size;
		tv->is_signed = t->is_signed;
		w->e->type = TY_LONG;
		return 0;
	case CT_ARRAY:
		if (w->in_mem) {	/* as in stap: the array's address */
			tv->final = TV_LOAD_INT;
			tv->size = 0;
			w->e->type = TY_LONG;
			return 0;
		}
		break;
	default:
		break;
	}
	if (!w->quiet)
		diag_error(&w->s->diags, w->e->loc, "sema.target-value",
			   "'%s' cannot be used as a value: access one of its members (%s '%s')",
			   tname(w, w->type), w->what, w->label);
	return -1;
}

/* $var$: the value as stap shows it: integers in decimal, pointers in
 * hex, char arrays as quoted strings, structs and unions (or pointers to
 * them) member by member (runtime/stp_pretty.h). */
static int pretty(struct walk *w)
{
	struct tvar *tv = w->tv;
	struct ctype *t = ctype_strip(w->type), *el;

	if (t && t->kind == CT_ARRAY && w->in_mem) {
		el = ctype_strip(t->target);
		if (el && el->kind == CT_INT && el->is_char && t->nelems > 0) {
			tv->type = w->type;
			tv->final = TV_LOAD_INT;	/* size 0: the address */
			tv->pretty_kind = 's';
			tv->str_len = (int)t->nelems;
			w->e->type = TY_STRING;
			return 0;
		}
	}
	if (is_aggregate(t) && w->in_mem) {	/* {.a=…} at its address */
		tv->type = w->type;
		tv->final = TV_LOAD_INT;
		tv->pretty_kind = '{';
		tv->pretty_agg = t;
		tv->pretty_deep = w->pretty > 1;
		w->e->type = TY_STRING;
		return 0;
	}
	if (t && t->kind == CT_PTR && is_aggregate(t->target)) {
		if (finish(w))	/* the pointer's value: the address */
			return -1;
		tv->pretty_kind = '{';
		tv->pretty_agg = ctype_strip(t->target);
		tv->pretty_deep = w->pretty > 1;
		w->e->type = TY_STRING;
		return 0;
	}
	if (!t || (t->kind != CT_INT && t->kind != CT_ENUM && t->kind != CT_PTR)) {
		if (!w->quiet)
			diag_error(&w->s->diags, w->e->loc, "sema.target-pretty",
				   "pretty-printing '%s' with '$' is not supported yet (%s '%s')",
				   tname(w, w->type), w->what, w->label);
		return -1;
	}
	if (finish(w))
		return -1;
	tv->pretty_kind = t->kind == CT_PTR ? 'x' : 'd';
	w->e->type = TY_STRING;
	return 0;
}

/* &…: the address the walk reached (a pointer-typed base, @cast's, is
 * already one). */
static int address(struct walk *w)
{
	struct ctype *t = ctype_strip(w->type);

	if (!w->in_mem && t && t->kind == CT_PTR)
		return finish(w);
	if (w->in_mem && w->tv->bit_size) {
		if (!w->quiet)
			diag_error(&w->s->diags, w->e->loc, "sema.target-addr-of",
				   "cannot take the address of a bit field");
		return -1;
	}
	if (!w->in_mem) {
		if (!w->quiet)
			diag_error(&w->s->diags, w->e->loc, "sema.target-addr-of",
				   "cannot take the address of %s '%s'",
				   w->what, w->label);
		return -1;
	}
	w->tv->type = w->type;
	w->tv->final = TV_LOAD_INT;	/* size 0: the address */
	w->tv->size = 0;
	w->e->type = TY_LONG;
	return 0;
}

static int wants_address(const struct exp *e)
{
	if (e->kind == EX_TARGET)
		return e->u.target.addr_of;
	return (e->kind == EX_CAST || e->kind == EX_AUTOCAST) && e->u.op.addr_of;
}

static struct tvar *resolve(struct session *s, struct exp *e,
			    struct vec *comps, const char *base,
			    struct ctype *base_type, const char *what,
			    const char *label, int quiet, int in_mem)
{
	struct walk w = { s, e, NULL, what, label, quiet, in_mem, base_type, 0, 0 };
	struct target_comp *c;
	int i, rc = 0;

	w.tv = ARENA_NEW(s->arena, struct tvar);
	w.tv->base = base;
	w.tv->base_type = base_type;
	VEC_EACH(*comps, i, c) {
		switch (c->kind) {
		case TC_MEMBER:
			rc = member(&w, c);
			break;
		case TC_INDEX_NUM: case TC_INDEX_EXP:
			rc = index_comp(&w, c);
			break;
		case TC_PRETTY:
			w.pretty = (int)c->num;
			break;
		}
		if (rc)
			return NULL;
	}
	if (w.pretty)
		return pretty(&w) ? NULL : w.tv;
	if (wants_address(e))
		return address(&w) ? NULL : w.tv;
	if (finish(&w))
		return NULL;
	return w.tv;
}

struct tvar *tvar_resolve(struct session *s, struct exp *e, struct vec *comps,
			  const char *base, struct ctype *base_type,
			  const char *what, const char *label, int quiet)
{
	return resolve(s, e, comps, base, base_type, what, label, quiet, 0);
}

struct tvar *tvar_resolve_at(struct session *s, struct exp *e,
			     struct vec *comps, const char *base,
			     struct ctype *type, const char *what,
			     const char *label, int quiet)
{
	return resolve(s, e, comps, base, type, what, label, quiet, 1);
}

/* What makes stap's function bodies differ: the base and the walk from
 * it, the final read; an index is a parameter (its place in PARAMS). */
static const char *fn_key(struct session *s, const struct tvar *tv,
			  const char *params)
{
	struct strbuf sb = {0};
	const char *k;
	int i;

	sb_printf(&sb, "(%s) %s|%d|%d|", params, tv->base ? tv->base : "",
		  tv->user, tv->final);
	for (i = 0; i < tv->nops; i++)
		sb_printf(&sb, "%d:%lld,", tv->ops[i].kind,
			  (long long)tv->ops[i].off);
	sb_printf(&sb, "|%d|%d|%d|%d", tv->size, tv->is_signed,
		  tv->bit_offset, tv->bit_size);
	k = arena_strdup(s->arena, sb.s);
	sb_free(&sb);
	return k;
}

void tvar_name_fn(struct session *s, const struct exp *e, struct tvar *tv,
		  const char *var, int lvalue, const struct vec *comps)
{
	struct strbuf sb = {0};
	struct target_comp *c;
	struct tvar_fn *fn;
	int i;

	if (!tv || tv->fn || tv->pretty_kind || tv->final == TV_PRETTY)
		return;
	VEC_EACH(*comps, i, c)
		if (c->kind == TC_INDEX_EXP)
			sb_printf(&sb, "%sindex%d:long", sb.s ? ", " : "", i);
	if (lvalue)
		sb_printf(&sb, "%srvalue:long", sb.s ? ", " : "");
	fn = ARENA_NEW(s->arena, struct tvar_fn);
	fn->name = arena_printf(s->arena, "_dwarf_tvar_%s_%s_%d",
				lvalue ? "set" : "get", var, s->tvar_ticks++);
	fn->file = e->loc.file;
	fn->params = arena_strdup(s->arena, sb.s ? sb.s : "");
	fn->key = fn_key(s, tv, fn->params);
	tv->fn = fn;
	sb_free(&sb);
}

void tvar_fn_frame_base(struct session *s, struct tvar *tv)
{
	if (!tv || !tv->fn || tv->fn->locals)
		return;
	tv->fn->locals = arena_printf(s->arena, "_fb_%d", s->tvar_fb_locals++);
	tv->fn->key = arena_printf(s->arena, "%s|%s", tv->fn->key,
				   tv->fn->locals);
}
