/* regexcheck.c - a regex literal of `s =~ "re"` stap would refuse,
 * reported at the literal (pass 2).
 *
 * util/regex.c compiles the literal's stored form; a failure becomes a
 * sema.regex error.  Pass 3 compiles through here again for the program it
 * emits (emit/regex.c).
 */
#include <string.h>

#include "elab/regexcheck.h"
#include "session.h"

int regex_check_literal(struct diags *d, struct exp *lit,
			struct regex_prog *p)
{
	struct regex_error err;
	const char *raw = lit->u.str.raw ? lit->u.str.raw : lit->u.str.s;

	if (!regex_compile(raw, strlen(raw), p, &err))
		return 0;
	if (err.pos >= 0)
		diag_error(d, lit->loc, "sema.regex",
			   "regex compilation error (at position %d): %s",
			   err.pos, err.msg);
	else
		diag_error(d, lit->loc, "sema.regex",
			   "regex compilation error: %s", err.msg);
	return -1;
}

void regex_check(struct diags *d, struct exp *x)
{
	/* the literals checked: pass 2 may visit an expression twice */
	static struct exp **seen;
	static int nseen, cap;
	struct regex_prog p;
	int i;

	if (x->kind != EX_REGEX || x->u.bin.right->kind != EX_STR)
		return;
	for (i = 0; i < nseen; i++)
		if (seen[i] == x)
			return;
	if (nseen == cap) {
		cap = cap ? 2 * cap : 16;
		seen = xrealloc(seen, sizeof *seen * cap);
	}
	seen[nseen++] = x;
	if (!regex_check_literal(d, x->u.bin.right, &p))
		regex_prog_free(&p);
}
