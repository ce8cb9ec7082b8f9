/* probes/tracepoint.c - kernel.trace probes on the kernel's tracepoints.
 *
 * Each probe registers one callback on its tracepoint, found by name among
 * the kernel's (for_each_kernel_tracepoint).  A tracepoint calls its
 * callbacks with a data pointer (here the probe record) and its arguments;
 * on x86-64 every argument fills one 64-bit slot, so one callback per
 * argument count serves all tracepoints: it gathers the raw slots for the
 * handler, which narrows each to its C type (c->args).
 */
#include <linux/tracepoint.h>

struct stp_tracepoint {
	struct stp_probe *probe;
	const char *name;
	void *fn;			/* _stp_tp_fnN for N arguments */
	struct tracepoint *tp;		/* found at start */
	int registered;
};

#define STP_TP_RUN(...)							\
	do {								\
		u64 args[] = { 0, ##__VA_ARGS__ };			\
		_stp_probe_run_args(data, NULL, 0, args + 1);		\
	} while (0)

static __maybe_unused void _stp_tp_fn0(void *data) { STP_TP_RUN(); }
static __maybe_unused void _stp_tp_fn1(void *data, u64 a) { STP_TP_RUN(a); }
static __maybe_unused void _stp_tp_fn2(void *data, u64 a, u64 b) { STP_TP_RUN(a, b); }
static __maybe_unused void _stp_tp_fn3(void *data, u64 a, u64 b, u64 c_) { STP_TP_RUN(a, b, c_); }
static __maybe_unused void _stp_tp_fn4(void *data, u64 a, u64 b, u64 c_, u64 d)
{ STP_TP_RUN(a, b, c_, d); }
static __maybe_unused void _stp_tp_fn5(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e)
{ STP_TP_RUN(a, b, c_, d, e); }
static __maybe_unused void _stp_tp_fn6(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f)
{ STP_TP_RUN(a, b, c_, d, e, f); }
static __maybe_unused void _stp_tp_fn7(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			u64 g)
{ STP_TP_RUN(a, b, c_, d, e, f, g); }
static __maybe_unused void _stp_tp_fn8(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			u64 g, u64 h)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h); }
static __maybe_unused void _stp_tp_fn9(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			u64 g, u64 h, u64 i)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i); }
static __maybe_unused void _stp_tp_fn10(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			 u64 g, u64 h, u64 i, u64 j)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i, j); }
static __maybe_unused void _stp_tp_fn11(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			 u64 g, u64 h, u64 i, u64 j, u64 k)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i, j, k); }
static __maybe_unused void _stp_tp_fn12(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			 u64 g, u64 h, u64 i, u64 j, u64 k, u64 l)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i, j, k, l); }

struct stp_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void _stp_tp_match(struct tracepoint *tp, void *priv)
{
	struct stp_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

static void _stp_tracepoints_stop(struct stp_tracepoint *tps, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (tps[i].registered) {
			tracepoint_probe_unregister(tps[i].tp, tps[i].fn,
						    tps[i].probe);
			tps[i].registered = 0;
		}
	tracepoint_synchronize_unregister();
}

static int _stp_tracepoints_start(struct stp_tracepoint *tps, int n)
{
	int i, rc;

	for (i = 0; i < n; i++) {
		struct stp_tp_find f = { tps[i].name, NULL };
		for_each_kernel_tracepoint(_stp_tp_match, &f);
		if (!f.tp) {
			_stp_transport_error("tracepoint not found in the kernel");
			_stp_tracepoints_stop(tps, i);
			return -ENOENT;
		}
		tps[i].tp = f.tp;
		rc = tracepoint_probe_register(f.tp, tps[i].fn, tps[i].probe);
		if (rc) {
			_stp_tracepoints_stop(tps, i);
			return rc;
		}
		tps[i].registered = 1;
	}
	return 0;
}
