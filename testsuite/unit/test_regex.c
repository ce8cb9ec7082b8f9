/* test_regex.c - the regex compiler (translator/util/regex.c) and matcher
 * (runtime/regex_match.h) together in user space: results checked against
 * stap 4.8's (regex_cases.h, regex_random.h), captures, errors and their
 * positions.
 */
#include <stdlib.h>

#include "unit.h"
#include "util/regex.h"

struct rcase {
	const char *subject, *regex, *want;
};

static const struct rcase cases[] = {
#include "regex_cases.h"
#include "regex_random.h"
};

/* Run RE on S and describe the result as the stap test script printed
 * it: "N", or "Y ng=<groups> 0=[…] 1=[…] …". */
static void run(const char *re, const char *s, char *out, size_t outlen)
{
	struct regex_prog p;
	struct regex_error err;
	struct stp_regex r;
	int caps[2 * 64], g, len;
	void *ws;

	if (regex_compile(re, strlen(re), &p, &err)) {
		snprintf(out, outlen, "error %d: %s", err.pos, err.msg);
		return;
	}
	r.inst = p.inst;
	r.sets = (const unsigned char (*)[32])p.sets;
	r.ninst = (unsigned short)p.ninst;
	r.nslots = (unsigned short)(2 * p.ngroups);
	ws = malloc(STP_RX_WORK_BYTES(r.ninst, r.nslots));
	if (!_stp_regex_exec(&r, s, (int)strlen(s), ws, caps)) {
		snprintf(out, outlen, "N");
	} else {
		len = snprintf(out, outlen, "Y ng=%d", p.ngroups);
		for (g = 0; g < p.ngroups && len < (int)outlen; g++) {
			int a = caps[2 * g], b = caps[2 * g + 1];
			if (a < 0 || b < 0)
				a = b = 0;
			len += snprintf(out + len, outlen - len, " %d=[%.*s]", g,
					b - a, s + a);
		}
	}
	free(ws);
	regex_prog_free(&p);
}

static void check(const char *re, const char *s, const char *want, int line)
{
	char got[1024];

	run(re, s, got, sizeof got);
	if (strcmp(got, want)) {
		printf("line %d: \"%s\" =~ \"%s\": got [%s], want [%s]\n",
		       line, s, re, got, want);
		unit_failures++;
	}
}

#define T(re, s, want) check(re, s, want, __LINE__)

static void test_errors(void)
{
	T("a(b", "", "error 2: expected ), found end of regex");
	T("(", "", "error 0: expected ), found end of regex");
	T("a)b", "", "error 2: unbalanced ')'");
	T("abc)def", "", "error 4: unbalanced ')'");
	T("a)", "a", "Y ng=1 0=[a]");
	T("*a", "", "error 0: unexpected '*'");
	T("a|*", "", "error 2: unexpected '*'");
	T("(*)", "", "error 1: unexpected '*'");
	T("+a", "", "error 0: unexpected '+'");
	T("?", "", "error 0: unexpected '?'");
	T("a{", "", "error 2: expected number");
	T("a{b", "", "error 3: expected number");
	T("a{,3}", "", "error 3: expected number");
	T("xyz{abc}", "", "error 5: expected number");
	T("a{1", "", "error 3: unexpected end of regex");
	T("xyz{12,", "", "error 7: expected '}' or number");
	T("xyz{12,3", "", "error 7: expected }, found end of regex");
	T("xyz{12,3x", "", "error 8: expected }, found x");
	T("xyz{1x}", "", "error 5: expected ',' or '}'");
	T("a{99999}", "", "error 8: 99999 is too large");
	T("a{1,99999}", "", "error 10: 99999 is too large");
	T("a{12345,1}(", "", "error 8: 12345 is too large");
	T("a{1,12345}(", "", "error 10: 12345 is too large");
	T("a{12344}(", "", "error 8: expected ), found end of regex");
	T("[a", "", "error 1: unclosed character class");
	T("xy[abc", "", "error 5: unclosed character class");
	T("xy[]", "", "error 3: unclosed character class");
	T("xy[^]", "", "error 4: unclosed character class");
	T("x[a-", "", "error 3: unclosed character class");
	T("[[:foo:]]", "", "error -1: unknown character class 'foo'");
	T("x[[:alpha:", "", "error 10: unclosed character class '[:alpha'");
	T("x[[:alpha", "", "error 9: unclosed character class '[:alph'");
	T("x[[:", "", "error 4: unclosed character class '[:'");
	T("[b-a]", "", "error 4: Inverted character range b-a");
	T("x[a-[:alpha:]]", "", "error 5: Inverted character range a-[");
	T("^*", "", "error 1: postfix closure '*' applied to anchoring operator");
	T("$*", "", "error 1: postfix closure '*' applied to anchoring operator");
	T("a|^*", "", "error 3: postfix closure '*' applied to anchoring operator");
	T("\\1", "", "error 1: three octal digits required in escape sequence");
	T("\\12", "", "error 1: three octal digits required in escape sequence");
	T("ab\\18", "", "error 3: three octal digits required in escape sequence");
	T("\\0", "", "error 1: three octal digits required in escape sequence");
	T("\\400", "", "error 1: octal escape sequence out of range");
	T("\\x", "", "error 1: two hex digits required in escape sequence");
	T("\\x4", "", "error 1: two hex digits required in escape sequence");
	T("\\x4G", "", "error 2: two hex digits required in escape sequence");
	T("\\\\", "", "error 2: unexpected end of regex");
	T("a{1,x}", "", "error 5: expected '}' or number");
	T("a{1,2", "", "error 4: expected }, found end of regex");
	T("(a|b", "", "error 3: expected ), found end of regex");
	T("((a)", "", "error 3: expected ), found end of regex");
	T("a|{", "", "error 2: unexpected '{'");
	T("\\t(", "", "error 2: expected ), found end of regex");
	T("\\t\\t)x", "", "error 5: unbalanced ')'");
	T("\\101*\\102)x", "", "error 10: unbalanced ')'");
	T("\\x41\\x42(", "", "error 8: expected ), found end of regex");
	T("[z-\\x41]", "", "error 7: Inverted character range z-A");
	T("[\\n-\\t]", "", "error 6: Inverted character range \n-\t");
	T("a{}", "", "error 3: expected number");
	T("^{2}", "", "error 1: postfix closure '{' applied to anchoring operator");
	T("\\t*", "\t\t", "Y ng=1 0=[\t\t]");
	T("\\\\**", "**", "Y ng=1 0=[**]");
	T("a{1,}}", "aa}", "Y ng=1 0=[aa}]");
	T("(?", "", "error 1: unexpected '(?");
	T("(?)", "", "error 2: unexpected '(?)'");
	T("(?=a)", "", "error 2: unexpected '(?='");
	T("(?ab)", "", "error 2: unexpected '(?a'");
	T("(?:", "", "error 2: expected ), found end of regex");
	T("(?:a", "", "error 3: expected ), found end of regex");
	T("[\\\\]", "", "error 3: unclosed character class");
	T("a\\\\", "", "error 3: unexpected end of regex");
}

static void test_more(void)
{
	T("x{1000}", "xx", "N");
	T("a{0,0}", "a", "Y ng=1 0=[]");
	T("(|)", "x", "Y ng=2 0=[] 1=[]");
	T("a||b", "b", "Y ng=1 0=[b]");
	T("|a", "a", "Y ng=1 0=[a]");
	T("[[:alpha:]-z]", "-", "Y ng=1 0=[-]");
	T("[^a]", "\n", "Y ng=1 0=[\n]");
	T("(a*)*", "b", "Y ng=2 0=[] 1=[]");
	T("(a*)*", "aa", "Y ng=2 0=[aa] 1=[aa]");
	T("(a|b)*c", "xxababcx", "Y ng=2 0=[ababc] 1=[b]");
	T("\\101", "A", "Y ng=1 0=[A]");
	T("a\\\\.b", "axb", "N");
	/* stap 4.8: (?: opens a group that does not capture, and keeps ':' */
	T("(?:a)", "x:ay", "Y ng=1 0=[:a]");
	T("(?:a)b", "ab", "N");
	T("[[:alpha:]-z]", ".", "N");
	T("[[:alpha:]-z]", "x", "Y ng=1 0=[x]");
	T("[\\\\]]x", "a]x", "Y ng=1 0=[]x]");
	T("[\\\\\\\\]x", "\\x", "Y ng=1 0=[\\x]");
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		check(cases[i].regex, cases[i].subject, cases[i].want,
		      (int)i + 1000);
	}
	test_errors();
	test_more();
	if (unit_failures)
		printf("%d failures\n", unit_failures);
	return unit_failures != 0;
}
