/* pmap.c - arrays of aggregates (`a[k] <<< v`): one map of stats per CPU,
 * so concurrent probes on different CPUs never share an entry, plus an
 * aggregated map rebuilt on read. Records are folded CPU by CPU with
 * stap's pairwise merge, so @variance of an array element matches stap.
 * Usage: map.h.
 */
#include "map_impl.h"

struct _stp_pmap *_stp_pmap_new(unsigned maxnum, int wrap, const char *keysig,
				const struct _stp_hist *hist, int ncpus)
{
	struct _stp_pmap *pm;
	int i;

	if (ncpus < 1)
		return NULL;
	pm = _stp_rt_zalloc(sizeof(*pm) + (size_t)ncpus * sizeof(pm->cpu[0]));
	if (pm == NULL)
		return NULL;
	pm->ncpus = ncpus;
	pm->hist = hist;
	pm->one = _stp_rt_zalloc(_stp_stat_data_size(hist));
	pm->agg = _stp_map_new(maxnum, wrap, keysig, STP_T_STAT, hist);
	if (pm->one == NULL || pm->agg == NULL)
		goto fail;
	for (i = 0; i < ncpus; i++) {
		pm->cpu[i] = _stp_map_new(maxnum, wrap, keysig, STP_T_STAT, hist);
		if (pm->cpu[i] == NULL)
			goto fail;
	}
	return pm;
fail:
	_stp_pmap_del(pm);
	return NULL;
}

void _stp_pmap_del(struct _stp_pmap *pm)
{
	int i;

	if (pm == NULL)
		return;
	for (i = 0; i < pm->ncpus; i++)
		_stp_map_del(pm->cpu[i]);
	_stp_map_del(pm->agg);
	if (pm->one)
		_stp_rt_free(pm->one);
	_stp_rt_free(pm);
}

int _stp_pmap_add(struct _stp_pmap *pm, int cpu, const union _stp_key *k,
		  int64_t v)
{
	return _stp_map_add_stat(pm->cpu[cpu], k, v);
}

const struct _stp_stat_data *_stp_pmap_get(struct _stp_pmap *pm,
					   const union _stp_key *k)
{
	int i, found = 0;

	_stp_stat_data_clear(pm->hist, pm->one);
	for (i = 0; i < pm->ncpus; i++) {
		int id = _stp_map_find(pm->cpu[i], k);

		if (id < 0)
			continue;
		_stp_stat_data_merge(pm->hist, pm->one,
				     _stp_map_val_stat(pm->cpu[i], id));
		found = 1;
	}
	return found ? pm->one : NULL;
}

int _stp_pmap_exists(struct _stp_pmap *pm, const union _stp_key *k)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		if (_stp_map_exists(pm->cpu[i], k))
			return 1;
	return 0;
}

struct _stp_map *_stp_pmap_agg(struct _stp_pmap *pm)
{
	union _stp_key k[STP_MAP_MAXKEYS];
	struct _stp_map *agg = pm->agg;
	int i, id, aid;

	_stp_map_clear(agg);
	for (i = 0; i < pm->ncpus; i++) {
		struct _stp_map *m = pm->cpu[i];

		for (id = _stp_map_first(m); id >= 0; id = _stp_map_next(m, id)) {
			_stp_mapi_entry_keys(m, (uint32_t)id, k);
			aid = _stp_map_ref(agg, k, 1);
			if (aid < 0)
				return NULL;
			_stp_stat_data_merge(pm->hist,
					     _stp_map_val_stat(agg, aid),
					     _stp_map_val_stat(m, id));
		}
	}
	return agg;
}

struct _stp_map *_stp_pmap_agg_map(struct _stp_pmap *pm)
{
	return pm->agg;
}

struct _stp_map *_stp_pmap_cpu_map(struct _stp_pmap *pm, int cpu)
{
	return pm->cpu[cpu];
}

int _stp_pmap_delete(struct _stp_pmap *pm, const union _stp_key *k)
{
	int i, n = 0;

	for (i = 0; i < pm->ncpus; i++)
		n |= _stp_map_delete(pm->cpu[i], k);
	_stp_map_delete(pm->agg, k);
	return n;
}

void _stp_pmap_clear(struct _stp_pmap *pm)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		_stp_map_clear(pm->cpu[i]);
	_stp_map_clear(pm->agg);
}

int _stp_pmap_slice_exists(struct _stp_pmap *pm, const union _stp_key *k,
			   unsigned wild)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		if (_stp_map_slice_exists(pm->cpu[i], k, wild))
			return 1;
	return 0;
}

void _stp_pmap_slice_delete(struct _stp_pmap *pm, const union _stp_key *k,
			    unsigned wild)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		_stp_map_slice_delete(pm->cpu[i], k, wild);
	_stp_map_slice_delete(pm->agg, k, wild);
}
