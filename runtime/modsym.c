/* modsym.c - the run-time addresses of the kernel module symbols that
 * target variables read (a module's statics: @var("x@f.c", "mod"), a
 * $var of the probed module's unit) and of the code sites a kernel
 * marker's operands are told apart by, by the "module:symbol" names and
 * offsets pass 3 lists in _stp_modsym_names[] (struct _stp_modsym,
 * translator/emit/kmodules.c).
 *
 * A module's data lies where the module was loaded, which only the kernel
 * knows, and it exports no lookup by name (kallsyms_lookup_name is not
 * exported since 5.7, and calling it through a pointer would trip IBT
 * where its endbr is sealed): register_kprobe resolves a symbol name
 * ("module:symbol" included) and stores the address in the kprobe before
 * it refuses an address outside text, so a kprobe that is never armed
 * (disabled, and refused for data) gives the address.  The names are
 * looked up at the start and again when a module comes or goes (0 while
 * it is not loaded: a read there faults, and the handler reports stap's
 * read fault).
 */
#ifndef STP_MODSYM_C
#define STP_MODSYM_C

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>

static unsigned long _stp_modsym_addrs[STP_MODSYMS_N];
static int _stp_modsym_watching;
static DEFINE_MUTEX(_stp_modsym_lock);

/* The address of symbol I, 0 while its module is not loaded. */
#define _stp_modsym_addr(i) ((u64)READ_ONCE(_stp_modsym_addrs[i]))

/* The address of symbol NAME plus OFFSET as a kprobe there gets it, 0
 * if the kernel has no such symbol. */
static unsigned long _stp_lookup_name(const char *name, unsigned int offset)
{
	struct kprobe kp = { .symbol_name = name, .offset = offset,
			     .flags = KPROBE_FLAG_DISABLED };

	if (register_kprobe(&kp) == 0)	/* text after all: not kept */
		unregister_kprobe(&kp);
	return (unsigned long)kp.addr;
}

/* Look up the names of module MOD (every module if NULL); GOING: MOD is
 * unloading, its symbols are gone. */
static void _stp_modsyms_lookup(const char *mod, int going)
{
	size_t n = mod ? strlen(mod) : 0;
	int i;

	mutex_lock(&_stp_modsym_lock);
	for (i = 0; i < STP_MODSYMS_N; i++) {
		const char *name = _stp_modsym_names[i].name;

		if (mod && (strncmp(name, mod, n) || name[n] != ':'))
			continue;
		WRITE_ONCE(_stp_modsym_addrs[i],
			   going ? 0 : _stp_lookup_name(name,
						_stp_modsym_names[i].offset));
	}
	mutex_unlock(&_stp_modsym_lock);
}

static int _stp_modsym_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct module *mod = data;

	if (val == MODULE_STATE_COMING || val == MODULE_STATE_GOING)
		_stp_modsyms_lookup(mod->name, val == MODULE_STATE_GOING);
	return NOTIFY_DONE;
}

static struct notifier_block _stp_modsym_nb = {
	.notifier_call = _stp_modsym_notify,
};

static void _stp_modsyms_start(void)
{
	_stp_modsym_watching = register_module_notifier(&_stp_modsym_nb) == 0;
	_stp_modsyms_lookup(NULL, 0);
}

static void _stp_modsyms_stop(void)
{
	if (_stp_modsym_watching)
		unregister_module_notifier(&_stp_modsym_nb);
	_stp_modsym_watching = 0;
}

#endif
