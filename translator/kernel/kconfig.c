/* kconfig.c - a kernel's .config as a hash table (see kconfig.h). */
#include "kernel/kconfig.h"

#include <stdint.h>
#include <string.h>

#include "util/arena.h"

struct kvar {
	const char *name, *value;
	size_t len;		/* of name */
};

struct kconfig {
	struct kvar *slot;	/* open addressing, a power of two */
	size_t mask;
};

static size_t kconfig_hash(const char *s, size_t len)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct kvar *kconfig_slot(const struct kconfig *k, const char *name,
				 size_t len)
{
	size_t j = kconfig_hash(name, len) & k->mask;

	for (; k->slot[j].name; j = (j + 1) & k->mask)
		if (k->slot[j].len == len && !memcmp(k->slot[j].name, name, len))
			break;
	return &k->slot[j];
}

struct kconfig *kconfig_parse(struct arena *a, const char *text, size_t len)
{
	struct kconfig *k = arena_alloc(a, sizeof *k);
	const char *p = text, *end = text + len;
	size_t lines = 0, cap = 64;

	for (; p < end; p++)
		lines += *p == '\n';
	while (cap < 2 * (lines + 1))
		cap *= 2;
	k->slot = arena_alloc(a, cap * sizeof *k->slot);
	k->mask = cap - 1;
	for (p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *eq;
		struct kvar *v;

		if (*p != '#' && (eq = memchr(p, '=', (size_t)(eol - p))) &&
		    eq > p) {
			v = kconfig_slot(k, p, (size_t)(eq - p));
			if (!v->name) {
				v->name = p;
				v->len = (size_t)(eq - p);
				v->value = arena_strndup(a, eq + 1,
							 (size_t)(eol - eq - 1));
			}
		}
		p = eol + 1;
	}
	return k;
}

const char *kconfig_get(const struct kconfig *k, const char *name)
{
	return kconfig_slot(k, name, strlen(name))->value;
}
