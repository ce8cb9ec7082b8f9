/* map_impl.h - the inside of struct _stp_map, shared by map.c (entries,
 * hashing, slices), map_sort.c (foreach ordering) and pmap.c (per-CPU
 * maps of statistics). Generated code uses map.h only.
 */
#ifndef STP_MAP_IMPL_H
#define STP_MAP_IMPL_H

#include "map.h"

#define MAP_NIL 0xffffffffu

/* Header of every entry; key columns and the value follow at the
 * offsets recorded in the map. */
struct map_ent {
	uint32_t hnext;		/* hash chain, or free list when !live */
	uint32_t prev, next;	/* entry list (iteration order) */
	uint32_t hash;		/* full hash of the keys */
	uint32_t live;
	uint32_t pad;
};

struct _stp_map {
	unsigned maxnum;	/* capacity: MAXMAPENTRIES or [N] */
	unsigned num;		/* live entries */
	int wrap;		/* `%`: evict the list head when full */
	int nkeys;
	int int1;		/* one int64 key column: map.c's fast path */
	enum _stp_type vtype;
	unsigned char ktype[STP_MAP_MAXKEYS];
	uint32_t koff[STP_MAP_MAXKEYS];	/* key column offsets in an entry */
	uint32_t voff;			/* value offset in an entry */
	size_t esize;			/* bytes per entry */
	const struct _stp_hist *hist;	/* stat values' layout */
	uint32_t hmask;			/* hash table size - 1 */
	uint32_t head, tail;		/* entry list */
	uint32_t freelist;
	uint32_t *hash;			/* hmask + 1 chain heads */
	uint32_t *sidx, *stmp;		/* maxnum ids each: sort scratch */
	char *ents;			/* maxnum entries of esize bytes */
};

/* An aggregate array: one map per CPU (pmap.c). */
struct _stp_pmap {
	int ncpus;
	const struct _stp_hist *hist;
	struct _stp_map *agg;		/* rebuilt by _stp_pmap_agg */
	struct _stp_stat_data *one;	/* result of _stp_pmap_get */
	struct _stp_map *cpu[];		/* ncpus maps */
};

static inline struct map_ent *map_ent(const struct _stp_map *m, uint32_t id)
{
	return (struct map_ent *)(m->ents + (size_t)id * m->esize);
}

static inline int64_t *map_kint(const struct _stp_map *m, uint32_t id, int c)
{
	return (int64_t *)((char *)map_ent(m, id) + m->koff[c]);
}

static inline char *map_kstrp(const struct _stp_map *m, uint32_t id, int c)
{
	return (char *)map_ent(m, id) + m->koff[c];
}

static inline void *map_val(const struct _stp_map *m, uint32_t id)
{
	return (char *)map_ent(m, id) + m->voff;
}

void _stp_mapi_list_unlink(struct _stp_map *m, uint32_t id);
void _stp_mapi_list_insert_after(struct _stp_map *m, uint32_t id,
				 uint32_t after);
/* Point k[] at entry id's key columns (strings are borrowed). */
void _stp_mapi_entry_keys(const struct _stp_map *m, uint32_t id,
			  union _stp_key *k);

#endif /* STP_MAP_IMPL_H */
