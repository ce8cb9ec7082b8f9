/* arena.c - bump allocation in large chunks, plus the heap string buffer.
 *
 * See arena.h.  Chunks are 4 MiB: parsing the tapset library alone makes
 * tens of megabytes of nodes.  Chunks come straight from mmap, already
 * zeroed, so allocation needs no memset.  An allocation larger
 * than a quarter chunk gets a chunk of its own, placed behind the current
 * one so that the space left there is still used.
 */
#include "util/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CHUNK_SIZE (4 * 1024 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	size_t map_len;		/* what chunk_new mapped */
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct chunk *head;
};

void xoom(void)
{
	fputs("stap: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xoom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xoom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

struct arena *arena_new(void)
{
	struct arena *a = xmalloc(sizeof *a);
	a->head = NULL;
	return a;
}

void arena_free(struct arena *a)
{
	struct chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		munmap(c, c->map_len);
	}
	free(a);
}

#define HUGE_PAGE (2 * 1024 * 1024)

/* Bytes left unused at the end of every chunk: syntax-tree nodes are
 * allocated only as large as their kind needs (ast.h), and a whole-node
 * copy of the last one may read past it. */
#define SLACK 256

/* A zeroed chunk straight from mmap; a standard one is aligned to a huge
 * page and asks for huge pages, so that filling it costs two page faults
 * instead of a thousand. */
static struct chunk *chunk_new(size_t cap)
{
	size_t len = (sizeof(struct chunk) + cap + SLACK + 4095) & ~(size_t)4095;
	size_t extra = len == CHUNK_SIZE ? HUGE_PAGE : 0;
	char *m = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p = m;
	struct chunk *c;

	if (m == MAP_FAILED)
		xoom();
	if (extra) {
		p = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
		if (p > m)
			munmap(m, (size_t)(p - m));
		if (p + len < m + len + extra)
			munmap(p + len, (size_t)(m + len + extra - (p + len)));
#ifdef MADV_HUGEPAGE
		madvise(p, len, MADV_HUGEPAGE);
#endif
	}
	c = (struct chunk *)p;
	c->size = len - sizeof *c - SLACK;
	c->map_len = len;
	return c;
}

void *arena_alloc(struct arena *a, size_t size)
{
	struct chunk *c = a->head;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (c && c->size - c->used >= size) {
		p = c->data + c->used;
		c->used += size;
		return p;
	}
	if (size > CHUNK_SIZE / 4) {
		struct chunk *big = chunk_new(size);

		big->used = size;
		if (c) {
			big->next = c->next;
			c->next = big;
		} else {
			a->head = big;
		}
		return big->data;
	}
	c = chunk_new(CHUNK_SIZE - sizeof *c - SLACK);
	c->next = a->head;
	a->head = c;
	c->used = size;
	return c->data;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;
	char *p;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

void vec_push(struct arena *a, struct vec *vec, void *item)
{
	if (vec->n == vec->cap) {
		int cap = vec->cap ? vec->cap * 2 : 4;
		void **v = arena_alloc(a, sizeof(void *) * (size_t)cap);
		if (vec->n)
			memcpy(v, vec->v, sizeof(void *) * (size_t)vec->n);
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = item;
}

void vec_add_unique(struct arena *a, struct vec *vec, void *item)
{
	int i;

	for (i = 0; i < vec->n; i++)
		if (vec->v[i] == item)
			return;
	vec_push(a, vec, item);
}

uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

int vec_has_str(const struct vec *vec, const char *s)
{
	int i;

	for (i = 0; i < vec->n; i++)
		if (!strcmp(vec->v[i], s))
			return 1;
	return 0;
}

static void sb_reserve(struct strbuf *sb, size_t more)
{
	if (sb->len + more + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;
		while (cap < sb->len + more + 1)
			cap *= 2;
		sb->s = xrealloc(sb->s, cap);
		sb->cap = cap;
	}
}

void sb_put(struct strbuf *sb, const char *s, size_t n)
{
	sb_reserve(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_put(sb, &c, 1);
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_put(sb, s, strlen(s));
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	sb_reserve(sb, (size_t)n);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_free(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}
