/* dw_types.c - C types from DWARF; see dw_types.h.
 *
 * Reads type DIEs through libdw; writes struct ctypes (calloc'd, kept).  A
 * ctype is memoized before its referenced types are built, so that
 * self-referencing structs (list_head) terminate.  Names are DWARF's own
 * ("long unsigned int"), which is what stap prints.  Definitions by name
 * (for declarations and dw_type_find) come from one pass over the units'
 * top-level DIEs, made the first time one is needed.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_types.h"

struct named {			/* a top-level definition, by name */
	const char *name;
	int tag;
	uint64_t off;
};

struct dw_types {
	struct ctype_source src;	/* first: load_members sees this */
	struct dw_file *f;
	Dwarf *dbg;
	uint64_t *keys;			/* DIE offset + 1 (0: empty slot) */
	struct ctype **vals;
	size_t cap, n;
	struct named *defs;		/* sorted by name, then tag */
	size_t ndefs;
	int defs_read;
	struct ctype void_type;
	struct dw_types *next;
};

static struct dw_types *all;

static struct ctype *get(struct dw_types *ty, uint64_t off);

static void grow(struct dw_types *ty)
{
	size_t i, j, cap = ty->cap ? 2 * ty->cap : 1024;
	uint64_t *keys = calloc(cap, sizeof *keys);
	struct ctype **vals = calloc(cap, sizeof *vals);

	for (i = 0; i < ty->cap; i++) {
		if (!ty->keys[i])
			continue;
		for (j = ty->keys[i] * 0x9e3779b97f4a7c15ULL % cap; keys[j];
		     j = (j + 1) % cap)
			;
		keys[j] = ty->keys[i];
		vals[j] = ty->vals[i];
	}
	free(ty->keys);
	free(ty->vals);
	ty->keys = keys;
	ty->vals = vals;
	ty->cap = cap;
}

static struct ctype **slot(struct dw_types *ty, uint64_t off)
{
	size_t j;

	if (2 * (ty->n + 1) > ty->cap)
		grow(ty);
	for (j = (off + 1) * 0x9e3779b97f4a7c15ULL % ty->cap; ty->keys[j];
	     j = (j + 1) % ty->cap)
		if (ty->keys[j] == off + 1)
			return &ty->vals[j];
	ty->keys[j] = off + 1;
	ty->n++;
	return &ty->vals[j];
}

static uint64_t udata(Dwarf_Die *die, int name, uint64_t dflt)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!dwarf_attr_integrate(die, name, &a) || dwarf_formudata(&a, &w))
		return dflt;
	return w;
}

static const char *die_name(Dwarf_Die *die)
{
	const char *n = dwarf_diename(die);

	return n ? n : "";
}

/* The DIE offset of DIE's DW_AT_type, or 0 (void). */
static uint64_t type_ref(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return 0;
	return dwarf_dieoffset(&t);
}

/* ---- definitions by name ---- */

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->tag - y->tag;
}

static void read_defs(struct dw_types *ty)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	Dwarf_Die cu, d;

	ty->defs_read = 1;
	while (dwarf_nextcu(ty->dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(ty->dbg, off + hsize, &cu) &&
		    dwarf_child(&cu, &d) == 0) {
			do {
				int tag = dwarf_tag(&d);
				const char *n;
				if (tag != DW_TAG_structure_type &&
				    tag != DW_TAG_union_type &&
				    tag != DW_TAG_enumeration_type &&
				    tag != DW_TAG_typedef && tag != DW_TAG_base_type)
					continue;
				if (dwarf_hasattr(&d, DW_AT_declaration) ||
				    !(n = dwarf_diename(&d)))
					continue;
				if (ty->ndefs == cap) {
					cap = cap ? 2 * cap : 4096;
					ty->defs = realloc(ty->defs, cap * sizeof *ty->defs);
				}
				ty->defs[ty->ndefs++] = (struct named){
					n, tag, dwarf_dieoffset(&d) };
			} while (dwarf_siblingof(&d, &d) == 0);
		}
		off = next;
	}
	qsort(ty->defs, ty->ndefs, sizeof *ty->defs, cmp_named);
}

/* The offset of the first definition of NAME with TAG, or 0. */
static uint64_t find_def(struct dw_types *ty, const char *name, int tag)
{
	struct named key = { name, tag, 0 };
	size_t lo = 0, hi;

	if (!ty->defs_read)
		read_defs(ty);
	hi = ty->ndefs;
	while (lo < hi) {	/* the first entry not below KEY */
		size_t mid = (lo + hi) / 2;
		if (cmp_named(&ty->defs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ty->ndefs && !cmp_named(&ty->defs[lo], &key))
		return ty->defs[lo].off;
	return 0;
}

/* ---- members ---- */

/* The byte offset in DW_AT_data_member_location (a constant, or the old
 * DW_OP_plus_uconst expression). */
static uint64_t member_location(Dwarf_Die *m)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	Dwarf_Word w;

	if (!dwarf_attr(m, DW_AT_data_member_location, &a))
		return 0;
	if (dwarf_formudata(&a, &w) == 0)
		return w;
	if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
	    ops[0].atom == DW_OP_plus_uconst)
		return ops[0].number;
	return 0;
}

static void fill_member(struct dw_types *ty, Dwarf_Die *m,
			struct ctype_member *cm)
{
	uint64_t bytes = member_location(m), bsize, boff;

	cm->name = strdup(die_name(m));
	cm->type = get(ty, type_ref(m));
	cm->bit_offset = (uint32_t)(bytes * 8);
	cm->bit_size = (uint32_t)udata(m, DW_AT_bit_size, 0);
	if (!cm->bit_size)
		return;
	if (dwarf_hasattr(m, DW_AT_data_bit_offset)) {
		cm->bit_offset = (uint32_t)udata(m, DW_AT_data_bit_offset, 0);
	} else if (dwarf_hasattr(m, DW_AT_bit_offset)) {
		/* DWARF 2/3: counted from the storage unit's most
		 * significant bit (little-endian here) */
		bsize = udata(m, DW_AT_byte_size, ctype_strip(cm->type)->size);
		boff = udata(m, DW_AT_bit_offset, 0);
		cm->bit_offset = (uint32_t)(bytes * 8 + bsize * 8 - boff -
					    cm->bit_size);
	}
}

static void load_members(struct ctype_source *src, struct ctype *t)
{
	struct dw_types *ty = (struct dw_types *)src;
	Dwarf_Die die, m;
	int n = 0, cap = 0;
	uint64_t def;

	t->nmembers = 0;
	if (!dwarf_offdie(ty->dbg, t->src_id, &die))
		return;
	if (dwarf_hasattr(&die, DW_AT_declaration)) {
		def = *t->name ? find_def(ty, t->name, dwarf_tag(&die)) : 0;
		if (!def || !dwarf_offdie(ty->dbg, def, &die))
			return;
		t->size = udata(&die, DW_AT_byte_size, 0);
	}
	if (dwarf_child(&die, &m) != 0)
		return;
	do {
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 16;
			t->members = realloc(t->members, (size_t)cap * sizeof *t->members);
		}
		memset(&t->members[n], 0, sizeof t->members[n]);
		fill_member(ty, &m, &t->members[n++]);
	} while (dwarf_siblingof(&m, &m) == 0);
	t->nmembers = n;
}

/* ---- building one type ---- */

/* An array's dimensions, outermost first: T[a][b] is an array of a
 * arrays of b Ts.  CHILD is the first subrange at or after this one. */
static void fill_array(struct dw_types *ty, struct ctype *t, Dwarf_Die *sub,
		       uint64_t elem_off)
{
	Dwarf_Die next = *sub;
	int more = 0;

	t->kind = CT_ARRAY;
	if (dwarf_hasattr(sub, DW_AT_count))
		t->nelems = (int64_t)udata(sub, DW_AT_count, 0);
	else if (dwarf_hasattr(sub, DW_AT_upper_bound))
		t->nelems = (int64_t)udata(sub, DW_AT_upper_bound, 0) + 1;
	else
		t->nelems = -1;
	while (dwarf_siblingof(&next, &next) == 0)
		if (dwarf_tag(&next) == DW_TAG_subrange_type) {
			more = 1;
			break;
		}
	if (more) {		/* an inner dimension: a ctype of its own */
		t->target = calloc(1, sizeof *t->target);
		t->target->name = "";
		t->target->src = &ty->src;
		fill_array(ty, t->target, &next, elem_off);
	} else {
		t->target = get(ty, elem_off);
	}
	t->size = t->nelems > 0 ? (uint64_t)t->nelems * ctype_strip(t->target)->size : 0;
}

static void fill_func(struct dw_types *ty, struct ctype *t, Dwarf_Die *die)
{
	Dwarf_Die p;
	int n = 0, cap = 0;

	t->kind = CT_FUNC;
	t->target = get(ty, type_ref(die));
	t->params = calloc(1, sizeof *t->params);
	if (dwarf_child(die, &p) == 0) {
		do {
			if (dwarf_tag(&p) == DW_TAG_unspecified_parameters)
				t->variadic = 1;
			if (dwarf_tag(&p) != DW_TAG_formal_parameter)
				continue;
			if (n + 1 >= cap) {
				cap = cap ? 2 * cap : 8;
				t->params = realloc(t->params, (size_t)cap * sizeof *t->params);
			}
			t->params[n++] = get(ty, type_ref(&p));
		} while (dwarf_siblingof(&p, &p) == 0);
	}
	t->nmembers = n;
}

static void fill_base(struct ctype *t, Dwarf_Die *die)
{
	uint64_t enc = udata(die, DW_AT_encoding, DW_ATE_signed);

	t->kind = enc == DW_ATE_float ? CT_FLOAT : CT_INT;
	t->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	t->is_char = enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char;
	t->is_bool = enc == DW_ATE_boolean;
}

static void fill(struct dw_types *ty, struct ctype *t, Dwarf_Die *die)
{
	Dwarf_Die sub;
	uint64_t target = type_ref(die);
	int tag = dwarf_tag(die);

	t->size = udata(die, DW_AT_byte_size, 0);
	switch (tag) {
	case DW_TAG_base_type:
		fill_base(t, die);
		break;
	case DW_TAG_enumeration_type:
		t->kind = CT_ENUM;
		t->is_signed = target && ctype_strip(get(ty, target))->is_signed;
		break;
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		t->kind = CT_PTR;
		t->size = 8;
		t->target = get(ty, target);
		break;
	case DW_TAG_structure_type: case DW_TAG_class_type: case DW_TAG_union_type:
		t->kind = tag == DW_TAG_union_type ? CT_UNION : CT_STRUCT;
		t->nmembers = -1;
		break;
	case DW_TAG_array_type:
		if (dwarf_child(die, &sub) == 0) {
			while (dwarf_tag(&sub) != DW_TAG_subrange_type &&
			       dwarf_siblingof(&sub, &sub) == 0)
				;
			fill_array(ty, t, &sub, target);
		} else {
			t->kind = CT_ARRAY;
			t->nelems = -1;
			t->target = get(ty, target);
		}
		break;
	case DW_TAG_subroutine_type:
		fill_func(ty, t, die);
		break;
	case DW_TAG_typedef:
		t->kind = CT_TYPEDEF;
		t->target = get(ty, target);
		t->size = ctype_strip(t->target)->size;
		break;
	case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_atomic_type:
		t->kind = tag == DW_TAG_const_type ? CT_CONST :
			  tag == DW_TAG_volatile_type ? CT_VOLATILE :
			  tag == DW_TAG_restrict_type ? CT_RESTRICT : CT_TYPEDEF;
		t->target = get(ty, target);
		t->size = t->target->size;
		break;
	default:
		t->kind = CT_VOID;
		t->name = "void";
		break;
	}
}

static struct ctype *get(struct dw_types *ty, uint64_t off)
{
	struct ctype **sp, *t;
	Dwarf_Die die;

	if (!off || !dwarf_offdie(ty->dbg, off, &die))
		return &ty->void_type;
	sp = slot(ty, off);
	if (*sp)
		return *sp;
	t = calloc(1, sizeof *t);
	*sp = t;
	t->name = strdup(die_name(&die));
	t->src = &ty->src;
	t->src_id = (uint32_t)off;
	fill(ty, t, &die);
	if (t->kind == CT_STRUCT || t->kind == CT_UNION) {
		if (dwarf_hasattr(&die, DW_AT_declaration))
			t->size = 0;	/* known once its members load */
	}
	return t;
}

static struct dw_types *types_of(struct dw_file *f)
{
	struct dw_types *ty;

	for (ty = all; ty; ty = ty->next)
		if (ty->f == f)
			return ty;
	ty = calloc(1, sizeof *ty);
	ty->src.load_members = load_members;
	ty->f = f;
	ty->dbg = dw_file_dwarf(f, NULL);
	ty->void_type.kind = CT_VOID;
	ty->void_type.name = "void";
	ty->next = all;
	all = ty;
	return ty;
}

struct ctype *dw_type_at(struct dw_file *f, uint64_t die_off)
{
	return get(types_of(f), die_off);
}

struct ctype *dw_type_of(struct dw_file *f, uint64_t die_off)
{
	struct dw_types *ty = types_of(f);
	Dwarf_Die die;

	if (!dwarf_offdie(ty->dbg, die_off, &die))
		return &ty->void_type;
	return get(ty, type_ref(&die));
}

struct ctype *dw_type_find(struct dw_file *f, const char *name,
			   enum ctype_kind kind)
{
	static const int tags[] = {
		[CT_STRUCT] = DW_TAG_structure_type, [CT_UNION] = DW_TAG_union_type,
		[CT_TYPEDEF] = DW_TAG_typedef, [CT_ENUM] = DW_TAG_enumeration_type,
		[CT_INT] = DW_TAG_base_type,
	};
	struct dw_types *ty = types_of(f);
	uint64_t off;

	if ((size_t)kind >= sizeof tags / sizeof tags[0] || !tags[kind])
		return NULL;
	off = find_def(ty, name, tags[kind]);
	return off ? get(ty, off) : NULL;
}
