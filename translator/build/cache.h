/* cache.h - the cache of built modules, $SYSTEMTAP_DIR/cache.
 *
 * Pass 4 computes a key (a SHA-256, as hex) over everything that shapes a
 * module; a module built for that key is kept as CACHE/XX/FILE.ko, XX the
 * key's first two hex digits.  Entries are written to a temporary file and
 * renamed, so concurrent runs see a whole module or none.  File digests
 * are remembered by stat stamp, so that the runtime tree and the kernel's
 * large files are not read again on every run.
 */
#ifndef CACHE_H
#define CACHE_H

#include "util/sha256.h"

struct session;

/* Feed a tagged, length-prefixed item into a key, so that no two
 * different sequences of items can hash the same text. */
void cache_key_add(struct sha256 *key, const char *tag, const void *data,
		   size_t n);
void cache_key_str(struct sha256 *key, const char *tag, const char *str);

/* Feed the content digest of a file (a missing file counts as such) or of
 * every C file (.c, .h) under a directory, with their relative names. */
void cache_key_file(struct session *s, struct sha256 *key, const char *tag,
		    const char *path);
void cache_key_tree(struct session *s, struct sha256 *key, const char *tag,
		    const char *dir);

/* The cached module for KEY, or NULL (a miss, --poison-cache, no cache). */
const char *cache_lookup(struct session *s, const char *key, const char *name);

/* Copy the module KO into the cache; returns its cache path, or NULL (a
 * cache that cannot be written is not an error: -v says why). */
const char *cache_store(struct session *s, const char *key, const char *name,
			const char *ko);

/* Remove the least recently used modules and runtime objects while the
 * cache is over its size limit (cache_mb_limit, 256 MiB by default), at
 * most once per cache_clean_interval_s (300 s by default), as stap 4.8
 * does after a build and for --clean-cache. */
void cache_clean(struct session *s);

#endif
