/* test_format.c - printf format parsing and runtime formatting, stap 4.8
 * semantics (its kernel-style number printer, one flag character, %b,
 * %m/%M, %#c, clamped widths), and the strtol/int64 conversions.
 * cc -std=gnu11 -I runtime -I testsuite/unit testsuite/unit/test_format.c runtime/format.c -o test_format
 */
#include "format.h"
#include "unit.h"

#include <stdint.h>

#define L(v) { .kind = STP_FMT_ARG_LONG, .n = (v) }
#define S(v) { .kind = STP_FMT_ARG_STR, .s = (v) }
#define M(p, l) { .kind = STP_FMT_ARG_MEM, .mem = { (p), (l) } }

static char buf[1024];
static int buflen;

#define FMT(size, fmt, ...) do { \
	const struct _stp_fmt_arg a_[] = { __VA_ARGS__ }; \
	buflen = _stp_format(buf, (size), (fmt), a_, \
			     (int)(sizeof(a_) / sizeof(a_[0]))); \
} while (0)

#define EXPECT(fmt, want, ...) do { \
	FMT(sizeof(buf), fmt, __VA_ARGS__); \
	if (strcmp(buf, want) != 0 || buflen != (int)strlen(want)) { \
		printf("%s:%d: format \"%s\" gave [%s] (%d), want [%s]\n", \
		       __FILE__, __LINE__, fmt, buf, buflen, want); \
		unit_failures++; \
	} \
} while (0)

static void test_integers(void)
{
	EXPECT("%d", "42", L(42));
	EXPECT("%d|%i", "-42|-9223372036854775808", L(-42), L(INT64_MIN));
	EXPECT("%5d|%-5d|%05d", "   42|42   |00042", L(42), L(42), L(42));
	EXPECT("%+d % d %+d", "+5  5 -5", L(5), L(5), L(-5));
	EXPECT("%+u %+x % x", "5 5 5", L(5), L(5), L(5));
	EXPECT("%u", "18446744073709551615", L(-1));
	EXPECT("%x %X %o", "ffffffffffffffff FF 10", L(-1), L(255), L(8));
	EXPECT("%o", "1777777777777777777777", L(-1));
	EXPECT("%ld %lx", "7 ff", L(7), L(255));
	/* '#': prefix always, 0 included (glibc prints "0") */
	EXPECT("%#x %#X %#o", "0xff 0XFF 010", L(255), L(255), L(8));
	EXPECT("%#x %#o %#d", "0x0 00 3", L(0), L(0), L(3));
	EXPECT("%#10x|", "      0xff|", L(255));
	/* one flag only: the 0 of "#05" is the width's leading digit */
	EXPECT("%#05x|%-05d|", "  0x1|42   |", L(1), L(42));
	EXPECT("%00d|", "7|", L(7));
	/* precision: minimum digits; with '0' both apply (kernel style) */
	EXPECT("%.3d|%8.3d|%08.3d", "005|     005|00000005", L(5), L(5), L(5));
	EXPECT("%.d|%.0d|%.0x", "0|0|0", L(0), L(0), L(0));
	EXPECT("%-8.3d|", "-005    |", L(-5));
	EXPECT("%05d|% 05d|%+05d", "-0042|   42|  +42", L(-42), L(42), L(42));
}

static void test_pointers(void)
{
	EXPECT("%p", "0x0", L(0));
	EXPECT("%p", "0x12345678", L(0x12345678));
	EXPECT("%p", "0xffffffff81000000", L((int64_t)0xffffffff81000000ULL));
	EXPECT("%-8p|%8p|", "0x12    |    0x12|", L(0x12), L(0x12));
	EXPECT("%08p", "0x000012", L(0x12));
}

static void test_stars(void)
{
	EXPECT("%*d|%-*d|%*d|", "   7|7   |7|", L(4), L(7), L(4), L(7), L(-4),
	       L(7));
	EXPECT("%.*s|%.*s|", "he||", L(2), S("hello"), L(-1), S("hello"));
	EXPECT("%*.*s|", "   he|", L(5), L(2), S("hello"));
	/* a '*' argument is an int: 2^32 + 3 is 3 */
	EXPECT("%*d|", "  1|", L((1LL << 32) + 3), L(1));
}

static void test_strings(void)
{
	EXPECT("%s|%5s|%-5s|%.2s|%5.1s", "abc|  abc|abc  |ab|    a", S("abc"),
	       S("abc"), S("abc"), S("abc"), S("abc"));
	EXPECT("%%|a%%b|%s", "%|a%b|", S(""));
	EXPECT("% s|%+s|%#s", "x|y|z", S("x"), S("y"), S("z"));
	FMT(sizeof(buf), "%0s|", S("ab"));	/* '0' appends a NUL */
	CHECK_MEM(buf, (size_t)buflen, "ab\0|", 4);
}

static void test_chars(void)
{
	EXPECT("%c%c%c", "abA", L('a'), L('b'), L(0x141));
	EXPECT("%#c|%#c|%#c|%#c", "\\n|\\'|\\\\|\\001", L('\n'), L('\''),
	       L('\\'), L(1));
	EXPECT("%#c|%#c|%#c|%#c", "\\377|\"|a|\\t", L(0xff), L('"'), L('a'),
	       L('\t'));
	EXPECT("%#5c|%-5c|%3c|%0c", "   \\v|x    |  y|z", L('\v'), L('x'),
	       L('y'), L('z'));
	FMT(sizeof(buf), "%c|", L(0));
	CHECK_MEM(buf, (size_t)buflen, "\0|", 2);
}

static void test_binary(void)
{
	static const char le8[] = "\x08\x07\x06\x05\x04\x03\x02\x01";

	FMT(sizeof(buf), "%b", L(0x0102030405060708LL));
	CHECK_MEM(buf, (size_t)buflen, le8, 8);
	FMT(sizeof(buf), "%1b%2b%4b|", L(0x41), L(0x4342), L(0x47464544));
	CHECK_MEM(buf, (size_t)buflen, "ABCDEFG|", 8);
	FMT(sizeof(buf), "%.2b|%3b|", L(0x4241), L(0x41));
	CHECK_MEM(buf, (size_t)buflen, "AB|A\0\0\0\0\0\0\0|", 12);
	FMT(sizeof(buf), "%6.2b|%-6.2b|", L(0x4241), L(0x4241));
	CHECK_MEM(buf, (size_t)buflen, "\0\0\0\0AB|AB\0\0\0\0|", 14);
}

static void test_memory(void)
{
	static const char mem[] = "hello";

	EXPECT("%m|%.3m|%.3M", "h|hel|68656c", M(mem, 1), M(mem, 3), M(mem, 3));
	EXPECT("%8.2M|%-8.2M|%4.2m|", "    6865|6865    |  he|", M(mem, 2),
	       M(mem, 2), M(mem, 2));
	EXPECT("%#.2m|", "he|", M(mem, 2));	/* '#': the caller read user memory */
	FMT(sizeof(buf), "%0.2m|", M(mem, 2));
	CHECK_MEM(buf, (size_t)buflen, "he\0|", 4);
	EXPECT("%.4m|", "he|", M(mem, 2));	/* only what the caller read */
}

static void test_truncation(void)
{
	FMT(8, "%s", S("hello world"));
	CHECK_STR(buf, "hello w");
	CHECK_INT(buflen, 7);
	FMT(6, "%10d", L(5));
	CHECK_STR(buf, "     ");
	/* widths are clamped to the room left (the NUL's byte included):
	 * 8 wide, not 9, so one more digit shows */
	FMT(8, "%09d", L(12));
	CHECK_STR(buf, "0000001");
	FMT(8, "ab%-10dX", L(5));
	CHECK_STR(buf, "ab5    ");
	FMT(5, "%.3M", M("\x01\x02\x03", 3));
	CHECK_STR(buf, "0102");
	FMT(4, "%.3M", M("\x01\x02\x03", 3));
	CHECK_STR(buf, "010");
	FMT(1, "%d", L(12345));
	CHECK_STR(buf, "");
	CHECK_INT(_stp_format(buf, 0, "x", NULL, 0), 0);
}

static void check_parse_error(const char *fmt, const char *msg, size_t off)
{
	struct _stp_fmt_error e = { NULL, 0 };
	enum _stp_fmt_type t[8];

	if (_stp_fmt_check(fmt, t, 8, &e) != -1 || e.msg == NULL
	    || strcmp(e.msg, msg) != 0 || e.offset != off) {
		printf("%s:%d: format \"%s\": want error \"%s\" at %zu, got \"%s\" at %zu\n",
		       __FILE__, __LINE__, fmt, msg, off, e.msg ? e.msg : "(none)",
		       e.offset);
		unit_failures++;
	}
}

static void test_parse(void)
{
	struct _stp_fmt_error e;
	struct _stp_fmt_piece p;
	enum _stp_fmt_type t[8];
	size_t pos = 0;

	check_parse_error("%q", STP_FMT_MSG_BADCONV, 1);
	check_parse_error("abc%", STP_FMT_MSG_BADCONV, 4);
	check_parse_error("%5.3", STP_FMT_MSG_TRAILING, 4);
	check_parse_error("x%-", STP_FMT_MSG_TRAILING, 3);
	check_parse_error("x%05", STP_FMT_MSG_TRAILING, 4);
	check_parse_error("x%*", STP_FMT_MSG_TRAILING, 3);
	check_parse_error("x%-.", STP_FMT_MSG_TRAILING, 4);
	check_parse_error("x%5l", STP_FMT_MSG_TRAILING, 4);
	check_parse_error("%lld", STP_FMT_MSG_BADCONV, 2);
	check_parse_error("%hd", STP_FMT_MSG_BADCONV, 1);
	check_parse_error("%Ld", STP_FMT_MSG_BADCONV, 1);
	check_parse_error("%-#5d", STP_FMT_MSG_BADCONV, 2);
	check_parse_error("%+ d", STP_FMT_MSG_BADCONV, 2);
	check_parse_error("%5%", STP_FMT_MSG_BADCONV, 2);
	check_parse_error("%.-3d", STP_FMT_MSG_BADCONV, 2);
	check_parse_error("%e", STP_FMT_MSG_BADCONV, 1);
	/* a bare trailing "%." or "%l" vanishes */
	CHECK_INT(_stp_fmt_check("x%.", t, 8, &e), 0);
	CHECK_INT(_stp_fmt_check("x%l", t, 8, &e), 0);
	EXPECT("a%.", "a", L(0));
	CHECK_INT(_stp_fmt_check("%*.*s %m %M %b %c %p %d", t, 8, &e), 9);
	CHECK_INT(t[0], STP_FMT_T_LONG);
	CHECK_INT(t[1], STP_FMT_T_LONG);
	CHECK_INT(t[2], STP_FMT_T_STRING);
	CHECK_INT(t[3] | t[4] | t[5] | t[6] | t[7], STP_FMT_T_LONG);
	CHECK_INT(_stp_fmt_check("100%% sure", t, 8, &e), 0);

	CHECK_INT(_stp_fmt_next("ab%-5.*lx", &pos, &p, &e), 1);
	CHECK_INT(p.kind, STP_FMT_LITERAL);
	CHECK_INT(p.len, 2);
	CHECK_INT(_stp_fmt_next("ab%-5.*lx", &pos, &p, &e), 1);
	CHECK_INT(p.kind, STP_FMT_DIRECTIVE);
	CHECK_INT(p.conv, 'x');
	CHECK_INT(p.flags, STP_FMT_LEFT);
	CHECK_INT(p.width, 5);
	CHECK_INT(p.prec, STP_FMT_STAR);
	CHECK_INT(p.offset, 2);
	CHECK_INT(_stp_fmt_next("ab%-5.*lx", &pos, &p, &e), 0);
	pos = 0;
	_stp_fmt_next("%.d", &pos, &p, &e);
	CHECK_INT(p.prec, STP_FMT_NONE);
	pos = 0;
	_stp_fmt_next("%0s", &pos, &p, &e);
	CHECK_INT(p.flags, STP_FMT_ZEROPAD);
	CHECK_INT(p.width, STP_FMT_NONE);
}

static void test_conversions(void)
{
	char s[8];

	CHECK_INT(_stp_strtol("123", 10), 123);
	CHECK_INT(_stp_strtol("-123", 10), -123);
	CHECK_INT(_stp_strtol("0x1f", 16), 31);
	CHECK_INT(_stp_strtol("0X1F", 0), 31);
	CHECK_INT(_stp_strtol("017", 0), 15);
	CHECK_INT(_stp_strtol("0x", 0), 0);
	CHECK_INT(_stp_strtol("  12", 10), 0);
	CHECK_INT(_stp_strtol("+5", 10), 0);
	CHECK_INT(_stp_strtol("12abc", 10), 12);
	CHECK_INT(_stp_strtol("ff", 16), 255);
	CHECK_INT(_stp_strtol("101", 2), 5);
	CHECK_INT(_stp_strtol("z", 36), 0);
	CHECK_INT(_stp_strtol("18446744073709551615", 10), -1);
	CHECK_INT(_stp_strtol("9223372036854775808", 10), INT64_MIN);
	CHECK_INT(_stp_strtol("-0x10", 16), -16);
	CHECK_INT(_stp_strtol("0x1f", 10), 0);
	CHECK_INT(_stp_strtol("", 10), 0);
	CHECK_INT(_stp_strtol("777", 8), 511);
	CHECK_INT(_stp_strtol("789", 8), 7);

	CHECK_INT(_stp_int64_to_str(s, sizeof(s), 0), 1);
	CHECK_STR(s, "0");
	CHECK_INT(_stp_int64_to_str(s, sizeof(s), -1234567), 8);
	CHECK_STR(s, "-123456");
	_stp_int64_to_str(buf, sizeof(buf), INT64_MIN);
	CHECK_STR(buf, "-9223372036854775808");
}

int main(void)
{
	test_integers();
	test_pointers();
	test_stars();
	test_strings();
	test_chars();
	test_binary();
	test_memory();
	test_truncation();
	test_parse();
	test_conversions();
	return unit_done("test_format");
}
