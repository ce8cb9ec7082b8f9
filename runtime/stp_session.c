/* stp_session.c - the session: start, stop, and what surrounds the probes.
 *
 * Included at the end of the generated module, after its tables.  The
 * transport calls stp_session_start when stapio says go and
 * stp_session_stop when the script should end (see transport/transport.h);
 * both run in process context.  Start allocates the contexts and runs the
 * families (begin probes first); stop disarms them in reverse order (end
 * or error probes last), prints the written-only globals, and reports the
 * counts of errors and skipped probes as stap does.
 */

/* The generated part is complete (stp_generated.h). */
#ifndef STP_FRAME_SIZE
#error "generated module: STP_FRAME_SIZE must be defined before stp_session.c"
#endif
static_assert(ARRAY_SIZE(stp_probes) == STP_NUM_PROBES,
	      "generated module: stp_probes[] needs STP_NUM_PROBES entries");
static_assert(ARRAY_SIZE(stp_global_displays) == STP_NUM_DISPLAYS + 1,
	      "generated module: stp_global_displays[] needs STP_NUM_DISPLAYS entries and NULL");
#ifdef STP_TIMING
static_assert(ARRAY_SIZE(stp_global_cnames) == STP_NUM_GLOBALS + 1,
	      "generated module: stp_global_cnames[] needs STP_NUM_GLOBALS entries and NULL");
#endif

static void _stp_free_contexts(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct context *c = per_cpu(_stp_ctx, cpu);
		if (!c)
			continue;
		per_cpu(_stp_ctx, cpu) = NULL;
		vfree(c->frames);
		vfree(c->regex);
		vfree(c);
	}
}

static int _stp_alloc_contexts(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct context *c = vzalloc(sizeof *c);
		if (!c)
			goto fail;
		/* frames 0..MAXNESTING, and one more that a call at the
		 * deepest level points at its buffer before it fails */
		c->frames = vzalloc((size_t)(MAXNESTING + 2) * STP_FRAME_SIZE);
		if (!c->frames) {
			vfree(c);
			goto fail;
		}
		per_cpu(_stp_ctx, cpu) = c;
#ifdef STP_REGEX_CTX_SIZE
		c->regex = vzalloc(STP_REGEX_CTX_SIZE);	/* regex_match.h */
		if (!c->regex)
			goto fail;
#endif
	}
	return 0;
fail:
	_stp_free_contexts();
	_stp_transport_error("cannot allocate memory for probe contexts");
	return -ENOMEM;
}

int stp_session_start(void)
{
	int rc;

	atomic_set(&_stp_script_state, STP_SESSION_STARTING);
	_stp_owner_record();
	rc = _stp_alloc_contexts();
	if (rc)
		return rc;
	rc = stp_globals_init();
	if (rc)
		goto fail;
#ifdef STP_TIMING
	rc = _stp_timing_alloc();
	if (rc)
		goto fail;
#endif
	rc = stp_probes_start();
	if (rc)		/* the family that failed said why */
		goto fail;
	atomic_cmpxchg(&_stp_script_state, STP_SESSION_STARTING,
		       STP_SESSION_RUNNING);
	return 0;
fail:
#ifdef STP_TIMING
	_stp_timing_free();
#endif
	stp_globals_free();
	_stp_free_contexts();
	_stp_owner_release();
	atomic_set(&_stp_script_state, STP_SESSION_STOPPED);
	return rc;
}

static void _stp_display_globals(struct context *c)
{
	int i;

	for (i = 0; i < STP_NUM_DISPLAYS; i++) {
#ifdef STP_TIMING
		cycles_t start = get_cycles();
#endif

		stp_global_displays[i](c);
		_stp_print_flush(c);
#ifdef STP_TIMING
		_stp_timing_add(STP_NUM_PROBES + i, get_cycles() - start);
#endif
	}
}

/* The written-only globals, once and unless an error happened (end
 * probes, in stap): among the end probes (probes/lifecycle.c, after those of
 * priority <= 0) or after them all; then with -t the probe hit report. */
static void _stp_stop_output(int report)
{
	static int shown;
	struct context *c;

	preempt_disable();
	c = __this_cpu_read(_stp_ctx);
	if (c && atomic_inc_return(&c->busy) == 1) {
		c->plen = 0;
		if (!shown && !atomic_read(&_stp_error_count)) {
			shown = 1;
			_stp_display_globals(c);
		}
#ifdef STP_TIMING
		if (report)
			_stp_timing_report(c, stp_probes, stp_global_cnames);
#endif
	}
	if (c)
		atomic_dec(&c->busy);
	preempt_enable();
}

static __maybe_unused void _stp_show_globals(void)	/* probes/lifecycle.c */
{
	_stp_stop_output(0);
}

void stp_session_stop(void)
{
	int errors, skipped;

	if (atomic_read(&_stp_script_state) == STP_SESSION_STOPPED)
		return;
	atomic_set(&_stp_script_state, STP_SESSION_STOPPING);
	stp_probes_stop();
	_stp_stop_output(1);
	errors = atomic_read(&_stp_error_count);
	skipped = atomic_read(&_stp_skipped_count);
	if (errors || skipped) {
		char msg[96];
		snprintf(msg, sizeof msg, "Number of errors: %d, skipped probes: %d",
			 errors, skipped);
		_stp_transport_warn(msg);
#ifdef STP_TIMING
		_stp_timing_skips(stp_global_cnames,
				  atomic_read(&_stp_skipped_reentrant));
#endif
	}
	atomic_set(&_stp_script_state, STP_SESSION_STOPPED);
#ifdef STP_TIMING
	_stp_timing_free();
#endif
	stp_globals_free();
	_stp_free_contexts();
	_stp_owner_release();
}

#include "module.c"
