/* privilege.c - what a script built for --privilege=stapusr or stapsys may
 * use, by stap 4.8's rules and in its words.
 *
 * stapdev (the default) may use anything.  stapsys may use every probe
 * point and every function, but not -g (cmdline.c).  stapusr may use only
 * the probes that cannot see other users' data: begin, end, error, never,
 * the timers (not timer.profile) and the process probes (whose runtime
 * keeps to the user's own processes); and of the tapsets' embedded C only
 * the functions and expressions marked unprivileged or
 * myproc-unprivileged.  A script's own embedded C needs -g, which these
 * levels refuse, so only tapset code is checked here.  Runs on what the
 * probes reach, after binding.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"

struct pcheck {
	struct elab *el;
	const char *level;	/* "stapusr" */
};

/* May stapusr use DP's point?  (The families by their records' names.) */
static int probe_allowed(const struct derived_probe *dp)
{
	static const char *const families[] = {
		"been", "never", "timer", "process", "uprobe",
	};
	const struct pp_comp *second;
	size_t i;

	for (i = 0; i < sizeof families / sizeof families[0]; i++)
		if (!strcmp(dp->family->name, families[i]))
			break;
	if (i == sizeof families / sizeof families[0])
		return 0;
	/* timer.profile is a perf probe in stap: one user only */
	second = dp->comps.n > 1 ? dp->comps.v[1] : NULL;
	return strcmp(families[i], "timer") || !second ||
	       strcmp(second->name, "profile");
}

/* Embedded C marked as safe for unprivileged users. */
static int code_unprivileged(const char *code)
{
	return strstr(code, "/* unprivileged */") ||
	       strstr(code, "/* myproc-unprivileged */");
}

static int check_exp(struct walker *w, struct exp *e)
{
	struct pcheck *pc = w->arg;

	if (e->kind == EX_EMBEDDED && !code_unprivileged(e->u.str.s))
		diag_error(&pc->el->s->diags, e->loc, "sema.privilege-embedded",
			   "embedded expression may not be used when --privilege=%s is specified",
			   pc->level);
	return 0;
}

static void check_probe(struct pcheck *pc, struct derived_probe *dp)
{
	struct loc loc = dp->loc;

	if (dp->comps.n) {
		const struct pp_comp *last = dp->comps.v[dp->comps.n - 1];

		if (last->loc.line)
			loc = last->loc;
	}
	if (!probe_allowed(dp))
		diag_error(&pc->el->s->diags, loc, "sema.privilege-probe",
			   "probe point is not allowed for --privilege=%s",
			   pc->level);
}

static void check_func(struct pcheck *pc, struct walker *w, struct func *f)
{
	if (f->body && f->body->kind == ST_EMBEDDED) {
		if (!f->unprivileged && !f->myproc_unprivileged)
			diag_error(&pc->el->s->diags, f->loc, "sema.privilege-function",
				   "function may not be used when --privilege=%s is specified",
				   pc->level);
		return;
	}
	walk_stmt(w, f->body);
}

void elab_check_privilege(struct elab *el)
{
	struct pcheck pc = { el, privilege_name(STP_PRIV_STAPUSR) };
	struct walker w = { .exp = check_exp, .arg = &pc };
	struct derived_probe *dp;
	struct func *f;
	int i;

	if (session_privilege(el->s) != STP_PRIV_STAPUSR)
		return;
	VEC_EACH(el->prog->probes, i, dp) {
		check_probe(&pc, dp);
		walk_stmt(&w, dp->body);
	}
	VEC_EACH(el->prog->funcs, i, f)
		check_func(&pc, &w, f);
}
