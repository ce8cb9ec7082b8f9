/* task_finder.c - the user tasks a script's process probes target, and
 * the events of their lives: begin (found at start, forked, exec'd), end,
 * and their system calls.
 *
 * A target is an executable (by inode, found from its canonical path at
 * start) and/or a pid; under -c/-x only target() and its descendants
 * count.  Tasks that match some target are kept in a table with the mask
 * of the targets they match.  The kernel's tracepoints drive it:
 * sched_process_fork (a new task: begin pending), sched_process_exec (the
 * old image ends, the new one begins, in the task), sched_process_exit
 * (end), sys_enter/sys_exit (system calls; a pending begin is delivered
 * first, so every begin runs in the task's own context).  Tasks found at
 * start are kicked, once the session runs, out of the system call they
 * sleep in by a task work whose function is the kernel's kfree: no module
 * code stays queued on a task, so the module can go whenever it likes.  One client (the family
 * using it) gets the events; task_target.h is the -c/-x filter.
 */
#ifndef STP_TASK_FINDER_C
#define STP_TASK_FINDER_C

#include <linux/hashtable.h>
#include <linux/delay.h>
#include <linux/namei.h>
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include "task_target.h"

#ifndef STP_TF_MAXTASKS
#define STP_TF_MAXTASKS 4096	/* tasks followed at once */
#endif

struct stp_tf_target {
	const char *path;	/* canonical executable path; NULL: any */
	pid_t pid;		/* process(PID); 0: any */
	struct inode *inode;	/* path's, found at start (NULL: absent) */
};

enum stp_tf_event {
	STP_TF_BEGIN, STP_TF_END, STP_TF_THREAD_BEGIN, STP_TF_THREAD_END,
	STP_TF_SYSCALL, STP_TF_SYSCALL_RETURN,
};

struct stp_tf_client {
	struct stp_tf_target *targets;
	int ntargets;		/* at most 64 */
	int syscalls;		/* wants STP_TF_SYSCALL(_RETURN) */
	/* EV in the current task, which matches the targets of MASK; ARGS:
	 * the system call's number, then its arguments or return value */
	void (*event)(enum stp_tf_event ev, u64 mask, const u64 *args);
};

struct stp_tf_task {
	struct hlist_node node;	/* in _stp_tf_tasks */
	struct rcu_head rcu;
	pid_t tid;
	u64 mask;		/* the targets it matches */
	int pending;		/* its begin is still to be delivered */
};

/* The followed tasks: changed under _stp_tf_lock, read under RCU (every
 * system call of every task looks itself up); entries freed after a
 * grace period by kfree_rcu, which leaves no module code behind. */
static struct stp_tf_client *_stp_tf;
static DEFINE_HASHTABLE(_stp_tf_tasks, 8);
static DEFINE_RAW_SPINLOCK(_stp_tf_lock);
static atomic_t _stp_tf_count = ATOMIC_INIT(0);

static struct inode *_stp_tf_exe_inode(struct task_struct *t)
{
	struct inode *inode = NULL;
	struct file *f;

	task_lock(t);
	if (t->mm) {
		rcu_read_lock();
		f = rcu_dereference(t->mm->exe_file);
		if (f)
			inode = file_inode(f);
		rcu_read_unlock();
	}
	task_unlock(t);
	return inode;
}

/* A stapusr module is not the user's to probe T with. */
static void _stp_tf_not_mine(struct task_struct *t)
{
	char msg[96];

	snprintf(msg, sizeof msg, "Process %d does not belong to unprivileged user %d",
		 t->pid, from_kuid_munged(_stp_owner_userns(), _stp_owner.euid));
	_stp_transport_warn(msg);
}

/* The targets T matches (none when it is not the user's, task_target.h). */
static u64 _stp_tf_match(struct task_struct *t)
{
	struct inode *inode = NULL;
	u64 mask = 0;
	int i, have_inode = 0, named = 0;

	if ((t->flags & PF_KTHREAD) || !_stp_task_targeted(t))
		return 0;
	for (i = 0; i < _stp_tf->ntargets; i++) {
		struct stp_tf_target *tg = &_stp_tf->targets[i];
		if (tg->pid && tg->pid != t->tgid)
			continue;
		if (tg->path) {
			if (!have_inode) {
				inode = _stp_tf_exe_inode(t);
				have_inode = 1;
			}
			if (!inode || inode != tg->inode)
				continue;
		} else if (!t->mm) {
			continue;
		}
		mask |= 1ULL << i;
		named |= tg->pid != 0;
	}
	if (mask && !_stp_task_mine(t)) {
		/* stap's warning when a process the script names (by pid,
		 * -c or -x) is another user's */
		if ((named || _stp_target) && t->pid == t->tgid)
			_stp_tf_not_mine(t);
		return 0;
	}
	return mask;
}

/* Under _stp_tf_lock. */
static struct stp_tf_task *_stp_tf_lookup(pid_t tid)
{
	struct stp_tf_task *e;

	hash_for_each_possible(_stp_tf_tasks, e, node, tid)
		if (e->tid == tid)
			return e;
	return NULL;
}

/* Follow task TID (matching MASK); PENDING: its begin is to come. */
static void _stp_tf_add(pid_t tid, u64 mask, int pending)
{
	struct stp_tf_task *e;
	unsigned long flags;

	if (atomic_inc_return(&_stp_tf_count) > STP_TF_MAXTASKS ||
	    !(e = kmalloc(sizeof *e, GFP_ATOMIC))) {
		atomic_dec(&_stp_tf_count);
		return;
	}
	e->tid = tid;
	e->mask = mask;
	e->pending = pending;
	raw_spin_lock_irqsave(&_stp_tf_lock, flags);
	if (!_stp_tf_lookup(tid)) {
		hash_add_rcu(_stp_tf_tasks, &e->node, tid);
		e = NULL;
	}
	raw_spin_unlock_irqrestore(&_stp_tf_lock, flags);
	if (e) {
		atomic_dec(&_stp_tf_count);
		kfree(e);
	}
}

/* E's begin, if still to come and the session runs (begins are
 * delivered once it does): claimed by one caller. */
static int _stp_tf_claim(struct stp_tf_task *e)
{
	return READ_ONCE(e->pending) &&
	       atomic_read(&_stp_script_state) == STP_SESSION_RUNNING &&
	       xchg(&e->pending, 0);
}

/* Stop following task TID: its mask (0: not followed) and whether its
 * begin was still to come (the caller delivers it). */
static u64 _stp_tf_remove(pid_t tid, int *pending)
{
	struct stp_tf_task *e;
	unsigned long flags;
	u64 mask = 0;

	*pending = 0;
	raw_spin_lock_irqsave(&_stp_tf_lock, flags);
	e = _stp_tf_lookup(tid);
	if (e)
		hash_del_rcu(&e->node);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, flags);
	if (!e)
		return 0;
	mask = e->mask;
	*pending = _stp_tf_claim(e);
	atomic_dec(&_stp_tf_count);
	kfree_rcu(e, rcu);
	return mask;
}

/* The current task's mask (0: not followed), claiming its pending begin. */
static u64 _stp_tf_current(int *pending)
{
	struct stp_tf_task *e;
	pid_t tid = current->pid;
	u64 mask = 0;

	*pending = 0;
	rcu_read_lock();
	hash_for_each_possible_rcu(_stp_tf_tasks, e, node, tid)
		if (e->tid == tid) {
			mask = e->mask;
			*pending = _stp_tf_claim(e);
			break;
		}
	rcu_read_unlock();
	return mask;
}

static void _stp_tf_begin(u64 mask)
{
	_stp_tf->event(current->pid == current->tgid ? STP_TF_BEGIN :
		       STP_TF_THREAD_BEGIN, mask, NULL);
}

static void _stp_tf_end(struct task_struct *t, u64 mask)
{
	_stp_tf->event(t->pid == t->tgid ? STP_TF_END : STP_TF_THREAD_END,
		       mask, NULL);
}

static void _stp_tf_fork(void *data, struct task_struct *parent,
			 struct task_struct *child)
{
	u64 mask = _stp_tf_match(child);

	if (mask)
		_stp_tf_add(child->pid, mask, 1);
}

/* Task T leaves (it exits, or its image is replaced): stop following
 * task TID; its end, after its begin if that was still to come. */
static void _stp_tf_leave(struct task_struct *t, pid_t tid)
{
	int pending;
	u64 mask = _stp_tf_remove(tid, &pending);

	if (!mask)
		return;
	if (pending)
		_stp_tf_begin(mask);
	_stp_tf_end(t, mask);
}

static void _stp_tf_exec(void *data, struct task_struct *p, pid_t old_pid,
			 struct linux_binprm *bprm)
{
	u64 mask;

	_stp_tf_leave(p, old_pid);
	mask = _stp_tf_match(p);
	if (mask) {
		_stp_tf_add(p->pid, mask, 0);
		_stp_tf_begin(mask);
	}
}

static void _stp_tf_exit(void *data, struct task_struct *p)
{
	_stp_tf_leave(p, p->pid);
}

/* At a system call of the current task: its pending begin; the targets
 * whose syscall events it has (0: none, or no client wants them). */
static u64 _stp_tf_syscall_mask(void)
{
	int pending;
	u64 mask = _stp_tf_current(&pending);

	if (mask && pending)
		_stp_tf_begin(mask);
	return _stp_tf->syscalls ? mask : 0;
}

static void _stp_tf_sys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[7];
	u64 mask = _stp_tf_syscall_mask();

	if (!mask)
		return;
	args[0] = id;
	syscall_get_arguments(current, regs, &args[1]);
	_stp_tf->event(STP_TF_SYSCALL, mask, (const u64 *)args);
}

static void _stp_tf_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	u64 args[2];
	u64 mask = _stp_tf_syscall_mask();

	if (!mask)
		return;
	args[0] = syscall_get_nr(current, regs);
	args[1] = ret;
	_stp_tf->event(STP_TF_SYSCALL_RETURN, mask, args);
}

static struct stp_tf_tp {
	const char *name;
	void *fn;
	struct tracepoint *tp;
} _stp_tf_tps[] = {
	{ "sched_process_fork", _stp_tf_fork },
	{ "sched_process_exec", _stp_tf_exec },
	{ "sched_process_exit", _stp_tf_exit },
	{ "sys_enter", _stp_tf_sys_enter },
	{ "sys_exit", _stp_tf_sys_exit },
};

static void _stp_tf_find_tp(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tf_tps); i++)
		if (!_stp_tf_tps[i].tp && !strcmp(tp->name, _stp_tf_tps[i].name))
			_stp_tf_tps[i].tp = tp;
}

/* Wake T from the system call it may sleep in, so that its sys_exit
 * delivers its begin: a task work that only frees itself. */
static void _stp_tf_kick(struct task_struct *t)
{
	struct callback_head *cb = kmalloc(sizeof *cb, GFP_ATOMIC);

	if (!cb)
		return;
	init_task_work(cb, (task_work_func_t)kfree);
	if (task_work_add(t, cb, TWA_SIGNAL))
		kfree(cb);
}

/* The tasks already there: each one matching a target begins. */
static void _stp_tf_scan(void)
{
	struct task_struct *g, *t;
	u64 mask;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		mask = _stp_tf_match(t);
		if (mask)
			_stp_tf_add(t->pid, mask, 1);
	}
	rcu_read_unlock();
}

/* Once the session runs (begin probes done), kick the tasks whose begin
 * is still pending. */
static void _stp_tf_kick_pending(struct work_struct *w)
{
	struct stp_tf_task *e;
	struct task_struct *t;
	unsigned long flags;
	int bkt;

	while (atomic_read(&_stp_script_state) == STP_SESSION_STARTING)
		msleep(1);
	if (atomic_read(&_stp_script_state) != STP_SESSION_RUNNING)
		return;
	rcu_read_lock();
	raw_spin_lock_irqsave(&_stp_tf_lock, flags);
	hash_for_each(_stp_tf_tasks, bkt, e, node) {
		if (!READ_ONCE(e->pending))
			continue;
		t = pid_task(find_pid_ns(e->tid, &init_pid_ns), PIDTYPE_PID);
		if (t && t != current)
			_stp_tf_kick(t);
	}
	raw_spin_unlock_irqrestore(&_stp_tf_lock, flags);
	rcu_read_unlock();
}

static DECLARE_WORK(_stp_tf_kick_work, _stp_tf_kick_pending);

static void _stp_tf_stop(void)
{
	struct stp_tf_task *e;
	struct hlist_node *tmp;
	size_t i;
	int j, bkt;

	cancel_work_sync(&_stp_tf_kick_work);
	for (i = 0; i < ARRAY_SIZE(_stp_tf_tps); i++)
		if (_stp_tf_tps[i].tp)
			tracepoint_probe_unregister(_stp_tf_tps[i].tp,
						    _stp_tf_tps[i].fn, NULL);
	tracepoint_synchronize_unregister();
	for (i = 0; i < ARRAY_SIZE(_stp_tf_tps); i++)
		_stp_tf_tps[i].tp = NULL;
	if (_stp_tf)
		for (j = 0; j < _stp_tf->ntargets; j++)
			if (_stp_tf->targets[j].inode) {
				iput(_stp_tf->targets[j].inode);
				_stp_tf->targets[j].inode = NULL;
			}
	hash_for_each_safe(_stp_tf_tasks, bkt, tmp, e, node) {
		hash_del(&e->node);
		kfree(e);
	}
	atomic_set(&_stp_tf_count, 0);
	_stp_tf = NULL;
}

static void _stp_tf_find_inodes(struct stp_tf_client *cl)
{
	struct path path;
	int i;

	for (i = 0; i < cl->ntargets; i++) {
		struct stp_tf_target *tg = &cl->targets[i];
		/* a relative name (found nowhere by the translator) names
		 * no executable */
		if (!tg->path || tg->path[0] != '/' ||
		    kern_path(tg->path, LOOKUP_FOLLOW, &path))
			continue;
		tg->inode = d_real_inode(path.dentry);
		ihold(tg->inode);
		path_put(&path);
	}
}

static int _stp_tf_start(struct stp_tf_client *cl)
{
	size_t i;
	int rc;

	hash_init(_stp_tf_tasks);
	_stp_tf = cl;
	_stp_tf_find_inodes(cl);
	for_each_kernel_tracepoint(_stp_tf_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(_stp_tf_tps); i++) {
		struct stp_tf_tp *t = &_stp_tf_tps[i];
		if (!t->tp) {
			_stp_transport_error("tracepoint not found in the kernel");
			_stp_tf_stop();
			return -ENOENT;
		}
		rc = tracepoint_probe_register(t->tp, t->fn, NULL);
		if (rc) {
			t->tp = NULL;
			_stp_tf_stop();
			return rc;
		}
	}
	_stp_tf_scan();
	schedule_work(&_stp_tf_kick_work);
	return 0;
}

#endif
