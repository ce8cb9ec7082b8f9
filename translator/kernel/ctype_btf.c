/* ctype_btf.c - C types from BTF; see ctype_btf.h.
 *
 * A ctype is created before its referenced types are, and memoized first,
 * so that self-referencing structs (list_head) terminate.  BTF has no
 * explicit char or bool flags beyond its INT encoding, which is exactly
 * what stap's type names need.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/ctype_btf.h"

struct ctype_btf {
	struct ctype_source src;	/* first: the callbacks see this */
	const struct btf *b;
	struct ctype **memo;		/* by BTF id */
	struct ctype void_type;
};

static void load_members(struct ctype_source *src, struct ctype *t)
{
	struct ctype_btf *cb = (struct ctype_btf *)src;
	const struct btf_type *bt = btf_type(cb->b, t->src_id);
	const struct btf_member *m = btf_extra(bt);
	int i, n = btf_vlen(bt), kflag = BTF_INFO_KFLAG(bt->info);

	t->members = calloc((size_t)n + 1, sizeof *t->members);
	for (i = 0; i < n; i++) {
		struct ctype_member *cm = &t->members[i];
		cm->name = btf_str(cb->b, m[i].name_off);
		cm->type = ctype_btf_get(cb, m[i].type);
		cm->bit_offset = kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
		cm->bit_size = kflag ? BTF_MEMBER_BITFIELD_SIZE(m[i].offset) : 0;
	}
	t->nmembers = n;
}

struct ctype_btf *ctype_btf_new(const struct btf *b)
{
	struct ctype_btf *cb = calloc(1, sizeof *cb);

	cb->src.load_members = load_members;
	cb->b = b;
	cb->memo = calloc(btf_ntypes(b), sizeof *cb->memo);
	cb->void_type.kind = CT_VOID;
	cb->void_type.name = "void";
	return cb;
}

static void fill_func(struct ctype_btf *cb, struct ctype *t,
		      const struct btf_type *bt)
{
	const struct btf_param *pa = btf_extra(bt);
	int i, n = btf_vlen(bt);

	t->kind = CT_FUNC;
	t->target = ctype_btf_get(cb, bt->type);
	if (n && !pa[n - 1].type) {	/* a trailing void: "..." */
		t->variadic = 1;
		n--;
	}
	t->params = calloc((size_t)n + 1, sizeof *t->params);
	for (i = 0; i < n; i++)
		t->params[i] = ctype_btf_get(cb, pa[i].type);
	t->nmembers = n;
}

static void fill(struct ctype_btf *cb, struct ctype *t,
		 const struct btf_type *bt)
{
	const struct btf_array *arr;
	uint32_t enc;

	switch (btf_kind(bt)) {
	case BTF_KIND_INT:
		t->kind = CT_INT;
		t->size = bt->size;
		enc = BTF_INT_ENCODING(*(const uint32_t *)btf_extra(bt));
		t->is_signed = !!(enc & BTF_INT_SIGNED);
		t->is_char = !!(enc & BTF_INT_CHAR) || !strcmp(t->name, "char");
		t->is_bool = !!(enc & BTF_INT_BOOL);
		break;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		t->kind = CT_ENUM;
		t->size = bt->size;
		t->is_signed = !BTF_INFO_KFLAG(bt->info) ? 1 : 0;
		break;
	case BTF_KIND_FLOAT:
		t->kind = CT_FLOAT;
		t->size = bt->size;
		break;
	case BTF_KIND_PTR:
		t->kind = CT_PTR;
		t->size = 8;
		t->target = ctype_btf_get(cb, bt->type);
		break;
	case BTF_KIND_ARRAY:
		arr = btf_extra(bt);
		t->kind = CT_ARRAY;
		t->target = ctype_btf_get(cb, arr->type);
		t->nelems = arr->nelems;
		t->size = (uint64_t)arr->nelems * ctype_strip(t->target)->size;
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		t->kind = btf_kind(bt) == BTF_KIND_STRUCT ? CT_STRUCT : CT_UNION;
		t->size = bt->size;
		t->nmembers = -1;
		break;
	case BTF_KIND_FWD:
		t->kind = BTF_INFO_KFLAG(bt->info) ? CT_UNION : CT_STRUCT;
		t->is_decl = 1;
		break;
	case BTF_KIND_TYPEDEF:
		t->kind = CT_TYPEDEF;
		t->target = ctype_btf_get(cb, bt->type);
		t->size = ctype_strip(t->target)->size;
		break;
	case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		t->kind = btf_kind(bt) == BTF_KIND_CONST ? CT_CONST :
			  btf_kind(bt) == BTF_KIND_VOLATILE ? CT_VOLATILE :
			  CT_RESTRICT;
		t->target = ctype_btf_get(cb, bt->type);
		t->size = t->target->size;
		if (btf_kind(bt) == BTF_KIND_TYPE_TAG)	/* __user etc.: invisible */
			t->kind = CT_TYPEDEF, t->name = "";
		break;
	case BTF_KIND_FUNC_PROTO:
		fill_func(cb, t, bt);
		break;
	default:
		t->kind = CT_VOID;
		break;
	}
}

struct ctype *ctype_btf_get(struct ctype_btf *cb, uint32_t id)
{
	const struct btf_type *bt = btf_type(cb->b, id);
	struct ctype *t;

	if (!id || !bt)
		return &cb->void_type;
	if (cb->memo[id])
		return cb->memo[id];
	t = calloc(1, sizeof *t);
	cb->memo[id] = t;
	t->name = btf_str(cb->b, bt->name_off);
	t->src = &cb->src;
	t->src_id = id;
	fill(cb, t, bt);
	return t;
}

struct ctype *ctype_btf_find(struct ctype_btf *cb, const char *name,
			     enum ctype_kind kind)
{
	static const int kinds[] = {
		[CT_STRUCT] = BTF_KIND_STRUCT, [CT_UNION] = BTF_KIND_UNION,
		[CT_TYPEDEF] = BTF_KIND_TYPEDEF, [CT_ENUM] = BTF_KIND_ENUM,
		[CT_INT] = BTF_KIND_INT,
	};
	uint32_t id;

	if ((size_t)kind >= sizeof kinds / sizeof kinds[0] || !kinds[kind])
		return NULL;
	id = btf_find(cb->b, name, kinds[kind]);
	if (!id && kind == CT_STRUCT)	/* only declared: a forward */
		id = btf_find(cb->b, name, BTF_KIND_FWD);
	return id ? ctype_btf_get(cb, id) : NULL;
}
