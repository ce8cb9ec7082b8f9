/* regs_print.h - print_regs(): the probed registers in the layout stap
 * 4.8 prints them on x86_64 (the kernel's own oops layout, minus code
 * bytes), then the control registers and segment bases of this CPU.
 */
#ifndef STP_REGS_PRINT_H
#define STP_REGS_PRINT_H

#include <asm/msr.h>
#include <asm/special_insns.h>

/* One formatted line (or two) into the probe's output. */
static __printf(2, 3) void _stp_regs_line(struct context *c, const char *fmt, ...)
{
	char buf[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	_stp_print_str(c, buf);
}

static __maybe_unused void _stp_print_regs(struct context *c)
{
	struct pt_regs *r = c->regs;
	unsigned long fs, gs, kgs;
	unsigned int fsi, gsi, es, ds;

	if (!r)
		return;
	_stp_rdmsr(MSR_FS_BASE, fs);
	_stp_rdmsr(MSR_GS_BASE, gs);
	_stp_rdmsr(MSR_KERNEL_GS_BASE, kgs);
	asm("movl %%fs,%0" : "=r" (fsi));
	asm("movl %%gs,%0" : "=r" (gsi));
	asm("movl %%es,%0" : "=r" (es));
	asm("movl %%ds,%0" : "=r" (ds));
	_stp_regs_line(c, "RIP: %016lx\nRSP: %016lx  EFLAGS: %08lx\n",
		    r->ip, r->sp, r->flags);
	_stp_regs_line(c, "RAX: %016lx RBX: %016lx RCX: %016lx\n", r->ax, r->bx, r->cx);
	_stp_regs_line(c, "RDX: %016lx RSI: %016lx RDI: %016lx\n", r->dx, r->si, r->di);
	_stp_regs_line(c, "RBP: %016lx R08: %016lx R09: %016lx\n", r->bp, r->r8, r->r9);
	_stp_regs_line(c, "R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	_stp_regs_line(c, "R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	_stp_regs_line(c, "FS:  %016lx(%04x) GS:%016lx(%04x) knlGS:%016lx\n",
		    fs, fsi, gs, gsi, kgs);
	_stp_regs_line(c, "CS:  %04lx DS: %04x ES: %04x CR0: %016lx\n",
		    r->cs & 0xffff, ds, es, read_cr0());
	_stp_regs_line(c, "CR2: %016lx CR3: %016lx CR4: %016lx\n",
		    read_cr2(), __read_cr3(), __read_cr4());
}

#endif
