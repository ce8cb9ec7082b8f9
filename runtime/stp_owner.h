/* stp_owner.h - the stapio process that started this session: its pid
 * (stp_pid()), its effective uid and user namespace (is_myproc(), the
 * processes a stapusr module may probe, and how messages name that user),
 * and the process whose pid and user namespaces the ns_*() tapset
 * functions number ids in: stapio, or with staprun -N PID (stap
 * --target-namespace) process PID as the initial pid namespace numbers it.
 *
 * Recorded in stapio's own context when it starts the session (stapio's
 * user namespace with a reference, released when the session stops).  As
 * in stap 4.8, the ns_*() functions look that process up at each call and
 * take the namespaces it has then: a process that has exited (or never
 * existed) makes them fail ("cannot resolve id in namespace"), and one
 * that has moved to other namespaces is followed.
 */
#ifndef STP_OWNER_H
#define STP_OWNER_H

#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/user_namespace.h>

struct stp_owner {
	pid_t pid;			/* stapio's tgid, 0 before start */
	kuid_t euid;
	struct user_namespace *userns;	/* stapio's, referenced, or NULL */
	pid_t ns_pid;			/* the ns_*() functions' process: -N's
					   PID, else stapio's tgid */
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

static void _stp_owner_record(void)
{
	_stp_owner.pid = current->tgid;
	_stp_owner.euid = current_euid();
	_stp_owner.userns = get_user_ns(current_user_ns());
	_stp_owner.ns_pid = _stp_ns_pid > 0 ? _stp_ns_pid : current->tgid;
}

/* The process whose namespaces the ns_*() functions number ids in, as it
 * is now; NULL when there is none.  Under rcu_read_lock(), which also
 * keeps its pid namespace and its credentials' user namespace alive. */
static __maybe_unused struct task_struct *_stp_owner_ns_task(void)
{
	return pid_task(find_pid_ns(_stp_owner.ns_pid, &init_pid_ns),
			PIDTYPE_PID);
}

static void _stp_owner_release(void)
{
	if (_stp_owner.userns)
		put_user_ns(_stp_owner.userns);
	_stp_owner.userns = NULL;
}

/* stapio's user namespace, or the initial one before the start. */
static __maybe_unused struct user_namespace *_stp_owner_userns(void)
{
	return _stp_owner.userns ? _stp_owner.userns : &init_user_ns;
}

#endif
