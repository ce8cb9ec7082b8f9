/* stat.h - statistics aggregates (x <<< v) for the generated module.
 *
 * A script aggregate is described once by a struct _stp_hist (histogram
 * kind and @variance bit shift; generated as a static const by the
 * translator) and its samples are kept in struct _stp_stat_data records:
 * one per CPU while probes add to them, merged into one on read.
 *
 * Scalar aggregate `global x`:
 *   setup:   static const struct _stp_hist x_h = STP_HIST_LOG_INIT(0);
 *            struct _stp_stat *x = _stp_stat_new(&x_h, ncpus);  (NULL: no mem)
 *   probe:   _stp_stat_add(x, smp_processor_id(), v);       x <<< v
 *   read:    const struct _stp_stat_data *d = _stp_stat_get(x);
 *            _stp_stat_extract(&x_h, d, STP_STAT_MIN, &out) -> 0 or
 *            -ENODATA ("empty aggregate", STP_STAT_EMPTY_MSG)
 *            _stp_stat_bucket(&x_h, d, i, &out) -> 0 or -ERANGE
 *            ("histogram index out of range", STP_HIST_INDEX_MSG)
 *            _stp_hist_print(&x_h, d, emit, ctx) / _stp_hist_sprint(buf, n, ...)
 *   delete x: _stp_stat_clear(x);   teardown: _stp_stat_free(x).
 * The caller serialises readers against writers with its global locks; an
 * add touches only its own CPU's record. Arrays of aggregates are maps
 * with stat values: see map.h (_stp_pmap_*).
 */
#ifndef STP_STAT_H
#define STP_STAT_H

#include "rt_compat.h"

/* Histogram kinds. */
enum _stp_hist_type { STP_HIST_NONE, STP_HIST_LOG, STP_HIST_LINEAR };

/* @hist_log has a fixed 128 buckets: 64 for negative values, one for 0,
 * 63 for positive powers of two. */
#define STP_HIST_LOG_BUCKETS 128
#define STP_HIST_LOG_BUCKET0 64

/* Upper bound on @hist_linear buckets, underflow and overflow included. */
#ifndef STP_MAX_BUCKETS
#define STP_MAX_BUCKETS 128
#endif

/* Bar width and zero-row elision of the printed histogram (-D overridable,
 * as in stap: HIST_ELISION < 0 turns elision off). */
#ifndef HIST_WIDTH
#define HIST_WIDTH 50
#endif
#ifndef HIST_ELISION
#define HIST_ELISION 2
#endif

/* Messages the caller raises for error returns of this module. */
#define STP_STAT_EMPTY_MSG "empty aggregate"
#define STP_HIST_INDEX_MSG "histogram index out of range"

struct _stp_hist {
	enum _stp_hist_type type;
	int start, stop, interval;	/* @hist_linear parameters */
	int buckets;			/* 0 when type is STP_HIST_NONE */
	int bit_shift;			/* @variance(x, shift), 0..62 */
	int variance;			/* 0: nothing reads @variance, so
					   adds skip its running sums */
};

/* The _V forms say whether @variance is kept (the translator knows). */
#define STP_HIST_NONE_INIT(shift) STP_HIST_NONE_INIT_V(shift, 1)
#define STP_HIST_NONE_INIT_V(shift, var) \
	{ STP_HIST_NONE, 0, 0, 0, 0, (shift), (var) }
#define STP_HIST_LOG_INIT(shift) STP_HIST_LOG_INIT_V(shift, 1)
#define STP_HIST_LOG_INIT_V(shift, var) \
	{ STP_HIST_LOG, 0, 0, 0, STP_HIST_LOG_BUCKETS, (shift), (var) }
/* Needs a valid (stop - start) / interval: see _stp_hist_linear_buckets. */
#define STP_HIST_LINEAR_INIT(start, stop, interval, shift) \
	STP_HIST_LINEAR_INIT_V(start, stop, interval, shift, 1)
#define STP_HIST_LINEAR_INIT_V(start, stop, interval, shift, var) \
	{ STP_HIST_LINEAR, (start), (stop), (interval), \
	  ((stop) - (start)) / (interval) + 3, (shift), (var) }

/* Samples of one aggregate (one CPU's, or merged). avg_s and variance_s
 * are scaled by 2^bit_shift and 2^(2*bit_shift); m2 is Welford's running
 * sum of squares. histogram[] has hist->buckets entries. */
struct _stp_stat_data {
	int64_t count, sum, min, max;
	int64_t avg_s, m2, variance_s;
	int64_t histogram[];
};

/* Extractor selectors, also used to sort arrays by a stat value. */
enum _stp_stat_op {
	STP_STAT_COUNT, STP_STAT_SUM, STP_STAT_MIN, STP_STAT_MAX,
	STP_STAT_AVG, STP_STAT_VARIANCE
};

/* Number of buckets @hist_linear(x, start, stop, interval) gets, or 0
 * when stap rejects the parameters (STP_HIST_LINEAR_BAD_MSG). */
int _stp_hist_linear_buckets(int64_t start, int64_t stop, int64_t interval);
#define STP_HIST_LINEAR_BAD_MSG \
	"histogram: Number of buckets must be between 1 and %d\n" \
	"Number_of_buckets = (stop - start) / interval.\n" \
	"Please adjust your start, stop, and interval values."
#define STP_HIST_ZERO_INTERVAL_MSG "histogram: interval cannot be zero."
/* Fill h for @hist_linear at module init: 0, or -EINVAL when stap would
 * refuse the parameters (it warns with the messages above, giving
 * STP_MAX_BUCKETS - 2 for %d, and the module fails to start). */
int _stp_hist_init_linear(struct _stp_hist *h, int64_t start, int64_t stop,
			  int64_t interval, int bit_shift);

/* Bytes of one record for this aggregate (with its histogram). */
size_t _stp_stat_data_size(const struct _stp_hist *h);

/* Record-level operations, also used by maps of stats. */
void _stp_stat_data_clear(const struct _stp_hist *h, struct _stp_stat_data *d);
void _stp_stat_data_add_full(const struct _stp_hist *h,
			     struct _stp_stat_data *d, int64_t v);
/* count, sum, min and max of a record that has samples already */
static inline void _stp_stat_data_add_basic(struct _stp_stat_data *d,
					    int64_t v)
{
	d->count++;
	d->sum = _stp_rt_wadd(d->sum, v);
	if (v > d->max)
		d->max = v;
	if (v < d->min)
		d->min = v;
}

/* x <<< v: inline when the aggregate keeps neither @variance nor a
 * histogram (most do neither), the rest out of line. */
static inline void _stp_stat_data_add(const struct _stp_hist *h,
				      struct _stp_stat_data *d, int64_t v)
{
	if (!h->variance && h->type == STP_HIST_NONE && d->count) {
		_stp_stat_data_add_basic(d, v);
		return;
	}
	_stp_stat_data_add_full(h, d, v);
}
/* Fold src into dst the way stap merges one CPU's map entry into the
 * aggregated map (pairwise total variance). */
void _stp_stat_data_merge(const struct _stp_hist *h, struct _stp_stat_data *dst,
			  const struct _stp_stat_data *src);
/* Copy a record (same hist). */
void _stp_stat_data_copy(const struct _stp_hist *h, struct _stp_stat_data *dst,
			 const struct _stp_stat_data *src);

/* Extract @count/@sum/@min/@max/@avg/@variance. d may be NULL (absent
 * array element). Returns 0, or -ENODATA for an empty aggregate unless
 * op is COUNT or SUM (then *out = 0). */
int _stp_stat_extract(const struct _stp_hist *h, const struct _stp_stat_data *d,
		      enum _stp_stat_op op, int64_t *out);
/* Value of @hist_*(x)[index]. Like stap, an empty aggregate (d NULL or
 * count 0) is -ENODATA before the index is checked; -ERANGE when index is
 * outside 0..buckets-1. */
int _stp_stat_bucket(const struct _stp_hist *h, const struct _stp_stat_data *d,
		     int64_t index, int64_t *out);
/* Bucket an @hist_log sample falls in, and the value labelling a bucket. */
int _stp_hist_log_bucket(int64_t v);
int64_t _stp_hist_log_value(int bucket);

/* Print the ASCII histogram exactly as stap 4.8: emit(ctx, s, n) receives
 * the text in pieces. Nothing is printed for STP_HIST_NONE; an empty
 * histogram (no samples) prints only the header and a blank line. */
typedef void (*_stp_emit_fn)(void *ctx, const char *s, size_t n);
void _stp_hist_print(const struct _stp_hist *h, const struct _stp_stat_data *d,
		     _stp_emit_fn emit, void *ctx);
/* The same into buf (NUL-terminated, truncated to size - 1 bytes);
 * returns the full length the histogram needs. */
size_t _stp_hist_sprint(char *buf, size_t size, const struct _stp_hist *h,
			const struct _stp_stat_data *d);

/* A scalar aggregate: one record per CPU plus the merged one. */
struct _stp_stat {
	const struct _stp_hist *hist;
	int ncpus;
	size_t stride;			/* bytes per record, cache aligned */
	struct _stp_stat_data *agg;	/* result of the last _stp_stat_get */
	char *cpu;			/* ncpus records */
};

struct _stp_stat *_stp_stat_new(const struct _stp_hist *h, int ncpus);
void _stp_stat_free(struct _stp_stat *st);
void _stp_stat_add(struct _stp_stat *st, int cpu, int64_t v);
const struct _stp_stat_data *_stp_stat_get(struct _stp_stat *st);
void _stp_stat_clear(struct _stp_stat *st);
/* One CPU's record (for tests and the map code). */
struct _stp_stat_data *_stp_stat_cpu(struct _stp_stat *st, int cpu);

#endif /* STP_STAT_H */
