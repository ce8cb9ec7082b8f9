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

#include <linux/kallsyms.h>	/* stp_kread.h's _stp_kaddr_at */
#include "stp_kread.h"

/* x86-64's DWARF register numbers: where each lives in pt_regs (the
 * kernel's stack pointer at the probe is regs->sp on x86-64). */
static const unsigned short _stp_dwarf_regs[] = {
	offsetof(struct pt_regs, ax), offsetof(struct pt_regs, dx),
	offsetof(struct pt_regs, cx), offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, bp), offsetof(struct pt_regs, sp),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
	offsetof(struct pt_regs, ip),	/* 16: the return address column */
};

/* DWARF register N of the probed context, or NULL when the probe has no
 * registers of the code the variable is in (kernel registers, or a user
 * probe's when c->tv_user) or N is none of them. */
static inline unsigned long *_stp_dwarf_slot(struct context *c, int n)
{
	if (!c->regs || !!user_mode(c->regs) != c->tv_user || n < 0 ||
	    n >= (int)ARRAY_SIZE(_stp_dwarf_regs))
		return NULL;
	return (unsigned long *)((char *)c->regs + _stp_dwarf_regs[n]);
}

static __maybe_unused u64 _stp_dwarf_reg(struct context *c, int n)
{
	unsigned long *r = _stp_dwarf_slot(c, n);

	return r ? *r : 0;
}

/* A DWARF value in N pieces (SIZE[k] bytes of V[k] each, its low bytes)
 * gathered into scratch area SLOT of the context: its address, read
 * like a struct in memory. */
static __maybe_unused u64 _stp_dwarf_pieces(struct context *c, unsigned slot,
					    int n, const u8 *size,
					    const u64 *v)
{
	u8 *p = (u8 *)c->dwarf_pieces[slot % ARRAY_SIZE(c->dwarf_pieces)];
	u8 *end = p + sizeof c->dwarf_pieces[0];
	int k;

	for (k = 0; k < n && p + size[k] <= end; p += size[k], k++)
		memcpy(p, &v[k], size[k]);
	return (u64)(unsigned long)c->dwarf_pieces[slot % ARRAY_SIZE(c->dwarf_pieces)];
}

/* Guru writes: DWARF register N of the probed context set to V (the
 * probed code sees it when the probe returns; not sp nor ip). */
static __maybe_unused void _stp_dwarf_set_reg(struct context *c, int n, u64 v)
{
	unsigned long *r = _stp_dwarf_slot(c, n);

	if (r && n != 7 && n != 16)
		*r = v;
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

/* SIZE (1, 2, 4, 8) bytes of V to ADDR (in the process's memory when
 * c->tv_user: little-endian, its low bytes); a fault is stap's
 * write-fault error at WHERE. */
static __maybe_unused void _stp_dwarf_write(struct context *c, u64 addr,
					    int size, u64 v, const char *where)
{
	long rc = c->tv_user ? _stp_write_user((unsigned long)addr, &v, size) :
		  _stp_write_kernel_scalar((unsigned long)addr, v, size);

	if (unlikely(rc)) {
		snprintf(c->error_buffer, sizeof c->error_buffer,
			 "write fault [man error::fault] at 0x%llx",
			 (unsigned long long)addr);
		_stp_error_at(c, c->error_buffer, where);
	}
}

#endif
