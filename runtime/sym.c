/* sym.c - kernel addresses by name, and kernel backtraces, as stap shows them.
 *
 * Names come from the table the translator packs into the module with
 * -d kernel (see translator/emit/ksymtab.c), relocated by the distance between
 * sprint_symbol's real address and its System.map address (KASLR).
 * Without it every address prints in hex, as stap does without unwind data.
 *
 * A backtrace starts from the probed registers: the kernel unwinds the
 * handler's own stack (stack_trace_save) and the frames before the probed
 * context are dropped.  stap's DWARF unwinder gives the frames it can
 * unwind as exact and then hands over to the kernel's unwinder, whose
 * frames are marked "(inexact)"; we reproduce that shape: with symbols,
 * the frames are exact up to the last one before a change of stack (an
 * interrupt taken in the kernel ran on the IRQ stack), or to the last, and
 * the chain follows inexact from that frame; without, the
 * frames in this module (which stap unwinds) and the first kernel frame are
 * exact and the kernel's chain follows inexact from that frame.  An address
 * in this module prints as stap shows one without symbols:
 * "0xADDR [mod+0xOFF]".
 */
#ifndef STP_SYM_C
#define STP_SYM_C

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/stacktrace.h>
#include <linux/version.h>
#include "stp_mem.h"

#ifndef STP_KSYMS_N
#define STP_KSYMS_N 0
#endif
#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20
#endif

/* The probed function of a return probe on this CPU (set by kretprobe
 * handlers, for "Returning from:"). */
static DEFINE_PER_CPU(unsigned long, _stp_ret_func);
static atomic_t _stp_unwind_warned = ATOMIC_INIT(0);

/* Is ADDR in the packed table?  Fills its name, offset and size. */
static __maybe_unused int _stp_ksym_lookup(unsigned long addr, const char **name,
					   unsigned long *off, unsigned long *size)
{
#if STP_KSYMS_N > 1
	unsigned long base = STP_KSYMS_BASE + ((unsigned long)&sprint_symbol -
					       STP_KSYMS_ANCHOR);
	unsigned long rel;
	int lo = 0, hi = STP_KSYMS_N - 1, mid;

	if (addr < base || addr - base >= _stp_ksym_tab[STP_KSYMS_N - 1][0])
		return 0;
	rel = addr - base;
	while (lo < hi) {	/* the last entry at or below rel */
		mid = lo + (hi - lo + 1) / 2;
		if (_stp_ksym_tab[mid][0] <= rel)
			lo = mid;
		else
			hi = mid - 1;
	}
	*name = _stp_ksym_names + _stp_ksym_tab[lo][1];
	*off = rel - _stp_ksym_tab[lo][0];
	*size = _stp_ksym_tab[lo + 1][0] - _stp_ksym_tab[lo][0];
	return 1;
#else
	return 0;
#endif
}

/* This module's name and ADDR's offset in its text, if ADDR is in it
 * (frames of the probe handler); NULL otherwise.  The kernel exports no
 * lookup of other modules' bounds. */
static const char *_stp_mod_offset(unsigned long addr, unsigned long *off)
{
	unsigned long base;
	size_t size, data;

	_stp_module_parts(&base, &size, &data);

	if (addr < base || addr - base >= size)
		return NULL;
	*off = addr - base;
	return THIS_MODULE->name;
}

/* symname(): "name", or the address in hex. */
static __maybe_unused void _stp_symname(char *buf, size_t n, unsigned long addr)
{
	const char *name;
	unsigned long off, size;

	if (_stp_ksym_lookup(addr, &name, &off, &size))
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "0x%lx", addr);
}

/* symdata(): "name+0xOFF/0xSIZE [kernel]"; with SHORT_FORM (the lines of
 * sprint_backtrace) "name+0xOFF [kernel]".  In a module: "0xADDR
 * [mod+0xOFF/0x0]" (short "0xADDR [mod+0xOFF]"); else the address. */
static __maybe_unused void _stp_symdata(char *buf, size_t n, unsigned long addr,
					int short_form)
{
	const char *name;
	unsigned long off, size;

	if (!_stp_ksym_lookup(addr, &name, &off, &size)) {
		name = _stp_mod_offset(addr, &off);
		if (name)
			snprintf(buf, n, "0x%lx [%s+0x%lx%s]", addr, name, off,
				 short_form ? "" : "/0x0");
		else
			snprintf(buf, n, "0x%lx", addr);
	} else if (short_form)
		snprintf(buf, n, "%s+0x%lx [kernel]", name, off);
	else
		snprintf(buf, n, "%s+0x%lx/0x%lx [kernel]", name, off, size);
}

/* The module ADDR is in ("kernel" for the kernel's own text), or NULL. */
static __maybe_unused const char *_stp_modname(char *buf, size_t n,
					       unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN];
	char *open, *close;

	sprint_symbol(sym, addr);
	open = strrchr(sym, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		snprintf(buf, n, "%s", open + 1);
		return buf;
	}
	if (!strncmp(sym, "0x", 2))
		return NULL;
	snprintf(buf, n, "kernel");
	return buf;
}

static void _stp_unwind_warn(void)
{
	if (!STP_KSYMS_N && !atomic_xchg(&_stp_unwind_warned, 1))
		_stp_transport_warn("Missing unwind data for a module, rerun with 'stap -d kernel'");
}

#if defined(CONFIG_X86_64) && defined(CONFIG_UNWINDER_ORC)
#include <asm/unwind.h>

/* The frames of this stack (REGS NULL) or of the context REGS were taken
 * in, each with the stack it was found on (task, IRQ, …): stap's DWARF
 * unwinder stops where the stack changes. */
static noinline unsigned int _stp_stack_walk(struct pt_regs *regs,
					     unsigned long *e, unsigned char *ty,
					     unsigned int max)
{
	struct unwind_state st;
	unsigned int n = 0, skip = !regs;	/* this function's own frame */
	unsigned long a;

	for (unwind_start(&st, current, regs, NULL); !unwind_done(&st) && n < max;
	     unwind_next_frame(&st)) {
		a = unwind_get_return_address(&st);
		if (!a)
			break;
		if (skip) {
			skip--;
			continue;
		}
		e[n] = a;
		ty[n++] = (unsigned char)st.stack_info.type;
	}
	return n;
}
#else
/* Without ORC only this stack: the kernel does not export a walk from
 * registers (stack_trace_save_regs). */
static noinline unsigned int _stp_stack_walk(struct pt_regs *regs,
					     unsigned long *e, unsigned char *ty,
					     unsigned int max)
{
	unsigned int n = regs ? 0 : stack_trace_save(e, max, 0);

	memset(ty, 0, max);
	return n;
}
#endif

/* The kernel's frames of the probed context: its address, then the
 * return addresses above it.  *SW is the index of the first frame on
 * another stack than the first (an interrupt's), or MAX if none. */
static int _stp_kstack(struct context *c, unsigned long *k, int max, int *sw)
{
	unsigned long e[64], ip, ret = 0;
	unsigned char ty[64];
	struct pt_regs *r = c->regs;
	unsigned int n = _stp_stack_walk(NULL, e, ty, ARRAY_SIZE(e)), i, start = n, first;
	int m = 0, lead = 1;

	*sw = max;
	if (!r || user_mode(r)) {	/* no probed kernel context */
		for (i = 1; i < n && m < max; i++) {
			if (*sw == max && ty[i] != ty[1])
				*sw = m;
			k[m++] = e[i];
		}
		return m;
	}
	ip = instruction_pointer(r);
	for (i = 0; i < n && start == n; i++)
		if (e[i] == ip) {		/* a return probe */
			start = i;
			lead = 0;
		}
	if (start == n && this_cpu_read(_stp_ret_func)) {
		/* a return probe whose return address this stack's walk does
		 * not show (before 5.14 the unwinder stops in the kretprobe
		 * trampoline): the frames above it, from the registers */
		n = _stp_stack_walk(r, e, ty, ARRAY_SIZE(e));
		start = n && e[0] == ip;
	}
	for (i = 0; i < n && start == n; i++)
		if (e[i] > ip && e[i] <= ip + 16)	/* the trap or ftrace call */
			start = i + 1;
	if (start == n &&
	    !_stp_read_kernel(&ret, kernel_stack_pointer(r), sizeof ret))
		for (i = 0; i < n && start == n; i++)
			if (e[i] == ret)	/* a function's entry */
				start = i;
	if (lead)
		k[m++] = ip;
	first = start;
	for (i = start; i < n && m < max; i++) {
		if (*sw == max && ty[i] != ty[first])
			*sw = m;
		k[m++] = e[i];
	}
	return m;
}

struct _stp_bt {
	unsigned long pc[2 * MAXBACKTRACE + 1];
	int n, nexact;
	unsigned long ret_from;	/* return probes: the probed function */
};

static __maybe_unused void _stp_backtrace(struct context *c, struct _stp_bt *bt)
{
	unsigned long k[MAXBACKTRACE];
	int sw, nk = _stp_kstack(c, k, MAXBACKTRACE, &sw), i;

	_stp_unwind_warn();
	bt->n = 0;
	bt->ret_from = c->regs ? this_cpu_read(_stp_ret_func) : 0;
	if (!nk) {
		bt->nexact = 0;
		return;
	}
	if (STP_KSYMS_N) {	/* exact up to a change of stack */
		int last = sw < nk && sw > 0 ? sw - 1 : nk - 1;

		for (i = 0; i <= last; i++)
			bt->pc[bt->n++] = k[i];
		bt->nexact = bt->n;
		for (i = last; i < nk; i++)
			bt->pc[bt->n++] = k[i];
	} else {
		unsigned long off;
		int first = 0;	/* the first frame outside this module */

		while (first < nk - 1 && _stp_mod_offset(k[first], &off))
			first++;
		for (i = 0; i <= first; i++)
			bt->pc[bt->n++] = k[i];
		bt->nexact = bt->n;
		for (i = first; i < nk; i++)
			bt->pc[bt->n++] = k[i];
	}
}

/* One line of print_backtrace: " 0xADDR : symdata", or " symdata" for
 * an address without a name. */
static __maybe_unused void _stp_print_frame(struct context *c, const char *lead,
					    unsigned long pc, int inexact)
{
	char sym[MAXSTRINGLEN], line[MAXSTRINGLEN + 64];
	const char *name;
	unsigned long off, size;

	if (_stp_ksym_lookup(pc, &name, &off, &size)) {
		_stp_symdata(sym, sizeof sym, pc, 0);
		snprintf(line, sizeof line, "%s0x%lx : %s%s\n", lead, pc, sym,
			 inexact ? " (inexact)" : "");
	} else {
		_stp_symdata(sym, sizeof sym, pc, 0);
		snprintf(line, sizeof line, "%s%s%s\n", lead, sym,
			 inexact ? " (inexact)" : "");
	}
	_stp_print_str(c, line);
}

static __maybe_unused void _stp_print_backtrace(struct context *c)
{
	struct _stp_bt bt;
	int i = 0;

	_stp_backtrace(c, &bt);
	if (bt.ret_from && bt.n) {
		_stp_print_frame(c, "Returning from:  ", bt.ret_from, 0);
		_stp_print_frame(c, "Returning to  :  ", bt.pc[0], 0);
		i = 1;
	}
	for (; i < bt.n; i++)
		_stp_print_frame(c, " ", bt.pc[i], i >= bt.nexact);
}

/* The next word of a stack string (addresses separated by spaces, as
 * backtrace() and callers() give them) at *S: its start, its length in *LEN
 * (0 at the end), and *S moved past it. */
static __maybe_unused const char *_stp_stack_word(const char **s, size_t *len)
{
	const char *w = *s + strspn(*s, " ");

	*len = strcspn(w, " ");
	*s = w + *len;
	return w;
}

/* One line of print_syms/sprint_syms: " WORD : symdata(WORD in hex)"; the
 * word is shown as written ("zz : 0x0"). */
static __maybe_unused void _stp_syms_line(char *line, size_t n, const char *w,
					  size_t len)
{
	char word[MAXSTRINGLEN], sym[MAXSTRINGLEN];

	len = min(len, sizeof word - 1);
	memcpy(word, w, len);
	word[len] = '\0';
	_stp_symdata(sym, sizeof sym, simple_strtol(word, NULL, 16), 0);
	snprintf(line, n, " %s : %s\n", word, sym);
}

#endif
