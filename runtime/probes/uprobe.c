/* probes/uprobe.c - process(...).function and .mark probes: uprobes.
 *
 * Each record is one probed site of one file: a uprobe (uretprobe for a
 * .return) registered on the file's inode at the site's file offset, so
 * it is armed in every process that maps the file, running now or
 * started later.  A marker's semaphore is given to the kernel by its file
 * offset (uprobe_register_refctr), which counts it up in every mapping
 * while the probe is registered: the program's *_ENABLED() is true only
 * while the script listens.  With -c or -x, only the target's process
 * tree runs the handlers (task_target.h), and a process outside it loses
 * the breakpoint at its first hit, or never gets it; at
 * --privilege=stapusr, only the user's own processes run them.  The handler's context args are the site's
 * index among its probe's sites, its link-time address and the load bias
 * of the mapping it runs in ($argN of a marker and DWARF variables read
 * the registers, or memory relocated by that bias).
 */
#include <linux/dcache.h>
#include <linux/namei.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#define STP_COMPAT_MM
#include "stp_compat.h"
#include "task_target.h"

struct stp_uprobe {
	struct stp_probe *probe;
	const char *path;	/* the file probed */
	const char *proc;	/* the program (the same, or the one that
				   maps the library) */
	loff_t offset, sem_offset;
	int is_return;
	int optional;
	u64 site[3];		/* index, link-time address, the bias
				   slot: a uprobe's c->args */
	struct inode *inode;	/* held while registered */
	_stp_uprobe_handle handle;
	struct uprobe_consumer uc;
	int registered;
};

/* The handler's c->args: the site's index, its link-time address and
 * the load bias.  At a uprobe the bias is ip (the probed instruction,
 * where the kernel points it for the handlers) less the link-time
 * address, worked out only when read: the record's own site[] is the
 * handler's args, its bias slot _STP_UPROBE_BIAS_REGS, and a hit copies
 * nothing.  A uretprobe's bias is where the function it watches runs
 * (its FUNC) less the site, passed in a copy. */
#define _STP_UPROBE_BIAS_REGS (~0ULL)

/* With -c or -x, is T's memory one no handler will ever run in: T is
 * outside target()'s tree (for good: a task only leaves it, orphaned)
 * and no other process shares its memory (vfork, CLONE_VM: another may
 * be in the tree)?  A spare reference to the memory (a /proc reader's)
 * only defers the answer. */
static int _stp_uprobe_mm_unwanted(struct task_struct *t)
{
	return _stp_target && t->mm &&
	       atomic_read(&t->mm->mm_users) <= get_nr_threads(t) &&
	       !_stp_task_targeted(t);
}

/* The kernel asks whether the probe is wanted in MM: when it arms the
 * probe in a mapping (at registration, or when a process maps the file:
 * exec, dlopen), and (6.11 on) to confirm a handler's removal.  Only the
 * current task's own memory can be judged: a process outside target()'s
 * tree that runs the file later never gets the breakpoint. */
static bool _stp_uprobe_filter(_STP_UPROBE_FILTER_ARGS)
{
	return mm != current->mm || !_stp_uprobe_mm_unwanted(current);
}

/* At --privilege=stapusr, a hit in another user's process (within
 * target()'s tree) runs no handler and is the handler's error, stap 4.8's
 * message, which ends the script (MAXERRORS): stap arms the probe in every
 * process that maps the file once one of the user's own does. */
static void _stp_uprobe_not_mine(const struct stp_uprobe *u)
{
	char msg[MAXSTRINGLEN];

	if (!_stp_task_targeted(current))
		return;
	snprintf(msg, sizeof msg, "Internal Error: Process %d does not belong to user %d in probe %s in --unprivileged mode",
		 current->tgid,
		 from_kuid_munged(_stp_owner_userns(), _stp_owner.euid),
		 u->probe->pp);
	_stp_probe_refused(msg);
}

/* A hit in a process outside target()'s tree runs nothing and asks the
 * kernel to take the breakpoint out of that process's memory
 * (UPROBE_HANDLER_REMOVE, as stap 4.8): it stops paying a trap per call.
 * The kernel removes it only when every consumer of the site agrees. */
static notrace int _stp_uprobe_hit(struct uprobe_consumer *uc, struct pt_regs *regs
			   _STP_UPROBE_DATA_ARG)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);

	if (likely(_stp_task_probed(current))) {
		_stp_hit(u->probe, regs, u->site, NULL);
		return 0;
	}
	_stp_uprobe_not_mine(u);
	return _stp_uprobe_mm_unwanted(current) ? UPROBE_HANDLER_REMOVE : 0;
}

static notrace int _stp_uretprobe_hit(struct uprobe_consumer *uc, unsigned long func,
			      struct pt_regs *regs _STP_UPROBE_DATA_ARG)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);
	u64 args[3] = { u->site[0], u->site[1], func - u->site[1] };

	if (_stp_task_probed(current))
		_stp_hit(u->probe, regs, args, NULL);
	else
		_stp_uprobe_not_mine(u);
	return 0;
}

/* The load bias of the file at the probe's site: where it runs minus its
 * link-time address. */
static __maybe_unused u64 _stp_sdt_bias(struct context *c)
{
	if (!c->args)
		return 0;
	if (c->args[2] == _STP_UPROBE_BIAS_REGS)
		return c->regs ? instruction_pointer(c->regs) - c->args[1] : 0;
	return c->args[2];
}

/* A DWARF static address (dwarf/dw_loc.c's DW_OP_addr) where it runs. */
#define _stp_uaddr(c, a) ((u64)(a) + _stp_sdt_bias(c))

/* A uretprobe's return value (DWARF's $return). */
static __maybe_unused u64 _stp_uprobe_retval(struct context *c)
{
	return c->regs ? regs_return_value(c->regs) : 0;
}

/* SIZE bytes of user memory at ADDR, zero-extended; a fault is the
 * handler's error. */
static __maybe_unused u64 _stp_sdt_uread(struct context *c, u64 addr, int size)
{
	u64 v = 0;

	if (unlikely(_stp_read_user(&v, (unsigned long)addr, size))) {
		_stp_kread_fault(c, addr, NULL);
		return 0;
	}
	return v;
}

/* The inode of PATH, held (the real one under an overlay), or NULL. */
static struct inode *_stp_uprobe_inode(const char *path)
{
	struct inode *inode;
	struct path p;

	if (kern_path(path, LOOKUP_FOLLOW, &p))
		return NULL;
	inode = igrab(d_real_inode(p.dentry));
	path_put(&p);
	return inode;
}

static int _stp_uprobe_arm(struct stp_uprobe *u)
{
	int rc;

	u->inode = _stp_uprobe_inode(u->path);
	if (!u->inode)
		return -ENOENT;
	u->site[2] = _STP_UPROBE_BIAS_REGS;
	memset(&u->uc, 0, sizeof u->uc);
	if (u->is_return)
		u->uc.ret_handler = _stp_uretprobe_hit;
	else
		u->uc.handler = _stp_uprobe_hit;
	if (_stp_target)
		u->uc.filter = _stp_uprobe_filter;
	rc = _stp_uprobe_register(u->inode, u->offset, u->sem_offset, &u->uc,
				  &u->handle);
	if (rc) {
		iput(u->inode);
		u->inode = NULL;
	}
	return rc;
}

static void _stp_uprobe_failed(struct stp_uprobe *u, int rc)
{
	char msg[MAXSTRINGLEN];

	if (u->optional)
		return;
	snprintf(msg, sizeof msg, "probe %s (%s+0x%llx) registration error [man warning::pass5] (rc %d)",
		 u->probe->pp, u->path, (unsigned long long)u->offset, rc);
	_stp_transport_warn(msg);
}

/* Registered first to last: the kernel runs the handlers on one site
 * newest first, so in the reverse of the script's order, as with stap
 * 4.8.  Each registration may take milliseconds, and sleeps. */
static int _stp_uprobes_start(struct stp_uprobe *probes, int n)
{
	int i, rc;

	for (i = 0; i < n; i++) {
		rc = _stp_uprobe_arm(&probes[i]);
		probes[i].registered = rc == 0;
		if (rc)
			_stp_uprobe_failed(&probes[i], rc);
		cond_resched();
	}
	return 0;
}

static void _stp_uprobes_stop(struct stp_uprobe *probes, int n)
{
	struct stp_uprobe *u;
	int i, any = 0;

	for (i = 0; i < n; i++) {
		u = &probes[i];
		if (!u->registered)
			continue;
		_stp_uprobe_unregister_nosync(u->inode, u->offset, &u->uc,
					      u->handle);
		any = 1;
		cond_resched();
	}
	if (any)
		_stp_uprobe_unregister_sync();
	for (i = 0; i < n; i++) {
		u = &probes[i];
		if (!u->registered)
			continue;
		iput(u->inode);
		u->inode = NULL;
		u->registered = 0;
	}
}
