/* stp_owner.h - the stapio process that started this session: its pid
 * (stp_pid()), its effective uid (is_myproc(), and the processes a
 * stapusr module may probe) and the pid and user namespaces the ns_*()
 * tapset functions number ids in: stapio's, or with staprun -N PID (stap
 * --target-namespace) those of process PID as the initial pid namespace
 * numbers it.
 *
 * Recorded in stapio's own context when it starts the session, with
 * references on the namespaces; released when the session stops.  When
 * -N's process does not exist, ns_missing is set, and the ns_*()
 * functions fail as stap 4.8's do ("cannot resolve id in namespace").
 */
#ifndef STP_OWNER_H
#define STP_OWNER_H

#include <linux/cred.h>
#include <linux/pid_namespace.h>
#include <linux/user_namespace.h>

struct stp_owner {
	pid_t pid;			/* stapio's tgid, 0 before start */
	kuid_t euid;
	struct pid_namespace *pidns;	/* referenced, or NULL */
	struct user_namespace *userns;	/* referenced, or NULL */
	int ns_missing;			/* -N PID named no process */
};

static struct stp_owner _stp_owner;

/* A module built for --privilege=stapusr (STP_PRIVILEGE has neither
 * stapsys's 0x4 nor stapdev's 0x8 bit) sees only the processes whose
 * effective uid is its user's (stapio's), as stap's unprivileged mode:
 * another user's process is never probed (task_target.h), and a tapset
 * function that reads the current process (myproc-unprivileged) fails in
 * another's (the check pass 3 puts before its code). */
#if !defined(STP_PRIVILEGE) || (STP_PRIVILEGE & 0xc)
#define STP_PRIVILEGE_STAPUSR_ONLY 0
#else
#define STP_PRIVILEGE_STAPUSR_ONLY 1
#endif

static inline int _stp_task_mine(struct task_struct *t)
{
	return !STP_PRIVILEGE_STAPUSR_ONLY ||
	       uid_eq(task_euid(t), _stp_owner.euid);
}

/* The namespaces of the process the initial namespace numbers NR. */
static void _stp_owner_target_ns(pid_t nr)
{
	struct task_struct *t;

	rcu_read_lock();
	t = pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_PID);
	if (t && task_active_pid_ns(t)) {
		_stp_owner.pidns = get_pid_ns(task_active_pid_ns(t));
		_stp_owner.userns = get_user_ns(__task_cred(t)->user_ns);
	} else {
		_stp_owner.ns_missing = 1;
	}
	rcu_read_unlock();
}

static void _stp_owner_record(void)
{
	_stp_owner.pid = current->tgid;
	_stp_owner.euid = current_euid();
	_stp_owner.ns_missing = 0;
	if (_stp_ns_pid > 0) {
		_stp_owner_target_ns(_stp_ns_pid);
		return;
	}
	_stp_owner.pidns = get_pid_ns(task_active_pid_ns(current));
	_stp_owner.userns = get_user_ns(current_user_ns());
}

/* In an ns_*() function: its error when -N named no process. */
#define STP_OWNER_NS_CHECK() do { if (_stp_owner.ns_missing) \
	STAP_ERROR("cannot resolve id in namespace"); } while (0)

static void _stp_owner_release(void)
{
	if (_stp_owner.pidns)
		put_pid_ns(_stp_owner.pidns);
	if (_stp_owner.userns)
		put_user_ns(_stp_owner.userns);
	_stp_owner.pidns = NULL;
	_stp_owner.userns = NULL;
}

/* The namespaces ids are shown in: stapio's, or the initial ones. */
static __maybe_unused struct pid_namespace *_stp_owner_pidns(void)
{
	return _stp_owner.pidns ? _stp_owner.pidns : &init_pid_ns;
}

static __maybe_unused struct user_namespace *_stp_owner_userns(void)
{
	return _stp_owner.userns ? _stp_owner.userns : &init_user_ns;
}

#endif
