/* uunwind.c - user backtraces: frame after frame by the call frame
 * information of the packed files (ucfi.c's rules), from the user
 * registers of the probed task.
 *
 * Bounded: MAXBACKTRACE frames; the user stack is read without faulting
 * (stp_mem.h), under the mmap lock taken with trylock (usym.c).
 * Unwinding stops at a pc whose file is not packed (stap's warning names
 * it: rerun with -d), at one without frame information, or at a return
 * address of 0.
 */
#ifndef STP_UUNWIND_C
#define STP_UUNWIND_C

#include <linux/sched/task_stack.h>	/* task_stack_page */

#include "usym.c"
#include "ucfi.c"

#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20
#endif

struct _stp_ubt {
	unsigned long pc[MAXBACKTRACE];
	int n;
};

/* The caller's registers from R (one frame up), by the rules for PC of
 * M; 0 on success. */
static int _stp_ustep(const struct _stp_umod *m, u64 pc, u64 *r, u32 *known)
{
	struct _stp_cfa c;
	u64 cfa, v, out[STP_UREGS];
	u32 got = 0;
	int i;

	if (_stp_cfa_at(&c, m, pc) || c.rules.cfa_reg < 0 ||
	    c.rules.cfa_reg >= STP_UREGS || !(*known & (1u << c.rules.cfa_reg)))
		return -1;
	cfa = r[c.rules.cfa_reg] + c.rules.cfa_off;
	for (i = 0; i < STP_UREGS; i++) {
		switch (c.rules.how[i]) {
		case STP_R_SAME:
			out[i] = r[i];
			got |= *known & (1u << i);
			break;
		case STP_R_OFFSET:
			if (_stp_read_user(&v, cfa + c.rules.val[i], sizeof v))
				return -1;
			out[i] = v;
			got |= 1u << i;
			break;
		case STP_R_VAL_OFFSET:
			out[i] = cfa + c.rules.val[i];
			got |= 1u << i;
			break;
		case STP_R_REG:
			if (c.rules.val[i] >= STP_UREGS)
				return -1;
			out[i] = r[c.rules.val[i]];
			got |= *known & (1u << c.rules.val[i]);
			break;
		default:
			out[i] = 0;
		}
	}
	if (!(got & (1u << c.ra_reg)))
		return -1;
	out[16] = out[c.ra_reg];
	out[7] = cfa;		/* the caller's rsp is the CFA */
	memcpy(r, out, sizeof out);
	*known = got | (1u << 7) | (1u << 16);
	return 0;
}

/* The DWARF x86_64 registers of user registers REGS (16: the pc). */
static void _stp_uregs(const struct pt_regs *regs, u64 *r)
{
	r[0] = regs->ax; r[1] = regs->dx; r[2] = regs->cx; r[3] = regs->bx;
	r[4] = regs->si; r[5] = regs->di; r[6] = regs->bp; r[7] = regs->sp;
	r[8] = regs->r8; r[9] = regs->r9; r[10] = regs->r10;
	r[11] = regs->r11; r[12] = regs->r12; r[13] = regs->r13;
	r[14] = regs->r14; r[15] = regs->r15; r[16] = regs->ip;
}

/* The user registers of the probed context: the probe's own when it
 * stopped user code, else those the task entered the kernel with. */
static const struct pt_regs *_stp_user_regs(struct context *c)
{
	if (c->regs && user_mode(c->regs))
		return c->regs;
	if (current->mm && !(current->flags & PF_KTHREAD))
		return task_pt_regs(current);
	return NULL;
}

/* The user frames' pcs into BT, from the probed context's registers or
 * with START's pc, sp and frame pointer in theirs; the path of the file
 * whose missing unwind data stopped it into MISSING ("" if none). */
static void _stp_ubacktrace_pcs(struct context *c, const u64 *start,
				struct _stp_ubt *bt, char *missing, size_t n)
{
	const struct pt_regs *regs = _stp_user_regs(c);
	struct mm_struct *mm;
	struct _stp_uloc loc;
	u64 r[STP_UREGS];
	u32 known = (1u << STP_UREGS) - 1;

	bt->n = 0;
	missing[0] = '\0';
	if (!regs || !regs->ip)
		return;
	_stp_uregs(regs, r);
	if (start) {
		r[16] = start[0];
		r[7] = start[1];
		r[6] = start[2];
	}
	bt->pc[bt->n++] = r[16];
	mm = _stp_umm_lock();
	if (!mm)
		return;
	while (bt->n < MAXBACKTRACE) {
		/* a caller's pc is a return address: look at the call */
		u64 pc = r[16] - (bt->n > 1);

		if (!_stp_uloc_locked(mm, pc, &loc))
			break;
		if (!loc.mod || !loc.mod->ehf) {
			strscpy(missing, loc.path, n);
			break;
		}
		if (!loc.rel || _stp_ustep(loc.mod, loc.rel, r, &known))
			break;
		if (!r[16])
			break;
		bt->pc[bt->n++] = r[16];
	}
	mmap_read_unlock(mm);
}

/* ubacktrace and kin: the frames, and stap's warning when a file's data
 * was missing. */
static __maybe_unused void _stp_ubacktrace(struct context *c,
					   const u64 *start,
					   struct _stp_ubt *bt)
{
	char missing[256], msg[320];

	_stp_ubacktrace_pcs(c, start, bt, missing, sizeof missing);
	if (missing[0]) {
		snprintf(msg, sizeof msg, "Missing unwind data for a module, rerun with 'stap -d %s'", missing);
		_stp_transport_warn(msg);
	}
}

#endif
