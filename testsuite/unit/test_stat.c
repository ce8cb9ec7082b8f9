/* test_stat.c - aggregates: extractors, @variance arithmetic, buckets, and
 * the printed histograms against stap's own expected outputs.
 * cc -std=gnu11 -I runtime -I testsuite/unit testsuite/unit/test_stat.c runtime/stat.c runtime/hist.c -o test_stat
 */
#include "stat.h"
#include "unit.h"
#include "golden_hist.h"

#include <stdint.h>

/* Histogram output collected across several prints. */
static char out[65536];
static size_t outlen;

static void collect(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (outlen + n < sizeof(out)) {
		memcpy(out + outlen, s, n);
		outlen += n;
		out[outlen] = '\0';
	}
}

static void reset(void)
{
	outlen = 0;
	out[0] = '\0';
}

/* x <<< each of vals on CPU 0, then print the histogram h. */
static void print_hist(const struct _stp_hist *h, const int64_t *vals, int n)
{
	struct _stp_stat *st = _stp_stat_new(h, 1);
	int i;

	for (i = 0; i < n; i++)
		_stp_stat_add(st, 0, vals[i]);
	_stp_hist_print(h, _stp_stat_get(st), collect, NULL);
	_stp_stat_free(st);
}

/* testsuite/systemtap.maps/elision.stp, default HIST_ELISION. */
static void test_elision(void)
{
	static const struct _stp_hist lin = STP_HIST_LINEAR_INIT(0, 1500, 50, 0);
	static const struct _stp_hist lin2 = STP_HIST_LINEAR_INIT(-100, 100, 10, 0);
	static const struct _stp_hist lg = STP_HIST_LOG_INIT(0);
	static const int64_t a1[] = { 444, 999 }, a2[] = { 444, 500 },
		a3[] = { 0 }, a4[] = { 50 }, a5[] = { 1450 }, a6[] = { 1500 },
		b1[] = { -10 }, b2[] = { 0 }, c1[] = { 128 }, c2[] = { 0 },
		c3[] = { -2, -4096 };

	reset();
	print_hist(&lin, a1, 2);
	print_hist(&lin, a2, 2);
	print_hist(&lin, a3, 1);
	print_hist(&lin, a4, 1);
	print_hist(&lin, a5, 1);
	print_hist(&lin, a6, 1);
	print_hist(&lin2, b1, 1);
	print_hist(&lin2, b2, 1);
	print_hist(&lg, c1, 1);
	print_hist(&lg, c2, 1);
	print_hist(&lg, c3, 2);
	CHECK_STR(out, golden_elision2);
}

/* testsuite/systemtap.maps/log.stp: every power of two, both signs. */
static void test_log(void)
{
	static const struct _stp_hist lg = STP_HIST_LOG_INIT(0);
	struct _stp_stat *st = _stp_stat_new(&lg, 4);
	uint64_t val = 1;
	int i;

	for (i = 0; i < 63; i++, val <<= 1)
		_stp_stat_add(st, i % 4, (int64_t)val);
	for (val = 1, i = 0; i < 64; i++, val <<= 1)
		_stp_stat_add(st, i % 3, (int64_t)(0 - val));
	for (i = 0; i < 20; i++)
		_stp_stat_add(st, 3, 0);
	reset();
	_stp_hist_print(&lg, _stp_stat_get(st), collect, NULL);
	CHECK_STR(out, golden_log);
	_stp_stat_free(st);
}

static void check_summary(const struct _stp_hist *h,
			  const struct _stp_stat_data *d, int64_t count,
			  int64_t sum, int64_t min, int64_t max, int64_t avg)
{
	int64_t v;

	CHECK_INT(_stp_stat_extract(h, d, STP_STAT_COUNT, &v), 0);
	CHECK_INT(v, count);
	CHECK_INT(_stp_stat_extract(h, d, STP_STAT_SUM, &v), 0);
	CHECK_INT(v, sum);
	CHECK_INT(_stp_stat_extract(h, d, STP_STAT_MIN, &v), 0);
	CHECK_INT(v, min);
	CHECK_INT(_stp_stat_extract(h, d, STP_STAT_MAX, &v), 0);
	CHECK_INT(v, max);
	CHECK_INT(_stp_stat_extract(h, d, STP_STAT_AVG, &v), 0);
	CHECK_INT(v, avg);
}

/* linear_overunder.stp: key * 1..15 (12 twice) for keys 0..99. */
static void test_linear_overunder(void)
{
	static const struct _stp_hist h = STP_HIST_LINEAR_INIT(250, 1000, 50, 0);
	static const int mult[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12,
				    13, 14, 15 };
	struct _stp_stat *st = _stp_stat_new(&h, 2);
	const struct _stp_stat_data *d;
	int key, i;

	for (key = 0; key < 100; key++)
		for (i = 0; i < 16; i++)
			_stp_stat_add(st, key % 2, key * mult[i]);
	d = _stp_stat_get(st);
	check_summary(&h, d, 1600, 653400, 0, 1485, 408);
	reset();
	_stp_hist_print(&h, d, collect, NULL);
	CHECK_STR(out, golden_overunder);
	_stp_stat_free(st);
}

static void test_linear_large_neg(void)
{
	static const struct _stp_hist h =
		STP_HIST_LINEAR_INIT(-1000000000, 0, 100000000, 0);
	static const int64_t v[] = { 0, -100000000, -100000000, -500000000,
		-500000000, -500000000, -500000000, -500000000, -1000000000,
		-1000000000, -1000000000, -1000000000, -10000000000LL };
	struct _stp_stat *st = _stp_stat_new(&h, 1);
	const struct _stp_stat_data *d;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		_stp_stat_add(st, 0, v[i]);
	d = _stp_stat_get(st);
	check_summary(&h, d, 13, -16700000000LL, -10000000000LL, 0,
		      -1284615384);
	reset();
	_stp_hist_print(&h, d, collect, NULL);
	CHECK_STR(out, golden_largeneg);
	_stp_stat_free(st);
}

/* The aggregate of foreach_limit.stp's (older) .exp: values * 1..15. */
static void test_log_scaled(void)
{
	static const struct _stp_hist h = STP_HIST_LOG_INIT(0);
	static const int vals[] = { 18, 40, 16, 4, 14, 36, 12, 10, 8, 20 };
	struct _stp_stat *st = _stp_stat_new(&h, 1);
	const struct _stp_stat_data *d;
	int i, m;
	int64_t b;

	for (i = 0; i < 10; i++)
		for (m = 1; m <= 15; m++)
			_stp_stat_add(st, 0, vals[i] * m);
	d = _stp_stat_get(st);
	check_summary(&h, d, 150, 21360, 4, 600, 142);
	reset();
	_stp_hist_print(&h, d, collect, NULL);
	CHECK_STR(out, golden_flimit);
	CHECK_INT(_stp_stat_bucket(&h, d, 67, &b), 0);
	CHECK_INT(b, 1);
	CHECK_INT(_stp_stat_bucket(&h, d, 70, &b), 0);
	CHECK_INT(b, 28);
	CHECK_INT(_stp_stat_bucket(&h, d, 128, &b), -ERANGE);
	CHECK_INT(_stp_stat_bucket(&h, d, -1, &b), -ERANGE);
	_stp_stat_free(st);
}

static void test_buckets(void)
{
	CHECK_INT(_stp_hist_log_bucket(0), 64);
	CHECK_INT(_stp_hist_log_bucket(1), 65);
	CHECK_INT(_stp_hist_log_bucket(3), 66);
	CHECK_INT(_stp_hist_log_bucket(4), 67);
	CHECK_INT(_stp_hist_log_bucket(INT64_MAX), 127);
	CHECK_INT(_stp_hist_log_bucket(-1), 63);
	CHECK_INT(_stp_hist_log_bucket(-4096), 51);
	CHECK_INT(_stp_hist_log_bucket(INT64_MIN), 0);
	CHECK_INT(_stp_hist_log_value(0), INT64_MIN);
	CHECK_INT(_stp_hist_log_value(63), -1);
	CHECK_INT(_stp_hist_log_value(127), 4611686018427387904LL);
	CHECK_INT(_stp_hist_linear_buckets(0, 1500, 50), 33);
	CHECK_INT(_stp_hist_linear_buckets(0, 10, 0), 0);
	CHECK_INT(_stp_hist_linear_buckets(10, 0, 1), 0);
	CHECK_INT(_stp_hist_linear_buckets(0, 12500, 100), 128);
	CHECK_INT(_stp_hist_linear_buckets(0, 12600, 100), 0);
	{
		struct _stp_hist h;

		CHECK_INT(_stp_hist_init_linear(&h, 0, 10, 0, 0), -EINVAL);
		CHECK_INT(_stp_hist_init_linear(&h, -100, 100, 10, 3), 0);
		CHECK_INT(h.buckets, 23);
		CHECK_INT(h.bit_shift, 3);
	}
}

/* Empty aggregates: @count and @sum are 0, everything else an error. */
static void test_empty(void)
{
	static const struct _stp_hist h = STP_HIST_LINEAR_INIT(0, 100, 10, 0);
	struct _stp_stat *st = _stp_stat_new(&h, 2);
	const struct _stp_stat_data *d = _stp_stat_get(st);
	int64_t v = 5;

	CHECK_INT(_stp_stat_extract(&h, d, STP_STAT_COUNT, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(_stp_stat_extract(&h, NULL, STP_STAT_SUM, &v), 0);
	CHECK_INT(_stp_stat_extract(&h, d, STP_STAT_MIN, &v), -ENODATA);
	CHECK_INT(_stp_stat_extract(&h, d, STP_STAT_AVG, &v), -ENODATA);
	CHECK_INT(_stp_stat_extract(&h, NULL, STP_STAT_VARIANCE, &v), -ENODATA);
	CHECK_INT(_stp_stat_bucket(&h, d, 99, &v), -ENODATA);
	_stp_stat_add(st, 1, 5);
	_stp_stat_clear(st);
	CHECK_INT(_stp_stat_get(st)->count, 0);
	CHECK_STR(STP_STAT_EMPTY_MSG, "empty aggregate");
	_stp_stat_free(st);
}

/* @variance follows stap's integer Welford + total-variance merge; the
 * expected values are hand traces of that arithmetic. */
static void test_variance(void)
{
	static const struct _stp_hist h0 = STP_HIST_NONE_INIT(0);
	struct _stp_stat *st = _stp_stat_new(&h0, 2);
	int64_t v;
	int i;

	for (i = 1; i <= 4; i++)
		_stp_stat_add(st, 0, i);
	CHECK_INT(_stp_stat_extract(&h0, _stp_stat_get(st), STP_STAT_VARIANCE,
				    &v), 0);
	CHECK_INT(v, 5);	/* integer means: not 1.67 */
	_stp_stat_clear(st);
	_stp_stat_add(st, 0, 0);
	_stp_stat_add(st, 0, 10);
	_stp_stat_add(st, 1, 20);
	_stp_stat_extract(&h0, _stp_stat_get(st), STP_STAT_VARIANCE, &v);
	CHECK_INT(v, 100);
	_stp_stat_clear(st);
	_stp_stat_add(st, 0, 7);
	_stp_stat_extract(&h0, _stp_stat_get(st), STP_STAT_VARIANCE, &v);
	CHECK_INT(v, 0);
	/* stap's Welford delta is an int: 2^32 + 6 - 0 counts as 6 */
	_stp_stat_clear(st);
	_stp_stat_add(st, 0, 0);
	_stp_stat_add(st, 0, (1LL << 32) + 6);
	_stp_stat_extract(&h0, _stp_stat_get(st), STP_STAT_VARIANCE, &v);
	CHECK_INT(v, -9223372011084972014LL);
	_stp_stat_free(st);
}

/* Pairwise merge (arrays of aggregates) of {0, 10} and {20}. */
static void test_merge(void)
{
	static const struct _stp_hist h = STP_HIST_NONE_INIT(0);
	struct _stp_stat *a = _stp_stat_new(&h, 2);
	struct _stp_stat_data *d0 = _stp_stat_cpu(a, 0), *d1 = _stp_stat_cpu(a, 1);
	int64_t v;

	_stp_stat_data_add(&h, d0, 0);
	_stp_stat_data_add(&h, d0, 10);
	_stp_stat_data_add(&h, d1, 20);
	_stp_stat_data_merge(&h, d0, d1);
	CHECK_INT(d0->count, 3);
	CHECK_INT(d0->sum, 30);
	CHECK_INT(d0->min, 0);
	CHECK_INT(d0->max, 20);
	_stp_stat_extract(&h, d0, STP_STAT_VARIANCE, &v);
	CHECK_INT(v, 100);
	_stp_stat_free(a);
}

/* Shifted @variance: the scale factor cancels on extraction. */
static void test_variance_shift(void)
{
	static const struct _stp_hist h = STP_HIST_NONE_INIT(2);
	struct _stp_stat *st = _stp_stat_new(&h, 1);
	int64_t v;

	/* {0, 10}: avg_s 0 -> 20 (40/2), m2 = 40 * 20 = 800, var_s 800 */
	_stp_stat_add(st, 0, 0);
	_stp_stat_add(st, 0, 10);
	_stp_stat_extract(&h, _stp_stat_get(st), STP_STAT_VARIANCE, &v);
	CHECK_INT(v, 50);	/* 800 >> 4 */
	_stp_stat_free(st);
}

static void test_sprint(void)
{
	static const struct _stp_hist lg = STP_HIST_LOG_INIT(0);
	struct _stp_stat *st = _stp_stat_new(&lg, 1);
	char buf[10];
	size_t n;

	_stp_stat_add(st, 0, 128);
	n = _stp_hist_sprint(buf, sizeof(buf), &lg, _stp_stat_get(st));
	CHECK_INT(n, 64 + 5 * 60 + 1);	/* header, 5 rows, blank line */
	CHECK_STR(buf, "value |--");
	_stp_stat_free(st);
}

/* Without @variance (STP_HIST_*_INIT_V(shift, 0)) adds skip its upkeep:
 * the other extractors, merges and the histogram stay as with it. */
static void test_no_variance(void)
{
	static const struct _stp_hist hv = STP_HIST_LOG_INIT(0);
	static const struct _stp_hist hn = STP_HIST_LOG_INIT_V(0, 0);
	struct _stp_stat *a = _stp_stat_new(&hv, 2), *b = _stp_stat_new(&hn, 2);
	int64_t i, x, y;

	for (i = -5; i < 300; i += 7) {
		_stp_stat_add(a, (int)(i & 1), i * i - 40);
		_stp_stat_add(b, (int)(i & 1), i * i - 40);
	}
	check_summary(&hn, _stp_stat_get(b), 44, 1277386, -36, 87576, 29031);
	check_summary(&hv, _stp_stat_get(a), 44, 1277386, -36, 87576, 29031);
	for (i = 0; i < STP_HIST_LOG_BUCKETS; i++) {
		CHECK_INT(_stp_stat_bucket(&hv, _stp_stat_get(a), i, &x), 0);
		CHECK_INT(_stp_stat_bucket(&hn, _stp_stat_get(b), i, &y), 0);
		CHECK_INT(x, y);
	}
	_stp_stat_free(a);
	_stp_stat_free(b);
}

int main(void)
{
	test_elision();
	test_log();
	test_linear_overunder();
	test_linear_large_neg();
	test_log_scaled();
	test_buckets();
	test_empty();
	test_variance();
	test_merge();
	test_no_variance();
	test_variance_shift();
	test_sprint();
	return unit_done("test_stat");
}
