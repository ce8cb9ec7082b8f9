/* ppcond.c - the condition of a %( COND %? … %) conditional.
 *
 *   cond -> term { '||' term }      term -> cmp { '&&' cmp }
 *   cmp  -> LHS op literal | literal op literal
 * LHS is kernel_v, kernel_vr, systemtap_v, arch, runtime,
 * systemtap_privilege, guru_mode or CONFIG_NAME.  Versions compare with
 * strverscmp; == and != against a pattern with wildcards use fnmatch.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "parse/parse.h"
#include "parse/parser.h"
#include "version.h"

typedef int (*next_fn)(struct parser *, struct token *);

struct cond {
	struct parser *p;
	next_fn next;
	struct token t;		/* current token */
	int failed;
};

static int advance(struct cond *c)
{
	return c->next(c->p, &c->t);
}

static int fail(struct cond *c, const char *id, const char *msg)
{
	if (!c->failed)
		parse_error(c->p, c->t.loc, id, "%s", msg);
	c->failed = 1;
	return 0;
}

static int is_op(int type)
{
	return type == EQ || type == NE || type == '<' || type == LE ||
	       type == '>' || type == GE;
}

/* Apply OP to a three-way comparison result. */
static int holds(int op, int cmp)
{
	switch (op) {
	case EQ: return cmp == 0;
	case NE: return cmp != 0;
	case '<': return cmp < 0;
	case LE: return cmp <= 0;
	case '>': return cmp > 0;
	default: return cmp >= 0;
	}
}

static int has_wildcard(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Compare a string with a pattern or string: fnmatch for ==/!= with
 * wildcards, else VERSIONS ? strverscmp : strcmp. */
static int str_holds(int op, const char *have, const char *want, int versions)
{
	if ((op == EQ || op == NE) && has_wildcard(want))
		return holds(op, fnmatch(want, have, 0) ? 1 : 0);
	return holds(op, versions ? strverscmp(have, want) : strcmp(have, want));
}

/* A CONFIG_ value as .config has it: a string keeps its quotes, as stap
 * 4.8 compares it ("\"(none)\""); unset is "". */
static const char *config_value(struct parser *p, const char *name)
{
	const char *v = kernel_config_value(p->s, name);

	return v ? v : "";
}

/* A literal operand: a string or a number (stap 4.8 has no negative
 * numbers here: "-1" is an error). */
static int literal(struct cond *c, int *is_num, int64_t *num, const char **str)
{
	if (c->t.type == NUMBER) {
		*is_num = 1;
		*num = c->t.num;
		return 1;
	}
	if (c->t.type == STRING) {
		*is_num = 0;
		*str = arena_strndup(c->p->a, c->t.str, c->t.str_len);
		return 1;
	}
	return 0;
}

static const char *kernel_string(struct cond *c, const char *name)
{
	const struct kernel_info *k = kernel_target(c->p->s);

	if (!k)
		return NULL;
	return !strcmp(name, "kernel_v") ? k->version : k->release;
}

static int cmp_named(struct cond *c, const char *lhs)
{
	int op, is_num = 0;
	int64_t num = 0;
	const char *str = NULL, *have;

	op = advance(c);
	if (!is_op(op))
		return fail(c, "pp.bad-condition",
			    "expected comparison operator in preprocessor condition");
	if ((!strcmp(lhs, "arch") || !strcmp(lhs, "runtime") ||
	     !strcmp(lhs, "guru_mode")) && op != EQ && op != NE)
		return fail(c, "pp.bad-condition", "expected '==' or '!='");
	advance(c);
	if (!strncmp(lhs, "CONFIG_", 7) && c->t.type == IDENT &&
	    !strncmp(c->t.text, "CONFIG_", 7))
		return str_holds(op, config_value(c->p, lhs),
				 config_value(c->p, c->t.text), 0);
	if (!literal(c, &is_num, &num, &str))
		return fail(c, "pp.expected-literal",
			    "expected string literal or number");
	if (!strcmp(lhs, "guru_mode")) {
		if (!is_num)
			return fail(c, "pp.expected-number", "expected number");
		if (num != 0 && num != 1)
			return fail(c, "pp.expected-number", "expected 0 or 1");
		num = (int64_t)c->p->s->guru - num;
		return holds(op, num < 0 ? -1 : num > 0);
	}
	if (!strncmp(lhs, "CONFIG_", 7)) {
		have = config_value(c->p, lhs);
		if (is_num) {
			int64_t v = strtoll(have, NULL, 0);

			return holds(op, v < num ? -1 : v > num);
		}
		return str_holds(op, have, str, 0);
	}
	if (is_num)
		return fail(c, "pp.expected-string", "expected string literal");
	if (!strcmp(lhs, "kernel_v") || !strcmp(lhs, "kernel_vr")) {
		have = kernel_string(c, lhs);
		return have ? str_holds(op, have, str, 1) : 0;
	}
	if (!strcmp(lhs, "systemtap_v") && ++c->p->sysv_conds)
		return str_holds(op, c->p->s->compatible ? c->p->s->compatible :
				 STAP_VERSION, str, 1);
	if (!strcmp(lhs, "arch"))
		return str_holds(op, "x86_64", str, 0);
	if (!strcmp(lhs, "runtime"))
		return str_holds(op, "kernel", str, 0);
	return str_holds(op, privilege_name(session_privilege(c->p->s)), str,
			 0);	/* systemtap_privilege */
}

static int is_named(const char *s)
{
	static const char *const names[] = {
		"kernel_v", "kernel_vr", "systemtap_v", "arch", "runtime",
		"systemtap_privilege", "guru_mode",
	};
	size_t i;

	if (!strncmp(s, "CONFIG_", 7))
		return 1;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(s, names[i]))
			return 1;
	return 0;
}

/* cmp; leaves the token after it current. */
static int cmp(struct cond *c)
{
	int op, ln = 0, rn = 0, r;
	int64_t lv = 0, rv = 0;
	const char *ls = NULL, *rs = NULL;

	if (c->t.type == IDENT && is_named(c->t.text)) {
		r = cmp_named(c, c->t.text);
		advance(c);
		return r;
	}
	if (!literal(c, &ln, &lv, &ls))
		return fail(c, "pp.bad-condition",
			    "expected 'arch', 'kernel_v', 'kernel_vr', 'systemtap_v', 'runtime', 'systemtap_privilege', 'CONFIG_...', or comparison between strings or integers");
	op = advance(c);
	if (!is_op(op))
		return fail(c, "pp.bad-condition",
			    "expected comparison operator in preprocessor condition");
	advance(c);
	if (!literal(c, &rn, &rv, &rs) || ln != rn)
		return fail(c, "pp.bad-condition",
			    "expected comparison between strings or integers");
	advance(c);
	if (ln)
		return holds(op, lv < rv ? -1 : lv > rv);
	return holds(op, strcmp(ls, rs));
}

static int term(struct cond *c)
{
	int v = cmp(c);

	while (!c->failed && c->t.type == ANDAND) {
		advance(c);
		v = cmp(c) && v;
	}
	return v;
}

/* Evaluate the condition after OPEN through '%?'.  A malformed condition
 * is reported once and counts as false; the rest of it is skipped up to
 * the '%?', or to a '%:' or '%)' (returned in *STOP, so the caller can go
 * on from there), or the end of the file (*STOP = 0, reported here). */
int ppcond_eval(struct parser *p, struct token *open, next_fn next, int *stop)
{
	struct cond c = { .p = p, .next = next };
	int v;

	advance(&c);
	v = term(&c);
	while (!c.failed && c.t.type == OROR) {
		advance(&c);
		v = term(&c) || v;
	}
	if (!c.failed && c.t.type != PP_THEN)
		fail(&c, "pp.expected-then",
		     "expected '%?' marker for conditional");
	while (c.t.type != PP_THEN && c.t.type != PP_ELSE &&
	       c.t.type != PP_CLOSE && c.t.type != 0)
		advance(&c);
	*stop = c.t.type;
	if (c.t.type == 0)
		parse_error(p, open->loc, "pp.incomplete-conditional",
			    "incomplete conditional at end of file");
	return c.failed ? 0 : v;
}
