/* map.h - associative arrays (script `global a[N]`, `global a%`) for the
 * generated module: 1-9 key columns of int64 or string, a value that is
 * an int64, a string or a statistics record.
 *
 * All memory is taken when the map is created (process context); probes
 * only look up, insert, delete, iterate and sort, and never allocate.
 * Entries are identified by a small integer id (>= 0), valid until that
 * entry is deleted. Iteration follows the map's entry list: insertion
 * order, until a sort reorders the list (as stap's sort does, so a later
 * unsorted foreach sees the sorted order).
 *
 * How generated code uses it (keys are passed as an array of unions):
 *   setup:  m = _stp_map_new(MAXMAPENTRIES, 0, "is", STP_T_INT64, NULL);
 *           (NULL -> -ENOMEM; `global a%[N]` -> maxnum N, wrap 1)
 *   read:   union _stp_key k[2] = { { .n = pid }, { .s = name } };
 *           v = _stp_map_get_int(m, k);           absent -> 0 / "" / NULL
 *   write:  if (_stp_map_set_int(m, k, v)) -> error STP_MAP_OVERFLOW_MSG
 *           (or STP_MAP_OVERFLOW_SIZED_MSG with N for `global a[N]`)
 *   a[k] += v:  id = _stp_map_ref(m, k, 1); if (id < 0) overflow;
 *               *_stp_map_val_int(m, id) += v;
 *   k in a: _stp_map_exists(m, k);   delete a[k]: _stp_map_delete(m, k);
 *   delete a: _stp_map_clear(m);     size: _stp_map_size(m)
 *   foreach ([x, y] in a- limit L):
 *           _stp_map_sort(m, STP_SORT_VALUE, -1, 0, L);   (before the loop)
 *           for (id = _stp_map_first(m); id >= 0; id = _stp_map_next(m, id))
 *                   x = _stp_map_key_int(m, id, 0); y = _stp_map_key_str(m, id, 1);
 *           (the loop counts L itself). `delete a` inside the loop is safe:
 *           _stp_map_next then returns -1.
 *   slices: a[*, 5]: wild = 1 << 0 (column 0 is '*'), k[1].n = 5;
 *           _stp_map_slice_next(m, -1, k, wild) gives the first match,
 *           _stp_map_slice_next(m, id, k, wild) the next; -1 at the end.
 *           _stp_map_slice_exists / _stp_map_slice_delete likewise.
 *   teardown: _stp_map_del(m).
 *
 * Arrays of aggregates (`a[k] <<< v`) are per-CPU maps, _stp_pmap_*:
 *   setup:  pm = _stp_pmap_new(MAXMAPENTRIES, 0, "i", &hist, ncpus);
 *   probe:  if (_stp_pmap_add(pm, cpu, k, v)) -> STP_MAP_OVERFLOW_MSG
 *   read one: d = _stp_pmap_get(pm, k);  (NULL when absent) then
 *             _stp_stat_extract(&hist, d, STP_STAT_AVG, &out) (stat.h)
 *   foreach: am = _stp_pmap_agg(pm); NULL -> "aggregation overflow in NAME";
 *            then sort/iterate am like a plain map; values by
 *            _stp_map_val_stat(am, id).
 *   delete a[k]: _stp_pmap_delete(pm, k); delete a: _stp_pmap_clear(pm).
 *
 * Sorting (foreach with + or -): _stp_map_sort(m, col, dir, op, limit)
 * sorts by key column col (0-based) or by the value (col STP_SORT_VALUE;
 * for stat values by extractor op, @count when the script names none),
 * dir +1 ascending, -1 descending. Strings compare as strcmp. Equal
 * elements keep their current list order (stap's sort is stable), and a
 * limit of 1..30 applies stap's partial top-N sort, so the list after the
 * first `limit` entries is left in the same order stap leaves it.
 * No recursion, no allocation: index arrays preallocated per map.
 */
#ifndef STP_MAP_H
#define STP_MAP_H

#include "rt_compat.h"
#include "stat.h"

#define STP_MAP_MAXKEYS 9

/* Column and value types; the characters of a key signature string. */
enum _stp_type {
	STP_T_INT64 = 'i',
	STP_T_STRING = 's',
	STP_T_STAT = 'x',
};

/* One key column of a lookup: .n for int64 columns, .s for strings
 * (longer strings are truncated to MAXSTRINGLEN - 1 bytes, as stored). */
union _stp_key {
	int64_t n;
	const char *s;
};

/* Exact texts of the errors the caller raises for a full map. */
#define STP_MAP_OVERFLOW_MSG "Array overflow, check MAXMAPENTRIES"
#define STP_MAP_OVERFLOW_SIZED_MSG "Array overflow, check size limit (%d)"
#define STP_PMAP_AGG_OVERFLOW_MSG "aggregation overflow in "

#define STP_SORT_VALUE (-1)

struct _stp_map;

struct _stp_map *_stp_map_new(unsigned maxnum, int wrap, const char *keysig,
			      enum _stp_type vtype, const struct _stp_hist *hist);
void _stp_map_del(struct _stp_map *m);

/* Lookup without insertion: entry id or -1. */
int _stp_map_find(const struct _stp_map *m, const union _stp_key *k);
/* Lookup, inserting a zero/empty entry when create is set: entry id,
 * or -E2BIG when the map is full (and not wrapping), -ENOENT when absent
 * and !create. */
int _stp_map_ref(struct _stp_map *m, const union _stp_key *k, int create);

int64_t _stp_map_get_int(const struct _stp_map *m, const union _stp_key *k);
const char *_stp_map_get_str(const struct _stp_map *m, const union _stp_key *k);
const struct _stp_stat_data *_stp_map_get_stat(const struct _stp_map *m,
					       const union _stp_key *k);
/* 0, or -E2BIG when full. */
int _stp_map_set_int(struct _stp_map *m, const union _stp_key *k, int64_t v);
int _stp_map_set_str(struct _stp_map *m, const union _stp_key *k, const char *v);
/* x <<< v into a (non per-CPU) map of stats. */
int _stp_map_add_stat(struct _stp_map *m, const union _stp_key *k, int64_t v);

int _stp_map_exists(const struct _stp_map *m, const union _stp_key *k);
/* 1 if an entry was deleted, 0 if there was none. */
int _stp_map_delete(struct _stp_map *m, const union _stp_key *k);
void _stp_map_clear(struct _stp_map *m);
unsigned _stp_map_size(const struct _stp_map *m);
unsigned _stp_map_capacity(const struct _stp_map *m);

/* Iteration in list order: -1 at the end. */
int _stp_map_first(const struct _stp_map *m);
int _stp_map_next(const struct _stp_map *m, int id);

/* Entry access by id (col is 0-based). */
int64_t _stp_map_key_int(const struct _stp_map *m, int id, int col);
const char *_stp_map_key_str(const struct _stp_map *m, int id, int col);
int64_t *_stp_map_val_int(struct _stp_map *m, int id);
char *_stp_map_val_str(struct _stp_map *m, int id);	/* MAXSTRINGLEN bytes */
struct _stp_stat_data *_stp_map_val_stat(struct _stp_map *m, int id);
const struct _stp_hist *_stp_map_hist(const struct _stp_map *m);

/* Slices: bit c of wild set means key column c is '*'. */
int _stp_map_slice_next(const struct _stp_map *m, int id,
			const union _stp_key *k, unsigned wild);
int _stp_map_slice_exists(const struct _stp_map *m, const union _stp_key *k,
			  unsigned wild);
int _stp_map_slice_delete(struct _stp_map *m, const union _stp_key *k,
			  unsigned wild);	/* returns how many were deleted */

void _stp_map_sort(struct _stp_map *m, int col, int dir, enum _stp_stat_op op,
		   int64_t limit);

/* Per-CPU maps of statistics. */
struct _stp_pmap;

struct _stp_pmap *_stp_pmap_new(unsigned maxnum, int wrap, const char *keysig,
				const struct _stp_hist *hist, int ncpus);
void _stp_pmap_del(struct _stp_pmap *pm);
int _stp_pmap_add(struct _stp_pmap *pm, int cpu, const union _stp_key *k,
		  int64_t v);
/* Merge one key over all CPUs; NULL when no CPU has it. The record lives
 * in the pmap until the next _stp_pmap_get. */
const struct _stp_stat_data *_stp_pmap_get(struct _stp_pmap *pm,
					   const union _stp_key *k);
int _stp_pmap_exists(struct _stp_pmap *pm, const union _stp_key *k);
/* Rebuild and return the aggregated map (CPU 0's keys in its order, then
 * keys first seen on CPU 1, ...); NULL when it cannot hold every key. */
struct _stp_map *_stp_pmap_agg(struct _stp_pmap *pm);
/* The aggregated map as last built (for iteration after _stp_pmap_agg). */
struct _stp_map *_stp_pmap_agg_map(struct _stp_pmap *pm);
struct _stp_map *_stp_pmap_cpu_map(struct _stp_pmap *pm, int cpu);
int _stp_pmap_delete(struct _stp_pmap *pm, const union _stp_key *k);
void _stp_pmap_clear(struct _stp_pmap *pm);
int _stp_pmap_slice_exists(struct _stp_pmap *pm, const union _stp_key *k,
			   unsigned wild);
void _stp_pmap_slice_delete(struct _stp_pmap *pm, const union _stp_key *k,
			    unsigned wild);

#endif /* STP_MAP_H */
