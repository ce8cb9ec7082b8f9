/* regex.c - parse a `=~` regex and compile it to a Pike VM program.
 *
 * Two stages, as stap reads the literal: first the C escapes still present
 * in stap's stored form of the string (\n, \t, three-digit octal, \xHH,
 * and \\ which yields the regex's own escape character) are decoded, each
 * decoded byte remembering where it came from; then the bytes are parsed
 * as a POSIX extended regex into a small tree, which is compiled to the
 * instructions of runtime/regex_match.h.  Error messages and positions
 * follow stap 4.8's, positions counting bytes of the stored form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "util/regex.h"

enum node_kind { N_EMPTY, N_CHAR, N_ANY, N_SET, N_BOL, N_EOL, N_CAT, N_ALT,
		 N_GROUP, N_REPEAT };

struct node {
	enum node_kind kind;
	int c;			/* N_CHAR byte, N_SET set index, N_GROUP
			   number (-1: a (?:re) group) */
	int min, max;		/* N_REPEAT; max -1 = unbounded */
	struct node *l, *r;	/* N_CAT N_ALT; l for N_GROUP N_REPEAT */
};

struct rparse {
	unsigned char *dec;	/* decoded bytes */
	int *dpos;		/* their positions in the stored form */
	int n, i;		/* count, cursor */
	int rawlen;
	struct regex_prog *p;
	struct regex_error *err;
	struct node **nodes;	/* everything allocated, for freeing */
	int nnodes, cap;
	int failed;
};

static int fail(struct rparse *rp, int pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct rparse *rp, int pos, const char *fmt, ...)
{
	va_list ap;

	if (rp->failed)
		return -1;
	rp->failed = 1;
	rp->err->pos = pos;
	va_start(ap, fmt);
	vsnprintf(rp->err->msg, sizeof rp->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static void *xcalloc(size_t n, size_t size)
{
	void *v = calloc(n ? n : 1, size);

	if (!v) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	return v;
}

static struct node *mk(struct rparse *rp, enum node_kind k, struct node *l,
		       struct node *r)
{
	struct node *n = xcalloc(1, sizeof *n);

	if (rp->nnodes == rp->cap) {
		rp->cap = rp->cap ? 2 * rp->cap : 32;
		rp->nodes = realloc(rp->nodes, sizeof *rp->nodes * rp->cap);
		if (!rp->nodes) {
			fputs("stap: out of memory\n", stderr);
			exit(1);
		}
	}
	rp->nodes[rp->nnodes++] = n;
	n->kind = k;
	n->l = l;
	n->r = r;
	return n;
}

/* Position of decoded byte I in the stored form (its end past the last). */
static int rpos(struct rparse *rp, int i)
{
	return i < rp->n ? rp->dpos[i] : rp->rawlen;
}

static int octal(int c)
{
	return c >= '0' && c <= '7';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Stage 1: the C escapes of the stored form. */
static int decode(struct rparse *rp, const char *raw, int len)
{
	const char *ctl = "a\ab\bt\tn\nv\vf\fr\r";
	int i = 0;

	rp->dec = xcalloc(len + 1, 1);
	rp->dpos = xcalloc(len + 1, sizeof(int));
	rp->rawlen = len;
	while (i < len) {
		int at = i, c = (unsigned char)raw[i++];
		const char *k;

		if (c == '\\' && i < len) {
			int e = (unsigned char)raw[i];

			if (e == '\\') {
				i++;	/* the regex's escape character */
			} else if (octal(e)) {
				if (i + 2 >= len || !octal(raw[i + 1]) ||
				    !octal(raw[i + 2]))
					return fail(rp, i, "three octal digits required in escape sequence");
				c = (e - '0') * 64 + (raw[i + 1] - '0') * 8 +
				    (raw[i + 2] - '0');
				if (c > 0377)
					return fail(rp, i, "octal escape sequence out of range");
				i += 3;
			} else if (e == 'x') {
				if (i + 1 >= len)
					return fail(rp, i, "two hex digits required in escape sequence");
				if (i + 2 >= len || hexval(raw[i + 1]) < 0 ||
				    hexval(raw[i + 2]) < 0)
					return fail(rp, i + 2 >= len ? i : i + 1,
						    "two hex digits required in escape sequence");
				c = hexval(raw[i + 1]) * 16 + hexval(raw[i + 2]);
				i += 3;
			} else if (e && (k = strchr(ctl, e)) && (k - ctl) % 2 == 0) {
				c = (unsigned char)k[1];
				i++;
			}
			/* a stored form has no other escapes: kept as is */
		}
		rp->dpos[rp->n] = at;
		rp->dec[rp->n++] = (unsigned char)c;
	}
	return 0;
}

static int at_end(struct rparse *rp)
{
	return rp->i >= rp->n;
}

static int peek(struct rparse *rp)
{
	return at_end(rp) ? -1 : rp->dec[rp->i];
}

static int new_set(struct rparse *rp)
{
	struct regex_prog *p = rp->p;

	p->sets = realloc(p->sets, sizeof *p->sets * (p->nsets + 1));
	if (!p->sets) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	memset(p->sets[p->nsets], 0, 32);
	return p->nsets++;
}

static void set_add(unsigned char *set, int lo, int hi)
{
	for (; lo <= hi; lo++)
		set[lo >> 3] |= (unsigned char)(1 << (lo & 7));
}

static const struct {
	const char *name;
	int (*fn)(int);
} classes[] = {
	{ "alpha", isalpha }, { "upper", isupper }, { "lower", islower },
	{ "digit", isdigit }, { "xdigit", isxdigit }, { "space", isspace },
	{ "print", isprint }, { "punct", ispunct }, { "graph", isgraph },
	{ "cntrl", iscntrl }, { "alnum", isalnum }, { "blank", isblank },
};

/* [:name:] after the '[' at rp->i; adds the class to SET. */
static int bracket_class(struct rparse *rp, unsigned char *set)
{
	int start = rp->i, j = start + 2, k, c, nlen;
	char name[32];

	while (j + 1 < rp->n && !(rp->dec[j] == ':' && rp->dec[j + 1] == ']'))
		j++;
	if (j + 1 >= rp->n) {
		int end = rp->n - 1 > start + 2 ? rp->n - 1 : start + 2;
		return fail(rp, rp->rawlen, "unclosed character class '%.*s'",
			    end - start, (const char *)rp->dec + start);
	}
	nlen = j - (start + 2);
	if (nlen >= (int)sizeof name)
		nlen = sizeof name - 1;
	memcpy(name, rp->dec + start + 2, (size_t)nlen);
	name[nlen] = 0;
	for (k = 0; k < (int)(sizeof classes / sizeof classes[0]); k++)
		if (!strcmp(name, classes[k].name))
			break;
	if (k == (int)(sizeof classes / sizeof classes[0]))
		return fail(rp, -1, "unknown character class '%s'", name);
	for (c = 0; c < 256; c++)
		if (c < 128 && classes[k].fn(c))
			set_add(set, c, c);
	rp->i = j + 2;
	return 0;
}

/* bracket -> '[' ['^'] [']'] { char ['-' char] | '[:' name ':]' } ']'
 * (rp->i is past the '['); a backslash escapes the next char. */
static struct node *bracket(struct rparse *rp)
{
	int neg = 0, first = 1, idx = new_set(rp), k;
	unsigned char *set;

	if (peek(rp) == '^') {
		neg = 1;
		rp->i++;
	}
	for (;;) {
		int lo, hi;

		set = rp->p->sets[idx];
		if (at_end(rp)) {
			fail(rp, rp->rawlen - 1, "unclosed character class");
			return NULL;
		}
		lo = rp->dec[rp->i];
		if (lo == ']' && !first) {
			rp->i++;
			break;
		}
		first = 0;
		if (lo == '\\') {	/* the escape works in brackets too */
			if (rp->i + 1 >= rp->n) {
				fail(rp, rp->rawlen - 1, "unclosed character class");
				return NULL;
			}
			lo = rp->dec[++rp->i];
		} else if (lo == '[' && rp->i + 1 < rp->n &&
			   rp->dec[rp->i + 1] == ':') {
			if (bracket_class(rp, set))
				return NULL;
			continue;
		}
		rp->i++;
		if (peek(rp) == '-' && rp->i + 1 < rp->n &&
		    rp->dec[rp->i + 1] != ']') {
			hi = rp->dec[rp->i + 1];
			rp->i += 2;
			if (hi == '\\' && rp->i < rp->n)
				hi = rp->dec[rp->i++];
			if (hi < lo) {
				fail(rp, rpos(rp, rp->i),
				     "Inverted character range %c-%c", lo, hi);
				return NULL;
			}
			set_add(set, lo, hi);
		} else {
			set_add(set, lo, lo);
		}
	}
	if (neg)
		for (k = 0; k < 32; k++)
			set[k] = (unsigned char)~set[k];
	set[0] &= (unsigned char)~1;	/* NUL ends every string */
	{
		struct node *n = mk(rp, N_SET, NULL, NULL);
		n->c = idx;
		return n;
	}
}

static struct node *alternation(struct rparse *rp);

/* atom -> '(' ['?:'] alternation ')' | bracket | '.' | '^' | '$'
 *       | '\\' char | char */
static struct node *atom(struct rparse *rp)
{
	int c = rp->dec[rp->i], at = rp->i;
	struct node *n;

	switch (c) {
	case '*': case '+': case '?': case '{':
		fail(rp, rpos(rp, at), "unexpected '%c'", c);
		return NULL;
	case '(':
		rp->i++;
		n = mk(rp, N_GROUP, NULL, NULL);
		if (peek(rp) == '?') {	/* (?:re): a group without capture */
			rp->i++;
			if (at_end(rp)) {
				fail(rp, rpos(rp, rp->i - 1), "unexpected '(?");
				return NULL;
			}
			if (peek(rp) != ':') {
				fail(rp, rpos(rp, rp->i), "unexpected '(?%c'",
				     peek(rp));
				return NULL;
			}
			n->c = -1;	/* stap keeps the ':' as part of it */
		} else {
			n->c = rp->p->ngroups++;
		}
		n->l = alternation(rp);
		if (!n->l)
			return NULL;
		if (peek(rp) != ')') {
			fail(rp, rp->rawlen - 1, "expected ), found end of regex");
			return NULL;
		}
		rp->i++;
		return n;
	case '[':
		rp->i++;
		return bracket(rp);
	case '.':
		rp->i++;
		return mk(rp, N_ANY, NULL, NULL);
	case '^':
		rp->i++;
		return mk(rp, N_BOL, NULL, NULL);
	case '$':
		rp->i++;
		return mk(rp, N_EOL, NULL, NULL);
	case '\\':
		rp->i++;
		if (at_end(rp)) {
			fail(rp, rp->rawlen, "unexpected end of regex");
			return NULL;
		}
		c = rp->dec[rp->i];
		break;
	}
	rp->i++;
	n = mk(rp, N_CHAR, NULL, NULL);
	n->c = c;
	return n;
}

/* A decimal count in {m,n}; -1 if none is there. */
static int count(struct rparse *rp)
{
	long v = 0;

	if (!isdigit(peek(rp)))
		return -1;
	while (isdigit(peek(rp))) {
		if (v < 1000000)
			v = v * 10 + (rp->dec[rp->i] - '0');
		rp->i++;
	}
	return (int)v;
}

/* braces -> '{' count [',' [count]] '}' (rp->i is past the '{'). */
static int braces(struct rparse *rp, int *min, int *max)
{
	int c;

	*min = count(rp);
	if (*min < 0) {
		int pos = at_end(rp) ? rp->rawlen : rpos(rp, rp->i + 1);
		return fail(rp, pos, "expected number");
	}
	*max = *min;
	c = peek(rp);
	if (c < 0)
		return fail(rp, rp->rawlen, "unexpected end of regex");
	if (c != ',' && c != '}')
		return fail(rp, rpos(rp, rp->i), "expected ',' or '}'");
	rp->i++;
	/* stap checks each count once past the character after it */
	if (*min > REGEX_MAX_COUNT)
		return fail(rp, rpos(rp, rp->i), "%d is too large", *min);
	if (c == ',' && peek(rp) == '}') {
		*max = -1;
		rp->i++;
	} else if (c == ',') {
		*max = count(rp);
		if (*max < 0)
			return fail(rp, at_end(rp) ? rp->rawlen :
				    rpos(rp, rp->i + 1), "expected '}' or number");
		if (at_end(rp))
			return fail(rp, rp->rawlen - 1,
				    "expected }, found end of regex");
		if (peek(rp) != '}')
			return fail(rp, rpos(rp, rp->i), "expected }, found %c",
				    peek(rp));
		rp->i++;
		if (*max > REGEX_MAX_COUNT)
			return fail(rp, rpos(rp, rp->i), "%d is too large", *max);
	}
	/* stap 4.8 crashes on these; a plain error instead */
	if (*max >= 0 && *max < *min)
		return fail(rp, rpos(rp, rp->i),
			    "invalid repetition count {%d,%d}", *min, *max);
	return 0;
}

/* piece -> atom { '*' | '+' | '?' | braces } */
static struct node *piece(struct rparse *rp)
{
	struct node *n = atom(rp);

	while (n && !at_end(rp)) {
		int c = peek(rp), at = rp->i, min = 0, max = 0;
		struct node *r;

		if (c == '*' || c == '+' || c == '?') {
			min = c == '+';
			max = c == '?' ? 1 : -1;
			rp->i++;
		} else if (c == '{') {
			rp->i++;
			if (braces(rp, &min, &max))
				return NULL;
		} else {
			break;
		}
		if (n->kind == N_BOL || n->kind == N_EOL) {
			fail(rp, rpos(rp, at),
			     "postfix closure '%c' applied to anchoring operator", c);
			return NULL;
		}
		r = mk(rp, N_REPEAT, n, NULL);
		r->min = min;
		r->max = max;
		n = r;
	}
	return n;
}

/* concatenation -> { piece } (possibly empty) */
static struct node *concatenation(struct rparse *rp)
{
	struct node *n = NULL;

	while (!at_end(rp) && peek(rp) != '|' && peek(rp) != ')') {
		struct node *p = piece(rp);

		if (!p)
			return NULL;
		n = n ? mk(rp, N_CAT, n, p) : p;
	}
	return n ? n : mk(rp, N_EMPTY, NULL, NULL);
}

/* alternation -> concatenation { '|' concatenation } */
static struct node *alternation(struct rparse *rp)
{
	struct node *n = concatenation(rp);

	while (n && peek(rp) == '|') {
		struct node *r;

		rp->i++;
		r = concatenation(rp);
		if (!r)
			return NULL;
		n = mk(rp, N_ALT, n, r);
	}
	return n;
}

/* Stage 3: instructions. */
static int emit_inst(struct rparse *rp, int op, int c, int x, int y)
{
	struct regex_prog *p = rp->p;

	if (p->ninst >= REGEX_MAX_INST)
		return fail(rp, -1, "regular expression too large (over %d instructions)",
			    REGEX_MAX_INST);
	p->inst[p->ninst] = (struct stp_regex_inst){
		(unsigned char)op, (unsigned char)c, (unsigned short)x,
		(unsigned short)y };
	return p->ninst++;
}

static int gen(struct rparse *rp, struct node *n);

/* COUNT nested optional copies of N, greedy: each split prefers one more
 * copy, and all give up to the same place. */
static int gen_optional(struct rparse *rp, struct node *n, int count)
{
	struct regex_prog *p = rp->p;
	int *splits = xcalloc((size_t)count, sizeof(int)), k, rc = 0;

	for (k = 0; k < count && !rc; k++) {
		if ((splits[k] = emit_inst(rp, STP_RX_SPLIT, 0, 0, 0)) < 0) {
			rc = -1;
			break;
		}
		p->inst[splits[k]].x = (unsigned short)p->ninst;
		rc = gen(rp, n);
	}
	for (k = 0; k < count && !rc; k++)
		p->inst[splits[k]].y = (unsigned short)p->ninst;
	free(splits);
	return rc;
}

static int gen(struct rparse *rp, struct node *n)
{
	struct regex_prog *p = rp->p;
	int a, b, k;

	if (rp->failed)
		return -1;
	switch (n->kind) {
	case N_EMPTY:
		return 0;
	case N_CHAR:
		return emit_inst(rp, STP_RX_CHAR, n->c, 0, 0) < 0 ? -1 : 0;
	case N_ANY:
		return emit_inst(rp, STP_RX_ANY, 0, 0, 0) < 0 ? -1 : 0;
	case N_SET:
		return emit_inst(rp, STP_RX_SET, 0, n->c, 0) < 0 ? -1 : 0;
	case N_BOL:
		return emit_inst(rp, STP_RX_BOL, 0, 0, 0) < 0 ? -1 : 0;
	case N_EOL:
		return emit_inst(rp, STP_RX_EOL, 0, 0, 0) < 0 ? -1 : 0;
	case N_CAT:
		return gen(rp, n->l) || gen(rp, n->r) ? -1 : 0;
	case N_GROUP:
		if (n->c < 0)
			return gen(rp, n->l);
		if (emit_inst(rp, STP_RX_SAVE, 0, 2 * n->c, 0) < 0 ||
		    gen(rp, n->l) ||
		    emit_inst(rp, STP_RX_SAVE, 0, 2 * n->c + 1, 0) < 0)
			return -1;
		return 0;
	case N_ALT:
		if ((a = emit_inst(rp, STP_RX_SPLIT, 0, 0, 0)) < 0)
			return -1;
		p->inst[a].x = (unsigned short)p->ninst;
		if (gen(rp, n->l) || (b = emit_inst(rp, STP_RX_JMP, 0, 0, 0)) < 0)
			return -1;
		p->inst[a].y = (unsigned short)p->ninst;
		if (gen(rp, n->r))
			return -1;
		p->inst[b].x = (unsigned short)p->ninst;
		return 0;
	case N_REPEAT:
		for (k = 0; k < n->min; k++) {
			if (n->max < 0 && k == n->min - 1) {
				/* the last required copy loops: x+ */
				a = p->ninst;
				if (gen(rp, n->l) ||
				    (b = emit_inst(rp, STP_RX_SPLIT, 0, a, 0)) < 0)
					return -1;
				p->inst[b].y = (unsigned short)p->ninst;
				return 0;
			}
			if (gen(rp, n->l))
				return -1;
		}
		if (n->max < 0) {	/* x*: L: split body, out; body; jmp L */
			if ((a = emit_inst(rp, STP_RX_SPLIT, 0, 0, 0)) < 0)
				return -1;
			p->inst[a].x = (unsigned short)p->ninst;
			if (gen(rp, n->l) ||
			    emit_inst(rp, STP_RX_JMP, 0, a, 0) < 0)
				return -1;
			p->inst[a].y = (unsigned short)p->ninst;
			return 0;
		}
		return gen_optional(rp, n->l, n->max - n->min);
	}
	return -1;
}

int regex_compile(const char *raw, size_t len, struct regex_prog *p,
		  struct regex_error *err)
{
	struct rparse rp;
	struct node *root = NULL;
	int k;

	memset(p, 0, sizeof *p);
	memset(&rp, 0, sizeof rp);
	err->pos = -1;
	err->msg[0] = 0;
	rp.p = p;
	rp.err = err;
	p->ngroups = 1;
	if (decode(&rp, raw, (int)len) == 0) {
		root = alternation(&rp);
		/* stap stops at a ')' without its '(' and complains only if
		 * more follows it */
		if (root && peek(&rp) == ')') {
			rp.i++;
			if (!at_end(&rp))
				fail(&rp, rpos(&rp, rp.i), "unbalanced ')'");
		}
	}
	if (!rp.failed) {
		p->inst = xcalloc(REGEX_MAX_INST, sizeof *p->inst);
		if (emit_inst(&rp, STP_RX_SAVE, 0, 0, 0) >= 0 && !gen(&rp, root) &&
		    emit_inst(&rp, STP_RX_SAVE, 0, 1, 0) >= 0)
			emit_inst(&rp, STP_RX_MATCH, 0, 0, 0);
	}
	for (k = 0; k < rp.nnodes; k++)
		free(rp.nodes[k]);
	free(rp.nodes);
	free(rp.dec);
	free(rp.dpos);
	if (rp.failed) {
		regex_prog_free(p);
		return -1;
	}
	return 0;
}

void regex_prog_free(struct regex_prog *p)
{
	free(p->inst);
	free(p->sets);
	memset(p, 0, sizeof *p);
}
