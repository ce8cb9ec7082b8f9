/* listpat.c - the syntax of a -l/-L pattern, reported as stap 4.8 does.
 *
 * stap lists "probe PATTERN {}", and a pattern that does not parse gets
 * its parser's own report ("parse error: expected …", "saw:", "source:",
 * "1 parse error."), not a diagnostic of ours: -l is what scripts and
 * completion run.  This reads that text with our lexer and checks only the
 * probe-point grammar.  What it cannot judge (macros, %( %), arguments in
 * range, a probe body, a condition past simple operands and operators) it
 * leaves to the real parser, which then reads "probe PATTERN ? {}".
 * Reads the session's pattern and arguments; writes stderr.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "parse/parser.h"

enum { RUNNING, REPORTED, DEFERRED };
enum { BADCHAR = -1 };	/* a character our lexer rejects: stap's token */

struct lp {
	struct parser p;
	void *scanner;
	const char *text;	/* "probe PATTERN {}" */
	struct loc body;	/* where the appended "{}" starts */
	struct token t;		/* the current token */
	int type;		/* its bison code, 0 at the end, or BADCHAR */
	int bad;		/* a number our lexer found malformed */
	struct token ahead;	/* the token read past a bad character */
	int ahead_type, have_ahead;
	int state;
};

static const char *line_start(const char *text, int line)
{
	while (--line > 0 && (text = strchr(text, '\n')))
		text++;
	return text ? text : "";
}

static void print_source(struct lp *l, struct loc loc)
{
	const char *s = line_start(l->text, loc.line);
	int n = (int)strcspn(s, "\n");

	fprintf(stderr, "     source: %.*s\n%*s^\n", n, s, 12 + loc.col, "");
}

static void finish(struct lp *l)
{
	fputs("\n1 parse error.\n", stderr);
	l->state = REPORTED;
}

/* An error the lexer raises: "at: junk ''" where it is. */
static void report_at(struct lp *l, struct loc loc, const char *msg)
{
	fprintf(stderr, "parse error: %s\n         at: junk '' at %s:%d:%d\n",
		msg, loc.file->name, loc.line, loc.col);
	print_source(l, loc);
	finish(l);
}

/* The current token as stap names it after "saw:". */
static const char *desc(struct lp *l)
{
	struct arena *a = l->p.a;
	const char *text = l->t.text;

	if (l->type == BADCHAR) {
		unsigned char c = (unsigned char)*text;

		return c >= 32 && c < 127 ?
			arena_printf(a, "operator '%c'", c) :
			arena_printf(a, "junk '\\x%02x'", c);
	}
	if (l->type == IDENT || l->type == TARGET)
		return arena_printf(a, "identifier '%s'", text);
	if (pp_is_keyword(l->type))
		return "keyword";
	if (l->type == NUMBER)
		return arena_printf(a, "number '%s'", text);
	if (l->type == STRING)
		return arena_printf(a, "string '%s'", text);
	return arena_printf(a, "operator '%s'", text);
}

/* A grammar error at the current token. */
static void report(struct lp *l, const char *msg)
{
	if (l->state)
		return;
	if (!l->type) {
		fprintf(stderr, "parse error: %s\n        saw: %s EOF\n", msg,
			l->p.file->name);
		finish(l);
		return;
	}
	fprintf(stderr, "parse error: %s\n        saw: %s at %s:%d:%d\n", msg,
		desc(l), l->p.file->name, l->t.loc.line, l->t.loc.col);
	print_source(l, l->t.loc);
	finish(l);
}

static void defer(struct lp *l)
{
	if (!l->state)
		l->state = DEFERRED;
}

/* $N and @N: stap puts the argument in at its place, which only the real
 * parser does; one past the arguments is stap's lexer's error. */
static void argument(struct lp *l)
{
	int n = atoi(l->t.text + 1), nargs = l->p.s->args.n;

	if (l->t.text[1] == '#' || n <= nargs)
		defer(l);
	else
		report_at(l, l->t.loc, arena_printf(l->p.a,
			"command line argument out of range [1-%d]", nargs));
}

static void next(struct lp *l)
{
	struct loc loc;
	const char *id;

	if (l->state)
		return;
	if (l->have_ahead) {
		l->t = l->ahead;
		l->type = l->ahead_type;
		l->have_ahead = l->bad = 0;
		return;
	}
	l->p.err_id = NULL;
	l->type = lex_next(&l->p, l->scanner, &l->t);
	l->bad = 0;
	if (l->type == ARG)
		argument(l);
	else if (l->type >= PP_OPEN && l->type <= PP_CLOSE)
		defer(l);
	else if (l->type == EMBEDDED ||
		 (l->type == ATWORD && pp_names_macro(&l->p, &l->t)))
		defer(l);	/* an @operator stays a token, as in stap */
	if (!l->p.err_id)
		return;
	id = l->p.err_id;
	loc = l->p.err_loc;
	if (!strcmp(id, "lex.bad-number")) {
		l->bad = 1;
	} else if (!strcmp(id, "lex.unterminated-string")) {
		report_at(l, loc, "Could not find matching closing quote");
	} else if (!strcmp(id, "lex.bad-character")) {
		l->ahead = l->t;
		l->ahead_type = l->type;
		l->have_ahead = 1;
		memset(&l->t, 0, sizeof l->t);
		l->t.loc = loc;
		l->t.text = line_start(l->text, loc.line) + loc.col - 1;
		l->type = BADCHAR;
	} else {
		defer(l);
	}
}

static int at(struct lp *l, int type)
{
	return !l->state && l->type == type;
}

static int is_name(struct lp *l)
{
	return l->type == IDENT || l->type == TARGET || l->type == '*' ||
	       pp_is_keyword(l->type);
}

/* literal -> ['-'] number | string { string } */
static void literal(struct lp *l)
{
	if (at(l, '-')) {
		next(l);
		if (!at(l, NUMBER))
			report(l, "expected literal string or number");
	}
	if (at(l, NUMBER)) {
		if (l->bad)
			report(l, "number invalid or out of range");
		next(l);
	} else if (at(l, STRING)) {
		while (at(l, STRING))
			next(l);
	} else {
		report(l, "expected literal string or number");
	}
}

/* Tokens that can neither continue an operand nor start one: where stap's
 * expression parser says what it missed.  Anything else goes to ours. */
static int ends_exp(struct lp *l)
{
	switch (l->type) {
	case 0: case '{': case '}': case ',': case ';': case ')':
		return 1;
	}
	return 0;
}

/* TYPE is the character CHARS holds (bison's codes of longer tokens are
 * above 255, and a character can be none of them) */
static int one_of(int type, const char *chars)
{
	return type > 0 && type < 256 && strchr(chars, type);
}

static int is_binop(int type)
{
	return one_of(type, "+-*/%<>&|^.") ||
	       type == LE || type == GE || type == EQ || type == NE ||
	       type == ANDAND || type == OROR || type == SHL || type == SHR ||
	       type == USHR || type == MATCH || type == NOMATCH;
}

static void expr(struct lp *l);

/* A ')' that closes a condition or a parenthesized operand. */
static void close_paren(struct lp *l)
{
	if (at(l, ')'))
		next(l);
	else if (ends_exp(l) || l->type == IDENT || l->type == TARGET ||
		 l->type == NUMBER || l->type == STRING)
		report(l, "expected ')'");
	else
		defer(l);
}

/* operand -> { '-' | '+' | '!' | '~' } ( '(' expr ')' | number | strings
 *            | name ), simple ones only */
static void operand(struct lp *l)
{
	while (!l->state && one_of(l->type, "-+!~"))
		next(l);
	if (at(l, '(')) {
		next(l);
		expr(l);
		close_paren(l);
	} else if (at(l, NUMBER) || at(l, STRING)) {
		literal(l);
	} else if (at(l, IDENT) || at(l, TARGET)) {
		next(l);
		if (at(l, '(') || at(l, '[') || at(l, ARROW) || at(l, PRETTY) ||
		    at(l, INC) || at(l, DEC))
			defer(l);
	} else if (ends_exp(l)) {
		report(l, "expected literal string or number");
	} else {
		defer(l);
	}
}

/* expr -> operand { binop operand } */
static void expr(struct lp *l)
{
	operand(l);
	while (!l->state && is_binop(l->type)) {
		next(l);
		operand(l);
	}
}

static int point_list(struct lp *l, int in_brace);

/* component -> '{' point_list '}' | name ['(' literal ')'], a name being
 * identifiers, keywords and '*' written together */
static void component(struct lp *l)
{
	if (at(l, '{')) {
		next(l);
		point_list(l, 1);
		next(l);	/* the '}' */
		return;
	}
	if (!is_name(l)) {
		report(l, "expected identifier or '*' or '{'");
		return;
	}
	next(l);
	while (!l->state && is_name(l) && !l->t.space_before)
		next(l);
	if (at(l, '(')) {
		next(l);
		literal(l);
		if (!l->state && !at(l, ')'))
			report(l, "expected ')'");
		next(l);
	}
}

/* point -> component { '.' component } ['?' | '!'] ['if' '(' expr ')'] */
static void point(struct lp *l)
{
	component(l);
	while (at(l, '.')) {
		next(l);
		component(l);
	}
	if (at(l, '?') || at(l, '!'))
		next(l);
	if (at(l, IF)) {
		next(l);
		if (!at(l, '('))
			report(l, "expected '('");
		next(l);
		expr(l);
		close_paren(l);
	}
}

/* point_list -> point { ',' point }; in braces, closed by '}'.  Returns
 * how many points it read. */
static int point_list(struct lp *l, int in_brace)
{
	int n = 1;

	point(l);
	while (at(l, ',')) {
		next(l);
		point(l);
		n++;
	}
	if (in_brace && !at(l, '}'))
		report(l, "expected '}'");
	return n;
}

static int is_body(struct lp *l)
{
	return l->t.loc.line == l->body.line && l->t.loc.col == l->body.col;
}

/* The '{' after the probe points: the appended "{}" is the whole body;
 * a '{' of the pattern's own starts one that only "{}" follows, else it
 * is the real parser's to read. */
static void body(struct lp *l)
{
	int own = !is_body(l);

	next(l);
	if (own) {
		if (!at(l, '{') || !is_body(l)) {
			defer(l);
			return;
		}
		next(l);
	}
	if (at(l, '}'))
		next(l);
	if (own && at(l, 0))
		report(l, "expected statement");
	else
		defer(l);	/* parsed: nothing for us to say */
}

/* probe -> 'probe' point_list ( '{' | ('=' | '+=') point_list '{' ) */
static void probe(struct lp *l)
{
	const char *end = "expected one of ', { } = +='";
	int alias = 0, n;

	next(l);	/* 'probe' */
	for (;;) {
		next(l);
		n = point_list(l, 0);
		if (l->state)
			return;
		if (at(l, '{')) {
			body(l);
			return;
		}
		if (!at(l, '=') && !at(l, PLUSEQ)) {
			report(l, at(l, '}') ? "expected probe point specifier" : end);
			return;
		}
		if (alias)
			defer(l);
		else if (n > 1)
			report(l, "expected probe point specifier");
		alias = 1;
	}
}

int listpat_check(struct session *s)
{
	const char *pat = s->list_probes_vars ? s->list_probes_vars :
		s->list_probes;
	struct lp l = { 0 };
	struct src_file *f = arena_alloc(s->arena, sizeof *f);
	const char *text = arena_printf(s->arena, "probe %s {}", pat);
	size_t len = strlen(text);
	int i;

	*f = *s->script;
	f->text = text;
	f->len = len;
	l.text = text;
	l.p.s = s;
	l.p.a = s->arena;
	l.p.file = f;
	l.p.fast = 1;	/* the lexer's errors are ours to report */
	l.body.line = 1;
	l.body.col = 1;
	for (i = 0; i < (int)len - 2; i++) {
		l.body.col++;
		if (text[i] == '\n') {
			l.body.line++;
			l.body.col = 1;
		}
	}
	lex_open(&l.p, f, text, len, &l.scanner);
	probe(&l);
	lex_close(l.scanner);
	return l.state == REPORTED;
}
