/* probes/timer.c - the timer probe family.
 *
 * timer.{s,sec,ms,msec,us,usec,ns,nsec}(N), timer.hz(N) and
 * timer.jiffies(N), each with an optional .randomize(M) (same unit, the
 * period varies by up to ±M).  All run on high-resolution timers in the
 * runtime (runtime/probes/timer.c), on the CPU that armed them.
 */
#include <string.h>

#include "probes/family.h"

struct timer_data {
	int64_t period_ns, rand_ns;
};

static const struct {
	const char *name;
	int64_t ns;		/* nanoseconds per unit; 0: hz; -1: jiffies */
} units[] = {
	{ "s", 1000000000 }, { "sec", 1000000000 },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "us", 1000 }, { "usec", 1000 },
	{ "ns", 1 }, { "nsec", 1 },
	{ "hz", 0 }, { "jiffies", -1 },
};


/* stap 4.8's bounds: a period of 100 µs to one day, jiffies 1 to 10^6. */
#define MIN_PERIOD_NS 100000LL
#define MAX_PERIOD_NS 86400000000000LL
#define MAX_JIFFIES 1000000LL

static int number_arg(struct session *s, const struct pp_comp *c, int64_t *out)
{
	if (!c->arg || c->arg->kind != EX_NUM) {
		diag_error(&s->diags, c->loc, "sema.probe-arg",
			   "'timer.%s' needs a number", c->name);
		return -1;
	}
	*out = c->arg->u.num;
	return 0;
}

/* The period of timer.UNIT(N) in nanoseconds (hz: 10^9/N), checked. */
static int check_period(struct session *s, const struct pp_comp *u,
			int64_t scale, int64_t n, int64_t *period)
{
	if (scale < 0) {		/* jiffies */
		if (n < 1 || n > MAX_JIFFIES) {
			diag_error(&s->diags, u->loc, "sema.probe-arg",
				   "invalid interval for jiffies timer");
			return -1;
		}
		*period = -n;
		return 0;
	}
	if (scale == 0) {		/* hz */
		if (n <= 0) {
			diag_error(&s->diags, u->loc, "sema.probe-arg",
				   "frequency must be greater than 0");
			return -1;
		}
		if (1000000000 / n < MIN_PERIOD_NS) {
			diag_error(&s->diags, u->loc, "sema.probe-arg",
				   "interval value out of range (%lld, %lld)",
				   MIN_PERIOD_NS, MAX_PERIOD_NS);
			return -1;
		}
		*period = 1000000000 / n;
		return 0;
	}
	{
		int64_t lo = (MIN_PERIOD_NS + scale - 1) / scale;
		int64_t hi = MAX_PERIOD_NS / scale;

		if (n < lo || n > hi) {
			diag_error(&s->diags, u->loc, "sema.probe-arg",
				   "interval value out of range (%lld, %lld)",
				   (long long)lo, (long long)hi);
			return -1;
		}
	}
	*period = n * scale;
	return 0;
}

static int resolve_timer(struct session *s, const struct probe_point *pt,
			 struct derived_probe *dp)
{
	const struct pp_comp *u, *r;
	struct timer_data *td;
	int64_t n, m = 0, scale, period;
	size_t i;

	if (pt->comps.n < 2) {
		diag_error(&s->diags, pt->loc, "sema.probe-mismatch",
			   "probe point 'timer' is incomplete: a unit must follow, as in timer.s(N), timer.ms(N), timer.us(N), timer.ns(N), timer.hz(N) or timer.jiffies(N)");
		return -1;
	}
	u = pt->comps.v[1];
	if (!strcmp(u->name, "profile"))	/* perf.c: a perf cpu-clock */
		return timer_profile_resolve(s, pt, dp);
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(units[i].name, u->name))
			break;
	if (i == sizeof units / sizeof units[0]) {
		diag_error(&s->diags, u->loc, "sema.probe-mismatch",
			   "unknown timer '%s' (expected s, ms, us, ns, hz or jiffies)",
			   u->name);
		return -1;
	}
	scale = units[i].ns;
	if (number_arg(s, u, &n) || check_period(s, u, scale, n, &period))
		return -1;
	if (pt->comps.n > 2) {
		r = pt->comps.v[2];
		if (strcmp(r->name, "randomize") || pt->comps.n > 3 || scale == 0) {
			diag_error(&s->diags, r->loc, "sema.probe-mismatch",
				   "unexpected component '%s' after '%s(%lld)' (only .randomize(N) may follow, and not for hz)",
				   r->name, u->name, (long long)n);
			return -1;
		}
		if (number_arg(s, r, &m))
			return -1;
		if (m < 0 || m > n) {
			diag_error(&s->diags, r->loc, "sema.probe-arg",
				   "randomization value out of range");
			return -1;
		}
	}
	td = ARENA_NEW(s->arena, struct timer_data);
	td->period_ns = period;
	td->rand_ns = scale > 0 ? m * scale : -m;	/* jiffies: < 0 */
	dp->data = td;
	return 1;
}

static void emit_timer(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	int i;

	emit_line(e, "#include \"probes/timer.c\"");
	emit_line(e, "static struct stp_timer stp_timers[] = {");
	VEC_EACH(*probes, i, dp) {
		struct timer_data *td = dp->data;
		emit_line(e, "\t{ .probe = &stp_probes[%d], .period_ns = %lldLL, .rand_ns = %lldLL },",
				  dp->index, (long long)td->period_ns,
				  (long long)td->rand_ns);
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_timer, "_stp_timers",
				     "stp_timers", probes->n);
}

static const char *const timer_patterns[] = {
	"timer.hz(number)", "timer.jiffies(number)",
	"timer.jiffies(number).randomize(number)",
	"timer.ms(number)", "timer.ms(number).randomize(number)",
	"timer.msec(number)", "timer.msec(number).randomize(number)",
	"timer.ns(number)", "timer.ns(number).randomize(number)",
	"timer.nsec(number)", "timer.nsec(number).randomize(number)",
	"timer.s(number)", "timer.s(number).randomize(number)",
	"timer.sec(number)", "timer.sec(number).randomize(number)",
	"timer.us(number)", "timer.us(number).randomize(number)",
	"timer.usec(number)", "timer.usec(number).randomize(number)",
	NULL,
};

/* timer.profile is a probe alias (tapsets/linux/perf.stp), listed among
 * the family's shapes as stap 4.8 lists it; the family's own
 * timer.profile.tick, which that alias probes, is not the alias with a
 * suffix. */
static const char *const timer_shapes[] = { "timer.profile", NULL };
static const char *const timer_below_aliases[] = { "timer.profile.tick", NULL };

/* stap runs timer.jiffies on the kernel's timer wheel, the others on
 * hrtimers (here all are hrtimers; probe_type() names stap's). */
static const char *type_timer(const struct derived_probe *dp)
{
	return ((const struct timer_data *)dp->data)->period_ns < 0 ? "timer" : "hrtimer";
}

const struct probe_family family_timer = {
	.probe_type = type_timer,
	.name = "timer", .resolve = resolve_timer, .emit = emit_timer,
	.kind = "timer", .patterns = timer_patterns, .shapes = timer_shapes,
	.below_aliases = timer_below_aliases,
};
