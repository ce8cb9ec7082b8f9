/* map_sort.c - ordering a map's entry list for sorted foreach. The list
 * itself is reordered, as stap does, so the permutation matters beyond
 * the loop: a full sort is a stable merge sort (bottom-up, over the
 * map's preallocated index arrays); a limit of 1..30 reproduces stap's
 * partial top-N pass (stable sort of the first N entries, then each later
 * entry inserted into that window if it beats its last element, which is
 * pushed out just behind the window). No recursion, no allocation.
 */
#include "map_impl.h"

/* The partial sort keeps its window on the stack. */
#define MAP_SORT_PARTIAL_MAX 30

struct map_sort_key {
	int col;		/* key column, or STP_SORT_VALUE */
	int dir;		/* +1 ascending, -1 descending */
	enum _stp_stat_op op;	/* extractor for stat values */
};

static int sort_cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int64_t sort_stat_key(const struct _stp_map *m, uint32_t id,
			     enum _stp_stat_op op)
{
	const struct _stp_stat_data *d = map_val(m, id);

	switch (op) {
	case STP_STAT_SUM:
		return d->sum;
	case STP_STAT_MIN:
		return d->min;
	case STP_STAT_MAX:
		return d->max;
	case STP_STAT_AVG:
		return _stp_rt_sdiv64(d->sum, d->count);
	case STP_STAT_VARIANCE:
		return d->variance_s >> (2 * m->hist->bit_shift);
	default:
		return d->count;
	}
}

static int sort_cmp(const struct _stp_map *m, uint32_t a, uint32_t b,
		    const struct map_sort_key *k)
{
	if (k->col >= 0) {
		if (m->ktype[k->col] == STP_T_INT64)
			return sort_cmp_i64(*map_kint(m, a, k->col),
					    *map_kint(m, b, k->col));
		return strcmp(map_kstrp(m, a, k->col), map_kstrp(m, b, k->col));
	}
	switch (m->vtype) {
	case STP_T_INT64:
		return sort_cmp_i64(*(int64_t *)map_val(m, a),
				    *(int64_t *)map_val(m, b));
	case STP_T_STRING:
		return strcmp(map_val(m, a), map_val(m, b));
	default:
		return sort_cmp_i64(sort_stat_key(m, a, k->op),
				    sort_stat_key(m, b, k->op));
	}
}

/* Must a come after b? Equal entries never swap: the sorts are stable. */
static int sort_after(const struct _stp_map *m, uint32_t a, uint32_t b,
		      const struct map_sort_key *k)
{
	int c = sort_cmp(m, a, b, k);

	return k->dir >= 0 ? c > 0 : c < 0;
}

/* Rebuild the list links from ids[0..n) (n >= 1), followed by 'rest'. */
static void sort_relink(struct _stp_map *m, const uint32_t *ids, uint32_t n,
			uint32_t rest)
{
	uint32_t i;

	m->head = ids[0];
	for (i = 0; i < n; i++) {
		struct map_ent *e = map_ent(m, ids[i]);

		e->prev = i ? ids[i - 1] : MAP_NIL;
		e->next = i + 1 < n ? ids[i + 1] : rest;
	}
	if (rest == MAP_NIL)
		m->tail = ids[n - 1];
	else
		map_ent(m, rest)->prev = ids[n - 1];
}

static void sort_full(struct _stp_map *m, const struct map_sort_key *k)
{
	uint32_t *src = m->sidx, *dst = m->stmp, *t;
	uint32_t n = 0, width, id;

	for (id = m->head; id != MAP_NIL; id = map_ent(m, id)->next)
		src[n++] = id;
	if (n < 2)
		return;
	for (width = 1; width < n; width *= 2) {
		uint32_t lo;

		for (lo = 0; lo < n; lo += 2 * width) {
			uint32_t mid = lo + width < n ? lo + width : n;
			uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			uint32_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi) {
				if (sort_after(m, src[i], src[j], k))
					dst[o++] = src[j++];
				else
					dst[o++] = src[i++];
			}
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	sort_relink(m, src, n, MAP_NIL);
}

static void sort_partial(struct _stp_map *m, const struct map_sort_key *k,
			 int limit)
{
	uint32_t win[MAP_SORT_PARTIAL_MAX];
	uint32_t n = 0, i, id, last, x;

	for (id = m->head; id != MAP_NIL && n < (uint32_t)limit;
	     id = map_ent(m, id)->next)
		win[n++] = id;
	if (n == 0)
		return;
	for (i = 1; i < n; i++) {	/* stable insertion sort */
		uint32_t v = win[i], j = i;

		for (; j > 0 && sort_after(m, win[j - 1], v, k); j--)
			win[j] = win[j - 1];
		win[j] = v;
	}
	sort_relink(m, win, n, id);

	last = win[n - 1];
	for (x = map_ent(m, last)->next; x != MAP_NIL;) {
		uint32_t nx = map_ent(m, x)->next;
		uint32_t c = last;

		while (c != MAP_NIL && sort_after(m, c, x, k))
			c = map_ent(m, c)->prev;
		if (c != last) {
			_stp_mapi_list_unlink(m, x);
			_stp_mapi_list_insert_after(m, x, c);
			last = map_ent(m, last)->prev;
		}
		x = nx;
	}
}

void _stp_map_sort(struct _stp_map *m, int col, int dir, enum _stp_stat_op op,
		   int64_t limit)
{
	struct map_sort_key k = { col, dir, op };
	/* stap passes the limit as an int */
	int n = (int)(int32_t)(uint32_t)(uint64_t)limit;

	if (col >= m->nkeys || col < STP_SORT_VALUE)
		return;
	if (n == 0 || n > MAP_SORT_PARTIAL_MAX)
		sort_full(m, &k);
	else	/* a negative limit acts like 1 in stap's partial sort */
		sort_partial(m, &k, n < 1 ? 1 : n);
}
