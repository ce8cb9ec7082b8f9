/* stp_timing.h - stap -t: how often each probe ran and how long it took.
 *
 * Compiled in only with STP_TIMING (the translator defines it for -t).
 * Each probe has a scalar aggregate of the cycles its handler took, one
 * record per CPU (stat.h); after the end probes, the session prints stap's
 * "probe hit report" from them.  The stats live from session start to
 * session stop; a hit outside that window is not counted.
 */
#ifndef STP_TIMING_H
#define STP_TIMING_H

#include "stat.h"

static const struct _stp_hist _stp_timing_hist = STP_HIST_NONE_INIT(0);
static struct _stp_stat *_stp_timing[STP_NUM_PROBES + 1];

static void _stp_timing_free(void)
{
	int i;

	for (i = 0; i < STP_NUM_PROBES; i++) {
		_stp_stat_free(_stp_timing[i]);
		_stp_timing[i] = NULL;
	}
}

static int _stp_timing_alloc(void)
{
	int i;

	for (i = 0; i < STP_NUM_PROBES; i++) {
		_stp_timing[i] = _stp_stat_new(&_stp_timing_hist, nr_cpu_ids);
		if (!_stp_timing[i]) {
			_stp_timing_free();
			return -ENOMEM;
		}
	}
	return 0;
}

/* A hit of probe INDEX that took CYCLES; called with preemption off. */
static inline void _stp_timing_add(int index, cycles_t cycles)
{
	struct _stp_stat *st = _stp_timing[index];

	if (st)
		_stp_stat_add(st, smp_processor_id(), (int64_t)cycles);
}

/* One line per probe that ran, as stap prints them: its point, where the
 * script wrote it, hits, cycles min/avg/max and variance, the points it
 * was derived from, and its index. */
static void _stp_timing_report(struct context *c, const struct stp_probe *probes,
			       int n)
{
	const struct _stp_stat_data *d;
	int64_t min, avg, max, var;
	int i;

	_stp_print_str(c, "----- probe hit report: \n");
	for (i = 0; i < n; i++) {
		if (!_stp_timing[i])
			continue;
		d = _stp_stat_get(_stp_timing[i]);
		if (!d || !d->count)
			continue;
		_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_MIN, &min);
		_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_AVG, &avg);
		_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_MAX, &max);
		_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_VARIANCE, &var);
		_stp_printf(c, "%s, (%s), hits: %lld, cycles: %lldmin/%lldavg/%lldmax, variance: %lld, from: %s, index: %d\n",
			    probes[i].pp, probes[i].location, (long long)d->count,
			    (long long)min, (long long)avg, (long long)max,
			    (long long)var, probes[i].derivation, i);
		_stp_print_flush(c);
	}
	_stp_print_str(c, "----- refresh report:\n");
	_stp_print_flush(c);
}

#endif /* STP_TIMING_H */
