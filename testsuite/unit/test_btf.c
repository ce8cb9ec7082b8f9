/* test_btf.c - the BTF reader and the C type model on a hand-built blob:
 * lookups by name, struct members (anonymous ones too), bitfields, and
 * type names spelled as stap prints them.
 */
#include <stdlib.h>

#include "kernel/btf.h"
#include "kernel/ctype_btf.h"
#include "unit.h"

static unsigned char blob[4096];
static size_t tlen;
static char strs[512] = "";
static size_t slen = 1;

static uint32_t str(const char *s)
{
	uint32_t off = (uint32_t)slen;

	strcpy(strs + slen, s);
	slen += strlen(s) + 1;
	return off;
}

static void put(const void *p, size_t n)
{
	memcpy(blob + sizeof(struct btf_header) + tlen, p, n);
	tlen += n;
}

static void type(const char *name, int kind, int vlen, int kflag,
		 uint32_t size_or_type)
{
	struct btf_type t = { str(name),
			      (uint32_t)kflag << 31 | (uint32_t)kind << 24 | (uint32_t)vlen,
			      { size_or_type } };
	put(&t, sizeof t);
}

static void u32(uint32_t v)
{
	put(&v, 4);
}

static struct btf *build(void)
{
	struct btf_header h = { BTF_MAGIC, 1, 0, sizeof h, 0, 0, 0, 0 };
	char err[128];
	struct btf *b;

	type("int", BTF_KIND_INT, 0, 0, 4);		/* 1 */
	u32(BTF_INT_SIGNED << 24 | 32);
	type("", BTF_KIND_PTR, 0, 0, 3);		/* 2: struct s * */
	type("s", BTF_KIND_STRUCT, 4, 1, 16);		/* 3 */
	u32(str("a")); u32(1); u32(0);
	u32(str("name")); u32(5); u32(32);
	u32(str("")); u32(10); u32(64);			/* anonymous union */
	u32(str("bits")); u32(1); u32(3u << 24 | 98);	/* int bits:3 */
	type("char", BTF_KIND_INT, 0, 0, 1);		/* 4 */
	u32(BTF_INT_SIGNED << 24 | 8);
	type("", BTF_KIND_ARRAY, 0, 0, 0);		/* 5: char[4] */
	u32(4); u32(1); u32(4);
	type("", BTF_KIND_CONST, 0, 0, 4);		/* 6 */
	type("", BTF_KIND_PTR, 0, 0, 6);		/* 7: char const * */
	type("", BTF_KIND_FUNC_PROTO, 2, 0, 1);		/* 8 */
	u32(str("x")); u32(1);
	u32(str("p")); u32(7);
	type("", BTF_KIND_PTR, 0, 0, 8);		/* 9 */
	type("", BTF_KIND_UNION, 1, 0, 4);		/* 10 */
	u32(str("inner")); u32(1); u32(0);
	type("__traceiter_t", BTF_KIND_FUNC, 0, 0, 8);	/* 11 */
	type("pid_t", BTF_KIND_TYPEDEF, 0, 0, 1);	/* 12 */
	h.type_len = (uint32_t)tlen;
	h.str_off = (uint32_t)tlen;
	h.str_len = (uint32_t)slen;
	memcpy(blob, &h, sizeof h);
	memcpy(blob + sizeof h + tlen, strs, slen);
	b = btf_from_mem(blob, sizeof h + tlen + slen, err, sizeof err);
	if (!b)
		printf("btf_from_mem: %s\n", err);
	return b;
}

int main(void)
{
	struct btf *b = build();
	struct ctype_btf *cb;
	const struct ctype_member *m;
	struct ctype *s;
	uint32_t off;
	char buf[256];

	if (!b)
		return 1;
	CHECK_INT(btf_ntypes(b), 13);
	CHECK_INT(btf_find(b, "s", BTF_KIND_STRUCT), 3);
	CHECK_INT(btf_find(b, "__traceiter_t", BTF_KIND_FUNC), 11);
	CHECK_INT(btf_find(b, "s", BTF_KIND_UNION), 0);
	cb = ctype_btf_new(b);
	CHECK_STR(ctype_name(ctype_btf_get(cb, 2), buf, sizeof buf), "struct s*");
	CHECK_STR(ctype_name(ctype_btf_get(cb, 7), buf, sizeof buf), "char const*");
	CHECK_STR(ctype_name(ctype_btf_get(cb, 5), buf, sizeof buf), "char[]");
	CHECK_STR(ctype_name(ctype_btf_get(cb, 9), buf, sizeof buf),
		  "int (*) (int, char const*)");
	CHECK_STR(ctype_name(ctype_btf_get(cb, 12), buf, sizeof buf), "pid_t");
	s = ctype_btf_find(cb, "s", CT_STRUCT);
	CHECK(s == ctype_btf_get(cb, 3));
	CHECK_INT(ctype_members(s), 4);
	m = ctype_member(s, "name", &off);
	CHECK(m && off == 32 && m->type->kind == CT_ARRAY);
	m = ctype_member(s, "inner", &off);	/* through the anonymous union */
	CHECK(m && off == 64);
	m = ctype_member(s, "bits", &off);
	CHECK(m && off == 98 && m->bit_size == 3);
	CHECK(!ctype_member(s, "nosuch", &off));
	CHECK(ctype_btf_get(cb, 4)->is_char && ctype_btf_get(cb, 1)->is_signed);
	btf_close(b);
	return unit_failures ? 1 : 0;
}
