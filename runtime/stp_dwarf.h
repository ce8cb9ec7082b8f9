/* stp_dwarf.h - what DWARF target variables read at run time: the probed
 * registers by DWARF number, fault-safe memory, relocated kernel
 * addresses (stp_kread.h's _stp_kaddr_at).
 *
 * The translator (translator/dwarf/dw_loc.c) turns each variable's
 * location at the probe's pc into straight-line C over these.  A DWARF
 * probe's family includes this file from its declarations.
 */
#ifndef STP_DWARF_H
#define STP_DWARF_H

#include <linux/kallsyms.h>
#include "stp_kread.h"

/* x86-64's DWARF register N (0 ax, 1 dx, 2 cx, 3 bx, 4 si, 5 di, 6 bp,
 * 7 sp, 8-15 r8-r15, 16 the return address) of the probed context; 0 when
 * the probe has no kernel registers. */
static __maybe_unused u64 _stp_dwarf_reg(struct context *c, int n)
{
	const struct pt_regs *r = c->regs;

	if (!r || c->user_mode)
		return 0;
	switch (n) {
	case 0: return r->ax;
	case 1: return r->dx;
	case 2: return r->cx;
	case 3: return r->bx;
	case 4: return r->si;
	case 5: return r->di;
	case 6: return r->bp;
	case 7: return kernel_stack_pointer((struct pt_regs *)r);
	case 8: return r->r8;
	case 9: return r->r9;
	case 10: return r->r10;
	case 11: return r->r11;
	case 12: return r->r12;
	case 13: return r->r13;
	case 14: return r->r14;
	case 15: return r->r15;
	case 16: return r->ip;
	}
	return 0;
}

/* SIZE bytes at ADDR, for a location expression's DW_OP_deref; a fault
 * is stap's read-fault error at WHERE (the generated code checks it). */
static __maybe_unused u64 _stp_dwarf_deref(struct context *c, u64 addr,
					   int size, const char *where)
{
	if (c->last_error)	/* an earlier read of this expression */
		return 0;
	return _stp_kread(c, addr, size, where);
}

/* Guru writes: DWARF register N of the probed context set to V (the
 * probed code sees it when the probe returns). */
static __maybe_unused void _stp_dwarf_set_reg(struct context *c, int n, u64 v)
{
	struct pt_regs *r = c->regs;

	if (!r || c->user_mode)
		return;
	switch (n) {
	case 0: r->ax = v; break;
	case 1: r->dx = v; break;
	case 2: r->cx = v; break;
	case 3: r->bx = v; break;
	case 4: r->si = v; break;
	case 5: r->di = v; break;
	case 6: r->bp = v; break;
	case 8: r->r8 = v; break;
	case 9: r->r9 = v; break;
	case 10: r->r10 = v; break;
	case 11: r->r11 = v; break;
	case 12: r->r12 = v; break;
	case 13: r->r13 = v; break;
	case 14: r->r14 = v; break;
	case 15: r->r15 = v; break;
	}
}

/* SIZE (1, 2, 4, 8) bytes of V to ADDR; a fault is stap's write-fault
 * error at WHERE. */
static __maybe_unused void _stp_dwarf_write(struct context *c, u64 addr,
					    int size, u64 v, const char *where)
{
	if (unlikely(_stp_write_kernel_scalar((unsigned long)addr, v, size))) {
		snprintf(c->error_buffer, sizeof c->error_buffer,
			 "write fault [man error::fault] at 0x%llx",
			 (unsigned long long)addr);
		_stp_error_at(c, c->error_buffer, where);
	}
}


#endif
