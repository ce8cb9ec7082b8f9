/* stp_probe.c - running one probe handler: the common entry of all probes.
 *
 * Every probe family calls _stp_hit from its kernel callback, which
 * calls the probe's own entry (its generated stp_run_N: _stp_probe_hit
 * with the probe's handler and locks as constants, or
 * _stp_probe_run_table); begin, end and error probes go through
 * _stp_probe_run.  Either takes the CPU's context (skipping the hit if
 * the context is busy), locks the globals the handler uses (trylocks,
 * skipping the hit after MAXTRYLOCK retries in all), runs the handler
 * with a fresh statement budget, reports an error the handler ended
 * with, flushes its output, and watches the CPU time spent in probes
 * (the overload guard).  The entries and
 * the families' kernel callbacks are notrace: no ftrace call site (a
 * nop) on a hit's way, and no ftrace record of them to patch.
 */

/* Each CPU's context, allocated at start: a per-CPU pointer (one load
 * from the CPU's own area, and no NR_CPUS-sized array in .bss). */
static DEFINE_PER_CPU(struct context *, _stp_ctx);
static atomic_t _stp_script_state = ATOMIC_INIT(STP_SESSION_STARTING);
static atomic_t _stp_error_count = ATOMIC_INIT(0);
static atomic_t _stp_skipped_count = ATOMIC_INIT(0);
static atomic_t _stp_skipped_reentrant = ATOMIC_INIT(0);	/* of those */

static __maybe_unused void _stp_request_stop(void)
{
	if (atomic_cmpxchg(&_stp_script_state, STP_SESSION_RUNNING,
			   STP_SESSION_STOPPING) == STP_SESSION_RUNNING ||
	    atomic_cmpxchg(&_stp_script_state, STP_SESSION_STARTING,
			   STP_SESSION_STOPPING) == STP_SESSION_STARTING)
		_stp_transport_request_exit();
}

/* exit() in a script: no probe but end/error probes runs after this. */
static __maybe_unused void _stp_exit(void)
{
	_stp_request_stop();
}

/* abort() in a script: exit(), and the handler ends now (through the
 * uncatchable error path, which reports nothing). */
static __maybe_unused void _stp_abort(struct context *c)
{
	c->abort_called = 1;
	c->aborted = 1;
	_stp_error_at(c, "abort", NULL);
	_stp_request_stop();
}

static inline int _stp_trylock(const struct stp_lock_spec *l)
{
	return l->write ? _stp_write_trylock(l->lock) : _stp_read_trylock(l->lock);
}

static inline void _stp_unlock(const struct stp_lock_spec *l)
{
	if (l->write)
		_stp_write_unlock(l->lock);
	else
		_stp_read_unlock(l->lock);
}

/* The lock L was busy: retry it every TRYLOCKDELAY us while the probe's
 * budget lasts.  As stap's, the budget is MAXTRYLOCK retries for all the
 * probe's locks together (*RETRIES counts them), with no bound under
 * --suppress-time-limits.  1 once taken, 0 when the budget ran out, -1
 * when the session stopped running meanwhile (not INTERRUPTIBLE
 * handlers). */
static noinline int _stp_lock_wait(const struct stp_lock_spec *l,
				   int interruptible, unsigned *retries)
{
#ifdef STP_TIMING
	atomic_inc(&_stp_lock_contended[l->global]);
#endif
	do {
		if (!interruptible && atomic_read(&_stp_script_state) !=
				      STP_SESSION_RUNNING)
			return -1;
#ifndef STP_SUPPRESS_TIME_LIMITS
		if (++*retries > MAXTRYLOCK) {
#ifdef STP_TIMING
			atomic_inc(&_stp_lock_skipped[l->global]);
#endif
			return 0;
		}
#endif
		udelay(TRYLOCKDELAY);
	} while (!_stp_trylock(l));
	return 1;
}

/* The rest of _stp_lock_globals once lock L of LOCKS was busy: the
 * waiting and the unwinding, out of line, so that the common path keeps
 * no retry count in memory (nor the stack protector's check that one
 * brings). */
static noinline int _stp_lock_globals_slow(const struct stp_lock_spec *locks,
					   int nlocks,
					   const struct stp_lock_spec *l,
					   int interruptible)
{
	const struct stp_lock_spec *end = locks + nlocks;
	unsigned retries = 0;
	int rc;

	for (; l < end; l++) {
		if (_stp_trylock(l))
			continue;
		rc = _stp_lock_wait(l, interruptible, &retries);
		if (rc <= 0) {
			while (l > locks)
				_stp_unlock(--l);
			return rc;
		}
	}
	return 1;
}

/* Take the NLOCKS LOCKS in order: 1 on success; 0 when they stayed busy
 * past the probe's MAXTRYLOCK retries (the hit is skipped); -1 when the
 * session stopped running meanwhile (the hit is dropped quietly: after
 * exit() no probe but end probes runs anyway).  Every hit comes here: a
 * free lock costs one inline trylock, the waiting is out of line.  In a
 * probe's own entry (_stp_probe_enter) LOCKS is its constant table, and
 * the loop unrolls to one trylock per global. */
static __always_inline int _stp_lock_globals(const struct stp_lock_spec *locks,
					     int nlocks, int interruptible)
{
	const struct stp_lock_spec *l = locks, *end = l + nlocks;

	for (; l < end; l++)
		if (unlikely(!_stp_trylock(l)))
			return _stp_lock_globals_slow(locks, nlocks, l,
						      interruptible);
	return 1;
}

/* Released in the order taken: with trylocks only, the order does not
 * matter. */
static __always_inline void _stp_unlock_globals(const struct stp_lock_spec *locks,
						int nlocks)
{
	const struct stp_lock_spec *l = locks, *end = l + nlocks;

	for (; l < end; l++)
		_stp_unlock(l);
}

static __maybe_unused void _stp_skip_probe(void)
{
	if (atomic_inc_return(&_stp_skipped_count) > MAXSKIPPED) {
		_stp_transport_error("Skipped too many probes, check MAXSKIPPED or try again with stap -t for more details.");
		_stp_request_stop();
	}
}

/* A handler's error: reported (but with --suppress-handler-errors),
 * counted, and past MAXERRORS the script stops. */
static __maybe_unused void _stp_count_error(const char *msg)
{
#ifndef STP_SUPPRESS_HANDLER_ERRORS
	_stp_transport_error(msg);
#endif
	if (atomic_inc_return(&_stp_error_count) > MAXERRORS)
		_stp_request_stop();
}

static __maybe_unused void _stp_report_error(struct context *c)
{
	char msg[MAXSTRINGLEN + 128];

	if (c->last_stmt)
		snprintf(msg, sizeof msg, "%s near %s", c->last_error, c->last_stmt);
	else
		strscpy(msg, c->last_error, sizeof msg);
	_stp_count_error(msg);
}

/* An error in place of a handler that must not run (stap 4.8's check
 * before a --privilege=stapusr module's uprobe handler), counted as the
 * handler's own would be, while the script runs. */
static __maybe_unused void _stp_probe_refused(const char *msg)
{
	if (atomic_read(&_stp_script_state) == STP_SESSION_RUNNING)
		_stp_count_error(msg);
}

#ifndef STP_NO_OVERLOAD
/* The overload guard, as stap's: a CPU's time in probe handlers adds up
 * over an interval of at least STP_OVERLOAD_INTERVAL cycles, and only when
 * the interval is over is its sum compared with STP_OVERLOAD_THRESHOLD
 * (a short burst within one interval is not judged on its own).  Returns
 * the sum of an interval over the threshold, else 0. */
static __maybe_unused cycles_t _stp_overloaded(struct context *c, cycles_t start, cycles_t end)
{
	cycles_t sum = 0;

	c->cycles_sum += end - start;
	if (end - c->cycles_base > STP_OVERLOAD_INTERVAL) {
		if (c->cycles_sum > STP_OVERLOAD_THRESHOLD)
			sum = c->cycles_sum;
		c->cycles_base = end;
		c->cycles_sum = 0;
	}
	return sum;
}
#endif

/* Run P's handler, HANDLER, holding its NLOCKS LOCKS.  REGS are the registers of the probed context: kernel
 * ones, or user ones when a perf sample interrupted user code (NULL for
 * timers and begin/end); INTERRUPTIBLE handlers (begin/end) are not stopped
 * by overload and may sleep for locks; every handler gets the larger
 * statement budget, MAXACTION_INTERRUPTIBLE, as in stap 4.8, unless built
 * with -DINTERRUPTIBLE=0 (then only begin/end do); ARGS are the probe's arguments (tracepoints), or NULL.
 * Returns 0, or -1 if the handler ended in error. */
static __always_inline int _stp_probe_enter(struct stp_probe *p,
			  void (*handler)(struct context *c),
			  const struct stp_lock_spec *locks, int nlocks,
			  struct pt_regs *regs, int interruptible,
			  const u64 *args, struct pt_regs *sregs)
{
	struct context *c;
	int state = atomic_read(&_stp_script_state), failed = 0, locked;
	unsigned long flags = 0;
#if !defined(STP_NO_OVERLOAD) || defined(STP_TIMING)
	cycles_t start;
#endif
#ifndef STP_NO_OVERLOAD
	cycles_t over;
#endif

	if (!interruptible && state != STP_SESSION_RUNNING)
		return 0;
	/* As stap: a handler runs with interrupts off (an interrupt's own
	 * probe hit, a tracepoint in its allocations say, would find the
	 * context busy and be skipped), except the interruptible ones
	 * (begin, end, error), which only keep their CPU. */
	if (interruptible)
		preempt_disable();
	else
		local_irq_save(flags);
	c = __this_cpu_read(_stp_ctx);
	if (!c || atomic_inc_return(&c->busy) != 1) {
		if (c)
			atomic_dec(&c->busy);
		atomic_inc(&_stp_skipped_reentrant);
		_stp_skip_probe();
		goto leave;
	}
#if !defined(STP_NO_OVERLOAD) || defined(STP_TIMING)
	start = get_cycles();
#endif
	c->probe = p;
	c->regs = regs;
	c->args = args;
	c->sregs = sregs;
	c->tv_user = 0;
	c->nesting = 0;
	c->next = 0;
	c->aborted = 0;
	c->abort_called = 0;
	c->last_error = NULL;
	c->last_stmt = NULL;
	locked = _stp_lock_globals(locks, nlocks, interruptible);
	if (locked <= 0) {
		if (!locked)
			_stp_skip_probe();
		goto out;
	}
	/* set here, next to the handler: inlined into a probe's entry, its
	 * first check of the budget (a constant) folds away */
	c->actionremaining = interruptible || INTERRUPTIBLE ?
			     MAXACTION_INTERRUPTIBLE : MAXACTION;
	handler(c);
#ifdef STP_TIMING
	_stp_timing_add(p->index, get_cycles() - start);
#endif
	_stp_unlock_globals(locks, nlocks);
	_stp_print_flush(c);
	_stp_system_send(c);
	if (c->last_error && !c->abort_called) {
		_stp_report_error(c);
		failed = -1;
	}
#ifndef STP_NO_OVERLOAD
	if (!interruptible && (over = _stp_overloaded(c, start, get_cycles()))) {
		char msg[160];

		snprintf(msg, sizeof msg, "probe overhead (%lld cycles) exceeded threshold (%lld cycles) in last %lld cycles",
			 (long long)over, (long long)STP_OVERLOAD_THRESHOLD,
			 (long long)STP_OVERLOAD_INTERVAL);
		_stp_transport_error(msg);
		atomic_inc(&_stp_error_count);
		_stp_request_stop();
	}
#endif
out:
	atomic_dec(&c->busy);
leave:
	if (interruptible)
		preempt_enable();
	else
		local_irq_restore(flags);
	return failed;
}

/* A hit of P: the body of its generated entry, stp_run_N
 * (stp_generated.h), where HANDLER and LOCKS are constants, so that the
 * handler is a direct call (inlined) and the locks one trylock and one
 * unlock each, with no loop. */
static __always_inline int _stp_probe_hit(struct stp_probe *p,
			  void (*handler)(struct context *c),
			  const struct stp_lock_spec *locks, int nlocks,
			  struct pt_regs *regs, const u64 *args,
			  struct pt_regs *sregs)
{
	return _stp_probe_enter(p, handler, locks, nlocks, regs, 0, args,
				sregs);
}

/* Begin, end and error probes (interruptible), run through their table
 * entries. */
static __maybe_unused noinline notrace int _stp_probe_run_full(struct stp_probe *p,
			  struct pt_regs *regs, int interruptible,
			  const u64 *args, struct pt_regs *sregs)
{
	return _stp_probe_enter(p, p->handler, p->locks, p->nlocks, regs,
				interruptible, args, sregs);
}

/* The run of a hit probe without an entry of its own: one copy of the
 * entry for them all, the handler and locks read from the table. */
static __maybe_unused notrace int _stp_probe_run_table(struct stp_probe *p,
			  struct pt_regs *regs, const u64 *args,
			  struct pt_regs *sregs)
{
	return _stp_probe_enter(p, p->handler, p->locks, p->nlocks, regs, 0,
				args, sregs);
}

/* A hit of P, as every family but begin/end reports one: through its
 * entry (stp_probes[N].run). */
static __always_inline int _stp_hit(struct stp_probe *p, struct pt_regs *regs,
				    const u64 *args, struct pt_regs *sregs)
{
	return p->run(p, regs, args, sregs);
}

static __maybe_unused int _stp_probe_run_args(struct stp_probe *p,
			  struct pt_regs *regs, int interruptible,
			  const u64 *args)
{
	return _stp_probe_run_full(p, regs, interruptible, args, NULL);
}

static __maybe_unused int _stp_probe_run(struct stp_probe *p, struct pt_regs *regs,
			  int interruptible)
{
	return _stp_probe_run_args(p, regs, interruptible, NULL);
}
