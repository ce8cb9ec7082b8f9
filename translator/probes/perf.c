/* probes/perf.c - the perf probe family, and timer.profile on top of it.
 *
 *   perf.type(T).config(C)[.sample(N) | .hz(F)]
 *
 * runs on every CPU each N events (default 1000000) of perf event type T
 * with config C, or F times a second; the tapset aliases perf.hw.*,
 * perf.sw.*, perf.hw_cache.* name the common events.  stap 4.8 shows the
 * probe point with .sample(N) even for .hz(N), and so do we.
 *
 * timer.profile, stap's profiling tick, is a tapset alias (linux/perf.stp):
 * register_timer_hook is gone from modern kernels, so timer.profile.tick
 * (resolved here for the timer family) is an error, as stap reports on
 * them, and the alias takes a perf cpu-clock probe sampling every 1000000
 * ns; a bare timer.profile given to the family (which the alias leaves
 * no way to) would be that probe too.  The runtime is
 * runtime/probes/perf.c.
 */
#include <string.h>

#include "probes/family.h"

struct perf_data {
	int64_t type, config, period;
	int freq;		/* period is a frequency (.hz) */
};

#define PERF_DEFAULT_PERIOD 1000000


static int num_comp(struct session *s, const struct probe_point *pt, int i,
		    const char *name, int64_t *out)
{
	const struct pp_comp *c = pt->comps.v[i < pt->comps.n ? i : pt->comps.n - 1];

	if (i >= pt->comps.n || strcmp(c->name, name))
		return family_mismatch(s, pt, c, arena_printf(s->arena,
				"expected .%s(NUMBER) (perf.type(T).config(C)[.sample(N)|.hz(F)])",
				name));
	if (!c->arg || c->arg->kind != EX_NUM)
		return family_mismatch(s, pt, c, arena_printf(s->arena, "%s needs a number", name));
	*out = c->arg->u.num;
	return 0;
}

static void set_pp(struct session *s, struct derived_probe *dp,
		   const struct perf_data *pd)
{
	dp->pp = arena_printf(s->arena, "perf.type(%lld).config(%lld).sample(%lld)",
			      (long long)pd->type, (long long)pd->config,
			      (long long)pd->period);
}

static int resolve_perf(struct session *s, const struct probe_point *pt,
			struct derived_probe *dp)
{
	struct perf_data *pd = ARENA_NEW(s->arena, struct perf_data);
	const struct pp_comp *c;

	if (num_comp(s, pt, 1, "type", &pd->type) ||
	    num_comp(s, pt, 2, "config", &pd->config))
		return -1;
	pd->period = PERF_DEFAULT_PERIOD;
	if (pt->comps.n > 3) {
		c = pt->comps.v[3];
		if (strcmp(c->name, "sample") && strcmp(c->name, "hz"))
			return family_mismatch(s, pt, c, "only .sample(N) or .hz(F) may follow .config(C)");
		if (num_comp(s, pt, 3, c->name, &pd->period))
			return -1;
		pd->freq = !strcmp(c->name, "hz");
		if (pd->period <= 0) {
			diag_error(&s->diags, c->arg->loc, "sema.probe-arg",
				   "invalid perf sample %s %lld",
				   pd->freq ? "frequency" : "period",
				   (long long)pd->period);
			return -1;
		}
		if (pt->comps.n > 4)
			return family_mismatch(s, pt, pt->comps.v[4],
					"nothing may follow .sample(N) or .hz(F)");
	}
	dp->data = pd;
	set_pp(s, dp, pd);
	dp->list_pp = pp_format(s, (struct vec *)&pt->comps);
	/* -p2 shows the perf point as given to the family (after aliases;
	 * no default .sample), not the aliases it came through */
	dp->user_pp = dp->list_pp;
	return 1;
}

int timer_profile_resolve(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp)
{
	const struct pp_comp *c = pt->comps.v[pt->comps.n > 2 ? 2 : 1];
	const struct ksyms *k = ksyms_kernel(s);
	struct perf_data *pd;

	if (pt->comps.n > 2 && !strcmp(c->name, "tick") && !c->has_arg &&
	    pt->comps.n == 3) {
		if (dp->optional)
			return 0;
		if (k && ksyms_has(k, "register_timer_hook"))
			diag_error(&s->diags, pt->loc, "sema.timer-profile",
				   "timer.profile.tick is not supported on this kernel");
		else
			diag_error(&s->diags, pt->loc, "sema.timer-profile",
				   "profiling timer support (register_timer_hook) not found in kernel!");
		return -1;
	}
	if (pt->comps.n > 2 || c->has_arg)
		return family_mismatch(s, pt, c, "expected timer.profile or timer.profile.tick");
	pd = ARENA_NEW(s->arena, struct perf_data);
	pd->type = 1;		/* PERF_TYPE_SOFTWARE */
	pd->config = 0;		/* PERF_COUNT_SW_CPU_CLOCK */
	pd->period = PERF_DEFAULT_PERIOD;
	dp->family = &family_perf;
	dp->data = pd;
	set_pp(s, dp, pd);
	dp->list_pp = "timer.profile";
	dp->user_pp = dp->pp;	/* -p2 shows only the perf point */
	return 1;
}

static void emit_perf(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	int i;

	emit_line(e, "#include \"probes/perf.c\"");
	emit_line(e, "static struct stp_perf stp_perfs[] = {");
	VEC_EACH(*probes, i, dp) {
		struct perf_data *pd = dp->data;
		emit_line(e, "\t{ .probe = &stp_probes[%d], .type = %lld, .config = %lldULL, .period = %lldULL, .freq = %d },",
			  dp->index, (long long)pd->type, (long long)pd->config,
			  (long long)pd->period, pd->freq);
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_perf, "_stp_perf",
				     "stp_perfs", probes->n);
}

static const char *type_perf(const struct derived_probe *dp)
{
	(void)dp;
	return "perf_event";
}

static const char *const perf_shapes[] = {
	"perf.type(number).config(number)",
	"perf.type(number).config(number).hz(number)",
	"perf.type(number).config(number).sample(number)", NULL,
};

const struct probe_family family_perf = {
	.name = "perf", .resolve = resolve_perf, .emit = emit_perf,
	.kind = "perf", .probe_type = type_perf, .shapes = perf_shapes,
};
