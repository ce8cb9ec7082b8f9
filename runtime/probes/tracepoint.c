/* probes/tracepoint.c - kernel.trace probes on the kernel's tracepoints.
 *
 * Each probe registers one callback on its tracepoint, found by name among
 * the kernel's (for_each_kernel_tracepoint).  A tracepoint calls its
 * callbacks with a data pointer (here the probe record) and its arguments;
 * on x86-64 every argument fills one 64-bit slot, so one callback per
 * argument count serves all tracepoints: it gathers the raw slots for the
 * handler, which narrows each to its C type (c->args).
 * A module's tracepoint is found when the module comes (the tracepoint
 * module notifier, which also reports the modules already loaded) and
 * left when it goes; until then the probe just does not fire.  One the
 * kernel was configured without (stap lists those from the headers) is
 * not registered at all, and does not fire either, as under stap.
 */
#include <linux/tracepoint.h>

struct stp_tracepoint {
	struct stp_probe *probe;
	const char *name;
	const char *module;		/* its module, or NULL: built in */
	int absent;			/* a header declares it, the kernel
					   was built without it: never fires */
	void *fn;			/* _stp_tp_fnN for N arguments */
	struct tracepoint *tp;		/* found at start */
	int registered;
};

#define STP_TP_RUN(...)							\
	do {								\
		u64 args[] = { 0, ##__VA_ARGS__ };			\
		_stp_hit(data, NULL, args + 1, NULL);			\
	} while (0)

static __maybe_unused notrace void _stp_tp_fn0(void *data) { STP_TP_RUN(); }
static __maybe_unused notrace void _stp_tp_fn1(void *data, u64 a) { STP_TP_RUN(a); }
static __maybe_unused notrace void _stp_tp_fn2(void *data, u64 a, u64 b) { STP_TP_RUN(a, b); }
static __maybe_unused notrace void _stp_tp_fn3(void *data, u64 a, u64 b, u64 c_)
{ STP_TP_RUN(a, b, c_); }
static __maybe_unused notrace void _stp_tp_fn4(void *data, u64 a, u64 b, u64 c_, u64 d)
{ STP_TP_RUN(a, b, c_, d); }
static __maybe_unused notrace void _stp_tp_fn5(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e)
{ STP_TP_RUN(a, b, c_, d, e); }
static __maybe_unused notrace void _stp_tp_fn6(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f)
{ STP_TP_RUN(a, b, c_, d, e, f); }
static __maybe_unused notrace void _stp_tp_fn7(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			u64 g)
{ STP_TP_RUN(a, b, c_, d, e, f, g); }
static __maybe_unused notrace void _stp_tp_fn8(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			u64 g, u64 h)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h); }
static __maybe_unused notrace void _stp_tp_fn9(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			u64 g, u64 h, u64 i)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i); }
static __maybe_unused notrace void _stp_tp_fn10(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			 u64 g, u64 h, u64 i, u64 j)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i, j); }
static __maybe_unused notrace void _stp_tp_fn11(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
			 u64 g, u64 h, u64 i, u64 j, u64 k)
{ STP_TP_RUN(a, b, c_, d, e, f, g, h, i, j, k); }
static __maybe_unused notrace void _stp_tp_fn12(void *data, u64 a, u64 b, u64 c_, u64 d, u64 e, u64 f,
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

static struct stp_tracepoint *_stp_tp_mod_tps;	/* the table, for the notifier */
static int _stp_tp_mod_n;

/* A module with tracepoints comes or goes: (un)register the probes on
 * its tracepoints.  Called under the kernel's tracepoint module lock. */
static int _stp_tp_module_event(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct tp_module *tm = data;
	struct module *mod = tm->mod;
	struct stp_tracepoint *t;
	unsigned int j;
	int i;

	for (i = 0; i < _stp_tp_mod_n; i++) {
		t = &_stp_tp_mod_tps[i];
		if (!t->module || strcmp(t->module, mod->name))
			continue;
		if (val == MODULE_STATE_GOING && t->registered) {
			tracepoint_probe_unregister(t->tp, t->fn, t->probe);
			t->registered = 0;
			continue;
		}
		if (val != MODULE_STATE_COMING || t->registered)
			continue;
		for (j = 0; j < mod->num_tracepoints; j++) {
			struct tracepoint *tp =
				tracepoint_ptr_deref(&mod->tracepoints_ptrs[j]);
			if (strcmp(tp->name, t->name))
				continue;
			if (!tracepoint_probe_register(tp, t->fn, t->probe)) {
				t->tp = tp;
				t->registered = 1;
			}
			break;
		}
	}
	return NOTIFY_OK;
}

static struct notifier_block _stp_tp_module_nb = {
	.notifier_call = _stp_tp_module_event,
};

static void _stp_tracepoints_stop(struct stp_tracepoint *tps, int n)
{
	int i;

	if (_stp_tp_mod_tps) {	/* unregisters those of loaded modules */
		unregister_tracepoint_module_notifier(&_stp_tp_module_nb);
		_stp_tp_mod_tps = NULL;
	}
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
		if (tps[i].module || tps[i].absent)
			continue;	/* below, or never */
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
	for (i = 0; i < n; i++)
		if (tps[i].module) {
			_stp_tp_mod_tps = tps;
			_stp_tp_mod_n = n;
			rc = register_tracepoint_module_notifier(&_stp_tp_module_nb);
			if (rc) {
				_stp_tp_mod_tps = NULL;
				_stp_tracepoints_stop(tps, n);
				return rc;
			}
			break;
		}
	return 0;
}
