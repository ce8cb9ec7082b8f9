/* probes/lifecycle.c - the begin, end, error and never probe families.
 *
 * begin[(N)] runs when the session starts, end[(N)] when it stops, and
 * error[(N)] instead of end when the session stops after errors; each set
 * in ascending N, then in script order.  never is checked, never run.
 * The runtime runs them (runtime/probes/lifecycle.c).
 */
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

static int resolve_lifecycle(struct session *s, const struct probe_point *pt,
			struct derived_probe *dp)
{
	const struct pp_comp *c = pt->comps.v[0];

	if (pt->comps.n > 1) {
		const struct pp_comp *extra = pt->comps.v[1];
		diag_error(&s->diags, extra->loc, "sema.probe-mismatch",
			   "probe point '%s' has unexpected component '%s'",
			   pp_format(s, (struct vec *)&pt->comps), extra->name);
		return -1;
	}
	if (c->arg && c->arg->kind != EX_NUM) {
		diag_error(&s->diags, c->arg->loc, "sema.probe-arg",
			   "'%s' takes a number (its priority), not a string", c->name);
		return -1;
	}
	dp->num_arg = c->arg ? c->arg->u.num : 0;
	return 1;
}

static int resolve_never(struct session *s, const struct probe_point *pt,
			 struct derived_probe *dp)
{
	if (pt->comps.n > 1 || ((const struct pp_comp *)pt->comps.v[0])->has_arg) {
		diag_error(&s->diags, pt->loc, "sema.probe-mismatch",
			   "'never' takes no argument or component");
		return -1;
	}
	return 1;
}

static int cmp_priority(const void *a, const void *b)
{
	const struct derived_probe *x = *(const struct derived_probe *const *)a;
	const struct derived_probe *y = *(const struct derived_probe *const *)b;

	if (x->num_arg != y->num_arg)
		return x->num_arg < y->num_arg ? -1 : 1;
	return x->index - y->index;
}

/* Emits the sorted set; returns how many of its probes have a priority
 * of 0 or less (stap's end probe displaying written-only globals runs
 * after those: it is an end probe added after the script's). */
static int emit_set(struct emit *e, struct vec *probes, const char *kind)
{
	struct vec set = {0};
	struct derived_probe *dp;
	int i, upto0 = 0;

	VEC_EACH(*probes, i, dp) {
		const struct pp_comp *c = dp->comps.v[0];
		if (!strcmp(c->name, kind))
			vec_push(e->s->arena, &set, dp);
	}
	if (set.n)
		qsort(set.v, (size_t)set.n, sizeof(void *), cmp_priority);
	emit_line(e, "static struct stp_probe *const stp_%s_probes[] = {", kind);
	VEC_EACH(set, i, dp) {
		emit_line(e, "\t&stp_probes[%d],", dp->index);
		upto0 += dp->num_arg <= 0;
	}
	emit_line(e, "\tNULL");
	emit_line(e, "};");
	return upto0;
}

static void emit_lifecycle(struct emit *e, struct vec *probes)
{
	emit_line(e, "#include \"probes/lifecycle.c\"");
	int display_at;

	emit_set(e, probes, "begin");
	display_at = emit_set(e, probes, "end");
	emit_set(e, probes, "error");
	family_emit_start_stop(e, &family_lifecycle,
			       "_stp_run_begin_probes(stp_begin_probes)",
			       arena_printf(e->s->arena, "_stp_run_end_probes(stp_end_probes, %d, stp_error_probes)",
					    display_at));
}

static void emit_never(struct emit *e, struct vec *probes)
{
	emit_line(e, "static int stp_never_start(void) { return 0; }");
	emit_line(e, "static void stp_never_stop(void) { }\n");
}

static const char *const lifecycle_patterns[] = {
	"begin", "begin(number)", "end", "end(number)", "error",
	"error(number)", NULL,
};

static const char *const never_patterns[] = { "never", NULL };

static const char *type_lifecycle(const struct derived_probe *dp)
{
	(void)dp;
	return "begin_end";
}

/* "been" names the family's start and stop functions in the generated C
 * (stp_been_start), kept as it was. */
const struct probe_family family_lifecycle = {
	.name = "been", .resolve = resolve_lifecycle, .emit = emit_lifecycle,
	.kind = "begin/end", .patterns = lifecycle_patterns, .probe_type = type_lifecycle,
};

const struct probe_family family_never = {
	.name = "never", .resolve = resolve_never, .emit = emit_never,
	.kind = "never", .patterns = never_patterns, .probe_type = type_lifecycle,
};
