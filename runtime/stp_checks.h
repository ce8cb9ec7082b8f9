/* stp_checks.h - the run-time checks generated code makes: the limits a
 * script must not pass and the operations that can fail on their values.
 *
 * Each check records stap's error in the context and returns nonzero when
 * the handler must stop; the generated code then jumps to its error label
 * (`if (_stp_check_div(c, b, where)) goto out;`), since that label is the
 * generated function's own.  WHERE is the "near …" text of the error.
 */
#ifndef STP_CHECKS_H
#define STP_CHECKS_H

/* The divisor of / and % (and /=, %=) is zero. */
static inline int _stp_check_div(struct context *c, int64_t b,
				 const char *where)
{
	if (likely(b))
		return 0;
	_stp_error_at(c, "division by 0", where);
	return 1;
}

/* A function call would nest deeper than MAXNESTING frames. */
static inline int _stp_check_nesting(struct context *c, const char *where)
{
	if (likely(c->nesting < MAXNESTING))
		return 0;
	_stp_error_at(c, "MAXNESTING exceeded", where);
	return 1;
}

/* Charge N statements to a body that counts as it runs; once the budget
 * is spent the probe ends, uncatchably.  --suppress-time-limits lifts
 * MAXACTION (as stap's). */
static inline int _stp_check_actions(struct context *c, long n,
				     const char *where)
{
#ifdef STP_SUPPRESS_TIME_LIMITS
	return 0;
#endif
	c->actionremaining -= n;
	if (likely(c->actionremaining > 0))
		return 0;
	_stp_error_at(c, "MAXACTION exceeded", where);
	c->aborted = 1;
	return 1;
}

/* A body that cannot loop needs N statements left to start; it charges
 * nothing as it runs (stap 4.8's scheme for such bodies). */
static inline int _stp_check_actions_left(struct context *c, long n,
					  const char *where)
{
#ifdef STP_SUPPRESS_TIME_LIMITS
	return 0;
#endif
	if (likely(c->actionremaining >= n))
		return 0;
	_stp_error_at(c, "MAXACTION exceeded", where);
	return 1;
}

#endif
