/* ctypes.c - walking and naming C types; see ctypes.h.
 *
 * Names follow SystemTap's spelling of DWARF types: qualifiers after the
 * type they qualify ("char const*"), no space before '*', arrays without
 * their bounds ("char[]"), struct/union/enum tags with their keyword.
 */
#include <stdio.h>
#include <string.h>

#include "util/ctypes.h"

struct ctype *ctype_strip(struct ctype *t)
{
	while (t && (t->kind == CT_TYPEDEF || t->kind == CT_CONST ||
		     t->kind == CT_VOLATILE || t->kind == CT_RESTRICT))
		t = t->target;
	return t;
}

int ctype_members(struct ctype *t)
{
	t = ctype_strip(t);
	if (!t || (t->kind != CT_STRUCT && t->kind != CT_UNION) || t->is_decl)
		return 0;
	if (t->nmembers < 0)
		t->src->load_members(t->src, t);
	return t->nmembers;
}

const struct ctype_member *ctype_member(struct ctype *t, const char *name,
					uint32_t *bit_offset)
{
	const struct ctype_member *m, *found;
	uint32_t sub;
	int i, n;

	t = ctype_strip(t);
	n = ctype_members(t);
	for (i = 0; i < n; i++) {
		m = &t->members[i];
		if (!strcmp(m->name, name)) {
			*bit_offset = m->bit_offset;
			return m;
		}
	}
	for (i = 0; i < n; i++) {	/* anonymous structs and unions */
		m = &t->members[i];
		if (*m->name)
			continue;
		found = ctype_member(m->type, name, &sub);
		if (found) {
			*bit_offset = m->bit_offset + sub;
			return found;
		}
	}
	return NULL;
}

static void name_into(struct ctype *t, char *buf, size_t len);

/* "(unsigned int, struct hlist_node*)" */
static void params_into(struct ctype *f, char *buf, size_t len)
{
	size_t n = strlen(buf);
	int i;

	snprintf(buf + n, len - n, "(");
	for (i = 0; i < f->nmembers; i++) {
		if (i) {
			n = strlen(buf);
			snprintf(buf + n, len - n, ", ");
		}
		name_into(f->params[i], buf, len);
	}
	n = strlen(buf);
	snprintf(buf + n, len - n, "%s)", f->variadic ? (f->nmembers ? ", ..." : "...") : "");
}

/* Append the name of T to BUF: the base type first, then the derivations
 * (pointers, qualifiers) in the order stap prints them. */
static void name_into(struct ctype *t, char *buf, size_t len)
{
	size_t n = strlen(buf);
	const char *kw;

	if (!t) {
		snprintf(buf + n, len - n, "void");
		return;
	}
	switch (t->kind) {
	case CT_VOID:
		snprintf(buf + n, len - n, "void");
		break;
	case CT_INT: case CT_FLOAT: case CT_TYPEDEF:
		if (t->kind == CT_TYPEDEF && !*t->name) {
			name_into(t->target, buf, len);
			break;
		}
		snprintf(buf + n, len - n, "%s", t->name);
		break;
	case CT_ENUM: case CT_STRUCT: case CT_UNION:
		kw = t->kind == CT_ENUM ? "enum" : t->kind == CT_STRUCT ? "struct" : "union";
		if (*t->name)
			snprintf(buf + n, len - n, "%s %s", kw, t->name);
		else
			snprintf(buf + n, len - n, "%s {...}", kw);
		break;
	case CT_PTR:
		if (t->target && t->target->kind == CT_FUNC) {
			name_into(t->target->target, buf, len);
			n = strlen(buf);
			snprintf(buf + n, len - n, " (*) ");
			params_into(t->target, buf, len);
			break;
		}
		name_into(t->target, buf, len);
		n = strlen(buf);
		snprintf(buf + n, len - n, "*");
		break;
	case CT_CONST: case CT_VOLATILE: case CT_RESTRICT:
		name_into(t->target, buf, len);
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s", t->kind == CT_CONST ? " const" :
			 t->kind == CT_VOLATILE ? " volatile" : " restrict");
		break;
	case CT_ARRAY:
		name_into(t->target, buf, len);
		n = strlen(buf);
		snprintf(buf + n, len - n, "[]");
		break;
	case CT_FUNC:
		name_into(t->target, buf, len);
		n = strlen(buf);
		snprintf(buf + n, len - n, " ");
		params_into(t, buf, len);
		break;
	}
}

const char *ctype_name(struct ctype *t, char *buf, size_t len)
{
	buf[0] = '\0';
	name_into(t, buf, len);
	return buf;
}
