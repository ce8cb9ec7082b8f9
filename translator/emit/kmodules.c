/* kmodules.c - pass 3: the kernel modules the script's probes lie in.
 *
 * Reads each probe's kmodule (set by its family: kprobe.module("M"), a
 * tracepoint a module defines, module("M") of the DWARF family), looks it
 * up in the target kernel's modules tree (kernel/modtree.c) and writes the
 * names into the module's .modinfo as "ctap_modules=a,b".  The testbed
 * guest, which boots with no modules, loads them (with what they depend
 * on) before the script starts (testbed/tbmods.c); a real machine does
 * not: there the user loads a module, as with stap.  A name the tree does
 * not have (built into the kernel, or absent) is left out, and so is a
 * wildcard: module("*") probes the modules that are loaded, as stap's do,
 * not every module of the kernel (a test loads what it wants with
 * NAME.modules).  Also the names of the module symbols whose run-time
 * addresses the target variables of module statics read
 * (s->modsyms, runtime/modsym.c).
 */
#include <string.h>

#include "emit/emit_int.h"
#include "kernel/kernel.h"
#include "kernel/modtree.h"

struct found {
	struct session *s;
	struct vec wanted;	/* const char *: the probes' kmodules, '-'
				   read as '_' (as in the tree's names),
				   each once */
	struct vec names;	/* const char *: those the tree has */
};

static void add_once(struct session *s, struct vec *v, const char *name)
{
	const char *n;
	int i;

	VEC_EACH(*v, i, n)
		if (!strcmp(n, name))
			return;
	vec_push(s->arena, v, (void *)name);
}

/* A module of the tree, kept when some probe names it. */
static int match(const char *path, const char *name, void *arg)
{
	struct found *f = arg;
	const char *want;
	int i;

	(void)path;
	VEC_EACH(f->wanted, i, want)
		if (!strcmp(want, name)) {
			add_once(f->s, &f->names, arena_strdup(f->s->arena, name));
			break;
		}
	return 0;
}

void emit_kmodules(struct emit *e)
{
	const struct kernel_info *k = kernel_target(e->s);
	struct found f = { .s = e->s };
	struct derived_probe *dp;
	struct strbuf list = { 0 };
	const char *n;
	char *pat, *p;
	int i;

	if (!k || !k->modules_dir)
		return;
	VEC_EACH(e->prog->probes, i, dp) {
		if (!dp->kmodule || strpbrk(dp->kmodule, "*?["))
			continue;
		pat = arena_strdup(e->s->arena, dp->kmodule);
		for (p = pat; *p; p++)
			if (*p == '-')
				*p = '_';
		add_once(e->s, &f.wanted, pat);
	}
	if (!f.wanted.n)
		return;
	modtree_each(k->modules_dir, match, &f);
	if (!f.names.n)
		return;
	VEC_EACH(f.names, i, n)
		sb_printf(&list, "%s%s", i ? "," : "", n);
	emit_line(e, "MODULE_INFO(ctap_modules, %s);",
		  emit_cstr(e, list.s, list.len));
	sb_free(&list);
}

void emit_modsyms(struct emit *e)
{
	const char *n;
	int i;

	if (!e->s->modsyms.n)
		return;
	emit_line(e, "struct _stp_modsym { const char *name; unsigned int offset; };");
	emit_line(e, "#define STP_MODSYMS_N %d", e->s->modsyms.n);
	emit_line(e, "static const struct _stp_modsym _stp_modsym_names[STP_MODSYMS_N] = {");
	VEC_EACH(e->s->modsyms, i, n) {	/* "module:symbol[+offset]" */
		size_t len = strcspn(n, "+");

		emit_line(e, "\t{ %s, %s },", emit_cstr(e, n, len),
			  n[len] ? n + len + 1 : "0");
	}
	emit_line(e, "};");
	emit_line(e, "#include \"modsym.c\"\n");
}
