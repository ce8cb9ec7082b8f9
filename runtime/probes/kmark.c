/* probes/kmark.c - SDT markers in kernel modules (the kmark family):
 * kprobes at "module:function+offset" (probes/kprobe.c), registered at
 * the start for a module already loaded, and by a module notifier when
 * the module loads later (while it is coming, so that markers in its
 * init fire too); unregistered when it goes, and registered again if it
 * comes back.
 */
#ifndef STP_PROBES_KMARK_C
#define STP_PROBES_KMARK_C

#include <linux/module.h>
#include <linux/mutex.h>
#include "probes/kprobe.c"

static struct stp_kprobe *_stp_kmark_probes;
static int _stp_kmark_n;
static DEFINE_MUTEX(_stp_kmark_lock);

/* Is K's symbol in module MOD ("MOD:function")? */
static int _stp_kmark_in(const struct stp_kprobe *k, const char *mod)
{
	size_t n = strlen(mod);

	return !strncmp(k->symbol, mod, n) && k->symbol[n] == ':';
}

static int _stp_kmark_notify(struct notifier_block *nb, unsigned long val,
			     void *data)
{
	struct module *mod = data;
	int i;

	if (val != MODULE_STATE_COMING && val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&_stp_kmark_lock);
	for (i = _stp_kmark_n - 1; i >= 0; i--) {	/* as _stp_kprobes_start */
		struct stp_kprobe *k = &_stp_kmark_probes[i];

		if (!_stp_kmark_in(k, mod->name))
			continue;
		if (val == MODULE_STATE_COMING && !k->registered) {
			k->registered = _stp_kprobe_register(k) == 0;
		} else if (val == MODULE_STATE_GOING && k->registered) {
			unregister_kprobe(&k->u.kp);
			k->registered = 0;
		}
	}
	mutex_unlock(&_stp_kmark_lock);
	return NOTIFY_DONE;
}

static struct notifier_block _stp_kmark_nb = {
	.notifier_call = _stp_kmark_notify,
};

static int _stp_kmarks_start(struct stp_kprobe *probes, int n)
{
	int rc;

	_stp_kmark_probes = probes;
	_stp_kmark_n = n;
	rc = register_module_notifier(&_stp_kmark_nb);
	if (rc)
		return rc;
	mutex_lock(&_stp_kmark_lock);
	_stp_kprobes_start(probes, n);	/* the modules loaded now */
	mutex_unlock(&_stp_kmark_lock);
	return 0;
}

static void _stp_kmarks_stop(struct stp_kprobe *probes, int n)
{
	unregister_module_notifier(&_stp_kmark_nb);
	mutex_lock(&_stp_kmark_lock);
	_stp_kprobes_stop(probes, n);
	mutex_unlock(&_stp_kmark_lock);
}

#endif
