/* ksyms.c - the target kernel's function symbols (see ksyms.h).
 *
 * System.map lists every symbol with its type; the text ones (t T w W)
 * are the kernel's functions and entry labels.  Sizes are not in the map:
 * a symbol ends where the next address begins, which is also how stap
 * reports "name+0xOFF/0xSIZE".  Names close to a misspelt one come from
 * util/similar.c's edit distance; emit/ksymtab.c packs the table into the
 * module.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "kernel/ksyms.h"
#include "session.h"
#include "util/similar.h"

static struct ksyms *cache;
static int cache_tried;

static int is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y;	/* never reached with a stable map */
}

static int sorted_by_addr(const struct ksyms *k)
{
	size_t i;

	for (i = 1; i < k->n; i++)
		if (k->syms[i].addr < k->syms[i - 1].addr)
			return 0;
	return 1;
}

static struct ksyms *load(struct session *s, const char *path)
{
	struct ksyms *k;
	FILE *f = fopen(path, "r");
	char line[512], name[400], type;
	unsigned long long addr;
	size_t cap = 0, i, j, n;

	if (!f)
		return NULL;
	k = ARENA_NEW(s->arena, struct ksyms);
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%llx %c %399s", &addr, &type, name) != 3 ||
		    !is_text(type))
			continue;
		if (k->n == cap) {
			cap = cap ? cap * 2 : 4096;
			k->syms = realloc(k->syms, cap * sizeof *k->syms);
			if (!k->syms)
				abort();
		}
		k->syms[k->n].addr = addr;
		k->syms[k->n].name = arena_strdup(s->arena, name);
		k->syms[k->n].type = type;
		k->n++;
	}
	fclose(f);
	if (!sorted_by_addr(k))
		qsort(k->syms, k->n, sizeof *k->syms, cmp_addr);
	/* The functions by name: not the padding before each function that
	 * kernels with function padding (6.2 on) name __pfx_NAME,
	 * which is no function to probe; it still ends the function before.
	 * Nor a weak symbol (w W: a default the kernel may override, such as
	 * the stubs of system calls it was built without): stap 4.8's
	 * kprobe.function matches none, by name or wildcard; they still name
	 * their addresses. */
	k->names = arena_alloc(s->arena, (k->n + 1) * sizeof(char *));
	for (i = j = 0; i < k->n; i++)
		if (strncmp(k->syms[i].name, "__pfx_", 6) &&
		    k->syms[i].type != 'w' && k->syms[i].type != 'W')
			k->names[j++] = k->syms[i].name;
	qsort(k->names, j, sizeof(char *), cmp_str);
	for (n = j, i = j = 0; i < n; i++)
		if (!j || strcmp(k->names[j - 1], k->names[i]))
			k->names[j++] = k->names[i];
	k->nnames = j;
	return k;
}

const struct ksyms *ksyms_kernel(struct session *s)
{
	const struct kernel_info *ki;

	if (!cache_tried) {
		cache_tried = 1;
		ki = kernel_target(s);
		if (ki && ki->system_map)
			cache = load(s, ki->system_map);
	}
	return cache;
}

int ksyms_has(const struct ksyms *k, const char *name)
{
	return bsearch(&name, k->names, k->nnames, sizeof(char *), cmp_str) != NULL;
}

uint64_t ksyms_addr(const struct ksyms *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->syms[i].name, name))
			return k->syms[i].addr;
	return 0;
}

int ksyms_match(struct session *s, const struct ksyms *k, const char *pattern,
		struct vec *out)
{
	size_t i;
	int n = 0;

	for (i = 0; i < k->nnames; i++)
		if (!fnmatch(pattern, k->names[i], 0)) {
			vec_push(s->arena, out, (void *)k->names[i]);
			n++;
		}
	return n;
}

const char *ksyms_similar(struct session *s, const struct ksyms *k,
			  const char *name)
{
	struct similar_top t;
	size_t x;

	similar_top_init(&t, name);
	for (x = 0; x < k->nnames; x++)
		similar_top_add(&t, k->names[x]);
	return similar_top_list(s->arena, &t);
}
