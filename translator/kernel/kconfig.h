/* kconfig.h - a kernel's .config, read once and hashed.
 *
 * The preprocessor's CONFIG_ conditions ask for values by name, thousands
 * of times while the tapset library is parsed: the file is read once per
 * run into a hash table (kernel.c keeps it in the session).
 */
#ifndef KCONFIG_H
#define KCONFIG_H

#include <stddef.h>

struct arena;
struct kconfig;

/* The NAME=VALUE lines of TEXT (LEN bytes); comments are ignored.  The
 * first line naming a variable wins. */
struct kconfig *kconfig_parse(struct arena *a, const char *text, size_t len);

/* The value of NAME (as in .config, quotes kept); NULL when unset. */
const char *kconfig_get(const struct kconfig *k, const char *name);

#endif
