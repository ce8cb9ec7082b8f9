/* unit.h - the few checking macros the runtime unit tests share. A test
 * prints every failed check with its line and exits 1 if any failed.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <string.h>
#include <inttypes.h>

static int unit_failures;

#define CHECK(cond) do { \
	if (!(cond)) { \
		printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		unit_failures++; \
	} \
} while (0)

#define CHECK_INT(got, want) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (g_ != w_) { \
		printf("%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, \
		       #got, g_, w_); \
		unit_failures++; \
	} \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (strcmp(g_, w_) != 0) { \
		printf("%s:%d: %s =\n[%s]\nwant\n[%s]\n", __FILE__, __LINE__, \
		       #got, g_, w_); \
		unit_failures++; \
	} \
} while (0)

#define CHECK_MEM(got, glen, want, wlen) do { \
	size_t gl_ = (glen), wl_ = (wlen); \
	if (gl_ != wl_ || memcmp((got), (want), gl_) != 0) { \
		printf("%s:%d: %s differs (len %zu, want %zu)\n", __FILE__, \
		       __LINE__, #got, gl_, wl_); \
		unit_failures++; \
	} \
} while (0)

static inline int unit_done(const char *name)
{
	if (unit_failures)
		printf("%s: %d check(s) failed\n", name, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif /* UNIT_H */
