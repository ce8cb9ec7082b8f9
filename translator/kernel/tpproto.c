/* tpproto.c - a tracepoint's arguments from its TP_PROTO text; see
 * tpproto.h.
 *
 * A parameter is read as words and stars: qualifiers, the base type (C's
 * integer words, named as DWARF names them: "long unsigned int"), a tag
 * (struct, union, enum) or a type name, stars, then the parameter's name.
 * Words of kernel annotations (__user, __iomem) are skipped.  Types come
 * from the kernel's BTF where it has them, else are made here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ctype_btf.h"
#include "kernel/tpproto.h"
#include "util/arena.h"

static struct ctype *new_type(enum ctype_kind kind, const char *name,
			      struct ctype *target)
{
	struct ctype *t = calloc(1, sizeof *t);

	t->kind = kind;
	t->name = xstrdup(name ? name : "");
	t->target = target;
	t->size = kind == CT_PTR ? 8 : 0;
	return t;
}

/* The words of C's integer types, counted by kind. */
enum {
	W_LONG,
	W_SHORT,
	W_CHAR,
	W_UNSIGNED,
	W_SIGNED,
	W_INT,
	W_CONST,
	W_VOLATILE,
	W_COUNT
};

static const char *const int_words[W_COUNT] = {
	[W_LONG] = "long",	   [W_SHORT] = "short",	      [W_CHAR] = "char",
	[W_UNSIGNED] = "unsigned", [W_SIGNED] = "signed",     [W_INT] = "int",
	[W_CONST] = "const",	   [W_VOLATILE] = "volatile",
};

/* The C integer named by the counts of its words; NULL if none. */
static struct ctype *base_int(struct ctype_btf *cb, const int *w)
{
	const char *name;
	struct ctype *t;
	int size, uns = w[W_UNSIGNED] > 0;

	if (w[W_CHAR])
		name = uns	     ? "unsigned char"
		       : w[W_SIGNED] ? "signed char"
				     : "char",
		size = 1;
	else if (w[W_SHORT])
		name = uns ? "short unsigned int" : "short int", size = 2;
	else if (w[W_LONG] >= 2)
		name = uns ? "long long unsigned int" : "long long int",
		size = 8;
	else if (w[W_LONG])
		name = uns ? "long unsigned int" : "long int", size = 8;
	else if (w[W_INT] || uns || w[W_SIGNED])
		name = uns ? "unsigned int" : "int", size = 4;
	else
		return NULL;
	t = ctype_btf_find(cb, name, CT_INT);
	if (t)
		return t;
	t = new_type(CT_INT, name, NULL);
	t->size = (uint64_t)size;
	t->is_signed = !uns;
	t->is_char = w[W_CHAR] > 0;
	return t;
}

static int is_word(const char *w, size_t n, const char *kw)
{
	return strlen(kw) == n && !strncmp(w, kw, n);
}

struct words {
	const char *w[32];
	size_t n[32];
	int count, stars;
	int const_ptr; /* "char * const p": the pointer is const */
};

/* The words and stars of P..E; -1 for what a parameter cannot hold here
 * (a function pointer, an array). */
static int split(const char *p, const char *e, struct words *ws)
{
	memset(ws, 0, sizeof *ws);
	while (p < e) {
		if (*p == '*') {
			ws->stars++;
			p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (p < e &&
			       (isalnum((unsigned char)*p) || *p == '_'))
				p++;
			if (ws->count == 32)
				return -1;
			if (ws->stars && is_word(s, (size_t)(p - s), "const")) {
				ws->const_ptr = 1;
				continue;
			}
			ws->w[ws->count] = s;
			ws->n[ws->count++] = (size_t)(p - s);
		} else if (isspace((unsigned char)*p) || *p == '\\') {
			p++;
		} else {
			return -1;
		}
	}
	return 0;
}

/* A tag or type name: the kernel's, else a declaration made here. */
static struct ctype *named(struct ctype_btf *cb, enum ctype_kind kind,
			   const char *name)
{
	struct ctype *t = ctype_btf_find(cb, name, kind);

	if (t)
		return t;
	t = new_type(kind, name, NULL);
	t->is_decl = kind == CT_STRUCT || kind == CT_UNION;
	if (kind == CT_TYPEDEF) { /* of what, the text does not say */
		static const int an_int[W_COUNT] = {[W_INT] = 1};
		t->target = base_int(cb, an_int);
	}
	return t;
}

/* The tag or type named by the words at K (moved past them); NULL when
 * the word is none of those, or an annotation (__user). */
static struct ctype *type_word(struct ctype_btf *cb, struct words *ws, int *k)
{
	static const struct {
		const char *word;
		enum ctype_kind kind;
	} tags[] = {
		{"struct", CT_STRUCT}, {"union", CT_UNION}, {"enum", CT_ENUM}};
	char name[256];
	size_t i;

	if (is_word(ws->w[*k], ws->n[*k], "void"))
		return new_type(CT_VOID, "void", NULL);
	if (is_word(ws->w[*k], ws->n[*k], "_Bool"))
		return named(cb, CT_INT, "_Bool");
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		if (!is_word(ws->w[*k], ws->n[*k], tags[i].word))
			continue;
		if (++*k == ws->count || ws->n[*k] >= sizeof name)
			return NULL;
		snprintf(name, sizeof name, "%.*s", (int)ws->n[*k], ws->w[*k]);
		return named(cb, tags[i].kind, name);
	}
	if (ws->n[*k] >= sizeof name)
		return NULL;
	snprintf(name, sizeof name, "%.*s", (int)ws->n[*k], ws->w[*k]);
	if (ctype_btf_find(cb, name, CT_TYPEDEF) || strncmp(name, "__", 2))
		return named(cb, CT_TYPEDEF, name);
	return NULL;
}

/* The type of a parameter's words (its name already taken off). */
static struct ctype *param_type(struct ctype_btf *cb, struct words *ws)
{
	int counts[W_COUNT] = {0}, k, i;
	struct ctype *t = NULL, *named_type;

	for (k = 0; k < ws->count; k++) {
		for (i = 0; i < W_COUNT; i++)
			if (is_word(ws->w[k], ws->n[k], int_words[i]))
				break;
		if (i < W_COUNT)
			counts[i]++;
		else if ((named_type = type_word(cb, ws, &k)))
			t = named_type;
	}
	if (!t)
		t = base_int(cb, counts);
	if (!t)
		return NULL;
	if (counts[W_VOLATILE])
		t = new_type(CT_VOLATILE, NULL, t);
	if (counts[W_CONST])
		t = new_type(CT_CONST, NULL, t);
	for (k = 0; k < ws->stars; k++)
		t = new_type(CT_PTR, NULL, t);
	if (ws->const_ptr)
		t = new_type(CT_CONST, NULL, t);
	return t;
}

int tpproto_args(struct ctype_btf *cb, const char *proto, struct tp_entry *te)
{
	const char *p = proto, *s, *open = strchr(proto, '(');
	struct tp_arg args[16];
	struct words ws;
	int n = 0, depth = 0;

	if (open && !strncmp(proto, "TP_PROTO", 8))
		p = open + 1;
	else if (open && !strncmp(proto, "PARAMS", 6))
		p = open + 1;
	for (s = p;; p++) {
		if (*p == '(') {
			depth++;
		} else if (*p == ')' && depth) {
			depth--;
		} else if (!*p || *p == ')' || (*p == ',' && !depth)) {
			if (split(s, p, &ws) || n == 16)
				return -1;
			if (ws.count == 1 && !ws.stars &&
			    is_word(ws.w[0], ws.n[0], "void"))
				break; /* (void) */
			if (ws.count < 2)
				return -1;
			ws.count--; /* the name */
			args[n].name = strndup(ws.w[ws.count], ws.n[ws.count]);
			args[n].type = param_type(cb, &ws);
			if (!args[n++].type)
				return -1;
			if (*p != ',')
				break;
			s = p + 1;
		}
	}
	te->nargs = n;
	te->args = calloc((size_t)n + 1, sizeof *te->args);
	memcpy(te->args, args, (size_t)n * sizeof *args);
	return 0;
}
