/* pretty.c - the field tables behind $var$ / $var$$ on aggregates.
 *
 * stap prints a struct member by member; which members and how is fixed
 * by the type, so pass 3 describes each aggregate type once as a static
 * table of struct _stp_pfield (runtime/stp_pretty.h), gathered in
 * e->decls, and the runtime walks it.  What stap shows, per member: ints
 * and enums in decimal, chars quoted ('\000'), pointers in hex (function
 * pointers left out), char arrays as strings; nested aggregates as {...}
 * and arrays as [...] with `$`, expanded (arrays: their first element and
 * ", ...") with `$$`; anonymous members are labelled <class> or <union>.
 */
#include <string.h>

#include "emit/emit_int.h"
#include "elab/tvar.h"

#define A emit_sprintf

struct pretty_emitted {
	struct vec types;	/* struct ctype *, index = table number */
	struct vec deep;	/* (intptr_t) $$ or not, by table number */
	int nelems;		/* array element tables so far */
};

static const char *table(struct emit *e, struct ctype *t, int deep);

static struct pretty_emitted *emitted(struct emit *e)
{
	if (!e->pretty)
		e->pretty = ARENA_NEW(e->s->arena, struct pretty_emitted);
	return e->pretty;
}

/* The initializer of field F of kind KIND ("_STP_PF_INT"), after its
 * label and sub-table. */
static void field(struct strbuf *sb, const char *label, const char *sub,
		  uint32_t off, uint64_t n, const char *kind, int size,
		  int bit_size, int is_signed)
{
	sb_printf(sb, "\t{ \"%s\", %s, %u, %llu, %s, %d, %d, %d },\n", label,
		  sub ? sub : "NULL", off, (unsigned long long)n, kind, size,
		  bit_size, is_signed);
}

static int is_char(const struct ctype *t)
{
	return t && t->kind == CT_INT && !t->is_bool && t->size == 1 &&
	       (t->is_char || strstr(t->name, "char"));
}

/* One entry for a member (or an array element, label ""), of type MT at
 * bit OFF; 0 when stap leaves it out. */
static int entry(struct emit *e, struct strbuf *sb, const char *label,
		 struct ctype *mt, uint32_t off, uint32_t bit_size, int deep)
{
	struct ctype *t = ctype_strip(mt), *el;
	struct strbuf esb = {0};
	const char *sub;

	if (!t)
		return 0;
	switch (t->kind) {
	case CT_INT: case CT_ENUM:
		field(sb, label, NULL, off, 0,
		      is_char(t) && !bit_size ? "_STP_PF_CHAR" : "_STP_PF_INT",
		      (int)t->size, (int)bit_size, t->is_signed);
		return 1;
	case CT_PTR:
		el = ctype_strip(t->target);
		if (el && el->kind == CT_FUNC)
			return 0;
		field(sb, label, NULL, off, 0, "_STP_PF_PTR", 8, 0, 0);
		return 1;
	case CT_STRUCT: case CT_UNION:
		if (!deep) {
			field(sb, label, NULL, off, 0, "_STP_PF_ELIDED", 0, 0, 0);
			return 1;
		}
		field(sb, label, table(e, t, 1), off, 0, "_STP_PF_SUB", 0, 0, 0);
		return 1;
	case CT_ARRAY:
		el = ctype_strip(t->target);
		if (is_char(el) && t->nelems > 0 && deep) {	/* $: [...] */
			field(sb, label, NULL, off, (uint64_t)t->nelems,
			      "_STP_PF_CHARS", 1, 0, 0);
			return 1;
		}
		if (!deep || t->nelems <= 0 || !entry(e, &esb, "", t->target, 0, 0, 1)) {
			sb_free(&esb);
			field(sb, label, NULL, off, 0, "_STP_PF_ELIDED_ARRAY", 0, 0, 0);
			return 1;
		}
		sub = A(e, "stp_pretty_el%d", emitted(e)->nelems++);
		sb_printf(&e->decls, "static const struct _stp_pfield %s[] = {\n%s\t{ NULL }\n};\n",
			  sub, esb.s);
		sb_free(&esb);
		field(sb, label, sub, off, (uint64_t)t->nelems, "_STP_PF_ARRAY", 0, 0, 0);
		return 1;
	default:
		return 0;
	}
}

/* The name of T's table (emitted once for each of `$` and `$$`). */
static const char *table(struct emit *e, struct ctype *t, int deep)
{
	struct pretty_emitted *pe = emitted(e);
	struct strbuf sb = {0};
	const char *name;
	int i, n;

	for (i = 0; i < pe->types.n; i++)
		if (pe->types.v[i] == t && (intptr_t)pe->deep.v[i] == deep)
			return A(e, "stp_pretty%d", i);
	n = pe->types.n;
	vec_push(e->s->arena, &pe->types, t);
	vec_push(e->s->arena, &pe->deep, (void *)(intptr_t)deep);
	name = A(e, "stp_pretty%d", n);
	/* members first: their tables must come before this one */
	for (i = 0; i < ctype_members(t); i++) {
		const struct ctype_member *m = &t->members[i];
		struct ctype *mt = ctype_strip(m->type);
		const char *label;

		if (!m->name[0])
			label = mt && mt->kind == CT_UNION ? "<union>=" : "<class>=";
		else
			label = A(e, ".%s=", m->name);
		entry(e, &sb, label, m->type, m->bit_offset, m->bit_size, deep);
	}
	sb_printf(&e->decls, "static const struct _stp_pfield %s[] = {\n%s\t{ NULL }\n};\n",
		  name, sb.s ? sb.s : "");
	sb_free(&sb);
	return name;
}

/* The C expression (const char *) of TV, pretty-printed into a string
 * temporary from the address VALUE. */
const char *emit_pretty_agg(struct emit *e, struct tvar *tv, const char *value,
			    const char *where)
{
	const char *t = emit_temp(e, TY_STRING);
	const char *tab = table(e, tv->pretty_agg, tv->pretty_deep);

	return A(e, "({ _stp_pretty(c, %s, (u64)(%s), %s, %s); %s (const char *)%s; })",
		 t, value, tab, where, emit_check(e), t);
}
