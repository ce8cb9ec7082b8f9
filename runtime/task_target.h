/* task_target.h - whether a task counts under -c CMD or -x PID, and
 * whether a module built for --privilege=stapusr may probe it.
 *
 * stap runs user-space probes only in target() and its descendants when
 * the script has a target: the task finder (task_finder.c) and any
 * family whose handlers see foreign tasks (uprobes) ask here.  A stapusr
 * module probes only its user's processes (stp_owner.h).
 */
#ifndef STP_TASK_TARGET_H
#define STP_TASK_TARGET_H

#include <linux/rcupdate.h>
#include <linux/sched.h>
#include "stp_owner.h"

/* Is T target() or one of its descendants (any task without -c/-x)?  An
 * orphan adopted by init or a subreaper is no longer counted. */
static inline int _stp_task_targeted(struct task_struct *t)
{
	int found = 0;

	if (!_stp_target)
		return 1;
	rcu_read_lock();
	for (; t; t = rcu_dereference(t->real_parent)) {
		found = t->tgid == _stp_target;
		if (found || t->pid <= 1)
			break;
	}
	rcu_read_unlock();
	return found;
}

/* Do the user-space probes run in T: targeted, and the user's own? */
static inline int _stp_task_probed(struct task_struct *t)
{
	return _stp_task_targeted(t) && _stp_task_mine(t);
}

#endif
