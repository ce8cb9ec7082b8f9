/* printcheck.c - compile-time checks of the print family (pass 2).
 *
 * For printf-style calls the literal format decides how many arguments
 * there must be and which type each must have; the wanted types go into
 * exp->u.print.directives for type inference.  The format language itself
 * is parsed by the runtime's format parser, shared with the module.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"

#include "format.h"

static void check_printf(struct session *s, struct exp *e)
{
	enum _stp_fmt_type types[64];
	struct _stp_fmt_error err;
	struct loc at = e->loc;
	int n, i;

	n = _stp_fmt_check(e->u.print.fmt, types, 64, &err);
	if (n < 0)		/* pass 1 reported it (parse.printf-format) */
		return;
	if (n > 64) {
		diag_error(&s->diags, at, "sema.printf-args",
			   "format string has too many directives (%d)", n);
		return;
	}
	for (i = 0; i < n; i++)
		vec_push(s->arena, &e->u.print.directives,
			 (void *)(intptr_t)(types[i] == STP_FMT_T_STRING ?
					    TY_STRING : TY_LONG));
	if (n != e->u.print.args.n)
		diag_error(&s->diags, at, "sema.printf-args",
			   "Wrong number of args to formatted print operator");
}

static int visit(struct walker *w, struct exp *e)
{
	struct session *s = w->arg;

	if (e->kind != EX_PRINT)
		return 0;
	/* print's arguments were counted in pass 1 (parse.print-args) */
	if (e->u.print.pkind == PR_PRINTF)
		check_printf(s, e);
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
