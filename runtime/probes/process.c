/* probes/process.c - process.begin/.end/.thread.begin/.thread.end and
 * process.syscall/.syscall.return, optionally of process("PATH") or
 * process(PID).
 *
 * The task finder (task_finder.c) follows the target tasks and reports
 * their events in their own context; each probe runs on the events of its
 * kind in the tasks matching its target.  A system call's number and
 * arguments (or return value) are the handler's c->args: $syscall is
 * args[0], $argN args[N], $return args[1].
 */
#include "task_finder.c"

struct stp_process {
	struct stp_probe *probe;
	int target;			/* index in the targets */
	enum stp_tf_event ev;
};

static struct stp_process *_stp_process_probes;
static int _stp_process_n;

static void _stp_process_event(enum stp_tf_event ev, u64 mask,
			       const u64 *args)
{
	int i;

	for (i = 0; i < _stp_process_n; i++) {
		struct stp_process *p = &_stp_process_probes[i];
		if (p->ev == ev && (mask & (1ULL << p->target)))
			_stp_hit(p->probe, NULL, args, NULL);
	}
}

static int _stp_process_start(struct stp_tf_client *cl,
			      struct stp_process *probes, int n)
{
	int i;

	_stp_process_probes = probes;
	_stp_process_n = n;
	cl->event = _stp_process_event;
	for (i = 0; i < n; i++)
		if (probes[i].ev == STP_TF_SYSCALL ||
		    probes[i].ev == STP_TF_SYSCALL_RETURN)
			cl->syscalls = 1;
	return _stp_tf_start(cl);
}

static void _stp_process_stop(void)
{
	_stp_tf_stop();
}
