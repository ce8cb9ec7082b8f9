/* hist.c - print(@hist_log(x)) and print(@hist_linear(...)): the ASCII
 * bar chart, laid out exactly as stap 4.8 prints it (column widths, bar
 * scaling to HIST_WIDTH, up to two zero rows kept around the data, runs
 * of zero rows elided as "~", "<start" / ">last" under/overflow rows).
 * Output goes through an emit callback one row at a time.
 */
#include "stat.h"

/* Characters "%lld" needs for v. */
static int hist_digits(int64_t v)
{
	char tmp[21];

	return _stp_rt_i64_digits(tmp, v);
}

/* A row under construction; rows are short (< 2 * HIST_WIDTH + 50). */
struct hist_line {
	char buf[2 * HIST_WIDTH + 64];
	size_t len;
	_stp_emit_fn emit;
	void *ctx;
};

static void hist_flush(struct hist_line *l)
{
	if (l->len)
		l->emit(l->ctx, l->buf, l->len);
	l->len = 0;
}

static void hist_put(struct hist_line *l, const char *s, size_t n)
{
	while (n--) {
		if (l->len == sizeof(l->buf))
			hist_flush(l);
		l->buf[l->len++] = *s++;
	}
}

static void hist_rep(struct hist_line *l, char c, int64_t n)
{
	while (n-- > 0)
		hist_put(l, &c, 1);
}

static void hist_num(struct hist_line *l, int64_t v)
{
	char tmp[21];

	hist_put(l, tmp, (size_t)_stp_rt_i64_digits(tmp, v));
}

/* The rows shown: the data range widened by two zero rows on each side,
 * never below the zero bucket of a log histogram without negative data,
 * and without empty under/overflow rows of a linear one. */
struct hist_range {
	int low, high;
	int under, over;	/* linear: the range includes that row */
	int64_t valmax;
};

static void hist_bounds(const struct _stp_hist *h,
			const struct _stp_stat_data *d, struct hist_range *r)
{
	int i;

	r->low = -1;
	r->high = 0;
	r->valmax = 0;
	r->under = r->over = 0;
	for (i = 0; i < h->buckets; i++) {
		if (d->histogram[i] > 0) {
			if (r->low == -1)
				r->low = i;
			r->high = i;
		}
		if (d->histogram[i] > r->valmax)
			r->valmax = d->histogram[i];
	}
	for (i = 0; i < 2; i++) {
		if (h->type == STP_HIST_LOG) {
			if (r->low != STP_HIST_LOG_BUCKET0 && r->low > 0)
				r->low--;
		} else if (r->low > 0) {
			r->low--;
		}
		if (r->high < h->buckets - 1)
			r->high++;
	}
	if (h->type == STP_HIST_LINEAR) {
		if (r->low == 0 && d->histogram[0] == 0)
			r->low++;
		if (r->high == h->buckets - 1 && d->histogram[r->high] == 0)
			r->high--;
		r->under = r->low == 0;
		r->over = r->high == h->buckets - 1;
	}
}

/* Label of row i and its "<" / ">" marker. */
static int64_t hist_row_value(const struct _stp_hist *h, int i,
			      const char **prefix)
{
	*prefix = "";
	if (h->type == STP_HIST_LOG)
		return _stp_hist_log_value(i);
	if (i == 0) {
		*prefix = "<";
		return h->start;
	}
	if (i == h->buckets - 1) {
		*prefix = ">";
		return h->start + (int64_t)(i - 2) * h->interval;
	}
	return h->start + (int64_t)(i - 1) * h->interval;
}

static int hist_value_width(const struct _stp_hist *h,
			    const struct hist_range *r)
{
	int a, b;

	if (h->type == STP_HIST_LINEAR) {
		/* stap sizes the last row one interval too wide; keep it. */
		a = hist_digits(h->start) + r->under;
		b = hist_digits(h->start + (int64_t)h->interval * r->high)
		    + r->over;
	} else {
		a = hist_digits(_stp_hist_log_value(r->high));
		b = hist_digits(_stp_hist_log_value(r->low));
	}
	if (b > a)
		a = b;
	return a > 5 ? a : 5;	/* strlen("value") */
}

/* A zero row is elided when every row within HIST_ELISION of it (inside
 * the shown range) is zero too. */
static int hist_elided(const struct _stp_hist *h, const struct _stp_stat_data *d,
		       const struct hist_range *r, int i)
{
	int64_t span = HIST_ELISION;
	int lo, hi, k;

	if ((long)HIST_ELISION < 0)
		return 0;
	if (span > h->buckets)
		span = h->buckets;
	lo = i - span > r->low ? (int)(i - span) : r->low;
	hi = i + span < r->high ? (int)(i + span) : r->high;
	for (k = lo; k <= hi; k++)
		if (d->histogram[k] != 0)
			return 0;
	return 1;
}

void _stp_hist_print(const struct _stp_hist *h, const struct _stp_stat_data *d,
		     _stp_emit_fn emit, void *ctx)
{
	struct hist_line l = { .len = 0, .emit = emit, .ctx = ctx };
	struct hist_range r;
	int64_t scale;
	int i, vw, cw, eliding = 0;

	if (h->type != STP_HIST_LOG && h->type != STP_HIST_LINEAR)
		return;
	hist_bounds(h, d, &r);
	if (r.valmax <= HIST_WIDTH) {
		scale = 1;
	} else {
		uint32_t rem;

		scale = (int64_t)_stp_rt_udivmod((uint64_t)r.valmax, HIST_WIDTH,
						 &rem);
		scale += rem != 0;
	}
	cw = hist_digits(r.valmax);
	vw = hist_value_width(h, &r);

	hist_rep(&l, ' ', vw - 5);
	hist_put(&l, "value |", 7);
	hist_rep(&l, '-', HIST_WIDTH);
	hist_put(&l, " count\n", 7);
	hist_flush(&l);

	/* No samples: stap never prints this (it raises "empty aggregate"
	 * first); show just the header rather than read out of bounds. */
	for (i = r.low; r.low >= 0 && i <= r.high; i++) {
		const char *prefix;
		int64_t val, bar;
		uint32_t rem;

		if (hist_elided(h, d, &r, i)) {
			eliding = 1;
			continue;
		}
		if (eliding) {
			hist_rep(&l, ' ', vw);
			hist_put(&l, " ~\n", 3);
			eliding = 0;
		}
		val = hist_row_value(h, i, &prefix);
		hist_rep(&l, ' ', vw - hist_digits(val) - (int)strlen(prefix));
		hist_put(&l, prefix, strlen(prefix));
		hist_num(&l, val);
		hist_put(&l, " |", 2);
		bar = (int64_t)_stp_rt_udivmod((uint64_t)d->histogram[i],
					       (uint32_t)scale, &rem);
		hist_rep(&l, '@', bar);
		hist_rep(&l, ' ', HIST_WIDTH - bar + 1 + cw
				  - hist_digits(d->histogram[i]));
		hist_num(&l, d->histogram[i]);
		hist_put(&l, "\n", 1);
		hist_flush(&l);
	}
	hist_put(&l, "\n", 1);
	hist_flush(&l);
}

struct hist_sbuf {
	char *buf;
	size_t size, len;
};

static void hist_sbuf_emit(void *ctx, const char *s, size_t n)
{
	struct hist_sbuf *b = ctx;
	size_t i;

	for (i = 0; i < n; i++, b->len++)
		if (b->len + 1 < b->size)
			b->buf[b->len] = s[i];
}

size_t _stp_hist_sprint(char *buf, size_t size, const struct _stp_hist *h,
			const struct _stp_stat_data *d)
{
	struct hist_sbuf b = { buf, size, 0 };

	_stp_hist_print(h, d, hist_sbuf_emit, &b);
	if (size)
		buf[b.len < size ? b.len : size - 1] = '\0';
	return b.len;
}
