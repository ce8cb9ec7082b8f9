/* ksymtab.c - pass 3: the kernel's symbol table packed into the module.
 *
 * With -d kernel, a DWARF probe on a kernel function (as with stap) or a
 * tapset alias standing for one, the module carries the target kernel's text symbols (ksyms.c
 * reads them from System.map) so that symname(), probefunc() and
 * backtraces can name kernel addresses; runtime/sym.c reads the table.
 * Several names at one address print as the first global one (as stap
 * does), else the first.
 */
#include <string.h>

#include "emit/emit_int.h"
#include "kernel/ksyms.h"

static int is_global(char t)
{
	return t == 'T' || t == 'W';
}

/* -d kernel or --all-modules, a DWARF probe on a kernel function, or a
 * tapset alias standing for one (pragma:kernel-symbols). */
static int kernel_wanted(struct emit *e)
{
	struct session *s = e->s;
	const struct derived_probe *dp;
	const char *m;
	int i;

	if (emit_pragma_used(e, "pragma:kernel-symbols"))
		return 1;
	VEC_EACH(e->prog->probes, i, dp)
		if (dp->kernel_symbols)
			return 1;

	VEC_EACH(s->sym_modules, i, m)
		if (!strcmp(m, "kernel") || !strcmp(m, "*"))
			return 1;
	return 0;
}

/* The packed table: for each distinct address (ascending) its offset
 * from the first, and its shown name's offset in one string of names.
 * The runtime relocates it by the distance between sprint_symbol's real
 * address and its address in the map (KASLR). */
void emit_ksym_table(struct emit *e)
{
	const struct ksyms *k = NULL;
	uint64_t anchor = 0, base;
	size_t i, j, n = 0, names = 0;
	const struct ksym *show;

	if (!emit_pragma_used(e, "pragma:symbols"))
		return;
	if (kernel_wanted(e))
		k = ksyms_kernel(e->s);
	if (k)
		anchor = ksyms_addr(k, "sprint_symbol");
	if (!k || !anchor || !k->n) {
		emit_line(e, "#define STP_KSYMS_N 0");
		return;
	}
	base = k->syms[0].addr;
	emit_line(e, "static const char _stp_ksym_names[] =");
	for (i = 0; i < k->n; i = j) {
		show = &k->syms[i];
		for (j = i; j < k->n && k->syms[j].addr == k->syms[i].addr; j++)
			if (!is_global(show->type) && is_global(k->syms[j].type))
				show = &k->syms[j];
		emit_line(e, "\t\"%s\\0\"", show->name);
		n++;
	}
	emit_line(e, "\t;");
	emit_line(e, "static const u32 _stp_ksym_tab[][2] = {");
	for (i = 0; i < k->n; i = j) {
		show = &k->syms[i];
		for (j = i; j < k->n && k->syms[j].addr == k->syms[i].addr; j++)
			if (!is_global(show->type) && is_global(k->syms[j].type))
				show = &k->syms[j];
		emit_line(e, "\t{ 0x%llx, %zu },",
			  (unsigned long long)(show->addr - base), names);
		names += strlen(show->name) + 1;
	}
	emit_line(e, "};");
	emit_line(e, "#define STP_KSYMS_N %zu", n);
	emit_line(e, "#define STP_KSYMS_BASE 0x%llxUL", (unsigned long long)base);
	emit_line(e, "#define STP_KSYMS_ANCHOR 0x%llxUL", (unsigned long long)anchor);
}
