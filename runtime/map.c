/* map.c - associative arrays: a fixed pool of entries, a chained hash
 * index and a doubly linked entry list, all addressed by 32-bit entry
 * ids inside one allocation made at creation. Keys are compared and
 * hashed column by column from the map's key signature, so one copy of
 * this code serves every key/value shape. Sorting lives in map_sort.c,
 * per-CPU maps of statistics in pmap.c. API and usage: map.h.
 */
#include "map_impl.h"

/* Bytes a key column or value of type t occupies in an entry. */
static size_t map_slot_size(enum _stp_type t, const struct _stp_hist *h)
{
	switch (t) {
	case STP_T_INT64:
		return sizeof(int64_t);
	case STP_T_STRING:
		return (MAXSTRINGLEN + 7) & ~(size_t)7;
	default:
		return (_stp_stat_data_size(h) + 7) & ~(size_t)7;
	}
}

static uint32_t map_hash_size(unsigned maxnum)
{
	uint32_t n = 2;

	while (n < maxnum && n < 0x40000000u)
		n <<= 1;
	return n;
}

/* Layout: struct, hash heads, two sort index arrays, then the entries. */
struct _stp_map *_stp_map_new(unsigned maxnum, int wrap, const char *keysig,
			      enum _stp_type vtype, const struct _stp_hist *hist)
{
	static const struct _stp_hist no_hist = STP_HIST_NONE_INIT(0);
	struct _stp_map *m;
	size_t off, esize, hoff, soff, eoff, total;
	uint32_t hsize, i;
	int nkeys = keysig ? (int)strlen(keysig) : 0;

	if (maxnum == 0 || maxnum > 0x10000000u || nkeys < 1
	    || nkeys > STP_MAP_MAXKEYS)
		return NULL;
	if (vtype != STP_T_INT64 && vtype != STP_T_STRING && vtype != STP_T_STAT)
		return NULL;
	if (hist == NULL)
		hist = &no_hist;

	off = sizeof(struct map_ent);
	for (i = 0; i < (uint32_t)nkeys; i++) {
		if (keysig[i] != STP_T_INT64 && keysig[i] != STP_T_STRING)
			return NULL;
		off += map_slot_size((enum _stp_type)keysig[i], hist);
	}
	esize = off + map_slot_size(vtype, hist);

	hsize = map_hash_size(maxnum);
	hoff = (sizeof(struct _stp_map) + 7) & ~(size_t)7;
	soff = hoff + hsize * sizeof(uint32_t);
	eoff = (soff + 2 * (size_t)maxnum * sizeof(uint32_t) + 63) & ~(size_t)63;
	total = eoff + esize * maxnum;

	m = _stp_rt_zalloc(total);
	if (m == NULL)
		return NULL;
	m->maxnum = maxnum;
	m->wrap = wrap != 0;
	m->nkeys = nkeys;
	m->int1 = nkeys == 1 && keysig[0] == STP_T_INT64;
	m->vtype = vtype;
	m->hist = hist;
	off = sizeof(struct map_ent);
	for (i = 0; i < (uint32_t)nkeys; i++) {
		m->ktype[i] = (unsigned char)keysig[i];
		m->koff[i] = (uint32_t)off;
		off += map_slot_size((enum _stp_type)keysig[i], hist);
	}
	m->voff = (uint32_t)off;
	m->esize = esize;
	m->hmask = hsize - 1;
	m->hash = (uint32_t *)((char *)m + hoff);
	m->sidx = (uint32_t *)((char *)m + soff);
	m->stmp = m->sidx + maxnum;
	m->ents = (char *)m + eoff;
	_stp_map_clear(m);
	return m;
}

void _stp_map_del(struct _stp_map *m)
{
	if (m)
		_stp_rt_free(m);
}

/* Key columns longer than a stored string compare on the stored prefix. */
#define MAP_KEYLEN (MAXSTRINGLEN - 1)

static const char *map_kstr(const char *s)
{
	return s ? s : "";
}

static uint32_t map_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (uint32_t)x;
}

/* FNV-1a of a key string's first MAP_KEYLEN bytes. */
static uint32_t map_hash_bytes(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + MAP_KEYLEN;
	uint32_t ch = 0x811c9dc5u;

	for (; s != end && *s; s++)
		ch = (ch ^ *s) * 0x01000193u;
	return ch;
}

#ifdef __KERNEL__
#include <linux/stringhash.h>

/* In the kernel the dcache's hash, a word at a time; a string longer
 * than a stored key (rare: literals) hashes the part that is stored. */
static inline uint32_t map_hash_str(const char *str)
{
	u64 hl = hashlen_string(NULL, map_kstr(str));

	if (unlikely(hashlen_len(hl) > MAP_KEYLEN))
		return map_hash_bytes(str);
	return hashlen_hash(hl);
}
#else
static inline uint32_t map_hash_str(const char *str)
{
	return map_hash_bytes(map_kstr(str));
}
#endif

static inline uint32_t map_hash_mix(uint32_t h, uint32_t ch)
{
	h = (h ^ ch) * 0x01000193u;
	return h ^ (h >> 15);
}

static __always_inline uint32_t map_hash_key(const struct _stp_map *m,
					    const union _stp_key *k)
{
	uint32_t h = 0x811c9dc5u;
	int c;

	for (c = 0; c < m->nkeys; c++)
		h = map_hash_mix(h, m->ktype[c] == STP_T_INT64 ?
				 map_mix64((uint64_t)k[c].n) :
				 map_hash_str(k[c].s));
	return h;
}

/* SRC's first N bytes at most into DST, terminated (N + 1 bytes at DST);
 * DST may be SRC.  (Not strncpy: newer kernels dropped it.) */
static void map_copy_str(char *dst, const char *src, size_t n)
{
	n = strnlen(src, n);
	memmove(dst, src, n);
	dst[n] = '\0';
}

/* strncmp(a, b, MAP_KEYLEN) == 0 from byte i on, inline (the kernel's is
 * a byte loop behind a call). */
static inline int map_str_equal_from(const char *a, const char *b, size_t i)
{
	for (; i != MAP_KEYLEN; i++) {
		if (a[i] != b[i])
			return 0;
		if (!a[i])
			break;
	}
	return 1;
}

#if defined(CONFIG_DCACHE_WORD_ACCESS) && defined(__LITTLE_ENDIAN)
#include <asm/word-at-a-time.h>

/* The same a word at a time, as the dcache compares names: A is an
 * entry's key column (8-aligned, MAXSTRINGLEN bytes of slot: whole words
 * read plainly), B the key looked up, which may end anywhere (read with
 * load_unaligned_zeropad).  The word with B's NUL compares up to and
 * including it; the last bytes short of a word, byte by byte. */
static inline int map_str_equal(const char *a, const char *b)
{
	const struct word_at_a_time wc = WORD_AT_A_TIME_CONSTANTS;
	unsigned long x, y, z;
	size_t i;

	for (i = 0; i + sizeof(long) <= MAP_KEYLEN; i += sizeof(long)) {
		x = *(const unsigned long *)(a + i);
		y = load_unaligned_zeropad(b + i);
		if (has_zero(y, &z, &wc)) {
			z = zero_bytemask(create_zero_mask(prep_zero_mask(y, z, &wc)));
			return ((x ^ y) & ((z << 8) | 0xff)) == 0;
		}
		if (x != y)
			return 0;
	}
	return map_str_equal_from(a, b, i);
}
#else
static inline int map_str_equal(const char *a, const char *b)
{
	return map_str_equal_from(a, b, 0);
}
#endif

static __always_inline int map_key_equal(const struct _stp_map *m, uint32_t id,
					 const union _stp_key *k)
{
	const char *e = (const char *)map_ent(m, id);
	int c;

	for (c = 0; c < m->nkeys; c++) {
		if (m->ktype[c] == STP_T_INT64) {
			if (*(const int64_t *)(e + m->koff[c]) != k[c].n)
				return 0;
		} else if (!map_str_equal(e + m->koff[c], map_kstr(k[c].s))) {
			return 0;
		}
	}
	return 1;
}

static __always_inline int map_find_hashed(const struct _stp_map *m,
					   const union _stp_key *k, uint32_t h)
{
	uint32_t id = m->hash[h & m->hmask];

	for (; id != MAP_NIL; id = map_ent(m, id)->hnext)
		if (map_ent(m, id)->hash == h && map_key_equal(m, id, k))
			return (int)id;
	return -1;
}

/* The commonest shape, one int64 key column (m->int1), without the loops
 * over columns: map_hash_key's hash of that key, so that either path finds
 * what the other inserted, and the column right after the entry's header
 * (where _stp_map_new puts the first one). */
static __always_inline uint32_t map_hash_int1(int64_t n)
{
	return map_hash_mix(0x811c9dc5u, map_mix64((uint64_t)n));
}

static __always_inline int map_find_int1(const struct _stp_map *m, int64_t n,
					 uint32_t h)
{
	uint32_t id = m->hash[h & m->hmask];
	const struct map_ent *e;

	for (; id != MAP_NIL; id = e->hnext) {
		e = map_ent(m, id);
		if (e->hash == h && *(const int64_t *)(e + 1) == n)
			return (int)id;
	}
	return -1;
}

static noinline int map_find_any(const struct _stp_map *m,
				 const union _stp_key *k)
{
	return map_find_hashed(m, k, map_hash_key(m, k));
}

int _stp_map_find(const struct _stp_map *m, const union _stp_key *k)
{
	if (m->int1)
		return map_find_int1(m, k[0].n, map_hash_int1(k[0].n));
	return map_find_any(m, k);
}

static void map_hash_unlink(struct _stp_map *m, uint32_t id)
{
	uint32_t *p = &m->hash[map_ent(m, id)->hash & m->hmask];

	while (*p != id)
		p = &map_ent(m, *p)->hnext;
	*p = map_ent(m, id)->hnext;
}

void _stp_mapi_list_unlink(struct _stp_map *m, uint32_t id)
{
	struct map_ent *e = map_ent(m, id);

	if (e->prev == MAP_NIL)
		m->head = e->next;
	else
		map_ent(m, e->prev)->next = e->next;
	if (e->next == MAP_NIL)
		m->tail = e->prev;
	else
		map_ent(m, e->next)->prev = e->prev;
}

/* Put id right after entry 'after' (MAP_NIL: at the front). */
void _stp_mapi_list_insert_after(struct _stp_map *m, uint32_t id, uint32_t after)
{
	struct map_ent *e = map_ent(m, id);

	e->prev = after;
	if (after == MAP_NIL) {
		e->next = m->head;
		m->head = id;
	} else {
		e->next = map_ent(m, after)->next;
		map_ent(m, after)->next = id;
	}
	if (e->next == MAP_NIL)
		m->tail = id;
	else
		map_ent(m, e->next)->prev = id;
}

/* Unlinks a live entry; its list links stay readable for _stp_map_next. */
static void map_remove(struct _stp_map *m, uint32_t id)
{
	struct map_ent *e = map_ent(m, id);

	map_hash_unlink(m, id);
	_stp_mapi_list_unlink(m, id);
	e->live = 0;
	e->hnext = m->freelist;
	m->freelist = id;
	m->num--;
}

static void map_store_keys(struct _stp_map *m, uint32_t id,
			   const union _stp_key *k)
{
	int c;

	for (c = 0; c < m->nkeys; c++) {
		if (m->ktype[c] == STP_T_INT64) {
			*map_kint(m, id, c) = k[c].n;
		} else {
			char *d = map_kstrp(m, id, c);

			map_copy_str(d, map_kstr(k[c].s), MAP_KEYLEN);
		}
	}
}

static void map_clear_value(struct _stp_map *m, uint32_t id)
{
	void *v = map_val(m, id);

	if (m->vtype == STP_T_STAT)
		_stp_stat_data_clear(m->hist, v);
	else if (m->vtype == STP_T_STRING)
		*(char *)v = '\0';
	else
		*(int64_t *)v = 0;
}

/* A new entry for key k (hash h): -E2BIG when full and not wrapping. */
static int map_insert(struct _stp_map *m, const union _stp_key *k, uint32_t h)
{
	uint32_t id;
	struct map_ent *e;

	if (m->num == m->maxnum) {
		if (!m->wrap)
			return -E2BIG;
		map_remove(m, m->head);	/* wrap: the oldest entry goes */
	}
	id = m->freelist;
	e = map_ent(m, id);
	m->freelist = e->hnext;
	map_store_keys(m, id, k);
	map_clear_value(m, id);
	e->live = 1;
	e->hash = h;
	e->hnext = m->hash[h & m->hmask];
	m->hash[h & m->hmask] = id;
	_stp_mapi_list_insert_after(m, id, m->tail);
	m->num++;
	return (int)id;
}

static noinline int map_ref_any(struct _stp_map *m, const union _stp_key *k,
				int create)
{
	uint32_t h = map_hash_key(m, k);
	int found = map_find_hashed(m, k, h);

	if (found >= 0)
		return found;
	if (!create)
		return -ENOENT;
	return map_insert(m, k, h);
}

int _stp_map_ref(struct _stp_map *m, const union _stp_key *k, int create)
{
	uint32_t h;
	int found;

	if (!m->int1)
		return map_ref_any(m, k, create);
	h = map_hash_int1(k[0].n);
	found = map_find_int1(m, k[0].n, h);
	if (found >= 0)
		return found;
	if (!create)
		return -ENOENT;
	return map_insert(m, k, h);
}

int64_t _stp_map_get_int(const struct _stp_map *m, const union _stp_key *k)
{
	int id = _stp_map_find(m, k);

	return id < 0 ? 0 : *(const int64_t *)map_val(m, (uint32_t)id);
}

const char *_stp_map_get_str(const struct _stp_map *m, const union _stp_key *k)
{
	int id = _stp_map_find(m, k);

	return id < 0 ? "" : (const char *)map_val(m, (uint32_t)id);
}

const struct _stp_stat_data *_stp_map_get_stat(const struct _stp_map *m,
					       const union _stp_key *k)
{
	int id = _stp_map_find(m, k);

	return id < 0 ? NULL : map_val(m, (uint32_t)id);
}

int _stp_map_set_int(struct _stp_map *m, const union _stp_key *k, int64_t v)
{
	int id = _stp_map_ref(m, k, 1);

	if (id < 0)
		return id;
	*(int64_t *)map_val(m, (uint32_t)id) = v;
	return 0;
}

int _stp_map_set_str(struct _stp_map *m, const union _stp_key *k, const char *v)
{
	int id = _stp_map_ref(m, k, 1);
	char *d;

	if (id < 0)
		return id;
	d = map_val(m, (uint32_t)id);
	map_copy_str(d, map_kstr(v), MAXSTRINGLEN - 1);
	return 0;
}

int _stp_map_add_stat(struct _stp_map *m, const union _stp_key *k, int64_t v)
{
	uint32_t h;
	int id;

	if (m->int1) {
		h = map_hash_int1(k[0].n);
		id = map_find_int1(m, k[0].n, h);
	} else {
		h = map_hash_key(m, k);
		id = map_find_hashed(m, k, h);
	}
	if (id < 0)
		id = map_insert(m, k, h);
	if (id < 0)
		return id;
	_stp_stat_data_add(m->hist, map_val(m, (uint32_t)id), v);
	return 0;
}

int _stp_map_exists(const struct _stp_map *m, const union _stp_key *k)
{
	return _stp_map_find(m, k) >= 0;
}

int _stp_map_delete(struct _stp_map *m, const union _stp_key *k)
{
	int id = _stp_map_find(m, k);

	if (id < 0)
		return 0;
	map_remove(m, (uint32_t)id);
	return 1;
}

void _stp_map_clear(struct _stp_map *m)
{
	uint32_t i;

	for (i = 0; i <= m->hmask; i++)
		m->hash[i] = MAP_NIL;
	for (i = 0; i < m->maxnum; i++) {
		struct map_ent *e = map_ent(m, i);

		e->live = 0;
		e->hnext = i + 1 < m->maxnum ? i + 1 : MAP_NIL;
	}
	m->freelist = 0;
	m->head = m->tail = MAP_NIL;
	m->num = 0;
}

unsigned _stp_map_size(const struct _stp_map *m)
{
	return m->num;
}

unsigned _stp_map_capacity(const struct _stp_map *m)
{
	return m->maxnum;
}

int _stp_map_first(const struct _stp_map *m)
{
	return m->head == MAP_NIL ? -1 : (int)m->head;
}

int _stp_map_next(const struct _stp_map *m, int id)
{
	const struct map_ent *e;

	if (id < 0 || (unsigned)id >= m->maxnum)
		return -1;
	e = map_ent(m, (uint32_t)id);
	if (!e->live || e->next == MAP_NIL)
		return -1;
	return (int)e->next;
}

int64_t _stp_map_key_int(const struct _stp_map *m, int id, int col)
{
	return *map_kint(m, (uint32_t)id, col);
}

const char *_stp_map_key_str(const struct _stp_map *m, int id, int col)
{
	return map_kstrp(m, (uint32_t)id, col);
}

int64_t *_stp_map_val_int(struct _stp_map *m, int id)
{
	return map_val(m, (uint32_t)id);
}

char *_stp_map_val_str(struct _stp_map *m, int id)
{
	return map_val(m, (uint32_t)id);
}

struct _stp_stat_data *_stp_map_val_stat(struct _stp_map *m, int id)
{
	return map_val(m, (uint32_t)id);
}

const struct _stp_hist *_stp_map_hist(const struct _stp_map *m)
{
	return m->hist;
}

void _stp_mapi_entry_keys(const struct _stp_map *m, uint32_t id, union _stp_key *k)
{
	int c;

	for (c = 0; c < m->nkeys; c++) {
		if (m->ktype[c] == STP_T_INT64)
			k[c].n = *map_kint(m, id, c);
		else
			k[c].s = map_kstrp(m, id, c);
	}
}

/* Slices: compare only the columns that are not wildcards. */

static int map_slice_match(const struct _stp_map *m, uint32_t id,
			   const union _stp_key *k, unsigned wild)
{
	int c;

	for (c = 0; c < m->nkeys; c++) {
		if (wild & (1u << c))
			continue;
		if (m->ktype[c] == STP_T_INT64) {
			if (*map_kint(m, id, c) != k[c].n)
				return 0;
		} else if (strncmp(map_kstrp(m, id, c), map_kstr(k[c].s),
				   MAP_KEYLEN) != 0) {
			return 0;
		}
	}
	return 1;
}

int _stp_map_slice_next(const struct _stp_map *m, int id,
			const union _stp_key *k, unsigned wild)
{
	id = id < 0 ? _stp_map_first(m) : _stp_map_next(m, id);
	for (; id >= 0; id = _stp_map_next(m, id))
		if (map_slice_match(m, (uint32_t)id, k, wild))
			return id;
	return -1;
}

int _stp_map_slice_exists(const struct _stp_map *m, const union _stp_key *k,
			  unsigned wild)
{
	if ((wild & ((1u << m->nkeys) - 1)) == 0)
		return _stp_map_exists(m, k);
	return _stp_map_slice_next(m, -1, k, wild) >= 0;
}

int _stp_map_slice_delete(struct _stp_map *m, const union _stp_key *k,
			  unsigned wild)
{
	uint32_t id, next;
	int n = 0;

	if ((wild & ((1u << m->nkeys) - 1)) == 0)
		return _stp_map_delete(m, k);
	for (id = m->head; id != MAP_NIL; id = next) {
		next = map_ent(m, id)->next;
		if (map_slice_match(m, id, k, wild)) {
			map_remove(m, id);
			n++;
		}
	}
	return n;
}
