/* test_float.c - runtime/tapset_float.h's binary64 arithmetic against this
 * machine's own doubles (SSE: IEEE, round to nearest even) over special
 * values and random bit patterns of every magnitude; NaN results, where
 * the CPU's NaN rules differ from stap's, against stap's rules.  The
 * decimal conversions' oddities are checked in run/floatingpoint-*
 * against stap 4.8 itself.
 */
#include <math.h>

#include "unit.h"
#include "tapset_float.h"

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double dbl(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static double f32(uint64_t a)
{
	uint32_t u = (uint32_t)a;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random double: special values, small integers, or random bits (with
 * exponents often near each other so that sums cancel). */
static uint64_t pick(uint64_t near)
{
	static const uint64_t special[] = {
		0, _STP_F64_SIGN, _STP_F64_INF, _STP_F64_INF | _STP_F64_SIGN,
		1, 0x000FFFFFFFFFFFFFULL, 0x0010000000000000ULL,
		0x7FEFFFFFFFFFFFFFULL, 0x3FF0000000000000ULL,
	};
	uint64_t r = next();

	switch (r % 8) {
	case 0:
		return special[(r >> 8) % 9] ^ (r >> 63 << 63);
	case 1:
		return bits((double)(int64_t)((r >> 8) % 2001) - 1000);
	case 2:
	case 3:
		return (near & 0xFFF0000000000000ULL) ^
		       ((r >> 12) & _STP_F64_FRAC) ^ ((r & 3) << 52);
	default:
		return r;
	}
}

static int failures_shown;

static void check(const char *op, uint64_t a, uint64_t b, uint64_t got,
		  double want_d)
{
	uint64_t want = bits(want_d);

	if (isnan(want_d) ? _stp_f64_isnan(got) : got == want)
		return;
	unit_failures++;
	if (failures_shown++ < 20)
		printf("%s(%016llx, %016llx) = %016llx, want %016llx\n", op,
		       (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)got, (unsigned long long)want);
}

/* glibc's remainder() may give an exact zero the wrong sign: IEEE's (and
 * stap's) is the dividend's. */
static void rem(uint64_t a, uint64_t b)
{
	double want = remainder(dbl(a), dbl(b));

	if (want == 0)
		want = copysign(0.0, dbl(a));
	check("rem", a, b, _stp_f64_rem(a, b), want);
}

static void random_ops(void)
{
	int i;

	for (i = 0; i < 500000; i++) {
		uint64_t a = pick(0), b = pick(a);

		check("add", a, b, _stp_f64_addsub(a, b, 0), dbl(a) + dbl(b));
		check("sub", a, b, _stp_f64_addsub(a, b, 1), dbl(a) - dbl(b));
		check("mul", a, b, _stp_f64_mul(a, b), dbl(a) * dbl(b));
		check("div", a, b, _stp_f64_div(a, b), dbl(a) / dbl(b));
		rem(a, b);
		check("sqrt", a, 0, _stp_f64_sqrt(a), sqrt(dbl(a)));
		CHECK_INT(_stp_f64_eq(a, b), dbl(a) == dbl(b));
		CHECK_INT(_stp_f64_less(a, b, 0), dbl(a) < dbl(b));
		CHECK_INT(_stp_f64_less(a, b, 1), dbl(a) <= dbl(b));
		check("f32", a, 0, _stp_f64_from_f32((uint32_t)a), f32(a));
		check("i64", a, 0, _stp_f64_from_i64((int64_t)a),
		      (double)(int64_t)a);
	}
}

static void nan_rules(void)
{
	uint64_t q1 = 0x7FF8000000000001ULL, q2 = 0xFFF8000000000002ULL;
	uint64_t s1 = 0x7FF0000000000003ULL, one = bits(1.0);

	CHECK_INT(_stp_f64_addsub(q1, q2, 0), q1);
	CHECK_INT(_stp_f64_addsub(q2, q1, 1), q2);
	CHECK_INT(_stp_f64_mul(q1, s1), s1 | _STP_F64_QUIET);
	CHECK_INT(_stp_f64_div(one, q2), q2);
	CHECK_INT(_stp_f64_sqrt(s1), s1 | _STP_F64_QUIET);
	CHECK_INT(_stp_f64_sqrt(bits(-1.0)), _STP_F64_NAN);
	CHECK_INT(_stp_f64_addsub(_STP_F64_INF, _STP_F64_INF, 1),
		  _STP_F64_NAN);
	CHECK_INT(_stp_f64_mul(0, _STP_F64_INF), _STP_F64_NAN);
	CHECK_INT(_stp_f64_div(0, 0), _STP_F64_NAN);
	CHECK_INT(_stp_f64_rem(one, 0), _STP_F64_NAN);
	CHECK_INT(_stp_f64_from_f32(0xFFA00001u), 0xFFFC000020000000ULL);
}

static void to_i64(void)
{
	static const struct {
		double x;
		int64_t want[6];	/* modes 0..4 and 5 */
	} t[] = {
		{ 2.5, { 2, 2, 2, 3, 3, 2 } },
		{ 3.5, { 4, 3, 3, 4, 4, 3 } },
		{ -2.5, { -2, -2, -3, -2, -3, -2 } },
		{ 0.4, { 0, 0, 0, 1, 0, 0 } },
		{ -1e-300, { 0, 0, -1, 0, 0, 0 } },
		{ 9.2233720368547758e18, { INT64_MAX, INT64_MAX, INT64_MAX,
					   INT64_MAX, INT64_MAX, INT64_MAX } },
		{ -9.2233720368547758e18, { INT64_MIN, INT64_MIN, INT64_MIN,
					    INT64_MIN, INT64_MIN, INT64_MIN } },
		{ 1e300, { INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX,
			   INT64_MAX, INT64_MAX } },
		{ NAN, { 0, 0, 0, 0, 0, 0 } },
	};
	size_t i;
	int m;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		for (m = 0; m < 6; m++)
			CHECK_INT(_stp_f64_to_i64(bits(t[i].x), (unsigned char)m),
				  t[i].want[m]);
}

static void from_str(void)
{
	CHECK_INT(_stp_f64_from_str("3.25"), bits(3.25));
	CHECK_INT(_stp_f64_from_str("-1e3"), bits(-1000.0));
	CHECK_INT(_stp_f64_from_str("+2.5E-1"), bits(0.25));
	CHECK_INT(_stp_f64_from_str(""), 0);
	CHECK_INT(_stp_f64_from_str("-"), _STP_F64_SIGN);
	CHECK_INT(_stp_f64_from_str("1x"), _STP_F64_NAN);
	CHECK_INT(_stp_f64_from_str("0e400"), _STP_F64_NAN);
	CHECK_INT(_stp_f64_from_str("1e99999999999999999999"), _STP_F64_INF);
}

static void to_str(void)
{
	char s[MAXSTRINGLEN];

	_stp_f64_to_str(s, sizeof(s), bits(3.14159), 3);
	CHECK_STR(s, "3.142");
	_stp_f64_to_str(s, sizeof(s), bits(-0.5), 1);
	CHECK_STR(s, "-0.5");
	_stp_f64_to_str(s, sizeof(s), bits(0.96), 1);
	CHECK_STR(s, "0.10");
	_stp_f64_to_str(s, sizeof(s), bits(2.0), 0);
	CHECK_STR(s, "2.0");
}

int main(void)
{
	random_ops();
	nan_rules();
	to_i64();
	from_str();
	to_str();
	return unit_failures != 0;
}
