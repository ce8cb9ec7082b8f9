/* probes/timer.c - timer.s/ms/us/ns/hz/jiffies probes on hrtimers.
 *
 * One hrtimer per probe, pinned to the CPU that started it; each expiry
 * runs the handler and rearms the timer one period (± the randomization)
 * after the previous expiry.  Stopping cancels the timer and waits for a
 * running callback.
 */
#include <linux/hrtimer.h>
#include <linux/random.h>

struct stp_timer {
	struct stp_probe *probe;
	s64 period_ns;		/* > 0; < 0 counts jiffies */
	s64 rand_ns;		/* 0: no randomization; < 0 jiffies */
	struct hrtimer timer;
};

static ktime_t _stp_timer_interval(const struct stp_timer *t)
{
	s64 ns = t->period_ns;

	if (t->rand_ns > 0)
		ns += (s64)get_random_u64() % (2 * t->rand_ns + 1) - t->rand_ns;
	return ns_to_ktime(ns > 0 ? ns : 1);
}

static notrace enum hrtimer_restart _stp_timer_fire(struct hrtimer *h)
{
	struct stp_timer *t = container_of(h, struct stp_timer, timer);

	_stp_hit(t->probe, NULL, NULL, NULL);
	/* one period after the previous expiry, as stap: a late timer
	 * catches up instead of losing periods */
	hrtimer_add_expires(h, _stp_timer_interval(t));
	return HRTIMER_RESTART;
}

static int _stp_timers_start(struct stp_timer *timers, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (timers[i].period_ns < 0)
			timers[i].period_ns = jiffies_to_nsecs(-timers[i].period_ns);
		if (timers[i].rand_ns < 0)
			timers[i].rand_ns = jiffies_to_nsecs(-timers[i].rand_ns);
		_stp_hrtimer_setup(&timers[i].timer, _stp_timer_fire,
				   CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		hrtimer_start(&timers[i].timer, _stp_timer_interval(&timers[i]),
			      HRTIMER_MODE_REL);
	}
	return 0;
}

static void _stp_timers_stop(struct stp_timer *timers, int n)
{
	int i;

	for (i = 0; i < n; i++)
		hrtimer_cancel(&timers[i].timer);
}
