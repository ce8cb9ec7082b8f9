/* stat.c - statistics records: accumulation (x <<< v), per-CPU merge,
 * extractors and histogram buckets. The arithmetic reproduces stap 4.8
 * to the bit, integer rounding and the 32-bit Welford delta included, so
 * @avg and @variance print the same numbers. Printing the ASCII
 * histogram lives in hist.c. See stat.h for how generated code calls it.
 */
#include "stat.h"

int _stp_hist_linear_buckets(int64_t start, int64_t stop, int64_t interval)
{
	int64_t n;

	if (interval == 0)
		return 0;
	n = (stop - start) / interval + 3;	/* + underflow and overflow */
	if (n < 3 || n > STP_MAX_BUCKETS)
		return 0;
	return (int)n;
}

int _stp_hist_init_linear(struct _stp_hist *h, int64_t start, int64_t stop,
			  int64_t interval, int bit_shift)
{
	int n = _stp_hist_linear_buckets(start, stop, interval);

	if (n == 0)
		return -EINVAL;
	h->type = STP_HIST_LINEAR;
	h->start = (int)start;
	h->stop = (int)stop;
	h->interval = (int)interval;
	h->buckets = n;
	h->bit_shift = bit_shift;
	h->variance = 1;
	return 0;
}

size_t _stp_stat_data_size(const struct _stp_hist *h)
{
	int nb = h->type == STP_HIST_NONE ? 0 : h->buckets;

	return sizeof(struct _stp_stat_data) + (size_t)nb * sizeof(int64_t);
}

void _stp_stat_data_clear(const struct _stp_hist *h, struct _stp_stat_data *d)
{
	memset(d, 0, _stp_stat_data_size(h));
}

/* Bit length of a non-zero value: 1 for 1, 64 for 2^63. */
static int stat_bit_length(uint64_t u)
{
	int n = 0;

	if (u >> 32) {
		u >>= 32;
		n += 32;
	}
	if (u >> 16) {
		u >>= 16;
		n += 16;
	}
	if (u >> 8) {
		u >>= 8;
		n += 8;
	}
	while (u) {
		u >>= 1;
		n++;
	}
	return n;
}

/* Values in [2^k, 2^(k+1)) go to bucket 65 + k, 0 to bucket 64, and
 * negative values mirror them below 64 (-1 in 63, INT64_MIN in 0). */
int _stp_hist_log_bucket(int64_t v)
{
	uint64_t u;
	int b;

	if (v == 0)
		return STP_HIST_LOG_BUCKET0;
	u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	b = STP_HIST_LOG_BUCKET0 + stat_bit_length(u);
	if (v < 0)
		b = STP_HIST_LOG_BUCKETS - b;
	return b > STP_HIST_LOG_BUCKETS - 1 ? STP_HIST_LOG_BUCKETS - 1 : b;
}

int64_t _stp_hist_log_value(int bucket)
{
	if (bucket == STP_HIST_LOG_BUCKET0)
		return 0;
	if (bucket < STP_HIST_LOG_BUCKET0)
		return (int64_t)(0 - ((uint64_t)1 << (63 - bucket)));
	return (int64_t)((uint64_t)1 << (bucket - STP_HIST_LOG_BUCKET0 - 1));
}

static int stat_linear_bucket(const struct _stp_hist *h, int64_t v)
{
	int64_t off = (int64_t)((uint64_t)v - (uint64_t)(int64_t)h->start);
	uint64_t idx;
	uint32_t rem;

	if (off < 0)
		return 0;
	idx = _stp_rt_udivmod((uint64_t)off, (uint32_t)h->interval, &rem) + 1;
	if (idx >= (uint64_t)(h->buckets - 1))
		return h->buckets - 1;
	return (int)idx;
}

void _stp_stat_data_add_full(const struct _stp_hist *h,
			     struct _stp_stat_data *d, int64_t v)
{
	int shift = h->bit_shift;

	if (d->count == 0) {
		d->count = 1;
		d->sum = d->min = d->max = v;
		d->avg_s = _stp_rt_shl64(v, shift);
		d->m2 = 0;
	} else if (!h->variance) {	/* two divisions saved per add */
		_stp_stat_data_add_basic(d, v);
	} else {
		/* stap keeps Welford's delta in an int: reproduce the
		 * truncation, it shows in @variance of large samples. */
		int32_t delta;
		int64_t vs = _stp_rt_shl64(v, shift);

		_stp_stat_data_add_basic(d, v);
		delta = (int32_t)(uint32_t)(uint64_t)_stp_rt_wsub(vs, d->avg_s);
		d->avg_s = _stp_rt_wadd(d->avg_s,
					_stp_rt_sdiv64(delta, d->count));
		d->m2 = _stp_rt_wadd(d->m2, _stp_rt_wmul(delta,
					_stp_rt_wsub(vs, d->avg_s)));
		d->variance_s = _stp_rt_sdiv64(d->m2, d->count - 1);
	}
	if (h->type == STP_HIST_LOG) {
		int b = _stp_hist_log_bucket(v);

		d->histogram[b < h->buckets ? b : h->buckets - 1]++;
	} else if (h->type == STP_HIST_LINEAR) {
		d->histogram[stat_linear_bucket(h, v)]++;
	}
}

static void stat_hist_add(const struct _stp_hist *h, struct _stp_stat_data *dst,
			  const struct _stp_stat_data *src)
{
	int i;

	if (h->type == STP_HIST_NONE)
		return;
	for (i = 0; i < h->buckets; i++)
		dst->histogram[i] += src->histogram[i];
}

void _stp_stat_data_copy(const struct _stp_hist *h, struct _stp_stat_data *dst,
			 const struct _stp_stat_data *src)
{
	memcpy(dst, src, _stp_stat_data_size(h));
}

/* n * (a - b)^2, wrapping like stap's int64 arithmetic. */
static int64_t stat_spread(int64_t n, int64_t a, int64_t b)
{
	int64_t d = _stp_rt_wsub(a, b);

	return _stp_rt_wmul(n, _stp_rt_wmul(d, d));
}

void _stp_stat_data_merge(const struct _stp_hist *h, struct _stp_stat_data *dst,
			  const struct _stp_stat_data *src)
{
	int64_t c1, a1, s;

	if (src->count == 0)
		return;
	if (dst->count == 0) {
		_stp_stat_data_copy(h, dst, src);
		return;
	}
	c1 = dst->count;
	a1 = dst->avg_s;
	dst->count += src->count;
	dst->sum = _stp_rt_wadd(dst->sum, src->sum);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	stat_hist_add(h, dst, src);
	if (!h->variance)
		return;
	/* Total variance of the union (Kamat & Nandi), pairwise. */
	dst->avg_s = _stp_rt_sdiv64(_stp_rt_shl64(dst->sum, h->bit_shift),
				    dst->count);
	s = _stp_rt_wadd(stat_spread(c1, a1, dst->avg_s),
			 _stp_rt_wmul(c1 - 1, dst->variance_s));
	s = _stp_rt_wadd(s, stat_spread(src->count, src->avg_s, dst->avg_s));
	s = _stp_rt_wadd(s, _stp_rt_wmul(src->count - 1, src->variance_s));
	dst->variance_s = _stp_rt_sdiv64(s, dst->count - 1);
}

int _stp_stat_extract(const struct _stp_hist *h, const struct _stp_stat_data *d,
		      enum _stp_stat_op op, int64_t *out)
{
	if (d == NULL || d->count == 0) {
		*out = 0;
		return op == STP_STAT_COUNT || op == STP_STAT_SUM ? 0 : -ENODATA;
	}
	switch (op) {
	case STP_STAT_COUNT:
		*out = d->count;
		break;
	case STP_STAT_SUM:
		*out = d->sum;
		break;
	case STP_STAT_MIN:
		*out = d->min;
		break;
	case STP_STAT_MAX:
		*out = d->max;
		break;
	case STP_STAT_AVG:
		*out = _stp_rt_sdiv64(d->sum, d->count);
		break;
	case STP_STAT_VARIANCE:
		*out = d->variance_s >> (2 * h->bit_shift);
		break;
	default:
		*out = 0;
		return -EINVAL;
	}
	return 0;
}

int _stp_stat_bucket(const struct _stp_hist *h, const struct _stp_stat_data *d,
		     int64_t index, int64_t *out)
{
	*out = 0;
	if (d == NULL || d->count == 0)
		return -ENODATA;
	if (h->type == STP_HIST_NONE || index < 0 || index >= h->buckets)
		return -ERANGE;
	*out = d->histogram[index];
	return 0;
}

/* Scalar aggregates. */

struct _stp_stat_data *_stp_stat_cpu(struct _stp_stat *st, int cpu)
{
	return (struct _stp_stat_data *)(st->cpu + (size_t)cpu * st->stride);
}

struct _stp_stat *_stp_stat_new(const struct _stp_hist *h, int ncpus)
{
	size_t rec = _stp_stat_data_size(h);
	size_t stride = (rec + 63) & ~(size_t)63;	/* no false sharing */
	size_t head = (sizeof(struct _stp_stat) + 63) & ~(size_t)63;
	struct _stp_stat *st;

	if (ncpus < 1)
		return NULL;
	st = _stp_rt_zalloc(head + stride * (size_t)(ncpus + 1));
	if (st == NULL)
		return NULL;
	st->hist = h;
	st->ncpus = ncpus;
	st->stride = stride;
	st->agg = (struct _stp_stat_data *)((char *)st + head);
	st->cpu = (char *)st + head + stride;
	return st;
}

void _stp_stat_free(struct _stp_stat *st)
{
	if (st)
		_stp_rt_free(st);
}

void _stp_stat_add(struct _stp_stat *st, int cpu, int64_t v)
{
	_stp_stat_data_add(st->hist, _stp_stat_cpu(st, cpu), v);
}

/* Reading a scalar merges all CPUs at once: sums first, then the total
 * variance from every CPU's mean and variance around the global mean. */
const struct _stp_stat_data *_stp_stat_get(struct _stp_stat *st)
{
	const struct _stp_hist *h = st->hist;
	struct _stp_stat_data *agg = st->agg;
	int64_t s = 0;
	int i;

	_stp_stat_data_clear(h, agg);
	for (i = 0; i < st->ncpus; i++) {
		const struct _stp_stat_data *d = _stp_stat_cpu(st, i);

		if (d->count == 0)
			continue;
		if (agg->count == 0) {
			agg->min = d->min;
			agg->max = d->max;
		}
		agg->count += d->count;
		agg->sum = _stp_rt_wadd(agg->sum, d->sum);
		if (d->max > agg->max)
			agg->max = d->max;
		if (d->min < agg->min)
			agg->min = d->min;
		stat_hist_add(h, agg, d);
	}
	if (!h->variance || !agg->count)
		return agg;
	agg->avg_s = _stp_rt_sdiv64(_stp_rt_shl64(agg->sum, h->bit_shift),
				    agg->count);
	for (i = 0; i < st->ncpus; i++) {
		const struct _stp_stat_data *d = _stp_stat_cpu(st, i);

		if (d->count == 0)
			continue;
		s = _stp_rt_wadd(s, stat_spread(d->count, d->avg_s, agg->avg_s));
		s = _stp_rt_wadd(s, _stp_rt_wmul(d->count - 1, d->variance_s));
	}
	agg->variance_s = _stp_rt_sdiv64(s, agg->count - 1);
	return agg;
}

void _stp_stat_clear(struct _stp_stat *st)
{
	int i;

	for (i = 0; i < st->ncpus; i++)
		_stp_stat_data_clear(st->hist, _stp_stat_cpu(st, i));
	_stp_stat_data_clear(st->hist, st->agg);
}
