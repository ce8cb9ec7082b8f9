/* ksyms.c - the target kernel's function symbols (see ksyms.h).
 *
 * System.map lists every symbol with its type; the text ones (t T w W)
 * are the kernel's functions and entry labels.  Sizes are not in the map:
 * a symbol ends where the next address begins, which is also how stap
 * reports "name+0xOFF/0xSIZE".  Several names at one address print as the
 * first global one (as stap does), else the first.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "kernel/kernel.h"
#include "kernel/ksyms.h"

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
	size_t cap = 0, i, j;

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
	k->names = arena_alloc(s->arena, (k->n + 1) * sizeof(char *));
	for (i = 0; i < k->n; i++)
		k->names[i] = k->syms[i].name;
	qsort(k->names, k->n, sizeof(char *), cmp_str);
	for (i = j = 0; i < k->n; i++)
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

/* Edit distance, giving up above LIMIT. */
static int distance(const char *a, const char *b, int limit)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j, best;
	int row[256], prev, cur;

	if (la > 255 || lb > 255 || abs(la - lb) > limit)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		best = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			if (row[j] < best)
				best = row[j];
			prev = cur;
		}
		if (best > limit)
			return limit + 1;
	}
	return row[lb];
}

const char *ksyms_similar(struct session *s, const struct ksyms *k,
			  const char *name)
{
	enum { N = 5 };
	const char *best[N];
	int dist[N], n = 0, d, i, j, limit = (int)strlen(name) / 2 + 1;
	struct strbuf sb = {0};
	const char *r;
	size_t x;

	for (x = 0; x < k->nnames; x++) {
		d = distance(name, k->names[x], n == N ? dist[N - 1] - 1 : limit);
		if (d > limit || (n == N && d >= dist[N - 1]))
			continue;
		for (i = n < N ? n : N - 1; i > 0 && dist[i - 1] > d; i--) {
			dist[i] = dist[i - 1];
			best[i] = best[i - 1];
		}
		dist[i] = d;
		best[i] = k->names[x];
		if (n < N)
			n++;
	}
	if (!n)
		return NULL;
	for (j = 0; j < n; j++)
		sb_printf(&sb, "%s%s", j ? ", " : "", best[j]);
	r = arena_strdup(s->arena, sb.s);
	sb_free(&sb);
	return r;
}

static int is_global(char t)
{
	return t == 'T' || t == 'W';
}

/* The packed table: for each distinct address (ascending) its offset
 * from the first, and its shown name's offset in one string of names.
 * The runtime relocates it by the distance between sprint_symbol's real
 * address and its address in the map (KASLR). */
/* -d kernel or --all-modules, or a tapset alias standing for stap's
 * DWARF probe on a kernel function (pragma:kernel-symbols). */
static int kernel_wanted(struct emit *e)
{
	struct session *s = e->s;
	const char *m;
	int i;

	if (emit_pragma_used(e, "pragma:kernel-symbols"))
		return 1;

	VEC_EACH(s->sym_modules, i, m)
		if (!strcmp(m, "kernel") || !strcmp(m, "*"))
			return 1;
	return 0;
}

void ksyms_emit_table(struct emit *e)
{
	const struct ksyms *k = NULL;
	uint64_t anchor = 0, base;
	size_t i, j, n = 0, names = 0;
	const struct ksym *show;

	if (!emit_pragma_used(e, "pragma:symbols"))
		return;
	if (kernel_wanted(e))
		k = ksyms_kernel(e->s);
	if (k)
		anchor = ksyms_addr(k, "sprint_symbol");
	if (!k || !anchor || !k->n) {
		emit_line(e, "#define STP_KSYMS_N 0");
		return;
	}
	base = k->syms[0].addr;
	emit_line(e, "static const char _stp_ksym_names[] =");
	for (i = 0; i < k->n; i = j) {
		show = &k->syms[i];
		for (j = i; j < k->n && k->syms[j].addr == k->syms[i].addr; j++)
			if (!is_global(show->type) && is_global(k->syms[j].type))
				show = &k->syms[j];
		emit_line(e, "\t\"%s\\0\"", show->name);
		n++;
	}
	emit_line(e, "\t;");
	emit_line(e, "static const u32 _stp_ksym_tab[][2] = {");
	for (i = 0; i < k->n; i = j) {
		show = &k->syms[i];
		for (j = i; j < k->n && k->syms[j].addr == k->syms[i].addr; j++)
			if (!is_global(show->type) && is_global(k->syms[j].type))
				show = &k->syms[j];
		emit_line(e, "\t{ 0x%llx, %zu },",
			  (unsigned long long)(show->addr - base), names);
		names += strlen(show->name) + 1;
	}
	emit_line(e, "};");
	emit_line(e, "#define STP_KSYMS_N %zu", n);
	emit_line(e, "#define STP_KSYMS_BASE 0x%llxUL", (unsigned long long)base);
	emit_line(e, "#define STP_KSYMS_ANCHOR 0x%llxUL", (unsigned long long)anchor);
}
