/* preproc.c - the token stream between the scanner and the grammar.
 *
 * In order, on the way to bison: command-line arguments ($1 @1 $# @#) are
 * pasted in, @define macros are recorded and expanded, %( cond %? … %: … %)
 * conditionals are resolved (ppcond.c evaluates the condition), and inside
 * probe points adjacent name pieces are glued into one PP_WORD ("sys*call",
 * "**") and brace-expansion braces are told apart from the probe body.
 * Arguments and macros are expanded only in code that is kept, as stap does.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "parse/parser.h"

#define MAX_DEPTH 200		/* nested macro expansions */
#define MAX_EXPANDED 1000000	/* tokens made by macros in one file */

/* ---- interned strings ---- */

struct islot {
	const char *s;		/* NULL: empty */
	uint32_t len, hash;
};

/* Names of up to 7 bytes (operators, keywords, most identifiers) are
 * found first in a direct-mapped cache keyed by their bytes. */
#define SHORT_CACHE 2048

struct intern_tab {
	struct islot *slot;
	size_t n, cap;
	struct arena *a;
	struct {
		uint64_t key;
		const char *s;
	} shortc[SHORT_CACHE];
};
static struct intern_tab itab;

static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void atops_intern(struct session *s);

void parse_tables_reset(struct session *s)
{
	free(itab.slot);
	memset(&itab, 0, sizeof itab);
	itab.a = s->arena;
	itab.cap = 4096;
	itab.slot = calloc(itab.cap, sizeof *itab.slot);
	if (!itab.slot)
		xoom();
	atops_intern(s);
}

static void intern_grow(void)
{
	struct islot *old = itab.slot;
	size_t oldcap = itab.cap, i;

	itab.cap *= 2;
	itab.slot = calloc(itab.cap, sizeof *itab.slot);
	if (!itab.slot)
		xoom();
	for (i = 0; i < oldcap; i++) {
		size_t j;

		if (!old[i].s)
			continue;
		j = old[i].hash & (itab.cap - 1);
		while (itab.slot[j].s)
			j = (j + 1) & (itab.cap - 1);
		itab.slot[j] = old[i];
	}
	free(old);
}

static const char *intern_long(struct session *s, const char *text,
			       size_t len);

const char *parse_intern(struct session *s, const char *text, size_t len)
{
	uint64_t key = len;
	size_t i, c;

	if (len > 7 || !itab.slot || itab.a != s->arena)
		return intern_long(s, text, len);
	for (i = 0; i < len; i++)
		key |= (uint64_t)(unsigned char)text[i] << (8 * i + 8);
	c = (size_t)((key * 0x9e3779b97f4a7c15u) >> 53) & (SHORT_CACHE - 1);
	if (itab.shortc[c].key != key || !itab.shortc[c].s) {
		itab.shortc[c].key = key;
		itab.shortc[c].s = intern_long(s, text, len);
	}
	return itab.shortc[c].s;
}

static const char *intern_long(struct session *s, const char *text,
			       size_t len)
{
	uint32_t h = hash(text, len);
	struct islot *e;
	size_t j;

	if (!itab.slot || itab.a != s->arena)
		parse_tables_reset(s);
	if (2 * (itab.n + 1) > itab.cap)
		intern_grow();
	for (j = h & (itab.cap - 1); (e = &itab.slot[j])->s;
	     j = (j + 1) & (itab.cap - 1))
		if (e->hash == h && e->len == len && !memcmp(e->s, text, len))
			return e->s;
	itab.n++;
	e->hash = h;
	e->len = (uint32_t)len;
	return e->s = arena_strndup(s->arena, text, len);
}

/* ---- macros ---- */

#define MACRO_BUCKETS 1024
static struct macro *macros[MACRO_BUCKETS];

void macro_tables_reset(void)
{
	memset(macros, 0, sizeof macros);
}

static struct macro **bucket(const char *name)
{
	return &macros[((uintptr_t)name >> 4) % MACRO_BUCKETS];
}

/* The macro table holds the library's macros and each file's own; a
 * macro of this file wins over a library one of the same name. */
static struct macro *macro_lookup(struct parser *p, const char *name)
{
	struct macro *m, *lib = NULL;

	for (m = *bucket(name); m; m = m->next) {
		if (m->name != name)
			continue;
		if (m->file == p->file)
			return m;
		if (!m->file)
			lib = m;
	}
	return lib;
}

static void macro_define(struct parser *p, struct macro *m)
{
	struct macro **b = bucket(m->name), *o;

	for (o = *b; o; o = o->next)
		if (o->name == m->name && o->file == m->file) {
			parse_error(p, m->loc, "pp.macro-redefined",
				    "attempted to redefine macro '@%s' in the same file",
				    m->name);
			if (!p->fast)
				diag_note(&p->s->diags, o->loc,
					  "previous definition was here");
			return;
		}
	m->next = *b;
	*b = m;
	if (p->fast)
		vec_push(p->a, &p->defined, m);
}

void macro_undefine(struct parser *p)
{
	int i;

	for (i = p->defined.n - 1; i >= 0; i--) {
		struct macro *m = p->defined.v[i], **b;

		for (b = bucket(m->name); *b; b = &(*b)->next)
			if (*b == m) {
				*b = m->next;
				break;
			}
	}
	p->defined.n = 0;
}

/* ---- the raw stream: pushed-back tokens over the scanner ---- */

static void push(struct parser *p, const struct token *t)
{
	struct tokbuf *b = &p->pending;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->v = xrealloc(b->v, (size_t)b->cap * sizeof *b->v);
	}
	b->v[b->n++] = *t;
}

/* An argument counts as used once the scanner has seen it, even in a
 * branch not taken or a macro never called (stap marks it there); in a
 * tapset file, only if the program keeps something of that file (the
 * argv tapset names them all), which elaborate.c decides. */
static void mark_arg_used(struct session *s, const struct src_file *f,
			  const char *txt)
{
	int n = txt[1] == '#' ? 0 : atoi(txt + 1);

	if (n < 1 || n > s->args.n)
		return;
	if (f && f->is_tapset) {
		struct arg_use *u = ARENA_NEW(s->arena, struct arg_use);

		u->file = f;
		u->n = n;
		vec_push(s->arena, &s->tapset_arg_uses, u);
		return;
	}
	if (!s->args_used)
		s->args_used = arena_alloc(s->arena, (size_t)s->args.n);
	s->args_used[n - 1] = 1;
}

static int next_raw(struct parser *p, struct token *t)
{
	if (p->pending.n) {
		*t = p->pending.v[--p->pending.n];
		return t->type;
	}
	t->type = lex_next(p, p->scanner, t);
	t->depth = 0;
	if (t->type)
		p->nraw++;
	if (t->type == ARG)
		mark_arg_used(p->s, p->file, t->text);
	return t->type;
}

void pp_reset(struct parser *p)
{
	int i;

	for (i = 0; i < MACRO_ARGS; i++) {
		free(p->margs[i].v);
		p->margs[i] = (struct tokbuf){0};
	}
	free(p->pending.v);
	memset(&p->pending, 0, sizeof p->pending);
	free(p->conds);
	p->conds = NULL;
	p->nconds = p->capconds = 0;
	p->pp_mode = p->pp_in_cond = p->pp_braces = p->pp_parens = 0;
	p->prev_type = 0;
	p->expanded = 0;
}

/* Push a sequence so that it is read next, first token first. */
static void push_seq(struct parser *p, const struct token *v, int n)
{
	while (n-- > 0)
		push(p, &v[n]);
}

/* ---- command-line arguments ---- */

/* $N pastes the argument's text as tokens; @N as one string; $# and @#
 * give the count. */
static int paste_arg(struct parser *p, struct token *t)
{
	struct session *s = p->s;
	const char *txt = t->text;
	int is_str = txt[0] == '@', n, type;

	if (txt[1] == '#') {
		char buf[24];
		int len = snprintf(buf, sizeof buf, "%d", s->args.n);

		t->type = is_str ? STRING : NUMBER;
		t->text = parse_intern(s, buf, (size_t)len);
		if (is_str) {
			t->str = t->text;
			t->str_len = (uint32_t)len;
		} else {
			t->num = s->args.n;
		}
		return t->type;
	}
	n = atoi(txt + 1);
	if (n < 1 || n > s->args.n || txt[1 + strspn(txt + 1, "0123456789")]) {
		parse_error(p, t->loc, "lex.missing-argument",
			    "command line argument %s out of range [1-%d]",
			    txt, s->args.n);
		return -1;
	}
	txt = s->args.v[n - 1];
	if (is_str) {
		t->type = STRING;
		t->str = txt;
		t->str_len = (uint32_t)strlen(txt);
		t->text = txt;
		return STRING;
	}
	{
		struct token buf[64], *v = buf;
		int cnt = 0, cap = 64;
		void *sc;

		lex_open(p, t->loc.file, txt, strlen(txt), &sc);
		while ((type = lex_next(p, sc, &v[cnt])) != 0) {
			v[cnt].loc = t->loc;
			v[cnt].depth = t->depth;
			if (++cnt == cap) {
				struct token *nv = xmalloc(2 * (size_t)cap * sizeof *nv);

				memcpy(nv, v, (size_t)cap * sizeof *nv);
				if (v != buf)
					free(v);
				v = nv;
				cap *= 2;
			}
		}
		lex_close(sc);
		push_seq(p, v, cnt);
		if (v != buf)
			free(v);
	}
	return -1;
}

/* ---- @define and macro invocation ---- */

static const char *at_name(struct parser *p, const char *name)
{
	size_t n = strlen(name);
	char buf[128], *b = n + 2 <= sizeof buf ? buf : xmalloc(n + 2);
	const char *r;

	b[0] = '@';
	memcpy(b + 1, name, n + 1);
	r = parse_intern(p->s, b, n + 1);
	if (b != buf)
		free(b);
	return r;
}

static void define_macro(struct parser *p, struct token *at)
{
	struct token t, *body = NULL;
	struct macro *m;
	int n = 0, cap = 0, depth = 0;

	if (next_raw(p, &t) != IDENT) {
		parse_error(p, t.loc, "pp.expected-macro-name",
			    "expected identifier after '@define', found %s",
			    token_desc(p, &t));
		if (t.type)
			push(p, &t);
		return;
	}
	if (!strcmp(t.text, "define")) {
		parse_error(p, t.loc, "pp.macro-redefined",
			    "attempt to redefine '@define'");
		return;
	}
	m = arena_alloc(p->a, sizeof *m);
	m->name = t.text;
	m->loc = at->loc;
	m->file = p->library_macros_only ? NULL : p->file;
	next_raw(p, &t);
	if (t.type == '(') {
		do {
			if (next_raw(p, &t) != IDENT) {
				parse_error(p, t.loc, "pp.bad-macro-params",
					    "expected a parameter name in the definition of macro '@%s', found %s",
					    m->name, token_desc(p, &t));
				return;
			}
			/* kept as "@name", the interned text of its uses */
			vec_push(p->a, &m->params,
				 (void *)at_name(p, t.text));
		} while (next_raw(p, &t) == ',');
		if (t.type != ')') {
			parse_error(p, t.loc, "pp.bad-macro-params",
				    "expected ',' or ')' in the definition of macro '@%s', found %s",
				    m->name, token_desc(p, &t));
			return;
		}
		next_raw(p, &t);
	}
	if (t.type != PP_OPEN) {
		parse_error(p, t.loc, "pp.expected-macro-body",
			    "expected '%%(' to open the body of macro '@%s', found %s",
			    m->name, token_desc(p, &t));
		return;
	}
	for (;;) {
		if (next_raw(p, &t) == 0) {
			parse_error(p, at->loc, "pp.unterminated-macro",
				    "macro '@%s' has no closing '%%)' before the end of the file",
				    m->name);
			free(body);
			return;
		}
		if (t.type == PP_OPEN)
			depth++;
		if (t.type == PP_CLOSE && depth-- == 0)
			break;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			body = xrealloc(body, (size_t)cap * sizeof *body);
		}
		body[n++] = t;
	}
	m->nbody = n;
	m->body = arena_alloc(p->a, (size_t)n * sizeof *body + 1);
	if (n)
		memcpy(m->body, body, (size_t)n * sizeof *body);
	free(body);
	macro_define(p, m);
}

static void tl_add(struct tokbuf *l, const struct token *t)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
	}
	l->v[l->n++] = *t;
}

/* Read the parenthesised arguments of an invocation; -1 after an error. */
static int macro_args(struct parser *p, struct macro *m, struct token *at,
		      struct tokbuf *args)
{
	struct token t;
	int depth = 0, nargs = 1, np = m->params.n;

	if (next_raw(p, &t) != '(') {
		parse_error(p, t.loc, "pp.macro-args",
			    "expected '(' in invocation of macro '@%s' taking %d parameters",
			    m->name, np);
		push(p, &t);
		return -1;
	}
	for (;;) {
		if (next_raw(p, &t) == 0) {
			parse_error(p, at->loc, "pp.macro-args",
				    "unterminated invocation of macro '@%s'",
				    m->name);
			return -1;
		}
		if (t.type == '(')
			depth++;
		else if (t.type == ')' && depth-- == 0)
			break;
		else if (t.type == ',' && depth == 0) {
			if (++nargs > np) {
				parse_error(p, t.loc, "pp.macro-args",
					    "too many parameters for macro '@%s' (expected %d)",
					    m->name, np);
				return -1;
			}
			continue;
		}
		tl_add(&args[nargs - 1], &t);
	}
	if (nargs < np) {
		parse_error(p, t.loc, "pp.macro-args",
			    "too few parameters for macro '@%s' (expected %d)",
			    m->name, np);
		return -1;
	}
	return 0;
}

/* The body goes straight onto the pushed-back stack, last token first,
 * with the arguments in place of the parameters. */
static void expand_macro(struct parser *p, struct macro *m, struct token *at)
{
	struct tokbuf *argv = p->margs;
	int i, j, k, np = m->params.n, bad = 0;
	unsigned short depth = (unsigned short)(at->depth + 1);

	/* After the first runaway expansion, macros expand to nothing:
	 * one message, and no exponential work. */
	if (p->expanded > MAX_EXPANDED)
		return;
	if (at->depth >= MAX_DEPTH || p->expanded + m->nbody > MAX_EXPANDED) {
		parse_error(p, at->loc, "pp.macro-recursion",
			    "too many nested expansions of macro '@%s'", m->name);
		p->expanded = MAX_EXPANDED + 1;
		return;
	}
	if (np > MACRO_ARGS)
		argv = xmalloc((size_t)np * sizeof *argv);
	for (i = 0; i < np; i++) {
		if (argv == p->margs)
			argv[i].n = 0;
		else
			argv[i] = (struct tokbuf){0};
	}
	if (np)
		bad = macro_args(p, m, at, argv);
	for (i = m->nbody - 1; !bad && i >= 0; i--) {
		struct token t = m->body[i];

		for (j = 0; t.type == ATWORD && j < np; j++)
			if (t.text == (const char *)m->params.v[j])
				break;
		if (t.type == ATWORD && j < np) {
			p->expanded += argv[j].n;
			for (k = argv[j].n - 1; k >= 0; k--) {
				struct token a = argv[j].v[k];

				a.depth = depth;
				push(p, &a);
			}
			continue;
		}
		t.depth = depth;
		if (i == 0)
			t.space_before = at->space_before;
		push(p, &t);
	}
	p->expanded += m->nbody;
	if (argv != p->margs) {
		for (i = 0; i < np; i++)
			free(argv[i].v);
		free(argv);
	}
}

/* The @-operators of the language; anything else is a macro.  Tokens
 * are interned: their names are compared by pointer. */
static const struct {
	const char *name;
	int type;
} atops[] = {
	{ "@cast", AT_CAST }, { "@defined", AT_DEFINED },
	{ "@probewrite", AT_PROBEWRITE }, { "@entry", AT_ENTRY },
	{ "@perf", AT_PERF }, { "@var", AT_VAR }, { "@const", AT_CONST },
	{ "@count", AT_STAT }, { "@sum", AT_STAT }, { "@min", AT_STAT },
	{ "@max", AT_STAT }, { "@avg", AT_STAT }, { "@variance", AT_STAT },
	{ "@hist_linear", AT_HIST_LINEAR }, { "@hist_log", AT_HIST_LOG },
	{ "@kregister", AT_REGISTER }, { "@uregister", AT_REGISTER },
	{ "@kderef", AT_DEREF }, { "@uderef", AT_DEREF },
};
#define NATOPS (sizeof atops / sizeof atops[0])
static const char *atop_names[NATOPS], *at_define;

static void atops_intern(struct session *s)
{
	size_t i;

	for (i = 0; i < NATOPS; i++)
		atop_names[i] = parse_intern(s, atops[i].name, strlen(atops[i].name));
	at_define = parse_intern(s, "@define", 7);
}

int pp_names_macro(struct parser *p, const struct token *t)
{
	return t->text == at_define ||
	       macro_lookup(p, parse_intern(p->s, t->text + 1,
					    strlen(t->text + 1)));
}

/* The next token with arguments pasted and macros expanded.  */
static int next_expanded(struct parser *p, struct token *t)
{
	size_t i;
	struct macro *m;

	for (;;) {
		int type = next_raw(p, t);

		if (type == ARG) {
			if (paste_arg(p, t) < 0)
				continue;
			return t->type;
		}
		if (type != ATWORD)
			return type;
		for (i = 0; i < NATOPS; i++)
			if (t->text == atop_names[i])
				return t->type = atops[i].type;
		if (t->text == at_define) {
			define_macro(p, t);
			continue;
		}
		m = macro_lookup(p, parse_intern(p->s, t->text + 1, strlen(t->text + 1)));
		if (!m) {
			parse_error(p, t->loc, "pp.unknown-macro",
				    "unknown operator or macro %s", t->text);
			continue;
		}
		expand_macro(p, m, t);
	}
}

/* ---- conditionals ---- */

/* Skip a branch that is not taken; returns PP_ELSE or PP_CLOSE (the one
 * that ended it at this level), or 0 at the end of the file. */
static int skip_branch(struct parser *p, int stop_at_else)
{
	struct token t;
	int depth = 0;

	for (;;) {
		switch (next_raw(p, &t)) {
		case 0:
			return 0;
		case PP_OPEN:
			depth++;
			break;
		case PP_THEN:	/* a second %? of one conditional */
			if (!depth)
				parse_error(p, t.loc, "pp.stray-marker",
					    "incomplete conditional - missing '%%('");
			break;
		case PP_ELSE:
			if (!depth && stop_at_else)
				return PP_ELSE;
			break;
		case PP_CLOSE:
			if (!depth--)
				return PP_CLOSE;
			break;
		}
	}
}

static void cond_push(struct parser *p, struct loc loc)
{
	if (p->nconds == p->capconds) {
		p->capconds = p->capconds ? 2 * p->capconds : 8;
		p->conds = xrealloc(p->conds, (size_t)p->capconds * sizeof *p->conds);
	}
	p->conds[p->nconds].loc = loc;
	p->conds[p->nconds++].in_else = 0;
}

static void incomplete(struct parser *p, struct loc loc)
{
	parse_error(p, loc, "pp.incomplete-conditional",
		    "incomplete conditional at end of file");
}

/* The next token with conditionals resolved. */
static int next_cond(struct parser *p, struct token *t)
{
	for (;;) {
		int type = next_expanded(p, t), end;

		switch (type) {
		case PP_OPEN: {
			struct token open = *t;
			int stop;

			if (ppcond_eval(p, &open, next_expanded, &stop)) {
				cond_push(p, open.loc);
				continue;
			}
			/* a malformed condition may have run into the
			 * markers that follow it */
			if (stop == PP_THEN)
				end = skip_branch(p, 1);
			else
				end = stop;
			if (!end && stop == PP_THEN)
				incomplete(p, open.loc);
			else if (end == PP_ELSE) {
				cond_push(p, open.loc);
				p->conds[p->nconds - 1].in_else = 1;
			}
			continue;
		}
		case PP_ELSE:
			if (!p->nconds || p->conds[p->nconds - 1].in_else)
				break;
			if (!skip_branch(p, 0))
				incomplete(p, p->conds[p->nconds - 1].loc);
			p->nconds--;
			continue;
		case PP_CLOSE:
			if (!p->nconds)
				break;
			p->nconds--;
			continue;
		case 0:
			if (p->nconds) {
				incomplete(p, p->conds[p->nconds - 1].loc);
				p->nconds = 0;
			}
			return 0;
		}
		if (type == PP_THEN || type == PP_ELSE || type == PP_CLOSE) {
			parse_error(p, t->loc, "pp.stray-marker",
				    "'%s' outside a conditional", t->text);
			continue;
		}
		return type;
	}
}

/* ---- probe points ---- */

int pp_is_keyword(int type)
{
	switch (type) {
	case PROBE: case GLOBAL: case PRIVATE: case FUNCTION: case IF:
	case ELSE: case FOR: case FOREACH: case IN: case LIMIT: case RETURN:
	case DELETE: case WHILE: case BREAK: case CONTINUE: case NEXT:
	case TRY: case CATCH: case KW_STRING: case KW_LONG:
		return 1;
	}
	return 0;
}

static int is_piece(int type)
{
	return type == IDENT || type == '*' || pp_is_keyword(type);
}

/* Does a probe-point component start here (after the previous token)? */
static int component_start(int prev)
{
	return prev == '.' || prev == ',' || prev == PROBE || prev == '=' ||
	       prev == PLUSEQ || prev == PP_LBRACE;
}

/* Glue a run of adjacent pieces into one PP_WORD. */
static int glue_word(struct parser *p, struct token *t)
{
	struct strbuf sb = {0};
	struct token n;

	sb_puts(&sb, t->text);
	for (;;) {
		int type = next_cond(p, &n);

		if ((is_piece(type) || type == NUMBER) && !n.space_before) {
			sb_puts(&sb, n.text);
			continue;
		}
		push(p, &n);
		break;
	}
	t->text = parse_intern(p->s, sb.s, sb.len);
	sb_free(&sb);
	return t->type = PP_WORD;
}

static int probe_mode(struct parser *p, struct token *t)
{
	int type = t->type;

	if (p->pp_in_cond) {
		if (type == '(')
			p->pp_parens++;
		else if (type == ')' && --p->pp_parens <= 0)
			p->pp_in_cond = 0;
		return type;
	}
	if (type == IF && !component_start(p->prev_type)) {
		p->pp_in_cond = 1;
		p->pp_parens = 0;
		return type;
	}
	if (is_piece(type) && component_start(p->prev_type))
		return glue_word(p, t);
	if (type == '{') {
		if (component_start(p->prev_type)) {
			p->pp_braces++;
			return t->type = PP_LBRACE;
		}
		p->pp_mode = 0;
		return type;
	}
	if (type == '}' && p->pp_braces > 0) {
		p->pp_braces--;
		return t->type = PP_RBRACE;
	}
	if (type == ';' || type == 0)
		p->pp_mode = 0;
	return type;
}

/* After an operand's postfix ++ or --, another ++ or -- starts the next
 * statement (`a++ ++b` is `a++; ++b`), as in stap, where a postfix
 * operator does not apply twice: the statement ends there. */
static int ends_postfix(const struct parser *p, int type)
{
	if ((type != INC && type != DEC) ||
	    (p->prev_type != INC && p->prev_type != DEC))
		return 0;
	switch (p->prev2_type) {
	case IDENT: case NUMBER: case STRING: case TARGET: case ')': case ']':
		return 1;
	default:
		return 0;
	}
}

int pp_next(struct parser *p, struct token *t)
{
	int type = next_cond(p, t);

	if (!p->pp_mode && ends_postfix(p, type)) {
		push(p, t);
		t->type = type = ';';
		t->text = ";";
	}

	if (p->pp_mode)
		type = probe_mode(p, t);
	else if (p->prev_type == ARROW)
		;	/* a member named like a keyword: $p->probe */
	else if (type == PROBE) {
		p->pp_mode = 1;
		p->pp_braces = 0;
		p->pp_in_cond = 0;
		p->in_function = 0;
	} else if (type == FUNCTION)
		p->in_function = 1;
	else if (type == GLOBAL)
		p->in_function = 0;
	p->prev2_type = p->prev_type;
	p->prev_type = type;
	return type;
}
