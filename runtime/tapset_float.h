/* tapset_float.h - IEEE 754 binary64 arithmetic on integers, for the
 * floatingpoint tapset (fp_add, fp_to_string, string_to_fp, ...): a double
 * travels through scripts as the long holding its bit pattern, and the
 * kernel's code may not touch the FPU, so every operation here is done
 * with 64-bit (and 128-bit) integer arithmetic.
 *
 * Results are those of stap 4.8's tapset, which scripts print: arithmetic
 * rounds to nearest, ties to even, as IEEE does; a NaN operand gives the
 * first signaling NaN quieted, else the first NaN; an invalid operation
 * gives 0x7FF8000000000000; the decimal conversions follow stap's own
 * algorithms (naive ones, with their roundings and oddities) step by step.
 * Used by user space too (testsuite/unit/test_float.c).
 */
#ifndef TAPSET_FLOAT_H
#define TAPSET_FLOAT_H

#include "rt_compat.h"

#define _STP_F64_SIGN 0x8000000000000000ULL
#define _STP_F64_QUIET 0x0008000000000000ULL
#define _STP_F64_NAN 0x7FF8000000000000ULL	/* an invalid operation's */
#define _STP_F64_INF 0x7FF0000000000000ULL
#define _STP_F64_FRAC 0x000FFFFFFFFFFFFFULL
#define _STP_F64_HIDDEN 0x0010000000000000ULL
/* A value in the working form is (-1)^sign * m * 2^(e - _STP_F64_BIAS62):
 * m below 2^63 with its leading 1 at bit 62 once normalized, so the 53
 * bits of a double are bits 62..10 and bits 9..0 decide the rounding. */
#define _STP_F64_BIAS62 (1023 + 62)
#define _STP_I64_MAX ((int64_t)(~0ULL >> 1))
#define _STP_I64_MIN (-_STP_I64_MAX - 1)

struct _stp_f64 {
	int sign;
	int e;
	uint64_t m;
};

static inline int _stp_f64_exp(uint64_t a)
{
	return (int)((a >> 52) & 0x7FF);
}

static inline int _stp_f64_isnan(uint64_t a)
{
	return (a & ~_STP_F64_SIGN) > _STP_F64_INF;
}

static inline int _stp_f64_issnan(uint64_t a)
{
	return _stp_f64_isnan(a) && !(a & _STP_F64_QUIET);
}

static inline int _stp_f64_isinf(uint64_t a)
{
	return (a & ~_STP_F64_SIGN) == _STP_F64_INF;
}

static inline int _stp_f64_iszero(uint64_t a)
{
	return !(a & ~_STP_F64_SIGN);
}

/* The result when A or B is a NaN. */
static inline uint64_t _stp_f64_nan2(uint64_t a, uint64_t b)
{
	if (_stp_f64_issnan(a))
		return a | _STP_F64_QUIET;
	if (_stp_f64_issnan(b))
		return b | _STP_F64_QUIET;
	return _stp_f64_isnan(a) ? a : b;
}

/* X shifted right by N, any bit shifted out or-ed into bit 0. */
static inline uint64_t _stp_f64_jam(uint64_t x, int n)
{
	if (n <= 0)
		return x;
	if (n >= 63)
		return x != 0;
	return (x >> n) | ((x & ((1ULL << n) - 1)) != 0);
}

static inline void _stp_f64_norm(struct _stp_f64 *v)
{
	while (v->m && !(v->m & (1ULL << 62))) {
		v->m <<= 1;
		v->e--;
	}
}

/* A finite A in the working form, normalized (m is 0 for a zero). */
static inline struct _stp_f64 _stp_f64_unpack(uint64_t a)
{
	struct _stp_f64 v;
	int ex = _stp_f64_exp(a);

	v.sign = (int)(a >> 63);
	v.m = (a & _STP_F64_FRAC) << 10;
	v.e = ex ? ex : 1;
	if (ex)
		v.m |= _STP_F64_HIDDEN << 10;
	_stp_f64_norm(&v);
	return v;
}

/* V rounded to nearest (ties to even) and packed: overflow gives an
 * infinity, a tiny value a subnormal or zero. */
static inline uint64_t _stp_f64_pack(struct _stp_f64 v)
{
	uint64_t sign = v.sign ? _STP_F64_SIGN : 0, r;
	int e;

	if (!v.m)
		return sign;
	_stp_f64_norm(&v);
	if (v.e < 1) {
		v.m = _stp_f64_jam(v.m, 1 - v.e);
		v.e = 1;
	}
	if (v.e > 0x7FE)
		return sign | _STP_F64_INF;
	r = (v.m + 0x200) >> 10;
	if ((v.m & 0x3FF) == 0x200)
		r &= ~1ULL;
	/* The hidden bit (bit 52 of r) adds the 1 that e - 1 lacks; a
	 * subnormal has none, and a carry out of it raises the exponent. */
	e = v.e - 1 + (int)(r >> 52);
	if (e >= 0x7FF)
		return sign | _STP_F64_INF;
	return sign + ((uint64_t)(v.e - 1) << 52) + r;
}

static inline uint64_t _stp_f64_from_i64(int64_t a)
{
	struct _stp_f64 v;

	v.sign = a < 0;
	v.m = v.sign ? -(uint64_t)a : (uint64_t)a;
	v.e = _STP_F64_BIAS62;
	if (v.m >> 63)		/* -2^63: exact, one bit above the form */
		return _STP_F64_SIGN | ((uint64_t)(1023 + 63) << 52);
	return _stp_f64_pack(v);
}

/* A plus B, when B's sign has been flipped by SUB for a subtraction. */
static inline uint64_t _stp_f64_addsub(uint64_t a, uint64_t b, int sub)
{
	uint64_t bs = sub ? b ^ _STP_F64_SIGN : b;
	struct _stp_f64 x, y, t;

	if (_stp_f64_isnan(a) || _stp_f64_isnan(b))
		return _stp_f64_nan2(a, b);
	if (_stp_f64_isinf(a)) {
		if (_stp_f64_isinf(bs) && (a ^ bs) >> 63)
			return _STP_F64_NAN;
		return a;
	}
	if (_stp_f64_isinf(bs))
		return bs;
	if (_stp_f64_iszero(a) && _stp_f64_iszero(bs))
		return a & bs;	/* -0 only when both are */
	if (_stp_f64_iszero(a))
		return bs;
	if (_stp_f64_iszero(bs))
		return a;
	x = _stp_f64_unpack(a);
	y = _stp_f64_unpack(bs);
	if (y.e > x.e || (y.e == x.e && y.m > x.m)) {
		t = x;
		x = y;
		y = t;
	}
	y.m = _stp_f64_jam(y.m, x.e - y.e);
	if (x.sign == y.sign) {
		x.m += y.m;
		if (x.m >> 63) {
			x.m = _stp_f64_jam(x.m, 1);
			x.e++;
		}
	} else {
		x.m -= y.m;
		if (!x.m)
			return 0;	/* an exact zero difference is +0 */
	}
	return _stp_f64_pack(x);
}

/* The 128-bit product of A and B. */
static inline void _stp_f64_mul128(uint64_t a, uint64_t b, uint64_t *hi,
				   uint64_t *lo)
{
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	*lo = (mid << 32) | (uint32_t)ll;
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static inline uint64_t _stp_f64_mul(uint64_t a, uint64_t b)
{
	uint64_t sign = (a ^ b) & _STP_F64_SIGN, hi, lo;
	struct _stp_f64 x, y;

	if (_stp_f64_isnan(a) || _stp_f64_isnan(b))
		return _stp_f64_nan2(a, b);
	if (_stp_f64_isinf(a) || _stp_f64_isinf(b)) {
		if (_stp_f64_iszero(a) || _stp_f64_iszero(b))
			return _STP_F64_NAN;
		return sign | _STP_F64_INF;
	}
	if (_stp_f64_iszero(a) || _stp_f64_iszero(b))
		return sign;
	x = _stp_f64_unpack(a);
	y = _stp_f64_unpack(b);
	_stp_f64_mul128(x.m, y.m, &hi, &lo);
	/* the product is in [2^124, 2^126): its top 63 or 64 bits */
	x.m = (hi << 2) | (lo >> 62) | ((lo & ((1ULL << 62) - 1)) != 0);
	x.e += y.e - _STP_F64_BIAS62 + 62;
	if (x.m >> 63) {
		x.m = _stp_f64_jam(x.m, 1);
		x.e++;
	}
	x.sign = sign != 0;
	return _stp_f64_pack(x);
}

static inline uint64_t _stp_f64_div(uint64_t a, uint64_t b)
{
	uint64_t sign = (a ^ b) & _STP_F64_SIGN, q = 0, r;
	struct _stp_f64 x, y;
	int i;

	if (_stp_f64_isnan(a) || _stp_f64_isnan(b))
		return _stp_f64_nan2(a, b);
	if (_stp_f64_isinf(a))
		return _stp_f64_isinf(b) ? _STP_F64_NAN : sign | _STP_F64_INF;
	if (_stp_f64_isinf(b))
		return sign;
	if (_stp_f64_iszero(b))
		return _stp_f64_iszero(a) ? _STP_F64_NAN : sign | _STP_F64_INF;
	if (_stp_f64_iszero(a))
		return sign;
	x = _stp_f64_unpack(a);
	y = _stp_f64_unpack(b);
	/* q = floor(x.m * 2^62 / y.m), in [2^61, 2^63) */
	r = x.m;
	for (i = 0; i < 63; i++) {
		q <<= 1;
		if (r >= y.m) {
			r -= y.m;
			q |= 1;
		}
		r <<= 1;
	}
	x.m = q | (r != 0);
	x.e = x.e - y.e + 1023;
	x.sign = sign != 0;
	return _stp_f64_pack(x);
}

static inline uint64_t _stp_f64_sqrt(uint64_t a)
{
	unsigned __int128 rad, res = 0, bit = (unsigned __int128)1 << 126;
	struct _stp_f64 v;
	int scale;

	if (_stp_f64_isnan(a))
		return _stp_f64_nan2(a, 0);
	if (_stp_f64_iszero(a))
		return a;
	if (a >> 63)
		return _STP_F64_NAN;
	if (_stp_f64_isinf(a))
		return a;
	v = _stp_f64_unpack(a);
	/* value = m * 2^scale with scale even, m below 2^64 */
	scale = v.e - _STP_F64_BIAS62;
	if (scale & 1) {
		v.m <<= 1;
		scale--;
	}
	rad = (unsigned __int128)v.m << 62;
	while (bit > rad)
		bit >>= 2;
	while (bit) {
		if (rad >= res + bit) {
			rad -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	v.m = (uint64_t)res | (rad != 0);
	v.e = (scale - 62) / 2 + _STP_F64_BIAS62;
	return _stp_f64_pack(v);
}

/* A's 53-bit integer significand, normalized to bit 52, and its scale. */
static inline uint64_t _stp_f64_intsig(uint64_t a, int *scale)
{
	struct _stp_f64 v = _stp_f64_unpack(a);

	*scale = v.e - _STP_F64_BIAS62 + 10;
	return v.m >> 10;
}

/* IEEE remainder: A - n*B with n the quotient rounded to nearest even. */
static inline uint64_t _stp_f64_rem(uint64_t a, uint64_t b)
{
	uint64_t ma, mb, r, sign = a & _STP_F64_SIGN;
	int ea, eb, d, odd;
	struct _stp_f64 v;

	if (_stp_f64_isnan(a) || _stp_f64_isnan(b))
		return _stp_f64_nan2(a, b);
	if (_stp_f64_isinf(a) || _stp_f64_iszero(b))
		return _STP_F64_NAN;
	if (_stp_f64_isinf(b) || _stp_f64_iszero(a))
		return a;
	ma = _stp_f64_intsig(a, &ea);
	mb = _stp_f64_intsig(b, &eb);
	d = ea - eb;
	if (d < -1)
		return a;
	if (d == -1) {
		/* |a| / |b| is in [1/4, 1): n is 1 past the halfway point */
		if (ma <= mb)
			return a;
		r = 2 * mb - ma;
		sign ^= _STP_F64_SIGN;
		eb = ea;
		goto pack;
	}
	odd = ma >= mb;
	r = odd ? ma - mb : ma;
	while (d-- > 0) {
		r <<= 1;
		odd = r >= mb;
		if (odd)
			r -= mb;
	}
	if (2 * r > mb || (2 * r == mb && odd)) {
		r = mb - r;
		sign ^= _STP_F64_SIGN;
	}
pack:
	if (!r)
		return a & _STP_F64_SIGN;
	v.sign = sign != 0;
	v.m = r << 10;
	v.e = eb + _STP_F64_BIAS62 - 10;
	return _stp_f64_pack(v);
}

static inline int _stp_f64_eq(uint64_t a, uint64_t b)
{
	if (_stp_f64_isnan(a) || _stp_f64_isnan(b))
		return 0;
	return a == b || _stp_f64_iszero(a | b);
}

/* A < B, or A <= B when OREQ. */
static inline int _stp_f64_less(uint64_t a, uint64_t b, int oreq)
{
	int sa = (int)(a >> 63), sb = (int)(b >> 63);

	if (_stp_f64_isnan(a) || _stp_f64_isnan(b))
		return 0;
	if (a == b || _stp_f64_iszero(a | b))
		return oreq;
	if (sa != sb)
		return sa;
	return sa ^ (a < b);
}

/* A converted to an integer, rounded by MODE: 0 nearest even, 1 toward
 * zero, 2 down, 3 up, 4 nearest away from zero, any other toward zero.
 * Out of range gives the bound on A's side, a NaN 0. */
static inline int64_t _stp_f64_to_i64(uint64_t a, unsigned char mode)
{
	int sign = (int)(a >> 63), ex = _stp_f64_exp(a), sh, up;
	uint64_t sig = a & _STP_F64_FRAC, ip, frac, half = 1ULL << 63;
	int64_t z;

	if (ex)
		sig |= _STP_F64_HIDDEN;
	sh = 0x433 - ex;
	if (sh < -11)
		return _stp_f64_isnan(a) ? 0 : sign ? _STP_I64_MIN : _STP_I64_MAX;
	if (sh <= 0) {
		ip = sig << -sh;
		frac = 0;
	} else if (sh < 64) {
		ip = sig >> sh;
		frac = sig << (64 - sh);	/* the fraction from bit 63 down */
	} else {
		ip = 0;
		frac = sig ? (sh == 64 ? sig : 1) : 0;
	}
	if (mode == 0 || mode == 4)
		up = frac >= half;
	else
		up = frac && (sign ? mode == 2 : mode == 3);
	if (up) {
		ip++;
		if (mode == 0 && frac == half)
			ip &= ~1ULL;
	}
	z = (int64_t)(sign ? -ip : ip);
	if (z && ((z < 0) ^ sign))
		return sign ? _STP_I64_MIN : _STP_I64_MAX;
	return z;
}

/* The 32-bit float of A's low 32 bits, widened (exactly). */
static inline uint64_t _stp_f64_from_f32(uint32_t a)
{
	uint64_t sign = (uint64_t)(a >> 31) << 63, frac = a & 0x7FFFFF;
	int ex = (int)((a >> 23) & 0xFF);
	struct _stp_f64 v;

	if (ex == 0xFF)
		return sign | _STP_F64_INF | (frac ? _STP_F64_QUIET : 0) |
		       frac << 29;
	if (!ex && !frac)
		return sign;
	v.sign = sign != 0;
	v.m = frac << 39;
	v.e = ex ? ex - 127 + 1023 : 1 - 127 + 1023;
	if (ex)
		v.m |= 1ULL << 62;
	return _stp_f64_pack(v);
}

/* Append N's decimal digits to OUT (of LEN bytes, used up to *AT). */
static inline void _stp_f64_putu(char *out, int len, int *at, uint64_t n)
{
	char d[24];
	uint32_t r;
	int i = 0;

	do {
		n = _stp_rt_udivmod(n, 10, &r);
		d[i++] = (char)('0' + r);
	} while (n);
	while (i && *at < len - 1)
		out[(*at)++] = d[--i];
	out[*at] = '\0';
}

/* A in decimal with PREC digits after the point, as stap writes it: the
 * bits above the binary point as the integer part, then digits of the
 * fraction, the last one rounded up when the digit after it is 5 or more
 * (without carrying: a 9 rounds to "10"), at least one digit.  The binary
 * point is placed by a 64-bit shift of 52 - exponent, which the CPU takes
 * modulo 64: numbers of 2^53 and more, below 2^-11, subnormals, zeros,
 * infinities and NaNs come out as that shift makes them, as in stap. */
static inline void _stp_f64_to_str(char *out, int len, uint64_t a, int prec)
{
	int ex = _stp_f64_exp(a), at = 0, i = 0, last, after = 0;
	uint64_t sig = a & _STP_F64_FRAC, frac, mask;
	unsigned sh = (52u - (uint32_t)(ex - 1023)) & 63;

	out[0] = '\0';
	if (a >> 63 && len > 1) {
		out[at++] = '-';
		out[at] = '\0';
	}
	if (ex)
		sig |= _STP_F64_HIDDEN;
	mask = (1ULL << sh) - 1;
	_stp_f64_putu(out, len, &at, sig >> sh);
	if (at < len - 1) {
		out[at++] = '.';
		out[at] = '\0';
	}
	frac = sig & mask;
	while (i++ < prec - 1) {
		frac *= 10;
		_stp_f64_putu(out, len, &at, frac >> sh);
		frac &= mask;
	}
	frac *= 10;
	last = (int)(frac >> sh);
	frac &= mask;
	if (frac) {
		frac *= 10;
		after = (int)(frac >> sh);
	}
	if (after >= 5)
		last++;
	_stp_f64_putu(out, len, &at, (uint64_t)(int64_t)last);
}

static inline int _stp_f64_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* S as a decimal number ([+-]digits[.digits][(e|E)[+-]digits], each part
 * optional), computed as stap does: digits accumulated as value*10 + d in
 * doubles, the scale as repeated products and quotients by ten, the result
 * sign * (value / scale).  Returns 0x7FF8000000000000 for anything else,
 * and for a result that happens to be that NaN. */
static inline uint64_t _stp_f64_from_str(const char *s)
{
	uint64_t ten = _stp_f64_from_i64(10), one = _stp_f64_from_i64(1);
	uint64_t value = 0, scale = one, count = 0, sign;
	int i = 0, down;

	sign = _stp_f64_from_i64(s[0] == '-' ? -1 : 1);
	if (s[i] == '-' || s[i] == '+')
		i++;
	for (; _stp_f64_isdigit(s[i]); i++)
		value = _stp_f64_addsub(_stp_f64_mul(value, ten),
					_stp_f64_from_i64(s[i] - '0'), 0);
	if (s[i] == '.')
		i++;
	for (; _stp_f64_isdigit(s[i]); i++) {
		value = _stp_f64_addsub(_stp_f64_mul(value, ten),
					_stp_f64_from_i64(s[i] - '0'), 0);
		scale = _stp_f64_mul(scale, ten);
	}
	if (s[i] == 'e' || s[i] == 'E') {
		i++;
		down = s[i] == '-';
		if (s[i] == '-' || s[i] == '+')
			i++;
		for (; _stp_f64_isdigit(s[i]); i++)
			count = _stp_f64_addsub(_stp_f64_mul(count, ten),
						_stp_f64_from_i64(s[i] - '0'),
						0);
		/* Counting down by ones; once the scale is 0 or infinite
		 * more steps change nothing (stap's loop would spin on a
		 * count too big for the ones to matter). */
		while (!_stp_f64_eq(count, 0)) {
			uint64_t next = down ? _stp_f64_mul(scale, ten)
					     : _stp_f64_div(scale, ten);

			if (next == scale)
				break;
			scale = next;
			count = _stp_f64_addsub(count, one, 1);
		}
	}
	if (s[i])
		return _STP_F64_NAN;
	return _stp_f64_mul(sign, _stp_f64_div(value, scale));
}

#endif
