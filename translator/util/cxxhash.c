/* cxxhash.c - libstdc++'s unordered_multimap iteration order
 * (cxxhash.h).
 *
 * Written from the container's documented and observed behaviour, checked
 * against g++ 12's (testsuite/unit/test_cxxhash): keys hashed by the
 * 64-bit MurmurHash2 variant std::hash<std::string> uses (seed
 * 0xc70f6907); one singly linked list of all nodes, each bucket pointing
 * at the node before its first.  A new key goes first in its bucket, or
 * first in the list when its bucket was empty; a key already there goes
 * just before its first equal one (just after it while the map holds up
 * to 20 entries, which it then finds by scanning the list).  A rehash (at
 * the entry counts the prime rehash policy grows at, max load 1.0)
 * relinks the nodes in list order, each after the one before it when
 * both share a bucket.  Reads nothing but its arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "util/cxxhash.h"

#define MUR_MUL 0xc6a4a7935bd1e995ull
#define STRING_SEED 0xc70f6907ull

static uint64_t shift_mix(uint64_t v)
{
	return v ^ (v >> 47);
}

uint64_t cxxhash_string(const void *p, size_t len)
{
	const unsigned char *s = p;
	size_t whole = len & ~(size_t)7, i;
	uint64_t h = STRING_SEED ^ (len * MUR_MUL), w;
	int k;

	for (i = 0; i < whole; i += 8) {
		memcpy(&w, s + i, 8);	/* little-endian, as on x86_64 */
		h ^= shift_mix(w * MUR_MUL) * MUR_MUL;
		h *= MUR_MUL;
	}
	if (len & 7) {
		for (w = 0, k = (int)(len & 7) - 1; k >= 0; k--)
			w = (w << 8) + s[whole + k];
		h ^= w;
		h *= MUR_MUL;
	}
	return shift_mix(shift_mix(h) * MUR_MUL);
}

/* The bucket counts a default-constructed map has after its Nth insertion
 * for N from GROW_AT[i] up to the next row (bucket_count() as g++ 12's
 * libstdc++ reports it, growing by one key at a time). */
static const struct {
	size_t grow_at, buckets;
} growth[] = {
	{ 0, 1 }, { 1, 13 }, { 14, 29 }, { 30, 59 }, { 60, 127 },
	{ 128, 257 }, { 258, 541 }, { 542, 1109 }, { 1110, 2357 },
	{ 2358, 5087 }, { 5088, 10273 }, { 10274, 20753 },
	{ 20754, 42043 }, { 42044, 85229 }, { 85230, 172933 },
	{ 172934, 351061 }, { 351062, 712697 }, { 712698, 1447153 },
	{ 1447154, 2938679 },
};

#define NIL ((size_t)-1)	/* no node */
#define HEAD ((size_t)-2)	/* the list's head: "before begin" */
#define EMPTY ((size_t)-3)	/* a bucket without nodes */
#define SMALL 20		/* up to this size an insertion finds an
				   equal key by scanning the list */

struct cxxmap {
	const char *const *names;
	uint64_t *hash;		/* by name index */
	size_t *next;		/* by name index: the list */
	size_t head;		/* the first node */
	size_t *bucket;		/* the node before each bucket's first:
				   a name index, HEAD or EMPTY */
	size_t nbuckets, count;
};

static size_t *next_of(struct cxxmap *m, size_t before)
{
	return before == HEAD ? &m->head : &m->next[before];
}

static size_t bucket_of(const struct cxxmap *m, size_t node)
{
	return m->hash[node] % m->nbuckets;
}

/* Node I first in bucket B. */
static void insert_at_bucket_begin(struct cxxmap *m, size_t b, size_t i)
{
	size_t *after;

	if (m->bucket[b] != EMPTY) {
		after = next_of(m, m->bucket[b]);
		m->next[i] = *after;
		*after = i;
		return;
	}
	m->next[i] = m->head;
	m->head = i;
	if (m->next[i] != NIL)
		m->bucket[bucket_of(m, m->next[i])] = i;
	m->bucket[b] = HEAD;
}

/* Node I right after BEFORE (a node or HEAD), in the same bucket as the
 * node after it. */
static void link_after(struct cxxmap *m, size_t before, size_t i)
{
	size_t *after = next_of(m, before);

	m->next[i] = *after;
	*after = i;
}

/* Node I right after node P, in P's bucket B. */
static void insert_after(struct cxxmap *m, size_t b, size_t p, size_t i)
{
	m->next[i] = m->next[p];
	m->next[p] = i;
	if (m->next[i] != NIL && bucket_of(m, m->next[i]) != b)
		m->bucket[bucket_of(m, m->next[i])] = i;
}

/* Relink every node into NB buckets, in list order: a node in the same
 * bucket as the one before it follows that one (equal keys stay in their
 * order), else it goes first in its bucket, or first in the list when its
 * bucket is still empty. */
static int rehash(struct cxxmap *m, size_t nb)
{
	size_t *nbucket = malloc(nb * sizeof *nbucket), p, nx, b = 0;
	size_t prev = NIL, prev_b = 0;

	if (!nbucket)
		return -1;
	for (b = 0; b < nb; b++)
		nbucket[b] = EMPTY;
	free(m->bucket);
	m->bucket = nbucket;
	m->nbuckets = nb;
	p = m->head;
	m->head = NIL;
	for (; p != NIL; prev = p, prev_b = b, p = nx) {
		nx = m->next[p];
		b = bucket_of(m, p);
		if (prev != NIL && prev_b == b)
			insert_after(m, b, prev, p);
		else
			insert_at_bucket_begin(m, b, p);
	}
	return 0;
}

/* The first node of bucket B whose key is NAME, and in *BEFORE the node
 * before it; NIL if none. */
static size_t find_in_bucket(const struct cxxmap *m, size_t b,
			     const char *name, size_t *before)
{
	size_t prev = m->bucket[b], p;

	if (prev == EMPTY)
		return NIL;
	for (p = prev == HEAD ? m->head : m->next[prev];
	     p != NIL && bucket_of(m, p) == b; prev = p, p = m->next[p])
		if (!strcmp(m->names[p], name)) {
			*before = prev;
			return p;
		}
	return NIL;
}

/* The first node in list order whose key is NAME; NIL if none. */
static size_t find_in_list(const struct cxxmap *m, const char *name)
{
	size_t p;

	for (p = m->head; p != NIL; p = m->next[p])
		if (!strcmp(m->names[p], name))
			return p;
	return NIL;
}

/* The bucket count once the map holds N entries. */
static size_t buckets_for(size_t n)
{
	size_t i = sizeof growth / sizeof *growth;

	while (--i && growth[i].grow_at > n)
		;
	return growth[i].buckets;
}

/* Insert node I: after an equal key a small map finds by its scan, else
 * before the first equal key in its bucket, else first in its bucket. */
static int insert(struct cxxmap *m, size_t i)
{
	size_t b, eq = NIL, before;

	if (m->count <= SMALL)
		eq = find_in_list(m, m->names[i]);
	if (buckets_for(m->count + 1) != m->nbuckets &&
	    rehash(m, buckets_for(m->count + 1)))
		return -1;
	b = m->hash[i] % m->nbuckets;
	if (eq != NIL)
		insert_after(m, b, eq, i);
	else if (find_in_bucket(m, b, m->names[i], &before) != NIL)
		link_after(m, before, i);	/* first of the equal keys */
	else
		insert_at_bucket_begin(m, b, i);
	m->count++;
	return 0;
}

int cxxhash_multimap_order(const char *const *names, size_t n, size_t *order)
{
	struct cxxmap m = { .names = names, .head = NIL, .nbuckets = 1 };
	size_t i, p;
	int rc = -1;

	m.hash = malloc((n ? n : 1) * sizeof *m.hash);
	m.next = malloc((n ? n : 1) * sizeof *m.next);
	m.bucket = malloc(sizeof *m.bucket);
	if (!m.hash || !m.next || !m.bucket)
		goto out;
	m.bucket[0] = EMPTY;
	for (i = 0; i < n; i++) {
		m.hash[i] = cxxhash_string(names[i], strlen(names[i]));
		if (insert(&m, i))
			goto out;
	}
	for (i = 0, p = m.head; p != NIL; p = m.next[p])
		order[i++] = p;
	rc = 0;
out:
	free(m.hash);
	free(m.next);
	free(m.bucket);
	return rc;
}
