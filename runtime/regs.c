/* regs.c - the probed registers (x86_64), for register(), int_arg() & co.
 *
 * Included by the tapset files that read registers.  Names follow stap:
 * rax…r15 and their short forms (ax, bx, …, ip, sp, flags), the 32-bit
 * halves (eax, …, eip, esp, eflags), orig_ax, cs, ss.  Function arguments
 * of the kernel's calling convention are in di, si, dx, cx, r8, r9, then
 * on the stack above the return address.
 */
#ifndef STP_REGS_C
#define STP_REGS_C

#include <asm/ptrace.h>
#include "stp_mem.h"

struct _stp_reg_name {
	const char *name;
	unsigned short off;
	unsigned char is32;
};

#define R64(n, f) { n, offsetof(struct pt_regs, f), 0 }
#define R32(n, f) { n, offsetof(struct pt_regs, f), 1 }
static const struct _stp_reg_name _stp_reg_names[] = {
	R64("rax", ax), R64("ax", ax), R32("eax", ax),
	R64("rbx", bx), R64("bx", bx), R32("ebx", bx),
	R64("rcx", cx), R64("cx", cx), R32("ecx", cx),
	R64("rdx", dx), R64("dx", dx), R32("edx", dx),
	R64("rsi", si), R64("si", si), R32("esi", si),
	R64("rdi", di), R64("di", di), R32("edi", di),
	R64("rbp", bp), R64("bp", bp), R32("ebp", bp),
	R64("rsp", sp), R64("sp", sp), R32("esp", sp),
	R64("rip", ip), R64("ip", ip), R32("eip", ip),
	R64("r8", r8), R64("r9", r9), R64("r10", r10), R64("r11", r11),
	R64("r12", r12), R64("r13", r13), R64("r14", r14), R64("r15", r15),
	R64("orig_rax", orig_ax), R64("orig_ax", orig_ax),
	R64("rflags", flags), R64("flags", flags), R32("eflags", flags),
	R64("cs", cs), R64("ss", ss),
};
#undef R64
#undef R32

/* The value of register NAME, sign- or zero-extended from 32 bits for
 * the 32-bit names.  Returns 0, or -1 with the error set in C. */
static __maybe_unused int _stp_register(struct context *c, const char *name, int is_signed,
			 int64_t *out)
{
	unsigned long v;
	size_t i;

	if (!c->regs) {
		_stp_error_msg(c, "cannot access CPU registers in this context");
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_reg_names); i++) {
		if (strcmp(_stp_reg_names[i].name, name))
			continue;
		v = *(unsigned long *)((char *)c->regs + _stp_reg_names[i].off);
		if (_stp_reg_names[i].is32)
			*out = is_signed ? (int64_t)(s32)v : (int64_t)(u32)v;
		else
			*out = (int64_t)v;
		return 0;
	}
	_stp_error_fmt(c, "Unknown register: %s", name);
	return -1;
}

/* Argument N (1-6) of a syscall, from the user registers U it entered
 * the kernel with (x86_64: di, si, dx, r10, r8, r9); -1 for another N or
 * registers that cannot be read. */
static __maybe_unused int _stp_syscall_reg(const struct pt_regs *u, int64_t n,
					   unsigned long *v)
{
	const unsigned long *f;

	switch (n) {
	case 1: f = &u->di; break;
	case 2: f = &u->si; break;
	case 3: f = &u->dx; break;
	case 4: f = &u->r10; break;
	case 5: f = &u->r8; break;
	case 6: f = &u->r9; break;
	default: return -1;
	}
	return _stp_read_kernel(v, (unsigned long)f, sizeof *v) ? -1 : 0;
}

/* Argument N (from 1) of the probed function, read at its entry. */
static __maybe_unused int _stp_func_arg(struct context *c, int64_t n, int is_signed,
			 int is32, int64_t *out)
{
	struct pt_regs *r = c->regs;
	unsigned long v;

	if (!r) {	/* "near" the call, as stap reports it */
		_stp_error_at(c, "cannot access function args in this context", NULL);
		return -1;
	}
	if (n < 1) {
		snprintf(c->error_buffer, sizeof c->error_buffer,
			 "Invalid argument number: %lld", (long long)n);
		_stp_error_at(c, c->error_buffer, NULL);
		return -1;
	}
	if (c->sregs) {	/* a syscall alias: the syscall's arguments */
		if (n > 6) {
			_stp_error_fmt(c, "cannot access arg(%lld)", (long long)n);
			return -1;
		}
		if (_stp_syscall_reg(c->sregs, n, &v)) {
			_stp_error_fmt(c, "kernel fault at %#lx accessing arg(%lld)",
				       (unsigned long)c->sregs, (long long)n);
			return -1;
		}
		goto got;
	}
	switch (n) {
	case 1: v = r->di; break;
	case 2: v = r->si; break;
	case 3: v = r->dx; break;
	case 4: v = r->cx; break;
	case 5: v = r->r8; break;
	case 6: v = r->r9; break;
	default:
		if (user_mode(r) ||
		    _stp_read_kernel(&v, r->sp + (n - 6) * sizeof v, sizeof v)) {
			_stp_error_fmt(c, "cannot access function argument %lld",
				       (long long)n);
			return -1;
		}
	}
got:
	if (is32)
		*out = is_signed ? (int64_t)(s32)v : (int64_t)(u32)v;
	else
		*out = (int64_t)v;
	return 0;
}

#endif
