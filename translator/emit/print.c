/* print.c - C for the print family (pass 3).
 *
 * print/println/printd/printdln write each value into the per-CPU print
 * buffer; printf passes a typed argument array to the runtime formatter,
 * but for a format of plain %d and %s, written out piece by piece.
 * The sprint* forms do the same into a string temporary.  Formats were
 * checked in pass 2, so arguments match their directives here.
 */
#include <string.h>

#include "emit/emit_int.h"
#include "format.h"

/* the default MAXSTRINGLEN: a longer %m dump is refused */
#define MAXSTRINGLEN_TRANSLATE 512

/* A value to print: literals and variables as they are; anything else is
 * evaluated into a temporary first, so that every argument is computed
 * (and any error raised) before anything is printed, as with stap. */
static int simple(const struct exp *v)
{
	return v->kind == EX_NUM || v->kind == EX_STR || v->kind == EX_SYM;
}

/* ALL_SIMPLE: no argument can change a variable, so variables need no
 * snapshot. */
static const char *value_of(struct emit *e, struct strbuf *pre, struct exp *v,
			    int all_simple)
{
	const char *val = emit_exp(e, v), *t;

	if (v->kind == EX_NUM || v->kind == EX_STR ||
	    (v->kind == EX_SYM && all_simple))
		return val;
	t = emit_temp(e, v->type == TY_STRING ? TY_STRING : TY_LONG);
	if (v->type == TY_STRING)
		sb_printf(pre, "_stp_strlcpy(%s, %s, MAXSTRINGLEN); ", t, val);
	else
		sb_printf(pre, "%s = %s; ", t, val);
	return t;
}

/* One value appended to the output: the print buffer (TO == NULL) or the
 * string temporary TO. */
static void put_value(struct emit *e, struct strbuf *sb, const char *to,
		      struct exp *v, const char *val, struct exp *call)
{
	if (v->kind == EX_HIST) {
		sb_puts(sb, emit_hist_print(e, v, to, emit_exp_where(e, call)));
		return;
	}
	if (v->type == TY_STRING) {
		if (to)
			sb_printf(sb, "_stp_strlcat(%s, %s, MAXSTRINGLEN); ", to, val);
		else
			sb_printf(sb, "_stp_print_str(c, %s); ", val);
	} else {
		if (to)
			sb_printf(sb, "_stp_strcat_long(%s, %s); ", to, val);
		else
			sb_printf(sb, "_stp_print_long(c, %s); ", val);
	}
}

static void put_literal(struct emit *e, struct strbuf *sb, const char *to,
			const char *lit)
{
	if (to)
		sb_printf(sb, "_stp_strlcat(%s, %s, MAXSTRINGLEN); ", to, lit);
	else
		sb_printf(sb, "_stp_print_str(c, %s); ", lit);
}

/* %m/%M print memory: the argument is an address, the precision (a
 * literal, default 1) how many bytes; '#' reads user memory.  The bytes are
 * read fault-safely into a temporary before printing. */
static const char *mem_arg(struct emit *e, struct exp *x, struct exp *v,
			   const struct _stp_fmt_piece *p)
{
	const char *buf;
	int n = p->prec > 0 ? p->prec : 1;

	if (p->prec == STP_FMT_STAR) {
		emit_unsupported(e, x->loc, "a '*' precision with %m or %M");
		return "{ .kind = STP_FMT_ARG_LONG }, ";
	}
	if (n > MAXSTRINGLEN_TRANSLATE) {
		diag_error(&e->s->diags, x->loc, "translate.memory-dump",
			   "too many bytes for a memory dump: %d (at most %d)", n,
			   MAXSTRINGLEN_TRANSLATE);
		return "{ .kind = STP_FMT_ARG_LONG }, ";
	}
	buf = emit_temp(e, TY_STRING);
	return emit_sprintf(e, "{ .kind = STP_FMT_ARG_MEM, .mem = { ({ unsigned long _a = (unsigned long)(%s); if (_stp_script_read(%s, _a, %d, %d)) { _stp_error_fmt_at(c, %s, \"read fault [man error::fault] at 0x%%lx\", _a); goto %s; } (const void *)%s; }), %d } }, ",
			    emit_exp(e, v), buf, n, (p->flags & STP_FMT_SPECIAL) != 0,
			    emit_where(e, "identifier 'printf'", x->loc),
			    e->err_label, buf, n);
}

/* A printf to the print buffer whose directives are all plain %d, %i or %s
 * (no flag, width or precision) is written out piece by piece: the literal
 * text copied, each number converted, each string appended, with no format
 * parsed at run time.  The arguments are evaluated first (as with the
 * formatter), then room for the longest line the format can make is made
 * in the buffer, so a line never straddles a flush.  0 if the format is
 * not of that kind. */
static int emit_printf_plain(struct emit *e, struct strbuf *sb, struct exp *x)
{
	int i, n = x->u.print.args.n, nlong = 0, nstr = 0, all_simple = 1;
	struct _stp_fmt_piece p;
	struct _stp_fmt_error err;
	struct strbuf put = {0};
	size_t pos = 0, lit = 0;
	const char **vals;

	while (_stp_fmt_next(x->u.print.fmt, &pos, &p, &err) > 0) {
		if (p.kind != STP_FMT_DIRECTIVE) {
			lit += p.len;
			continue;
		}
		if (p.flags || p.width != STP_FMT_NONE || p.prec != STP_FMT_NONE ||
		    !strchr("dis", p.conv))
			return 0;
		if (p.conv == 's')
			nstr++;
		else
			nlong++;
	}
	if (nlong + nstr != n || lit > 1024)
		return 0;
	vals = arena_alloc(e->s->arena, sizeof(char *) * (size_t)(n + 1));
	for (i = 0; i < n; i++)
		all_simple &= simple(x->u.print.args.v[i]);
	for (i = 0; i < n; i++)
		vals[i] = value_of(e, sb, x->u.print.args.v[i], all_simple);
	sb_printf(sb, "_stp_print_reserve(c, %zu + %d * 20 + %d * MAXSTRINGLEN); ",
		  lit, nlong, nstr);
	pos = 0;
	i = 0;
	while (_stp_fmt_next(x->u.print.fmt, &pos, &p, &err) > 0) {
		if (p.kind != STP_FMT_DIRECTIVE)
			sb_printf(&put, "_stp_print_mem(c, %s, %zu); ",
				  emit_cstr(e, p.text, p.len), p.len);
		else
			put_value(e, &put, NULL, x->u.print.args.v[i], vals[i], x), i++;
	}
	sb_puts(sb, put.s ? put.s : "");
	sb_free(&put);
	return 1;
}

static void emit_printf(struct emit *e, struct strbuf *sb, struct exp *x,
			const char *to)
{
	int i, n = x->u.print.args.n;
	const char *fmt = emit_cstr(e, x->u.print.fmt, x->u.print.fmt_len);
	const char *argv = "NULL";
	struct _stp_fmt_piece p, *pieces;
	struct _stp_fmt_error err;
	enum _stp_fmt_type types[3];
	size_t pos = 0;

	if (!to && emit_printf_plain(e, sb, x))
		return;
	/* the directive each argument's value belongs to */
	pieces = arena_alloc(e->s->arena, sizeof(*pieces) * (size_t)(n + 1));
	i = 0;
	while (_stp_fmt_next(x->u.print.fmt, &pos, &p, &err) > 0) {
		if (p.kind != STP_FMT_DIRECTIVE)
			continue;
		i += _stp_fmt_piece_args(&p, types);
		if (i <= n && i > 0 && (p.conv == 'm' || p.conv == 'M'))
			pieces[i - 1] = p;
	}
	if (n) {
		struct strbuf a = {0};
		sb_puts(&a, "(struct _stp_fmt_arg[]){ ");
		for (i = 0; i < n; i++) {
			struct exp *v = x->u.print.args.v[i];
			if (pieces[i].kind == STP_FMT_DIRECTIVE &&
			    (pieces[i].conv == 'm' || pieces[i].conv == 'M'))
				sb_puts(&a, mem_arg(e, x, v, &pieces[i]));
			else if (v->type == TY_STRING)
				sb_printf(&a, "{ .kind = STP_FMT_ARG_STR, .s = %s }, ",
					  emit_exp(e, v));
			else
				sb_printf(&a, "{ .kind = STP_FMT_ARG_LONG, .n = %s }, ",
					  emit_exp(e, v));
		}
		sb_puts(&a, "}");
		argv = arena_strdup(e->s->arena, a.s);
		sb_free(&a);
	}
	if (to)
		sb_printf(sb, "_stp_format(%s, MAXSTRINGLEN, %s, %s, %d); ", to,
			  fmt, argv, n);
	else
		sb_printf(sb, "_stp_print_fmt(c, %s, %s, %d); ", fmt, argv, n);
}

const char *emit_print(struct emit *e, struct exp *x)
{
	struct strbuf sb = {0};
	const char *to = NULL, *delim = NULL, *r;
	enum print_kind k = x->u.print.pkind;
	int i;

	if (x->u.print.args.n > 32)	/* the runtime's formatter takes 32 */
		diag_error(&e->s->diags, x->loc, "translate.print-args",
			   "too many arguments to print (%d)", x->u.print.args.n);

	if (x->u.print.to_string) {
		to = emit_temp(e, TY_STRING);
		sb_printf(&sb, "({ %s[0] = '\\0'; ", to);
	} else {
		sb_puts(&sb, "({ ");
	}
	if (k == PR_PRINTF) {
		emit_printf(e, &sb, x, to);
	} else {
		const char **vals = arena_alloc(e->s->arena, sizeof(char *) *
						(size_t)(x->u.print.args.n + 1));
		if (x->u.print.delim)
			delim = emit_exp(e, x->u.print.delim);
		int all_simple = 1;
		for (i = 0; i < x->u.print.args.n; i++)
			all_simple &= simple(x->u.print.args.v[i]);
		for (i = 0; i < x->u.print.args.n; i++) {
			struct exp *v = x->u.print.args.v[i];
			vals[i] = v->kind == EX_HIST ? NULL :
				value_of(e, &sb, v, all_simple);
		}
		for (i = 0; i < x->u.print.args.n; i++) {
			if (i && delim)
				put_literal(e, &sb, to, delim);
			put_value(e, &sb, to, x->u.print.args.v[i], vals[i], x);
		}
		if (k == PR_PRINTLN || k == PR_PRINTDLN)
			put_literal(e, &sb, to, "\"\\n\"");
	}
	if (to)
		sb_printf(&sb, "(const char *)%s; })", to);
	else
		sb_puts(&sb, "(int64_t)0; })");
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&sb);
	return r;
}
