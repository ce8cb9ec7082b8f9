/* probes/process.c - the process probes that need no symbols:
 *
 *   process[("PATH") | (PID)].begin | .end | .thread.begin | .thread.end
 *                            | .syscall | .syscall.return
 *
 * A PATH is made canonical as stap does (a bare name is looked up on
 * $PATH; one found nowhere stays as written); a PID must name a running process here.  Without either, every
 * process (under -c/-x: target() and its descendants).  The syscall
 * probes have $syscall and $arg1…$arg6 (entry) or $return.  The runtime
 * (runtime/probes/process.c over runtime/task_finder.c) follows the
 * target tasks.  Other process(…) points (.function, .mark: the uprobes
 * family) are not this family's: resolve returns 0 for them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/family.h"

enum process_ev {	/* runtime/task_finder.c's enum stp_tf_event */
	PEV_BEGIN, PEV_END, PEV_THREAD_BEGIN, PEV_THREAD_END, PEV_SYSCALL,
	PEV_SYSCALL_RETURN,
};

static const char *const ev_names[] = {
	[PEV_BEGIN] = "begin", [PEV_END] = "end",
	[PEV_THREAD_BEGIN] = "thread.begin", [PEV_THREAD_END] = "thread.end",
	[PEV_SYSCALL] = "syscall", [PEV_SYSCALL_RETURN] = "syscall.return",
};
_Static_assert(sizeof ev_names / sizeof ev_names[0] == PEV_SYSCALL_RETURN + 1,
	       "one name per event");

static const char *const ev_runtime[] = {
	[PEV_BEGIN] = "STP_TF_BEGIN", [PEV_END] = "STP_TF_END",
	[PEV_THREAD_BEGIN] = "STP_TF_THREAD_BEGIN",
	[PEV_THREAD_END] = "STP_TF_THREAD_END",
	[PEV_SYSCALL] = "STP_TF_SYSCALL",
	[PEV_SYSCALL_RETURN] = "STP_TF_SYSCALL_RETURN",
};

struct process_data {
	const char *path;	/* canonical, or NULL */
	int64_t pid;		/* or 0 */
	enum process_ev ev;
	int target;		/* pass 3: index in the targets table */
};

/* The event the components after process(…) name; -1: not ours. */
static int event_of(const struct probe_point *pt)
{
	char buf[64] = "";
	int i;

	for (i = 1; i < pt->comps.n; i++) {
		const struct pp_comp *c = pt->comps.v[i];
		if (c->has_arg || strlen(buf) + strlen(c->name) + 2 > sizeof buf)
			return -1;
		if (i > 1)
			strcat(buf, ".");
		strcat(buf, c->name);
	}
	for (i = 0; i <= PEV_SYSCALL_RETURN; i++)
		if (!strcmp(buf, ev_names[i]))
			return i;
	return -1;
}

/* PATH as stap names the executable: canonical when it is found (a bare
 * name on $PATH, else from the current directory), else as written. */
static const char *canonical_path(struct session *s, const struct pp_comp *c)
{
	const char *path = family_str_arg(s, c), *found;

	if (!*path) {
		diag_error(&s->diags, c->arg->loc, "sema.process-path",
			   "empty module");
		return NULL;
	}
	found = fio_which(s, path);
	return found ? found : path;
}

static int check_pid(struct session *s, const struct pp_comp *c, int64_t pid)
{
	const char *why = NULL;

	if (pid <= 0 || pid > INT_MAX)
		why = "Invalid pid";
	else if (kill((pid_t)pid, 0) && errno == ESRCH)
		why = "No such process";
	if (!why)
		return 0;
	diag_error(&s->diags, c->arg->loc, "sema.process-pid",
		   "cannot probe pid %lld: %s", (long long)pid, why);
	return -1;
}

static int resolve_process(struct session *s, const struct probe_point *pt,
			   struct derived_probe *dp)
{
	const struct pp_comp *c = pt->comps.v[0];
	struct process_data *pd;
	int ev = event_of(pt);

	if (ev < 0)
		return 0;
	pd = ARENA_NEW(s->arena, struct process_data);
	pd->ev = ev;
	if (c->arg && c->arg->kind == EX_STR) {
		pd->path = canonical_path(s, c);
		if (!pd->path)
			return -1;
		family_probed_file(s, pd->path);
		dp->pp = arena_printf(s->arena, "process(\"%s\").%s", pd->path,
				      ev_names[ev]);
	} else if (c->arg) {
		pd->pid = c->arg->u.num;
		if (check_pid(s, c, pd->pid))
			return -1;
		dp->pp = arena_printf(s->arena, "process(%lld).%s",
				      (long long)pd->pid, ev_names[ev]);
	} else {
		dp->pp = arena_printf(s->arena, "process.%s", ev_names[ev]);
	}
	dp->data = pd;
	return 1;
}

static struct ctype long_type = {
	.kind = CT_INT, .name = "long", .size = 8, .is_signed = 1,
};

/* Why E is not a variable of a syscall probe, in stap's words. */
static const char *target_why(const struct process_data *pd,
			      const struct exp *e)
{
	const char *name = e->u.target.name;

	if (e->kind == EX_TARGET && !strcmp(name, "return"))
		return "only \"process(PATH_OR_PID).syscall.return\" support $return.";
	if (pd->ev == PEV_SYSCALL_RETURN && (e->kind == EX_TARGET_LIST ||
	    !strncmp(name, "arg", 3)))
		return "only \"process(PATH_OR_PID).syscall\" support $argN or $$parms.";
	return "invalid target symbol for utrace probe, $syscall, $return, $argN or $$parms expected";
}

/* $$parms at a syscall's entry: "$arg1=0x… … $arg6=0x…", as stap 4.8
 * writes it. */
static int parms_process(struct session *s, struct exp *e)
{
	struct tvar *tv = ARENA_NEW(s->arena, struct tvar);
	int i;

	tv->final = TV_PRETTY;
	tv->nparts = 6;
	tv->parts = arena_alloc(s->arena, sizeof(struct tvar *) * 6);
	tv->labels = arena_alloc(s->arena, sizeof(char *) * 6);
	for (i = 0; i < 6; i++) {
		tv->labels[i] = arena_printf(s->arena, "$arg%d", i + 1);
		tv->parts[i] = ARENA_NEW(s->arena, struct tvar);
		tv->parts[i]->base = arena_printf(s->arena, "c->args[%d]", i + 1);
		tv->parts[i]->final = TV_VALUE;
		tv->parts[i]->size = 8;
		tv->parts[i]->is_signed = 1;
	}
	e->u.target.resolved = tv;
	e->type = TY_STRING;
	return 0;
}

/* $syscall, $argN (entry) and $return: slots of c->args. */
static int target_process(struct session *s, struct derived_probe *dp,
			  struct exp *e, int quiet)
{
	const struct process_data *pd = dp->data;
	const char *name = e->u.target.name;
	int slot = -1;

	if (pd->ev != PEV_SYSCALL && pd->ev != PEV_SYSCALL_RETURN) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.process-target",
				   "only \"process(PATH_OR_PID).syscall\" and \"process(PATH_OR_PID).syscall.return\" probes support target symbols");
		return -1;
	}
	if (e->kind == EX_TARGET_LIST && pd->ev == PEV_SYSCALL &&
	    !strcmp(name, "$parms") && !e->u.target.comps.n)
		return parms_process(s, e);
	if (e->kind == EX_TARGET && !strcmp(name, "syscall"))
		slot = 0;
	else if (e->kind == EX_TARGET && pd->ev == PEV_SYSCALL_RETURN &&
		 !strcmp(name, "return"))
		slot = 1;
	else if (e->kind == EX_TARGET && pd->ev == PEV_SYSCALL &&
		 !strncmp(name, "arg", 3) && name[3] >= '1' && name[3] <= '6' &&
		 !name[4])
		slot = name[3] - '0';
	if (slot < 0) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.process-target",
				   "%s", target_why(pd, e));
		return -1;
	}
	e->u.target.resolved = tvar_resolve(s, e, &e->u.target.comps,
		arena_printf(s->arena, "c->args[%d]", slot), &long_type,
		"process syscall variable", arena_printf(s->arena, "$%s", name),
		quiet);
	return e->u.target.resolved ? 0 : -1;
}

/* -L: stap lists the entry's variables for every process probe. */
static void list_process(struct session *s, struct derived_probe *dp,
			 struct strbuf *out)
{
	int i;

	(void)s;
	(void)dp;
	sb_puts(out, " $syscall:long");
	for (i = 1; i <= 6; i++)
		sb_printf(out, " $arg%d:long", i);
}

static int same_target(const struct process_data *a,
		       const struct process_data *b)
{
	return a->pid == b->pid && (a->path == b->path ||
		(a->path && b->path && !strcmp(a->path, b->path)));
}

static void emit_process(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp, *other;
	int i, j, n = 0;

	emit_line(e, "#include \"probes/process.c\"");
	emit_line(e, "static struct stp_tf_target stp_tf_targets[] = {");
	VEC_EACH(*probes, i, dp) {
		struct process_data *pd = dp->data;
		pd->target = -1;
		for (j = 0; j < i && pd->target < 0; j++) {
			other = probes->v[j];
			if (same_target(other->data, pd))
				pd->target = ((struct process_data *)other->data)->target;
		}
		if (pd->target >= 0)
			continue;
		pd->target = n++;
		if (pd->path)
			emit_line(e, "\t{ .path = \"%s\", .pid = %lld },", pd->path,
				  (long long)pd->pid);
		else
			emit_line(e, "\t{ .pid = %lld },", (long long)pd->pid);
	}
	emit_line(e, "};");
	if (n > 64)
		diag_fatal(&e->s->diags, "more than 64 process targets");
	emit_line(e, "static struct stp_tf_client stp_tf_client = { .targets = stp_tf_targets, .ntargets = %d };",
		  n);
	emit_line(e, "static struct stp_process stp_processes[] = {");
	VEC_EACH(*probes, i, dp) {
		const struct process_data *pd = dp->data;
		emit_line(e, "\t{ .probe = &stp_probes[%d], .target = %d, .ev = %s },",
			  dp->index, pd->target, ev_runtime[pd->ev]);
	}
	emit_line(e, "};");
	family_emit_start_stop(e, &family_process,
		arena_printf(e->s->arena, "_stp_process_start(&stp_tf_client, stp_processes, %d)",
			     probes->n),
		"_stp_process_stop()");
}

static const char *const process_patterns[] = {
	"process.begin", "process.end", "process.syscall",
	"process.syscall.return", "process.thread.begin", "process.thread.end",
	"process(number).begin", "process(number).end",
	"process(number).syscall", "process(number).syscall.return",
	"process(number).thread.begin", "process(number).thread.end",
	"process(string).begin", "process(string).end",
	"process(string).syscall", "process(string).syscall.return",
	"process(string).thread.begin", "process(string).thread.end", NULL,
};

static const char *type_process(const struct derived_probe *dp)
{
	(void)dp;
	return "utrace";
}

const struct probe_family family_process = {
	.name = "process", .resolve = resolve_process, .emit = emit_process,
	.kind = "process", .probe_type = type_process,
	.patterns = process_patterns, .target_var = target_process,
	.list_vars = list_process,
};
