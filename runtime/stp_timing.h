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

/* The probes, then stap's synthesized end probes that display globals. */
#define STP_TIMED (STP_NUM_PROBES + STP_NUM_DISPLAYS)

static const struct _stp_hist _stp_timing_hist = STP_HIST_NONE_INIT_V(0, 0);
static struct _stp_stat *_stp_timing[STP_TIMED + 1];
/* Per global: lock acquisitions that found it busy, and hits skipped. */
static atomic_t _stp_lock_contended[STP_NUM_GLOBALS + 1];
static atomic_t _stp_lock_skipped[STP_NUM_GLOBALS + 1];

static void _stp_timing_free(void)
{
	int i;

	for (i = 0; i < STP_TIMED; i++) {
		_stp_stat_free(_stp_timing[i]);
		_stp_timing[i] = NULL;
	}
}

static int _stp_timing_alloc(void)
{
	int i;

	for (i = 0; i < STP_TIMED; i++) {
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

/* One line of the report, for timed slot I that ran. */
static void _stp_timing_line(struct context *c, int i, const char *pp,
			     const char *location, const char *derivation)
{
	const struct _stp_stat_data *d;
	int64_t min, avg, max, var;

	if (!_stp_timing[i])
		return;
	d = _stp_stat_get(_stp_timing[i]);
	if (!d || !d->count)
		return;
	_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_MIN, &min);
	_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_AVG, &avg);
	_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_MAX, &max);
	_stp_stat_extract(&_stp_timing_hist, d, STP_STAT_VARIANCE, &var);
	_stp_printf(c, "%s, (%s), hits: %lld, cycles: %lldmin/%lldavg/%lldmax, variance: %lld, from: %s, index: %d\n",
		    pp, location, (long long)d->count, (long long)min,
		    (long long)avg, (long long)max, (long long)var, derivation, i);
	_stp_print_flush(c);
}

/* stap's report: one line per probe that ran (its point, where the script
 * wrote it, hits, cycles min/avg/max and variance, the points it came
 * from, its index), the display probes after them, then how often each
 * global's lock was found busy.  GLOBALS are stap's C names. */
static void _stp_timing_report(struct context *c, const struct stp_probe *probes,
			       const char *const *globals)
{
	int i, n;

	_stp_print_str(c, "----- probe hit report: \n");
	for (i = 0; i < STP_NUM_PROBES; i++)
		_stp_timing_line(c, i, probes[i].pp, probes[i].location,
				 probes[i].derivation);
	for (; i < STP_TIMED; i++)
		_stp_timing_line(c, i, "end", STP_DISPLAY_LOCATION, "end");
	_stp_print_str(c, "----- refresh report:\n");
	for (i = 0; i < STP_NUM_GLOBALS; i++) {
		n = atomic_read(&_stp_lock_contended[i]);
		if (n)
			_stp_printf(c, "'%s' lock contention occurred %d times\n",
				    globals[i], n);
	}
	_stp_print_flush(c);
}

/* After "Number of errors: ...": why probes were skipped (REENTRANT: of
 * them, those whose CPU was already running a probe). */
static void _stp_timing_skips(const char *const *globals, int reentrant)
{
	char msg[128];
	int i, n;

	for (i = 0; i < STP_NUM_GLOBALS; i++) {
		n = atomic_read(&_stp_lock_skipped[i]);
		if (!n)
			continue;
		snprintf(msg, sizeof msg, "Skipped due to global '%s' lock timeout: %d",
			 globals[i], n);
		_stp_transport_warn(msg);
	}
	if (reentrant) {
		snprintf(msg, sizeof msg, "Skipped due to reentrancy: %d", reentrant);
		_stp_transport_warn(msg);
	}
}

#endif /* STP_TIMING_H */
