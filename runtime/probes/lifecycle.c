/* probes/lifecycle.c - running begin, end and error probes.
 *
 * Begin probes run when the session starts, in the order the translator
 * sorted them.  At the stop, end probes run; after an error (also in an
 * end probe) the end probes left are skipped and the error probes run
 * (as stap does).  Lists end with NULL.  The display of written-only
 * globals is stap's end probe of priority 0 added after the script's: it
 * runs before end probe number display_at (those of priority 0 or less
 * come first).
 */

static void _stp_show_globals(void);	/* stp_session.c */

static int _stp_run_begin_probes(struct stp_probe *const *probes)
{
	for (; *probes; probes++) {
		_stp_probe_run(*probes, NULL, 1);
		if (atomic_read(&_stp_script_state) != STP_SESSION_STARTING)
			break;	/* exit() or an error: stop running begins */
	}
	return 0;
}

static void _stp_run_end_probes(struct stp_probe *const *end, int display_at,
				struct stp_probe *const *error)
{
	struct stp_probe *const *p;
	int i;

	/* a family failed to start: stap runs no end probe then */
	if (atomic_read(&_stp_script_state) == STP_SESSION_STARTING)
		return;
	for (i = 0; end[i] && !atomic_read(&_stp_error_count); i++) {
		if (i == display_at)
			_stp_show_globals();
		_stp_probe_run(end[i], NULL, 1);
	}
	/* an error, before or in an end probe, skips the end probes left */
	if (atomic_read(&_stp_error_count))
		for (p = error; *p; p++)
			_stp_probe_run(*p, NULL, 1);
}
