/* stp_string.h - bounded string and arithmetic helpers for generated code.
 *
 * Script strings are char[MAXSTRINGLEN] buffers; every copy truncates at
 * that bound and always terminates.  Division helpers avoid the one case
 * the CPU traps on (INT64_MIN / -1); the caller has checked for zero.
 */
#ifndef STP_STRING_H
#define STP_STRING_H

static inline size_t _stp_strlcpy(char *dst, const char *src, size_t size)
{
	unsigned long d = (unsigned long)dst, s = (unsigned long)src;
	size_t n;

	if (unlikely(d >= s && d < s + size)) {	/* the same buffer, or
						   src just below dst */
		n = strnlen(src, size - 1);
		if (dst != src) {
			memmove(dst, src, n);
			dst[n] = '\0';
		}
		return n;
	}
	/* One pass: script strings are mostly short, where a scan for the
	 * length and then a copy cost twice the calls. */
	for (n = 0; n < size - 1 && src[n]; n++)
		dst[n] = src[n];
	dst[n] = '\0';
	return n;
}

/* A task's comm (NUL-terminated within its TASK_COMM_LEN bytes) as a
 * script string: two word moves instead of a byte loop. */
static inline void _stp_strcpy_comm(char *dst, const char *comm)
{
	if (MAXSTRINGLEN >= TASK_COMM_LEN) {	/* an enum: not for #if */
		memcpy(dst, comm, TASK_COMM_LEN);
		dst[TASK_COMM_LEN - 1] = '\0';
	} else {
		_stp_strlcpy(dst, comm, MAXSTRINGLEN);
	}
}

/* dst = src, where src may be dst itself or point into it. */
static inline void _stp_strassign(char *dst, const char *src)
{
	_stp_strlcpy(dst, src, MAXSTRINGLEN);
}

static inline size_t _stp_strlcat(char *dst, const char *src, size_t size)
{
	size_t d = strnlen(dst, size - 1), n;

	if (d >= size - 1)
		return d;
	n = strnlen(src, size - 1 - d);
	memmove(dst + d, src, n);
	dst[d + n] = '\0';
	return d + n;
}

/* Decimal text of V into BUF (at least 21 bytes); returns its length. */
static inline int _stp_ltoa(char *buf, int64_t v)
{
	char tmp[24];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	int n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

static inline void _stp_strcat_long(char *dst, int64_t v)
{
	char buf[24];

	_stp_ltoa(buf, v);
	_stp_strlcat(dst, buf, MAXSTRINGLEN);
}

static inline int64_t _stp_div64(int64_t a, int64_t b)
{
	if (b == -1)
		return (int64_t)(0 - (uint64_t)a);
	return a / b;
}

static inline int64_t _stp_mod64(int64_t a, int64_t b)
{
	if (b == -1)
		return 0;
	return a % b;
}

#endif
