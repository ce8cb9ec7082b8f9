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

/* Decimal text of V into BUF (at least 21 bytes); returns its length.
 * The digits are counted first, then written in place from the end two at
 * a time (one division by 100 a pair; a printf("%d") per hit spent ~100
 * instructions here digit by digit through a scratch copy). */
static inline int _stp_ltoa(char *buf, int64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t p = 10;
	int len = v < 0, n = 1;
	char *end;

	while (n < 20 && u >= p) {	/* u64's largest has 20 digits */
		n++;
		p *= 10;
	}
	if (v < 0)
		buf[0] = '-';
	len += n;
	end = buf + len;
	*end = '\0';
	while (u >= 100) {
		unsigned r = (unsigned)(u % 100);

		u /= 100;
		end -= 2;
		end[0] = pairs[2 * r];
		end[1] = pairs[2 * r + 1];
	}
	if (u >= 10) {
		end[-2] = pairs[2 * u];
		end[-1] = pairs[2 * u + 1];
	} else {
		end[-1] = (char)('0' + u);
	}
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
