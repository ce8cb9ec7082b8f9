/* test_map.c - associative arrays: lookup, overflow, wrap, iteration
 * order, slices, stable and partial sorts, per-CPU maps of stats.
 * cc -std=gnu11 -I runtime -I testsuite/unit testsuite/unit/test_map.c runtime/map.c runtime/map_sort.c runtime/pmap.c runtime/stat.c runtime/hist.c -o test_map
 */
#include "map.h"
#include "unit.h"

#include <stdlib.h>

/* The keys of an int-keyed map in list order, as "k k k". */
static const char *order(struct _stp_map *m, int col)
{
	static char buf[4096];
	size_t len = 0;
	int id;

	buf[0] = '\0';
	for (id = _stp_map_first(m); id >= 0; id = _stp_map_next(m, id))
		len += snprintf(buf + len, sizeof(buf) - len, "%s%lld",
				len ? " " : "",
				(long long)_stp_map_key_int(m, id, col));
	return buf;
}

static int set_i(struct _stp_map *m, int64_t k, int64_t v)
{
	union _stp_key key[1] = { { .n = k } };

	return _stp_map_set_int(m, key, v);
}

static int64_t get_i(struct _stp_map *m, int64_t k)
{
	union _stp_key key[1] = { { .n = k } };

	return _stp_map_get_int(m, key);
}

static void test_basic(void)
{
	struct _stp_map *m = _stp_map_new(MAXMAPENTRIES, 0, "i", STP_T_INT64, NULL);
	union _stp_key k[1] = { { .n = 7 } };
	int i;

	CHECK(m != NULL);
	CHECK_INT(get_i(m, 7), 0);
	CHECK_INT(_stp_map_size(m), 0);	/* get does not insert */
	CHECK_INT(_stp_map_exists(m, k), 0);
	CHECK_INT(set_i(m, 7, 0), 0);
	CHECK_INT(_stp_map_exists(m, k), 1);	/* a zero value still exists */
	CHECK_INT(set_i(m, -3, 42), 0);
	CHECK_INT(get_i(m, -3), 42);
	CHECK_INT(_stp_map_size(m), 2);
	CHECK_INT(_stp_map_delete(m, k), 1);
	CHECK_INT(_stp_map_delete(m, k), 0);
	CHECK_INT(_stp_map_size(m), 1);
	for (i = 0; i < 2047; i++)	/* with -3: full */
		CHECK_INT(set_i(m, i * 1000003LL, i), 0);
	CHECK_INT(_stp_map_size(m), 2048);
	CHECK_INT(set_i(m, -99, 1), -E2BIG);	/* MAXMAPENTRIES reached */
	CHECK_INT(get_i(m, 2046 * 1000003LL), 2046);
	CHECK_INT(get_i(m, -3), 42);
	CHECK_INT(set_i(m, -3, 43), 0);		/* updating still works */
	_stp_map_clear(m);
	CHECK_INT(_stp_map_size(m), 0);
	CHECK_INT(get_i(m, -3), 0);
	CHECK_INT(set_i(m, -99, 1), 0);
	CHECK_STR(STP_MAP_OVERFLOW_MSG, "Array overflow, check MAXMAPENTRIES");
	_stp_map_del(m);
}

static void test_strings(void)
{
	struct _stp_map *m = _stp_map_new(16, 0, "si", STP_T_STRING, NULL);
	char longkey[700], other[700];
	union _stp_key k[2];
	int id;

	memset(longkey, 'a', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	strcpy(other, longkey);
	other[600] = 'b';	/* differs only beyond MAXSTRINGLEN - 1 */
	k[0].s = longkey;
	k[1].n = 1;
	CHECK_INT(_stp_map_set_str(m, k, longkey), 0);
	k[0].s = other;
	CHECK_INT(_stp_map_exists(m, k), 1);
	CHECK_INT(strlen(_stp_map_get_str(m, k)), MAXSTRINGLEN - 1);
	id = _stp_map_find(m, k);
	CHECK_INT(strlen(_stp_map_key_str(m, id, 0)), MAXSTRINGLEN - 1);
	k[1].n = 2;
	CHECK_STR(_stp_map_get_str(m, k), "");
	k[0].s = NULL;	/* treated as "" */
	CHECK_INT(_stp_map_set_str(m, k, "x"), 0);
	k[0].s = "";
	CHECK_STR(_stp_map_get_str(m, k), "x");
	_stp_map_del(m);
}

/* global foo%[5]; for (i = 0; i < 10; i++) foo[i] = i */
static void test_wrap_and_order(void)
{
	struct _stp_map *m = _stp_map_new(5, 1, "i", STP_T_INT64, NULL);
	struct _stp_map *n = _stp_map_new(3, 0, "i", STP_T_INT64, NULL);
	union _stp_key k[1] = { { .n = 6 } };
	int i;

	for (i = 0; i < 10; i++)
		CHECK_INT(set_i(m, i, i), 0);
	CHECK_STR(order(m, 0), "5 6 7 8 9");
	_stp_map_delete(m, k);
	set_i(m, 6, 1);		/* re-added: goes last */
	set_i(m, 8, 2);		/* updated: stays */
	CHECK_STR(order(m, 0), "5 7 8 9 6");
	set_i(m, 100, 1);	/* evicts the oldest in list order */
	CHECK_STR(order(m, 0), "7 8 9 6 100");

	CHECK_INT(set_i(n, 1, 1), 0);
	CHECK_INT(set_i(n, 2, 1), 0);
	CHECK_INT(set_i(n, 3, 1), 0);
	CHECK_INT(set_i(n, 4, 1), -E2BIG);
	CHECK_STR(order(n, 0), "1 2 3");

	/* `delete a` inside foreach ends the loop */
	i = _stp_map_first(n);
	_stp_map_clear(n);
	CHECK_INT(_stp_map_next(n, i), -1);
	CHECK_INT(_stp_map_first(n), -1);
	_stp_map_del(m);
	_stp_map_del(n);
}

/* The array of stap's testsuite/systemtap.maps/foreach_limit.stp. */
static struct _stp_map *foreach_limit_array(void)
{
	static const int kv[][2] = { { 9, 18 }, { 1, 40 }, { 8, 16 }, { 2, 4 },
				     { 7, 14 }, { 3, 36 }, { 6, 12 }, { 5, 10 },
				     { 4, 8 }, { 10, 20 } };
	struct _stp_map *m = _stp_map_new(MAXMAPENTRIES, 0, "i", STP_T_INT64, NULL);
	size_t i;

	for (i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		set_i(m, kv[i][0], kv[i][1]);
	return m;
}

static void test_sort(void)
{
	struct _stp_map *m = foreach_limit_array();

	CHECK_STR(order(m, 0), "9 1 8 2 7 3 6 5 4 10");
	_stp_map_sort(m, STP_SORT_VALUE, 1, STP_STAT_COUNT, 5);
	CHECK_STR(order(m, 0), "2 4 5 6 7 8 9 3 1 10");	/* stap shows 5 */
	_stp_map_sort(m, 0, 1, STP_STAT_COUNT, 5);
	CHECK_STR(order(m, 0), "1 2 3 4 5 6 7 8 9 10");
	_stp_map_sort(m, 0, -1, STP_STAT_COUNT, 0);
	CHECK_STR(order(m, 0), "10 9 8 7 6 5 4 3 2 1");
	_stp_map_sort(m, STP_SORT_VALUE, -1, STP_STAT_COUNT, 40);
	CHECK_STR(order(m, 0), "1 3 10 9 8 7 6 5 4 2");
	_stp_map_del(m);
}

/* Hand-traced runs of stap's top-N pass (values sorted ascending). */
static void test_partial_sort(void)
{
	static const int64_t a[] = { 1, 2, 9, 8, 7 }, b[] = { 4, 3, 9, 1, 8 };
	struct _stp_map *m = _stp_map_new(8, 0, "i", STP_T_INT64, NULL);
	int i;

	for (i = 0; i < 5; i++)
		set_i(m, a[i], a[i]);
	_stp_map_sort(m, STP_SORT_VALUE, 1, STP_STAT_COUNT, 2);
	CHECK_STR(order(m, 0), "1 2 9 8 7");
	_stp_map_sort(m, STP_SORT_VALUE, 1, STP_STAT_COUNT, 0);
	CHECK_STR(order(m, 0), "1 2 7 8 9");
	_stp_map_clear(m);
	for (i = 0; i < 5; i++)
		set_i(m, b[i], b[i]);
	_stp_map_sort(m, STP_SORT_VALUE, 1, STP_STAT_COUNT, 2);
	CHECK_STR(order(m, 0), "1 3 4 9 8");
	_stp_map_clear(m);
	for (i = 0; i < 5; i++)
		set_i(m, b[i], b[i]);
	_stp_map_sort(m, STP_SORT_VALUE, 1, STP_STAT_COUNT, -4);  /* as 1 */
	CHECK_STR(order(m, 0), "1 3 4 9 8");
	_stp_map_del(m);
}

/* Equal sort keys keep list order in both directions. */
static void test_stable(void)
{
	struct _stp_map *m = _stp_map_new(16, 0, "is", STP_T_INT64, NULL);
	static const char *names[] = { "d", "b", "c", "a", "b" };
	union _stp_key k[2];
	int i;

	for (i = 0; i < 5; i++) {
		k[0].n = i;
		k[1].s = names[i];
		_stp_map_set_int(m, k, i % 2);
	}
	_stp_map_sort(m, STP_SORT_VALUE, 1, STP_STAT_COUNT, 0);
	CHECK_STR(order(m, 0), "0 2 4 1 3");
	_stp_map_sort(m, STP_SORT_VALUE, -1, STP_STAT_COUNT, 0);
	CHECK_STR(order(m, 0), "1 3 0 2 4");
	_stp_map_sort(m, 1, 1, STP_STAT_COUNT, 0);	/* by the string */
	CHECK_STR(order(m, 0), "3 1 4 2 0");
	_stp_map_sort(m, 1, -1, STP_STAT_COUNT, 3);
	CHECK_STR(order(m, 0), "0 2 1 4 3");
	_stp_map_del(m);
}

static void test_slices(void)
{
	struct _stp_map *m = _stp_map_new(64, 0, "is", STP_T_INT64, NULL);
	static const char *col[] = { "x", "y", "z" };
	union _stp_key k[2];
	char got[256];
	size_t len = 0;
	int i, id;

	for (i = 0; i < 9; i++) {
		k[0].n = i;
		k[1].s = col[i % 3];
		_stp_map_set_int(m, k, i * 10);
	}
	k[1].s = "y";	/* a[*, "y"] */
	for (id = _stp_map_slice_next(m, -1, k, 1); id >= 0;
	     id = _stp_map_slice_next(m, id, k, 1))
		len += snprintf(got + len, sizeof(got) - len, "%lld:%s ",
				(long long)_stp_map_key_int(m, id, 0),
				_stp_map_key_str(m, id, 1));
	CHECK_STR(got, "1:y 4:y 7:y ");
	CHECK_INT(_stp_map_slice_exists(m, k, 1), 1);
	k[1].s = "w";
	CHECK_INT(_stp_map_slice_exists(m, k, 1), 0);
	k[0].n = 4;	/* [4, *] */
	CHECK_INT(_stp_map_slice_exists(m, k, 2), 1);
	k[1].s = "y";
	CHECK_INT(_stp_map_slice_exists(m, k, 0), 1);	/* no wildcard */
	k[1].s = "z";
	CHECK_INT(_stp_map_slice_delete(m, k, 1), 3);	/* delete a[*, "z"] */
	CHECK_STR(order(m, 0), "0 1 3 4 6 7");
	CHECK_INT(_stp_map_slice_delete(m, k, 3), 6);	/* delete a[*, *] */
	CHECK_INT(_stp_map_size(m), 0);
	_stp_map_del(m);
}

static void test_pmap(void)
{
	static const struct _stp_hist h = STP_HIST_LOG_INIT(0);
	struct _stp_pmap *pm = _stp_pmap_new(8, 0, "i", &h, 2);
	const struct _stp_stat_data *d;
	struct _stp_map *agg;
	union _stp_key k[1];
	int64_t v;
	int i;

	CHECK(pm != NULL);
	for (i = 0; i < 6; i++) {	/* key i%3 gets i, split over 2 CPUs */
		k[0].n = 10 + i % 3;
		CHECK_INT(_stp_pmap_add(pm, i % 2, k, i), 0);
	}
	k[0].n = 12;	/* values 2 (cpu 0) and 5 (cpu 1) */
	d = _stp_pmap_get(pm, k);
	CHECK(d != NULL);
	CHECK_INT(d->count, 2);
	CHECK_INT(d->sum, 7);
	CHECK_INT(_stp_stat_extract(&h, d, STP_STAT_AVG, &v), 0);
	CHECK_INT(v, 3);
	CHECK_INT(d->histogram[_stp_hist_log_bucket(5)], 1);
	k[0].n = 99;
	CHECK(_stp_pmap_get(pm, k) == NULL);
	CHECK_INT(_stp_pmap_exists(pm, k), 0);
	agg = _stp_pmap_agg(pm);
	CHECK(agg != NULL);
	/* cpu 0 saw 10, 12, 11 (i = 0, 2, 4); cpu 1 adds nothing new */
	CHECK_STR(order(agg, 0), "10 12 11");
	_stp_map_sort(agg, STP_SORT_VALUE, -1, STP_STAT_SUM, 0);
	CHECK_STR(order(agg, 0), "12 11 10");	/* sums 7, 5, 3 */
	k[0].n = 11;
	CHECK_INT(_stp_pmap_delete(pm, k), 1);
	CHECK_STR(order(_stp_pmap_agg(pm), 0), "10 12");
	_stp_pmap_clear(pm);
	CHECK_INT(_stp_map_size(_stp_pmap_agg(pm)), 0);
	_stp_pmap_del(pm);
}

/* The aggregated map overflows when the CPUs together hold more keys. */
static void test_pmap_overflow(void)
{
	static const struct _stp_hist h = STP_HIST_NONE_INIT(0);
	struct _stp_pmap *pm = _stp_pmap_new(2, 0, "i", &h, 2);
	union _stp_key k[1];

	k[0].n = 1;
	_stp_pmap_add(pm, 0, k, 1);
	k[0].n = 2;
	_stp_pmap_add(pm, 0, k, 1);
	CHECK_INT(_stp_pmap_add(pm, 0, (union _stp_key[]){ { .n = 3 } }, 1),
		  -E2BIG);
	_stp_pmap_add(pm, 1, k, 1);
	k[0].n = 3;
	_stp_pmap_add(pm, 1, k, 1);
	CHECK(_stp_pmap_agg(pm) == NULL);
	_stp_pmap_del(pm);
}

int main(void)
{
	test_basic();
	test_strings();
	test_wrap_and_order();
	test_sort();
	test_partial_sort();
	test_stable();
	test_slices();
	test_pmap();
	test_pmap_overflow();
	return unit_done("test_map");
}
