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
	if (unlikely(copy_from_kernel_nofault(buf, (const void *)(uintptr_t)addr, n))) {
		snprintf(c->error_buffer, sizeof c->error_buffer,
			 "read fault [man error::fault] at 0x%llx",
			 (unsigned long long)addr);
		_stp_error_at(c, c->error_buffer, where);
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
