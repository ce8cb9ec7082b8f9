/* probes/kprobe.c - kprobes and kretprobes: the kprobe family
 * (kprobe.function/module/statement) and the DWARF family (kernel.function,
 * kernel.statement, module().function/statement).
 *
 * Each probe is a kprobe or a kretprobe registered by symbol name
 * ("name" or "module:name", plus an offset) or by address: an absolute
 * one, or a kernel link-time address (anchor set: the link-time address
 * of sprint_symbol) relocated by the distance between sprint_symbol's
 * real and link-time addresses (KASLR).  Registration yields the CPU
 * between probes; unregistration takes all the kprobes in one call, then
 * all the kretprobes (one RCU wait each rather than one per probe), as
 * stap 4.8's.  The handler sees the
 * probed registers with the instruction pointer at the probe address (the
 * kernel shows it one byte past, as after an int3), as stap's handlers do;
 * a return probe sees the registers at the return (ax: the value, ip: the
 * return address).  A probe that does not register is reported as stap
 * does and the session goes on without it; probes in modules (which may
 * not be loaded) and optional probes fail silently.
 */
#ifndef STP_PROBES_KPROBE_C
#define STP_PROBES_KPROBE_C

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "stp_compat.h"

struct stp_kprobe {
	struct stp_probe *probe;
	const char *symbol;	/* NULL: by address */
	unsigned int offset;	/* from symbol */
	unsigned long addr;
	unsigned long anchor;	/* nonzero: addr is a kernel link-time
				   address, relocated as sym.c's table */
	int by_address;		/* a DWARF probe: stap's warning names the
				   address */
	int is_return;
	int maxactive;		/* <= 0: the kernel's default */
	int in_module;
	int optional;
	int syscall_regs;	/* *_arg(N) are the syscall's arguments */
	int registered;
	union {
		struct kprobe kp;
		struct kretprobe rp;
	} u;
};

static notrace int _stp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct stp_kprobe *k = container_of(kp, struct stp_kprobe, u.kp);
	unsigned long ip = instruction_pointer(regs);

	instruction_pointer_set(regs, (unsigned long)kp->addr);
	/* a __x64_sys_* wrapper's argument is the syscall's user registers */
	_stp_hit(k->probe, regs, NULL,
		 k->syscall_regs ? (struct pt_regs *)regs->di : NULL);
	instruction_pointer_set(regs, ip);
	return 0;
}

static notrace int _stp_kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);
	unsigned long ip = instruction_pointer(regs);
	struct stp_kprobe *k;

	if (!rp)
		return 0;
	k = container_of(rp, struct stp_kprobe, u.rp);
#ifdef STP_SYM_C	/* backtraces show "Returning from:" the function */
	this_cpu_write(_stp_ret_func, (unsigned long)rp->kp.addr);
#endif
	/* newer kernels set it so themselves; before 5.14, ip is the
	 * kretprobe trampoline's */
	instruction_pointer_set(regs, _stp_kretprobe_retaddr(ri));
	_stp_hit(k->probe, regs, NULL, NULL);
	instruction_pointer_set(regs, ip);
#ifdef STP_SYM_C
	this_cpu_write(_stp_ret_func, 0);
#endif
	return 0;
}

static unsigned long _stp_kprobe_addr(const struct stp_kprobe *k)
{
	if (!k->anchor)
		return k->addr;
	return k->addr + ((unsigned long)&sprint_symbol - k->anchor);
}

static void _stp_kprobe_failed(struct stp_kprobe *k, int rc)
{
	char msg[MAXSTRINGLEN];

	if (k->in_module || k->optional)
		return;
	if (k->symbol)
		snprintf(msg, sizeof msg, "probe %s (%s+%u) registration error [man warning::pass5] (rc %d)",
			 k->probe->pp, k->symbol, k->offset, rc);
	else if (k->by_address)
		snprintf(msg, sizeof msg, "probe %s (address 0x%lx) registration error [man warning::pass5] (rc %d)",
			 k->probe->pp, _stp_kprobe_addr(k), rc);
	else
		snprintf(msg, sizeof msg, "probe %s (0x%lx) registration error [man warning::pass5] (rc %d)",
			 k->probe->pp, k->addr, rc);
	_stp_transport_warn(msg);
}

static int _stp_kprobe_register(struct stp_kprobe *k)
{
	struct kprobe *kp = k->is_return ? &k->u.rp.kp : &k->u.kp;

	memset(&k->u, 0, sizeof k->u);
	if (k->symbol) {
		kp->symbol_name = k->symbol;
		kp->offset = k->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)_stp_kprobe_addr(k);
	}
	if (!k->is_return) {
		kp->pre_handler = _stp_kprobe_pre;
		return register_kprobe(kp);
	}
	k->u.rp.handler = _stp_kretprobe_ret;
	if (k->maxactive > 0)
		k->u.rp.maxactive = k->maxactive;
	return register_kretprobe(&k->u.rp);
}

/* Registered last to first: the kernel runs the handlers on one address
 * newest first, so entry handlers run in the script's order and return
 * handlers in the reverse order, as with stap 4.8. */
static int _stp_kprobes_start(struct stp_kprobe *probes, int n)
{
	int i, rc;

	for (i = n - 1; i >= 0; i--) {
		rc = _stp_kprobe_register(&probes[i]);
		probes[i].registered = rc == 0;
		if (rc)
			_stp_kprobe_failed(&probes[i], rc);
		cond_resched();
	}
	return 0;
}

#define STP_KPROBE_BATCH 64

/* Unregister the registered ones of PROBES[0, N) whose is_return is RET,
 * in batches of up to MAX through ARR (unregister_kprobes and
 * unregister_kretprobes wait for one RCU grace period per call). */
static void _stp_kprobes_unregister(struct stp_kprobe *probes, int n, int ret,
				    void **arr, int max)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		struct stp_kprobe *p = &probes[i];

		if (!p->registered || p->is_return != ret)
			continue;
		arr[k++] = ret ? (void *)&p->u.rp : (void *)&p->u.kp;
		if (k == max) {
			if (ret)
				unregister_kretprobes((struct kretprobe **)arr, k);
			else
				unregister_kprobes((struct kprobe **)arr, k);
			k = 0;
		}
	}
	if (k && ret)
		unregister_kretprobes((struct kretprobe **)arr, k);
	else if (k)
		unregister_kprobes((struct kprobe **)arr, k);
}

/* All the kprobes in one call, then all the kretprobes, as stap 4.8 does
 * (two grace periods, rather than one per batch: under emulation, tens of
 * milliseconds each); in batches if there is no memory for the list. */
static void _stp_kprobes_stop(struct stp_kprobe *probes, int n)
{
	void *batch[STP_KPROBE_BATCH];
	void **all = n > STP_KPROBE_BATCH ?
		kvmalloc_array(n, sizeof(*all), GFP_KERNEL) : NULL;
	int ret, i;

	for (ret = 0; ret <= 1; ret++)
		_stp_kprobes_unregister(probes, n, ret, all ? all : batch,
					all ? n : STP_KPROBE_BATCH);
	for (i = 0; i < n; i++)
		probes[i].registered = 0;
	kvfree(all);
}

#endif
