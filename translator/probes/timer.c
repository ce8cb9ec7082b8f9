/* probes/timer.c - the timer probe family.
 *
 * timer.{s,sec,ms,msec,us,usec,ns,nsec}(N), timer.hz(N) and
 * timer.jiffies(N), each with an optional .randomize(M) (same unit, the
 * period varies by up to ±M).  All run on high-resolution timers in the
 * runtime (runtime/probes/timer.c), on the CPU that armed them.
 */
#include <string.h>

#include "../emit.h"

int timer_profile_resolve(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp);

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


static int number_arg(struct session *s, const struct pp_comp *c, int64_t *out)
{
	if (!c->arg || c->arg->kind != EX_NUM || c->arg->u.num <= 0) {
		diag_error(&s->diags, c->loc, "sema.probe-arg",
			   "'%s' needs a positive number", c->name);
		return -1;
	}
	*out = c->arg->u.num;
	return 0;
}

static int resolve_timer(struct session *s, const struct probe_point *pt,
			 struct derived_probe *dp)
{
	const struct pp_comp *u, *r;
	struct timer_data *td;
	int64_t n, m = 0, scale;
	size_t i;

	if (pt->comps.n < 2)
		return 0;
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
	if (number_arg(s, u, &n))
		return -1;
	if (pt->comps.n > 2) {
		r = pt->comps.v[2];
		if (strcmp(r->name, "randomize") || pt->comps.n > 3) {
			diag_error(&s->diags, r->loc, "sema.probe-mismatch",
				   "unexpected component '%s' after '%s(%lld)' (only .randomize(N) may follow)",
				   r->name, u->name, (long long)n);
			return -1;
		}
		if (number_arg(s, r, &m))
			return -1;
	}
	td = ARENA_NEW(s->arena, struct timer_data);
	scale = units[i].ns;
	if (scale == 0) {		/* hz */
		td->period_ns = 1000000000 / n;
		td->rand_ns = m ? 1000000000 / m : 0;
	} else if (scale < 0) {		/* jiffies: negative, converted
					   by the runtime */
		td->period_ns = -n;
		td->rand_ns = -m;
	} else {
		td->period_ns = n * scale;
		td->rand_ns = m * scale;
	}
	if (td->rand_ns > 0 && td->rand_ns >= td->period_ns && scale > 0) {
		diag_error(&s->diags, pt->loc, "sema.probe-arg",
			   "randomization (%lld) must be less than the period (%lld)",
			   (long long)m, (long long)n);
		return -1;
	}
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
	emit_line(e, "static int stp_timer_start(void)");
	emit_line(e, "{ return _stp_timers_start(stp_timers, %d); }", probes->n);
	emit_line(e, "static void stp_timer_stop(void)");
	emit_line(e, "{ _stp_timers_stop(stp_timers, %d); }\n", probes->n);
}

const struct probe_family family_timer = {
	.name = "timer", .resolve = resolve_timer, .emit = emit_timer,
	.kind = "timer",
};
