/* printcheck.c - compile-time checks of the print family (pass 2).
 *
 * For printf-style calls the literal format decides how many arguments
 * there must be and which type each must have; the wanted types go into
 * exp->u.print.directives for type inference.  The format language itself
 * is parsed by the runtime's format parser, shared with the module.
 */
#include <stdio.h>
#include <string.h>

#include "ast_walk.h"
#include "elab.h"

/* Until the runtime's format parser is merged: a minimal directive
 * scanner giving the wanted argument types. */
enum { STP_FMT_ARG_NONE, STP_FMT_ARG_LONG, STP_FMT_ARG_STRING };
#define STP_FMT_MAX_DIRECTIVES 64
struct _stp_fmt_spec {
	int arg_type, star_width, star_prec;
};

static int _stp_fmt_parse(const char *f, size_t len, struct _stp_fmt_spec *sp,
			  int max, char *err, size_t errlen)
{
	const char *end = f + len;
	int n = 0;

	while (f < end) {
		if (*f++ != '%')
			continue;
		if (n == max) {
			snprintf(err, errlen, "too many directives");
			return -1;
		}
		memset(&sp[n], 0, sizeof sp[n]);
		while (f < end && strchr("-+ #0", *f))
			f++;
		if (f < end && *f == '*') {
			sp[n].star_width = 1;
			f++;
		}
		while (f < end && *f >= '0' && *f <= '9')
			f++;
		if (f < end && *f == '.') {
			f++;
			if (f < end && *f == '*') {
				sp[n].star_prec = 1;
				f++;
			}
			while (f < end && *f >= '0' && *f <= '9')
				f++;
		}
		while (f < end && (*f == 'l' || *f == 'h'))
			f++;
		if (f == end) {
			snprintf(err, errlen, "incomplete directive at the end");
			return -1;
		}
		switch (*f++) {
		case '%':
			continue;
		case 's': case 'm': case 'M':
			sp[n++].arg_type = STP_FMT_ARG_STRING;
			break;
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		case 'p': case 'c': case 'b': case 'B':
			sp[n++].arg_type = STP_FMT_ARG_LONG;
			break;
		default:
			snprintf(err, errlen, "unknown directive '%%%c'", f[-1]);
			return -1;
		}
	}
	return n;
}

static void check_printf(struct session *s, struct exp *e)
{
	struct _stp_fmt_spec specs[STP_FMT_MAX_DIRECTIVES];
	char err[128];
	int n, i, want = 0;

	n = _stp_fmt_parse(e->u.print.fmt, e->u.print.fmt_len, specs,
			   STP_FMT_MAX_DIRECTIVES, err, sizeof err);
	if (n < 0) {
		diag_error(&s->diags, e->loc, "sema.printf-format",
			   "invalid format string: %s", err);
		return;
	}
	for (i = 0; i < n; i++) {
		if (specs[i].star_width)
			vec_push(s->arena, &e->u.print.directives,
				 (void *)(intptr_t)TY_LONG);
		if (specs[i].star_prec)
			vec_push(s->arena, &e->u.print.directives,
				 (void *)(intptr_t)TY_LONG);
		if (specs[i].arg_type == STP_FMT_ARG_NONE)
			continue;
		vec_push(s->arena, &e->u.print.directives,
			 (void *)(intptr_t)(specs[i].arg_type == STP_FMT_ARG_STRING
					    ? TY_STRING : TY_LONG));
	}
	want = e->u.print.directives.n;
	if (want != e->u.print.args.n)
		diag_error(&s->diags, e->loc, "sema.printf-args",
			   "format string expects %d argument%s, but %d %s given",
			   want, want == 1 ? "" : "s", e->u.print.args.n,
			   e->u.print.args.n == 1 ? "is" : "are");
}

static int visit(struct walker *w, struct exp *e)
{
	struct session *s = w->arg;

	if (e->kind != EX_PRINT)
		return 0;
	if (e->u.print.pkind == PR_PRINTF)
		check_printf(s, e);
	else if (e->u.print.args.n == 0 && e->u.print.pkind != PR_PRINTLN)
		diag_error(&s->diags, e->loc, "sema.print-args",
			   "print needs at least one argument");
	return 0;
}

int printcheck_program(struct session *s, struct program *p)
{
	struct walker w = { .exp = visit, .arg = s };
	struct derived_probe *dp;
	struct func *f;
	int i;

	VEC_EACH(p->probes, i, dp)
		walk_stmt(&w, dp->body);
	VEC_EACH(p->funcs, i, f)
		walk_stmt(&w, f->body);
	return 0;
}
