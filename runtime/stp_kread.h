/* stp_kread.h - target variables' reads, as a handler sees them: the
 * bytes at an address the probed code handed over (or the script made up)
 * through stp_mem.h's fault-safe reads, a bad address becoming stap's
 * read-fault error on the handler's context.
 *
 * Generated code (translator/emit/target.c) and stp_pretty.h call these;
 * they need the context (stp_context.h) and _stp_error_at (stp_error.h),
 * which is why they are not in stp_mem.h: that header serves the module's
 * own file operations too (module.c, transport/ring.c), which have no
 * context.
 */
#ifndef STP_KREAD_H
#define STP_KREAD_H

#include "stp_mem.h"
#include "stp_owner.h"

/* A read the script asks for (target variables, @cast, %m): at stapusr,
 * as stap's unprivileged mode, only of user memory and only in the
 * user's own process (stp_owner.h); else -EFAULT, the read-fault error. */
static inline __maybe_unused long
_stp_script_read(void *dst, unsigned long addr, size_t size, int user)
{
	if (STP_PRIVILEGE_STAPUSR_ONLY &&
	    (addr + size < addr || addr + size > TASK_SIZE ||
	     !_stp_task_mine(current)))
		return -EFAULT;
	return _stp_read_mem(dst, addr, size, user);
}

/* Kernel link-time address A where the kernel runs: KASLR moves it by
 * the distance sprint_symbol moved from ANCHOR, its link-time address
 * (<linux/kallsyms.h>, which stp_dwarf.h includes for the units that use
 * this: a script's unit without DWARF variables does without it). */
#define _stp_kaddr_at(a, anchor) \
	((u64)(a) + ((u64)(unsigned long)&sprint_symbol - (u64)(anchor)))

/* Report a read fault at ADDR as stap does. */
static __maybe_unused void _stp_kread_fault(struct context *c, u64 addr,
					    const char *where)
{
	snprintf(c->error_buffer, sizeof c->error_buffer,
		 "read fault [man error::fault] at 0x%llx",
		 (unsigned long long)addr);
	_stp_error_at(c, c->error_buffer, where);
}

/* SIZE (1..8) bytes at ADDR (in the process's memory when c->tv_user),
 * zero-extended; on a fault, an error in C (checked by the caller through
 * c->last_error) and 0. */
static __maybe_unused u64 _stp_kread(struct context *c, u64 addr, int size,
				     const char *where)
{
	u64 v = 0;

	if (unlikely(_stp_script_read(&v, (unsigned long)addr, size, c->tv_user))) {
		_stp_kread_fault(c, addr, where);
		return 0;
	}
	return v;	/* little-endian: the low SIZE bytes */
}

/* $comm$: the char array of N bytes at ADDR as a quoted C string (to its
 * first NUL), with escapes for quotes, backslashes and non-printable
 * bytes, into OUT (MAXSTRINGLEN). */
static __maybe_unused void _stp_kread_quoted(struct context *c, char *out,
					     u64 addr, int n, const char *where)
{
	char buf[MAXSTRINGLEN];
	size_t o = 0;
	int i;

	if (n > (int)sizeof buf)
		n = sizeof buf;
	if (unlikely(_stp_script_read(buf, (unsigned long)addr, n, c->tv_user))) {
		_stp_kread_fault(c, addr, where);
		out[0] = '\0';
		return;
	}
	out[o++] = '"';
	for (i = 0; i < n && buf[i] && o < MAXSTRINGLEN - 6; i++) {
		unsigned char ch = buf[i];
		if (ch == '"' || ch == '\\') {
			out[o++] = '\\';
			out[o++] = ch;
		} else if (ch == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (ch == '\t') {
			out[o++] = '\\';
			out[o++] = 't';
		} else if (ch < 32 || ch >= 127) {
			o += snprintf(out + o, MAXSTRINGLEN - o, "\\%03o", ch);
		} else {
			out[o++] = ch;
		}
	}
	out[o++] = '"';
	out[o] = '\0';
}

/* Bits OFF..OFF+N-1 of a target variable's bytes V, sign-extended when
 * SIGNED_. */
static inline int64_t _stp_bitfield(u64 v, int off, int n, int signed_)
{
	v >>= off;
	if (n < 64)
		v &= (1ULL << n) - 1;
	if (signed_ && n < 64 && (v >> (n - 1)) & 1)
		v |= ~0ULL << n;
	return (int64_t)v;
}

#endif
