/* ctypes.h - the translator's model of the target's C types.
 *
 * Target variables ($prev->comm), @cast and listings (-L) walk C types:
 * integers, pointers, arrays, structs, unions, enums, typedefs.  Where the
 * types come from (BTF: kernel/ctype_btf.c; DWARF: dwarf/dw_types.c) is
 * hidden behind this model, so the walking code (tvar.c) is shared by
 * every family.  It lives in util/ because both kernel/ and dwarf/ build
 * it.
 * Types are built on demand and live as long as their source.
 */
#ifndef CTYPES_H
#define CTYPES_H

#include <stddef.h>
#include <stdint.h>

enum ctype_kind {
	CT_VOID,
	CT_INT,		/* also bool and char: see is_signed, is_bool, is_char */
	CT_ENUM,
	CT_FLOAT,
	CT_PTR,
	CT_ARRAY,
	CT_STRUCT,
	CT_UNION,
	CT_FUNC,	/* a function type (pointed to) */
	CT_TYPEDEF,
	CT_CONST,	/* qualifiers: of `target` */
	CT_VOLATILE,
	CT_RESTRICT,
};

struct ctype;

struct ctype_member {
	const char *name;	/* "" for an anonymous struct/union */
	struct ctype *type;
	uint32_t bit_offset;	/* from the start of the aggregate */
	uint32_t bit_size;	/* bitfield width, or 0 */
};

struct ctype_source;

struct ctype {
	enum ctype_kind kind;
	const char *name;	/* int/enum/struct tag/typedef name, or "" */
	uint64_t size;		/* bytes (CT_ARRAY: whole array) */
	unsigned is_signed : 1, is_bool : 1, is_char : 1, is_decl : 1;
	struct ctype *target;	/* PTR, ARRAY element, TYPEDEF, qualifiers */
	int64_t nelems;		/* CT_ARRAY; -1 unknown (flexible) */
	int nmembers;		/* CT_STRUCT/UNION, once loaded; -1 not yet;
				   CT_FUNC: parameters (in params) */
	struct ctype_member *members;
	struct ctype **params;	/* CT_FUNC: parameter types */
	int variadic;		/* CT_FUNC: ends with ... */
	struct ctype_source *src;	/* loads members on demand */
	uint32_t src_id;
};

/* Where types come from: a source fills in a struct's members lazily. */
struct ctype_source {
	void (*load_members)(struct ctype_source *src, struct ctype *t);
};

/* Skip typedefs and qualifiers. */
struct ctype *ctype_strip(struct ctype *t);
/* The members of a struct or union (loading them), or 0. */
int ctype_members(struct ctype *t);
/* Find member NAME of struct/union T, looking into anonymous members;
 * *BIT_OFFSET gets its offset in bits from the start of T.  NULL if
 * absent. */
const struct ctype_member *ctype_member(struct ctype *t, const char *name,
					uint32_t *bit_offset);
/* The type's name as SystemTap prints it: "struct task_struct*",
 * "unsigned int", "char const*", "long int[]".  Returns a static buffer
 * of the caller (BUF, LEN). */
const char *ctype_name(struct ctype *t, char *buf, size_t len);

#endif
