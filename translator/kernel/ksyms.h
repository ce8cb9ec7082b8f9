/* ksyms.h - the target kernel's function symbols, from its System.map.
 *
 * Pass 2 checks kprobe.function names and expands their wildcards against
 * them; pass 3 packs them into the module (with -d kernel, emit/ksymtab.c)
 * so that symname(), probefunc() and backtraces can name kernel addresses.
 */
#ifndef KSYMS_H
#define KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct session;
struct vec;

struct ksym {
	uint64_t addr;
	const char *name;
	char type;		/* t T w W */
};

struct ksyms {
	struct ksym *syms;	/* text symbols, by address (map order kept) */
	size_t n;
	const char **names;	/* distinct names, sorted */
	size_t nnames;
};

/* The target kernel's text symbols; NULL when it has no System.map
 * (nothing is reported).  Loaded once. */
const struct ksyms *ksyms_kernel(struct session *s);

int ksyms_has(const struct ksyms *k, const char *name);
/* The address of the first text symbol NAME, or 0. */
uint64_t ksyms_addr(const struct ksyms *k, const char *name);
/* Names matching the glob PATTERN, sorted, pushed on OUT (const char *);
 * returns how many. */
int ksyms_match(struct session *s, const struct ksyms *k, const char *pattern,
		struct vec *out);
/* Up to five names close to NAME, "a, b, c", or NULL. */
const char *ksyms_similar(struct session *s, const struct ksyms *k,
			  const char *name);

#endif
