/* btf.c - BTF loading, the type index and name lookups; see btf.h.
 *
 * Loading a vmlinux's BTF reads only the ELF section headers and the .BTF
 * section (a few MB of a file of hundreds), so it takes milliseconds.  One
 * pass over the records finds where each type starts; a hash of (name,
 * kind) answers lookups.  Only native-endian BTF is accepted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/btf.h"
#include "kernel/elfsec.h"

struct btf {
	const struct btf *base;		/* split BTF (a module's): the
					   kernel's, whose ids and strings
					   come first; else NULL */
	unsigned char *data;		/* the whole blob */
	size_t size;
	const char *strs;		/* string section */
	uint32_t str_len;
	const struct btf_type **types;	/* by id; [0] is NULL (void) */
	uint32_t ntypes;
	uint32_t *hash;			/* open addressing: ids, 0 = empty */
	uint32_t hash_mask;
};

static size_t record_size(const struct btf_type *t)
{
	size_t n = btf_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT: return sizeof *t + 4;
	case BTF_KIND_ARRAY: return sizeof *t + sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return sizeof *t + n * sizeof(struct btf_member);
	case BTF_KIND_ENUM: return sizeof *t + n * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64: return sizeof *t + n * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO: return sizeof *t + n * sizeof(struct btf_param);
	case BTF_KIND_VAR: return sizeof *t + sizeof(struct btf_var);
	case BTF_KIND_DATASEC: return sizeof *t + n * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return sizeof *t + sizeof(struct btf_decl_tag);
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC: case BTF_KIND_FLOAT: case BTF_KIND_TYPE_TAG:
		return sizeof *t;
	default:
		return 0;	/* unknown kind: cannot skip it */
	}
}

static uint32_t hash_str(const char *s, int kind)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The first id of B's own types (a split BTF's follow its base's). */
static uint32_t first_id(const struct btf *b)
{
	return b->base ? b->base->ntypes : 1;
}

static void index_names(struct btf *b)
{
	uint32_t cap = 1, id, h;

	while (cap < b->ntypes * 2)
		cap <<= 1;
	b->hash = calloc(cap, sizeof *b->hash);
	b->hash_mask = cap - 1;
	for (id = first_id(b); id < b->ntypes; id++) {
		const char *name = btf_str(b, b->types[id]->name_off);
		if (!*name)
			continue;
		h = hash_str(name, btf_kind(b->types[id])) & b->hash_mask;
		while (b->hash[h])
			h = (h + 1) & b->hash_mask;
		b->hash[h] = id;
	}
}

static struct btf *parse(unsigned char *data, size_t size,
			 const struct btf *base, char *err, size_t errlen)
{
	struct btf_header *hdr = (struct btf_header *)data;
	struct btf *b;
	size_t off, end, cap = 1024;

	if (size < sizeof *hdr || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len > size ||
	    (size_t)hdr->hdr_len + hdr->type_off + hdr->type_len > size ||
	    (size_t)hdr->hdr_len + hdr->str_off + hdr->str_len > size) {
		snprintf(err, errlen, "malformed or foreign-endian BTF data");
		free(data);
		return NULL;
	}
	b = calloc(1, sizeof *b);
	b->base = base;
	b->data = data;
	b->size = size;
	b->strs = (const char *)data + hdr->hdr_len + hdr->str_off;
	b->str_len = hdr->str_len;
	if (base)	/* the base's records come first, shared */
		while (cap < base->ntypes * 2)
			cap *= 2;
	b->types = malloc(cap * sizeof *b->types);
	b->types[0] = NULL;
	b->ntypes = 1;
	if (base) {
		memcpy(b->types, base->types, base->ntypes * sizeof *b->types);
		b->ntypes = base->ntypes;
	}
	off = hdr->hdr_len + hdr->type_off;
	end = off + hdr->type_len;
	while (off + sizeof(struct btf_type) <= end) {
		const struct btf_type *t = (const void *)(data + off);
		size_t n = record_size(t);
		if (!n || off + n > end) {
			snprintf(err, errlen, "BTF type %u has unknown kind %d",
				 b->ntypes, btf_kind(t));
			btf_close(b);
			return NULL;
		}
		if (b->ntypes == cap) {
			cap *= 2;
			b->types = realloc(b->types, cap * sizeof *b->types);
		}
		b->types[b->ntypes++] = t;
		off += n;
	}
	index_names(b);
	return b;
}

struct btf *btf_from_mem(const void *data, size_t size, char *err,
			 size_t errlen)
{
	unsigned char *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	return parse(copy, size, NULL, err, errlen);
}

struct btf *btf_open_elf(const char *path, char *err, size_t errlen)
{
	return btf_open_elf_split(path, NULL, err, errlen);
}

/* The .BTF section of an ELF64 file. */
struct btf *btf_open_elf_split(const char *path, const struct btf *base,
			       char *err, size_t errlen)
{
	size_t size = 0;
	unsigned char *copy = elfsec_read(path, ".BTF", &size, err, errlen);

	return copy ? parse(copy, size, base, err, errlen) : NULL;
}

void btf_close(struct btf *b)
{
	if (!b)
		return;
	free(b->hash);
	free(b->types);
	free(b->data);
	free(b);
}

uint32_t btf_ntypes(const struct btf *b)
{
	return b->ntypes;
}

const struct btf_type *btf_type(const struct btf *b, uint32_t id)
{
	return id < b->ntypes ? b->types[id] : NULL;
}

const char *btf_str(const struct btf *b, uint32_t off)
{
	if (b->base) {	/* the base's strings, then ours */
		if (off < b->base->str_len)
			return btf_str(b->base, off);
		off -= b->base->str_len;
	}
	return off < b->str_len ? b->strs + off : "";
}

uint32_t btf_find(const struct btf *b, const char *name, int kind)
{
	uint32_t h = hash_str(name, kind) & b->hash_mask, id;

	while ((id = b->hash[h])) {
		const struct btf_type *t = b->types[id];
		if (btf_kind(t) == kind && !strcmp(btf_str(b, t->name_off), name))
			return id;
		h = (h + 1) & b->hash_mask;
	}
	return b->base ? btf_find(b->base, name, kind) : 0;
}
