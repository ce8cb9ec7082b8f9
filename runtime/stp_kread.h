/* stp_kread.h - fault-safe reads of kernel memory for target variables.
 *
 * $prev->pid and @cast(p, "task_struct")->comm follow pointers the probed
 * code handed over, or the script made up: every read goes through
 * copy_from_kernel_nofault, and a bad address becomes stap's read-fault
 * error on the handler instead of an oops.
 */
#ifndef STP_KREAD_H
#define STP_KREAD_H

#include <linux/uaccess.h>

/* SIZE (1..8) bytes at ADDR, zero-extended; on a fault, an error in C
 * (checked by the caller through c->last_error) and 0. */
static __maybe_unused u64 _stp_kread(struct context *c, u64 addr, int size,
				     const char *where)
{
	u64 v = 0;

	if (unlikely(copy_from_kernel_nofault(&v, (const void *)(uintptr_t)addr,
					      size))) {
		snprintf(c->error_buffer, sizeof c->error_buffer,
			 "read fault [man error::fault] at 0x%llx",
			 (unsigned long long)addr);
		_stp_error_at(c, c->error_buffer, where);
		return 0;
	}
	return v;	/* little-endian: the low SIZE bytes */
}

/* Bits OFF..OFF+N-1 of V, sign-extended when SIGNED_. */
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
