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

static int prio_less(const struct derived_probe *x,
		      const struct derived_probe *y)
{
	return x->num_arg < y->num_arg;
}

/* stap 4.8 sorts its begin, end and error probes together by priority
 * alone with C++'s std::sort, which is not stable: with more than 16 of
 * them, probes of one priority run in an order of its partitioning (the
 * reverse of the script's, often).  The functions below do the same steps
 * as GNU libstdc++'s introsort, so that such probes run in stap's order. */
static void swap_dp(struct derived_probe **a, struct derived_probe **b)
{
	struct derived_probe *t = *a;
	*a = *b;
	*b = t;
}

static void sift_down(struct derived_probe **v, long hole, long len,
		      struct derived_probe *val)
{
	long top = hole, child = hole;

	while (child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (prio_less(v[child], v[child - 1]))
			child--;
		v[hole] = v[child];
		hole = child;
	}
	if ((len & 1) == 0 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		v[hole] = v[child - 1];
		hole = child - 1;
	}
	/* push the value back up from the hole */
	long parent = (hole - 1) / 2;
	while (hole > top && prio_less(v[parent], val)) {
		v[hole] = v[parent];
		hole = parent;
		parent = (hole - 1) / 2;
	}
	v[hole] = val;
}

static void heap_sort(struct derived_probe **v, long n)
{
	long i;

	if (n < 2)
		return;
	for (i = (n - 2) / 2; ; i--) {
		sift_down(v, i, n, v[i]);
		if (!i)
			break;
	}
	for (i = n - 1; i > 0; i--) {
		struct derived_probe *val = v[i];
		v[i] = v[0];
		sift_down(v, 0, i, val);
	}
}

static long partition_pivot(struct derived_probe **v, long n)
{
	struct derived_probe **a = v + 1, **b = v + n / 2, **c = v + n - 1;
	long first = 1, last = n;

	if (prio_less(*a, *b)) {
		if (prio_less(*b, *c))
			swap_dp(v, b);
		else if (prio_less(*a, *c))
			swap_dp(v, c);
		else
			swap_dp(v, a);
	} else if (prio_less(*a, *c))
		swap_dp(v, a);
	else if (prio_less(*b, *c))
		swap_dp(v, c);
	else
		swap_dp(v, b);
	for (;;) {
		while (prio_less(v[first], v[0]))
			first++;
		last--;
		while (prio_less(v[0], v[last]))
			last--;
		if (first >= last)
			return first;
		swap_dp(&v[first], &v[last]);
		first++;
	}
}

static void introsort_loop(struct derived_probe **v, long n, int depth)
{
	while (n > 16) {
		long cut;

		if (!depth) {
			heap_sort(v, n);
			return;
		}
		depth--;
		cut = partition_pivot(v, n);
		introsort_loop(v + cut, n - cut, depth);
		n = cut;
	}
}

static void insertion_sort(struct derived_probe **v, long from, long n)
{
	long i, j;

	for (i = from ? from : 1; i < n; i++) {
		struct derived_probe *val = v[i];

		if (!from && prio_less(val, v[0])) {
			memmove(v + 1, v, (size_t)i * sizeof(*v));
			v[0] = val;
			continue;
		}
		for (j = i; prio_less(val, v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = val;
	}
}

static void sort_like_stap(struct derived_probe **v, long n)
{
	int lg = 0;

	if (n < 2)
		return;
	while ((1L << (lg + 1)) <= n)
		lg++;
	introsort_loop(v, n, 2 * lg);
	if (n > 16) {
		insertion_sort(v, 0, 16);
		insertion_sort(v, 16, n);
	} else
		insertion_sort(v, 0, n);
}

/* Emits the probes of one kind of the sorted set; returns how many have a
 * priority of 0 or less (stap's end probe displaying written-only globals
 * runs after those: it is an end probe added after the script's). */
static int emit_set(struct emit *e, const struct vec *sorted, const char *kind)
{
	struct derived_probe *dp;
	int i, upto0 = 0;

	emit_line(e, "static struct stp_probe *const stp_%s_probes[] = {", kind);
	VEC_EACH(*sorted, i, dp) {
		const struct pp_comp *c = dp->comps.v[0];
		if (strcmp(c->name, kind))
			continue;
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
	struct vec sorted = {0};
	struct derived_probe *dp;
	int i, display_at;

	VEC_EACH(*probes, i, dp) {
		const char *name = ((const struct pp_comp *)dp->comps.v[0])->name;
		if (!strcmp(name, "begin") || !strcmp(name, "end") ||
		    !strcmp(name, "error"))
			vec_push(e->s->arena, &sorted, dp);
	}
	sort_like_stap((struct derived_probe **)sorted.v, sorted.n);
	emit_set(e, &sorted, "begin");
	display_at = emit_set(e, &sorted, "end");
	emit_set(e, &sorted, "error");
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
	.no_hit_entry = 1,
};

const struct probe_family family_never = {
	.name = "never", .resolve = resolve_never, .emit = emit_never,
	.kind = "never", .patterns = never_patterns, .probe_type = type_lifecycle,
	.no_hit_entry = 1,
};
