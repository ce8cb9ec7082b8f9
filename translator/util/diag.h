/* diag.h - the one diagnostics module.
 *
 * Every error and warning of every pass goes through here and is printed as
 *   FILE:LINE:COL: error: MESSAGE
 *    source line
 *         ^
 * followed by notes for related places.  Each diagnostic has a stable id
 * (such as "parse.expected") that names the error tests for it.
 */
#ifndef DIAG_H
#define DIAG_H

#include <stdio.h>
#include "util/loc.h"

struct arena;

struct diags {
	int errors, warnings;
	int suppress_warnings;	/* -w */
	int warnings_are_errors;	/* -W */
	int color;		/* stderr is a terminal */
	FILE *out;		/* stderr unless redirected (tests) */
	const char *last_id;	/* id of the last error, for the summary */
	int quiet;		/* > 0: errors and warnings are counted in
				   quieted only (-l/-L try points silently) */
	int quieted;
	int quiet_errors;	/* > 0: errors only are counted in quieted
				   (an optional probe point's derivation) */
	struct arena *arena;	/* set: an error with the same place and
				   text as an earlier one is not repeated
				   (one per derived probe, say), as stap */
	const char **seen;	/* those errors, an open hash set */
	size_t nseen, capseen;
	int show_similar;	/* -v: print similar errors too */
	int similar;		/* errors not printed for being similar to
				   an earlier one: the same id at the same
				   place, another text (a $var at each of a
				   statement's places), as stap counts them */
};

void diag_init(struct diags *d);

/* Report at LOC (file may be NULL for a message without position). */
void diag_error(struct diags *d, struct loc loc, const char *id,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_warning(struct diags *d, struct loc loc, const char *id,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A note attached to the preceding error or warning. */
void diag_note(struct diags *d, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A plain message for problems that have no script position: a bad command
 * line, a failed build, a testbed that will not boot.  Prints
 * "stap: error: MESSAGE" (or "stap: warning: …") and counts it. */
void diag_fatal(struct diags *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_plain_warning(struct diags *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* After a failed pass: how many similar errors were not printed, in
 * stap's words (nothing if none). */
void diag_similar_summary(struct diags *d);

#endif
