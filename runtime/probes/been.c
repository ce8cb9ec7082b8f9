/* probes/been.c - running begin, end and error probes.
 *
 * Begin probes run when the session starts, in the order the translator
 * sorted them.  At the stop, end probes run; after errors, the error
 * probes run instead and end probes are skipped (as stap does).  Lists
 * end with NULL.
 */

static int _stp_run_begin_probes(struct stp_probe *const *probes)
{
	for (; *probes; probes++) {
		_stp_probe_run(*probes, NULL, 1);
		if (atomic_read(&_stp_script_state) != STP_SESSION_STARTING)
			break;	/* exit() or an error: stop running begins */
	}
	return 0;
}

static void _stp_run_end_probes(struct stp_probe *const *end,
				struct stp_probe *const *error)
{
	struct stp_probe *const *p;

	p = atomic_read(&_stp_error_count) ? error : end;
	for (; *p; p++)
		_stp_probe_run(*p, NULL, 1);
}
