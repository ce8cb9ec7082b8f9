/* rt_compat.h - the few services the runtime's data structures need, for
 * both homes of that code: the generated kernel module (__KERNEL__) and
 * user space (unit tests, and the translator, which reuses format.c).
 * Maps, stats and formatting include only this header; nothing here may
 * use floating point, and allocation happens only at setup time.
 */
#ifndef STP_RT_COMPAT_H
#define STP_RT_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/math64.h>

/* Whole maps can be megabytes: vmalloc, in process context only. */
#define _stp_rt_zalloc(n) vzalloc(n)
#define _stp_rt_free(p) vfree(p)
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#define _stp_rt_zalloc(n) calloc(1, (n))
#define _stp_rt_free(p) free(p)
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
#endif

/* Longest script string, terminating NUL included (runtime_defines.h). */
#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif

/* Default capacity of an array declared without [N]. */
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048
#endif

/* Unsigned 64-by-32 division with remainder: do_div's job in the kernel,
 * where a plain '/' on u64 needs libgcc helpers on 32-bit targets. */
static inline uint64_t _stp_rt_udivmod(uint64_t n, uint32_t d, uint32_t *rem)
{
#ifdef __KERNEL__
	return div_u64_rem(n, d, rem);
#else
	*rem = (uint32_t)(n % d);
	return n / d;
#endif
}

/* Signed 64-bit division truncating toward zero, as the script's '/'.
 * Division by zero yields 0 and x / -1 yields -x (wrapping for the most
 * negative value): the callers here only need stap's _stp_div64 results
 * with the error ignored. */
static inline int64_t _stp_rt_sdiv64(int64_t x, int64_t y)
{
	if (y == 0)
		return 0;
	if (y == -1)
		return (int64_t)(0 - (uint64_t)x);
#ifdef __KERNEL__
	return div64_s64(x, y);
#else
	return x / y;
#endif
}

/* Shifts of signed values done on the unsigned representation, so that
 * negative samples scale as in stap without undefined behaviour. */
static inline int64_t _stp_rt_shl64(int64_t v, int shift)
{
	return (int64_t)((uint64_t)v << shift);
}

/* Wrapping 64-bit arithmetic (two's complement, as the kernel builds it
 * with -fno-strict-overflow), spelled out so user-space builds agree. */
static inline int64_t _stp_rt_wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t _stp_rt_wsub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t _stp_rt_wmul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* Decimal digits of v into buf (at least 21 bytes, not NUL-terminated);
 * returns their count. Shared by the histogram printer and the formatter. */
static inline int _stp_rt_i64_digits(char *buf, int64_t v)
{
	char tmp[20];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	uint32_t rem;
	int n = 0, len = 0;

	do {
		u = _stp_rt_udivmod(u, 10, &rem);
		tmp[n++] = (char)('0' + rem);
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	return len;
}

#endif /* STP_RT_COMPAT_H */
