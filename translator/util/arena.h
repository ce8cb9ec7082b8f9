/* arena.h - one allocation arena per compilation.
 *
 * Every AST node, string and table of a run of the translator lives in the
 * session's arena and is released at once when the run ends; nothing is
 * freed one by one, so error paths cannot leak.  Allocation never fails:
 * running out of memory ends the process with a message.
 */
#ifndef ARENA_H
#define ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

struct arena;

struct arena *arena_new(void);
void arena_free(struct arena *a);

void *arena_alloc(struct arena *a, size_t size);   /* zeroed */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap);

#define ARENA_NEW(a, type) ((type *)arena_alloc((a), sizeof(type)))

/* A growable array of pointers in the arena.  The old storage is simply
 * abandoned when it grows; the arena reclaims it at the end. */
struct vec {
	void **v;
	int n, cap;
};

void vec_push(struct arena *a, struct vec *vec, void *item);
/* vec_push unless ITEM is in VEC already (a set of a few pointers). */
void vec_add_unique(struct arena *a, struct vec *vec, void *item);
/* Whether VEC, of strings, holds one equal to S. */
int vec_has_str(const struct vec *vec, const char *s);

/* A 64-bit FNV-1a hash of the string S, for hash tables. */
uint64_t str_hash(const char *s);

#define VEC_EACH(vec, i, var) \
	for ((i) = 0; (i) < (vec).n && (((var) = (vec).v[(i)]), 1); (i)++)

/* A growable character buffer in ordinary heap memory, for building text
 * whose final length is unknown (generated C, listings). */
struct strbuf {
	char *s;
	size_t len, cap;
};

void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
void sb_put(struct strbuf *sb, const char *s, size_t n);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
void sb_free(struct strbuf *sb);

/* Out of memory: print and exit; never returns. */
void xoom(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
