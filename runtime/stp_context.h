/* stp_context.h - the per-CPU probe context and the probe record.
 *
 * Every probe handler runs with the context of its CPU, which holds the
 * error state, the statement budget, the print buffer and the frames of
 * locals (frame 0 for the probe, one more per nested function call).  A
 * context is busy while a handler runs; a probe that fires on a busy
 * context (an interrupt inside a probe) is skipped, never nested.
 */
#ifndef STP_CONTEXT_H
#define STP_CONTEXT_H

struct context;
struct stp_regex_ctx;

struct stp_lock_spec {
	rwlock_t *lock;
	int write;
	int global;		/* its index among the globals */
};

/* One derived probe; generated as the stp_probes[] table. */
struct stp_probe {
	const char *pp;			/* pp() */
	const char *pn;			/* pn(): the point as the script
					   names it (wildcards expanded) */
	const char *type;		/* probe_type() */
	void (*handler)(struct context *c);	/* NULL: it is in run */
	int index;
	const struct stp_lock_spec *locks;	/* in global order */
	int nlocks;
	/* A hit of this probe P (not begin, end, error: NULL for them), as
	 * _stp_probe_run_args(P, REGS, 0, ARGS) with SREGS: the probe's
	 * own entry, or _stp_probe_run_table (stp_generated.h). */
	int (*run)(struct stp_probe *p, struct pt_regs *regs,
		   const u64 *args, struct pt_regs *sregs);
#ifdef STP_TIMING
	const char *location;		/* -t: FILE:LINE:COL of `probe` */
	const char *derivation;		/* -t: the points it came from */
#endif
};

struct context {
	atomic_t busy;
	struct stp_probe *probe;
	long actionremaining;
	int nesting;			/* current frame */
	int next;			/* `next` in a function */
	int aborted;			/* uncatchable error */
	int abort_called;		/* by abort(): not an error */
	const char *last_error;		/* set: the handler is failing */
	const char *last_stmt;		/* where, for the error message */
	struct pt_regs *regs;		/* kernel registers, or NULL */
	struct pt_regs *sregs;		/* a syscall's user registers, whose
					   arguments *_arg(N) read, or NULL */
	int tv_user;			/* the target variable being read is
					   in user memory (a uprobe's DWARF
					   variables); set by each access */
	const u64 *args;		/* the probe's raw arguments
					   (kernel.trace), or NULL */
	u64 dwarf_pieces[4][8];		/* DWARF values in pieces wider than
					   64 bits, gathered (stp_dwarf.h) */
	char error_buffer[MAXSTRINGLEN];
	cycles_t cycles_base, cycles_sum;	/* overload accounting */
	size_t plen;			/* bytes in pbuf */
	char pbuf[STP_PRINT_BUF_SIZE];
	char *frames;			/* (MAXNESTING + 2) frames */
	struct stp_regex_ctx *regex;	/* =~ workspace, last match; or NULL */
#ifdef STP_NEED_SYSTEM
	int system_pending;		/* system(): a command to send once */
	char system_cmd[MAXSTRINGLEN];	/* the probe's output is flushed */
#endif
};

typedef rwlock_t stp_rwlock_t;
#define stp_rwlock_init(l) rwlock_init(l)

/* Probe handlers take the globals' locks with preemption already off:
 * the arch-level operations, inline, spare read_trylock()'s call and
 * preempt count work (PREEMPT_RT's rwlocks are something else). */
#ifndef CONFIG_PREEMPT_RT
#define _stp_read_trylock(l) arch_read_trylock(&(l)->raw_lock)
#define _stp_write_trylock(l) arch_write_trylock(&(l)->raw_lock)
#define _stp_read_unlock(l) arch_read_unlock(&(l)->raw_lock)
#define _stp_write_unlock(l) arch_write_unlock(&(l)->raw_lock)
#else
#define _stp_read_trylock(l) read_trylock(l)
#define _stp_write_trylock(l) write_trylock(l)
#define _stp_read_unlock(l) read_unlock(l)
#define _stp_write_unlock(l) write_unlock(l)
#endif

/* Are C's registers user-space ones (a uprobe's, or a perf sample's
 * that interrupted user code)?  Worked out where asked, not per hit. */
static inline int _stp_user_mode(const struct context *c)
{
	return c->regs && user_mode(c->regs);
}

/* The frame at depth N of context C (STP_FRAME_SIZE comes from the
 * generated code). */
#define _stp_frame_at(c, n) ((void *)((c)->frames + (size_t)(n) * STP_FRAME_SIZE))
#define _stp_callee_frame(c, type) ((type *)_stp_frame_at((c), (c)->nesting + 1))

/* A kernel function's argument N (from 0) at a kprobe on its entry, and
 * its return value at a kretprobe: the raw register (the translator's
 * target variables narrow it to the parameter's C type). */
static inline u64 _stp_kprobe_arg(const struct context *c, int n)
{
	struct pt_regs *r = c->regs;	/* user_mode() takes no const */

	if (!r || user_mode(r))
		return 0;
	switch (n) {
	case 0: return r->di;
	case 1: return r->si;
	case 2: return r->dx;
	case 3: return r->cx;
	case 4: return r->r8;
	default: return r->r9;
	}
}

static inline u64 _stp_kprobe_retval(const struct context *c)
{
	return c->regs && !user_mode(c->regs) ? regs_return_value(c->regs) : 0;
}

#endif
