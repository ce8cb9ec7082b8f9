/* regexcheck.h - regex literals checked at translation time (regexcheck.c). */
#ifndef REGEXCHECK_H
#define REGEXCHECK_H

#include "util/regex.h"

struct diags;
struct exp;

/* Compile the regex literal LIT into P; a regex stap would refuse is
 * reported at LIT (sema.regex) and gives -1. */
int regex_check_literal(struct diags *d, struct exp *lit,
			struct regex_prog *p);

/* Report X's regex literal (X an EX_REGEX) if stap would refuse it; each
 * expression once, though pass 2 may visit it twice. */
void regex_check(struct diags *d, struct exp *x);

#endif
