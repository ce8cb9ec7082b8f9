/* dump.c - the -p1 listing: a parsed file printed back as script text.
 *
 * The shape follows stap 4.8's pass-1 dump: every operand of an operator
 * in parentheses, one statement per line ending in ';', declarations in the
 * order embedded code, globals, aliases, probes, functions.  The text
 * parses again to the same tree.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ast/dump.h"

static void exp_(FILE *o, const struct exp *e);

static const struct dump_style plain_style;
static const struct dump_style *style = &plain_style;

void dump_set_style(const struct dump_style *st)
{
	style = st ? st : &plain_style;
}
static void stmt_(FILE *o, const struct stmt *s);

/* A string literal in stap's stored form: only '"' needs escaping. */
static void quoted(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"')
			fputc('\\', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

/* A printf format is printed as C would need it written. */
static void quoted_format(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 32 || c >= 127)
			fprintf(o, "\\%03o", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

static void paren(FILE *o, const struct exp *e)
{
	fputc('(', o);
	exp_(o, e);
	fputc(')', o);
}

static void list(FILE *o, const struct vec *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", o);
		if (v->v[i])
			exp_(o, v->v[i]);
		else
			fputc('*', o);
	}
}

static void comps(FILE *o, const struct vec *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		const struct target_comp *c = v->v[i];

		switch (c->kind) {
		case TC_MEMBER:
			fprintf(o, "->%s", c->name);
			break;
		case TC_INDEX_NUM:
			fprintf(o, "[%" PRId64 "]", c->num);
			break;
		case TC_INDEX_EXP:
			fputc('[', o);
			exp_(o, c->index);
			fputc(']', o);
			break;
		case TC_PRETTY:
			fputs(c->num > 1 ? "->$$" : "->$", o);
			break;
		}
	}
}

static const char *print_name(const struct exp *e)
{
	static const char *const names[2][5] = {
		{ "print", "println", "printd", "printdln", "printf" },
		{ "sprint", "sprintln", "sprintd", "sprintdln", "sprintf" },
	};

	return names[e->u.print.to_string != 0][e->u.print.pkind];
}

static void print_(FILE *o, const struct exp *e)
{
	int sep = 0;

	fprintf(o, "%s(", print_name(e));
	if (e->u.print.pkind == PR_PRINTF) {
		quoted_format(o, e->u.print.fmt_raw ? e->u.print.fmt_raw : "");
		sep = 1;
	} else if (e->u.print.delim) {
		exp_(o, e->u.print.delim);
		sep = 1;
	}
	if (sep && e->u.print.args.n)
		fputs(", ", o);
	list(o, &e->u.print.args);
	fputc(')', o);
}

/* @cast, @var, @defined and the other @-operators. */
static void op_(FILE *o, const struct exp *e)
{
	const char *u = e->u.op.user ? "u" : "k";

	switch (e->kind) {
	case EX_CAST:
		fputs(e->u.op.addr_of ? "&@cast(" : "@cast(", o);
		exp_(o, e->u.op.operand);
		fputs(", ", o);
		quoted(o, e->u.op.name);
		break;
	case EX_ATVAR:
		fputs(e->u.op.addr_of ? "&@var(" : "@var(", o);
		quoted(o, e->u.op.name);
		break;
	case EX_DEFINED: fputs("@defined(", o); exp_(o, e->u.op.operand); break;
	case EX_ENTRY: fputs("@entry(", o); exp_(o, e->u.op.operand); break;
	case EX_PROBEWRITE:
		fputs("@probewrite(", o);
		exp_(o, e->u.op.operand);
		break;
	case EX_PERF: fputs("@perf(", o); quoted(o, e->u.op.name); break;
	case EX_REGISTER:
		fprintf(o, "@%sregister(", u);
		exp_(o, e->u.op.operand);
		break;
	case EX_DEREF:
		fprintf(o, "@%sderef(", u);
		exp_(o, e->u.op.size);
		fputs(", ", o);
		exp_(o, e->u.op.operand);
		break;
	case EX_AUTOCAST:
		fputs(e->u.op.addr_of ? "&(" : "(", o);
		exp_(o, e->u.op.operand);
		break;
	case EX_CONST:
		/* stap turns @const into embedded C with these pragmas */
		fprintf(o, "%%{ /* pure */ /* unprivileged */ /* stable */ %s %%}",
			e->u.op.name);
		return;
	default:
		break;
	}
	if (e->u.op.module) {
		fputs(", ", o);
		quoted(o, e->u.op.module);
	}
	fputc(')', o);
	comps(o, &e->u.op.comps);
}

static void exp_(FILE *o, const struct exp *e)
{
	if (style->exp && style->exp(o, e))
		return;
	switch (e->kind) {
	case EX_NUM:
		fprintf(o, e->hex ? "%#" PRIx64 : "%" PRId64, e->u.num);
		break;
	case EX_STR:
		quoted(o, e->u.str.raw ? e->u.str.raw : e->u.str.s);
		break;
	case EX_EMBEDDED:
		fprintf(o, "%%{ %s %%}", e->u.str.s);
		break;
	case EX_BINARY: case EX_CMP: case EX_LOG_OR: case EX_LOG_AND:
	case EX_CONCAT: case EX_ASSIGN:
		paren(o, e->u.bin.left);
		fprintf(o, " %s ", op_name(e->u.bin.op));
		paren(o, e->u.bin.right);
		break;
	case EX_REGEX:
		paren(o, e->u.bin.left);
		fprintf(o, " %s ", op_name(e->u.bin.op));
		exp_(o, e->u.bin.right);
		break;
	case EX_UNARY: case EX_PRE_INC:
		fputs(op_name(e->u.un.op), o);
		paren(o, e->u.un.operand);
		break;
	case EX_POST_INC:
		paren(o, e->u.un.operand);
		fputs(op_name(e->u.un.op), o);
		break;
	case EX_TERNARY:
		paren(o, e->u.tern.cond);
		fputc('?', o);
		paren(o, e->u.tern.yes);
		fputc(':', o);
		paren(o, e->u.tern.no);
		break;
	case EX_SYM:
		fputs(style->sym_name ? style->sym_name(e) : e->u.sym.name, o);
		break;
	case EX_INDEX:
		exp_(o, e->u.index.base);
		fputc('[', o);
		list(o, &e->u.index.indexes);
		fputc(']', o);
		break;
	case EX_IN:
		fputc('[', o);
		list(o, &e->u.index.indexes);
		fputs("] in ", o);
		exp_(o, e->u.index.in_array);
		break;
	case EX_CALL:
		fprintf(o, "%s(", style->call_name ? style->call_name(e)
						   : e->u.call.name);
		list(o, &e->u.call.args);
		fputc(')', o);
		break;
	case EX_PRINT:
		print_(o, e);
		break;
	case EX_STAT:
		fprintf(o, "@%s(", e->u.stat.op);
		exp_(o, e->u.stat.stat);
		if (e->u.stat.shift) {
			fputs(", ", o);
			exp_(o, e->u.stat.shift);
		}
		fputc(')', o);
		break;
	case EX_HIST:
		fputs(e->u.hist.is_log ? "@hist_log(" : "@hist_linear(", o);
		exp_(o, e->u.hist.stat);
		if (!e->u.hist.is_log) {
			fputs(", ", o);
			exp_(o, e->u.hist.lo);
			fputs(", ", o);
			exp_(o, e->u.hist.hi);
			fputs(", ", o);
			exp_(o, e->u.hist.step);
		}
		fputc(')', o);
		break;
	case EX_TARGET: case EX_TARGET_LIST:
		fprintf(o, "%s$%s", e->u.target.addr_of ? "&" : "",
			e->u.target.name);
		comps(o, &e->u.target.comps);
		break;
	default:
		op_(o, e);
		break;
	}
}

static void foreach_(FILE *o, const struct stmt *s)
{
	int i;

	fputs("foreach (", o);
	if (s->u.foreach.value) {
		exp_(o, s->u.foreach.value);
		fputs(" = ", o);
	}
	fputc('[', o);
	for (i = 0; i < s->u.foreach.keys.n; i++) {
		if (i)
			fputs(", ", o);
		exp_(o, s->u.foreach.keys.v[i]);
		if (s->u.foreach.sort_col == i + 1)
			fputc(s->u.foreach.sort_dir > 0 ? '+' : '-', o);
	}
	fputs("] in ", o);
	exp_(o, s->u.foreach.array);
	if (s->u.foreach.slice.n) {
		fputc('[', o);
		list(o, &s->u.foreach.slice);
		fputc(']', o);
	}
	if (s->u.foreach.sort_col == -1) {
		if (s->u.foreach.sort_stat)
			fprintf(o, " @%s", s->u.foreach.sort_stat);
		fputc(s->u.foreach.sort_dir > 0 ? '+' : '-', o);
	}
	if (s->u.foreach.limit) {
		fputs(" limit ", o);
		exp_(o, s->u.foreach.limit);
	}
	fputs(") ", o);
	stmt_(o, s->u.foreach.body);
}

/* -p2: how many statements block S holds once nested blocks are
 * flattened and null statements dropped; *FIRST gets the first. */
static int flat_count(const struct stmt *s, const struct stmt **first)
{
	int i, n = 0;

	if (s->kind == ST_NULL)
		return 0;
	if (s->kind != ST_BLOCK) {
		if (!*first)
			*first = s;
		return 1;
	}
	for (i = 0; i < s->u.block.n; i++)
		n += flat_count(s->u.block.v[i], first);
	return n;
}

static void flat_stmts(FILE *o, const struct stmt *s)
{
	int i;

	if (s->kind == ST_BLOCK) {
		for (i = 0; i < s->u.block.n; i++)
			flat_stmts(o, s->u.block.v[i]);
	} else if (s->kind != ST_NULL) {
		stmt_(o, s);
		fputs(";\n", o);
	}
}

/* -p2: a block as stap prints it after its optimizations. */
static void flat_block(FILE *o, const struct stmt *s)
{
	const struct stmt *first = NULL;
	int n = flat_count(s, &first);

	if (n == 0) {
		fputc(';', o);
	} else if (n == 1) {
		stmt_(o, first);
	} else {
		fputs("{\n", o);
		flat_stmts(o, s);
		fputc('}', o);
	}
}

/* -p2: `if (c) {} else S` prints as `if (!(c)) S`. */
static int empty_then(const struct stmt *s)
{
	const struct stmt *first = NULL;

	return style->optimized && s->u.if_.els &&
	       !flat_count(s->u.if_.then, &first);
}

static void stmt_(FILE *o, const struct stmt *s)
{
	int i;

	switch (s->kind) {
	case ST_BLOCK:
		if (style->optimized) {
			flat_block(o, s);
			break;
		}
		if (s->folded) {	/* what an `if` on a literal kept */
			if (s->u.block.n)
				stmt_(o, s->u.block.v[0]);
			else
				fputc(';', o);
			break;
		}
		fputs("{\n", o);
		for (i = 0; i < s->u.block.n; i++) {
			stmt_(o, s->u.block.v[i]);
			fputs(";\n", o);
		}
		fputc('}', o);
		break;
	case ST_EMBEDDED:
		fprintf(o, "%%{%s%%}", s->u.embedded.code);
		break;
	case ST_NULL:
		fputc(';', o);
		break;
	case ST_EXP:
		exp_(o, s->u.exp);
		break;
	case ST_IF:
		if (empty_then(s)) {
			fputs("if (!(", o);
			exp_(o, s->u.if_.cond);
			fputs(")) ", o);
			stmt_(o, s->u.if_.els);
			fputc('\n', o);
			break;
		}
		fputs("if (", o);
		exp_(o, s->u.if_.cond);
		fputs(") ", o);
		stmt_(o, s->u.if_.then);
		fputc('\n', o);
		if (s->u.if_.els) {
			fputs("else ", o);
			stmt_(o, s->u.if_.els);
			fputc('\n', o);
		}
		break;
	case ST_FOR:
		fputs("for (", o);
		if (s->u.for_.init)
			exp_(o, s->u.for_.init);
		fputs("; ", o);
		if (s->u.for_.cond)
			exp_(o, s->u.for_.cond);
		else
			fputc('1', o);
		fputs("; ", o);
		if (s->u.for_.incr)
			exp_(o, s->u.for_.incr);
		fputs(") ", o);
		stmt_(o, s->u.for_.body);
		break;
	case ST_FOREACH:
		foreach_(o, s);
		break;
	case ST_RETURN:
		fputs("return", o);
		if (s->u.exp) {
			fputc(' ', o);
			exp_(o, s->u.exp);
		}
		break;
	case ST_DELETE:
		fputs("delete ", o);
		if (style->elaborated && s->u.exp->kind == EX_SYM)
			fputs(s->u.exp->u.sym.name, o);	/* stap's quirk */
		else
			exp_(o, s->u.exp);
		break;
	case ST_BREAK: fputs("break", o); break;
	case ST_CONTINUE: fputs("continue", o); break;
	case ST_NEXT: fputs("next", o); break;
	case ST_TRY:
		fputs("try {\n", o);
		stmt_(o, s->u.try_.body);
		fputs("\n} catch", o);
		if (s->u.try_.catch_var) {
			fputs(" (", o);
			exp_(o, s->u.try_.catch_var);
			fputc(')', o);
		}
		fputs(" {\n", o);
		stmt_(o, s->u.try_.handler);
		fputs("\n}\n", o);
		break;
	default:
		break;
	}
}

static void point(FILE *o, const struct probe_point *pp)
{
	int i;

	for (i = 0; i < pp->comps.n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		if (i)
			fputc('.', o);
		fputs(c->name, o);
		if (c->has_arg) {
			fputc('(', o);
			if (c->arg)
				exp_(o, c->arg);
			fputc(')', o);
		}
	}
	if (pp->sufficient)
		fputc('!', o);
	else if (pp->optional)
		fputc('?', o);
	if (pp->cond) {
		fputs(" if (", o);
		exp_(o, pp->cond);
		fputc(')', o);
	}
}

static void points(FILE *o, const struct vec *v, const char *sep)
{
	int i;

	for (i = 0; i < v->n; i++) {
		if (i)
			fputs(sep, o);
		point(o, v->v[i]);
	}
}

static void global_(FILE *o, const struct global *g)
{
	fprintf(o, "global %s", g->name);
	if (g->wrap)
		fputc('%', o);
	if (g->is_array_decl)
		fprintf(o, "[%" PRId64 "]", g->max_entries);
	if (g->init) {
		fputs(" = ", o);
		exp_(o, g->init);
	}
	fputc('\n', o);
}

static void func_(FILE *o, const struct func *f)
{
	int i;

	fprintf(o, "function %s (", f->name);
	for (i = 0; i < f->params.n; i++) {
		const struct param *p = f->params.v[i];

		fprintf(o, "%s%s", i ? ", " : "", p->name);
	}
	fputs(")\n", o);
	stmt_(o, f->body);
	fputc('\n', o);
}

void dump_file(FILE *o, const struct file_ast *f)
{
	int i;

	fprintf(o, "# file %s\n", f->file->name);
	for (i = 0; i < f->embeds.n; i++) {
		const struct embedded_code *e = f->embeds.v[i];

		fprintf(o, "%%{%s%%}", e->code);
	}
	for (i = 0; i < f->globals.n; i++)
		global_(o, f->globals.v[i]);
	for (i = 0; i < f->aliases.n; i++) {
		const struct probe_alias *a = f->aliases.v[i];

		fputs("probe ", o);
		points(o, &a->names, ", ");
		fputs(a->kind == ALIAS_EPILOGUE ? " += " : " = ", o);
		points(o, &a->points, ", ");
		stmt_(o, a->body);
		fputc('\n', o);
	}
	for (i = 0; i < f->probes.n; i++) {
		const struct probe *p = f->probes.v[i];

		fputs("probe ", o);
		points(o, &p->points, ",");
		stmt_(o, p->body);
		fputc('\n', o);
	}
	for (i = 0; i < f->funcs.n; i++)
		func_(o, f->funcs.v[i]);
}

void dump_exp(FILE *o, const struct exp *e)
{
	exp_(o, e);
}

void dump_stmt(FILE *o, const struct stmt *s)
{
	stmt_(o, s);
}

void dump_stmt_flat(FILE *o, const struct stmt *s)
{
	flat_stmts(o, s);
}

void dump_probe_point(FILE *o, const struct probe_point *pp)
{
	point(o, pp);
}
