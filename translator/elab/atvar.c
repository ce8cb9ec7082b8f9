/* atvar.c - @var("name[@unit]"[, "module"]) from DWARF (pass 2).
 *
 * A global (or a unit's static) variable found in the debug file by name:
 * in the units matching "@unit", or in the probed function's unit (then
 * in any) when a DWARF probe's family resolves it without one; its
 * location (an address, DW_OP_addr, relocated where the kernel runs) and
 * type become a tvar as a target variable's do.  In the kernel's debug vmlinux, or in module
 * MODULE's debug file (its statics' addresses taken at run time,
 * kernel/dwarfdecl.c).
 */
#include <string.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_loc.h"
#include "dwarf/dw_types.h"
#include "dwarf/dw_vars.h"
#include "elab/targets.h"
#include "elab/tvar.h"
#include "kernel/dwarfdecl.h"
#include "kernel/kernel.h"
#include "kernel/ksyms.h"

static struct dw_file *kernel_file(struct session *s)
{
	const struct kernel_info *k = kernel_target(s);
	char err[512];

	return k && k->vmlinux ? dw_file_open(k->vmlinux, err, sizeof err) : NULL;
}

static int not_found(struct session *s, struct exp *e, const char *name,
		     const char *cu, const char *modname, int quiet)
{
	if (!quiet)
		diag_error(&s->diags, e->loc, "sema.atvar-global",
			   "unable to find global '%s' in %s%s%s", name, modname,
			   cu ? ", in " : "", cu ? cu : "");
	return -1;
}

int atvar_resolve(struct session *s, struct exp *e, struct dw_file *f,
		  uint64_t cu_off, const char *modname, int user, int quiet)
{
	const char *spec = e->u.op.name, *at = strchr(spec, '@');
	const char *name = at ? arena_strndup(s->arena, spec, (size_t)(at - spec)) : spec;
	const char *cu = at ? at + 1 : NULL;
	const struct ksyms *k = ksyms_kernel(s);
	struct ctype *type;
	struct dw_loc l;
	struct tvar *tv;
	uint64_t var;

	if (!f)
		f = strcmp(modname, "kernel") ? kernel_module_dwarf(s, modname) :
						 kernel_file(s);
	/* a DWARF probe's @var("name"): its function's unit first, then
	 * any (stap 4.8 finds jiffies from fs/read_write.c's vfs_read) */
	if (!f || (dw_global_var(f, name, cu, cu_off, &var) &&
		   (!cu_off || dw_global_var(f, name, cu, 0, &var))))
		return not_found(s, e, name, cu, modname, quiet);
	if (dw_loc_var(f, var, 0, 0, 0, k ? ksyms_addr(k, "sprint_symbol") : 0,
		       user, &l) != DW_LOC_OK)
		return not_found(s, e, name, cu, modname, quiet);
	type = dw_type_of(f, var);
	spec = arena_printf(s->arena, "@var(\"%s\")", spec);
	tv = l.kind == DW_LOC_ADDR ?
		tvar_resolve_at(s, e, &e->u.op.comps, arena_strdup(s->arena, l.c),
				type, "@var", spec, quiet) :
		tvar_resolve(s, e, &e->u.op.comps, arena_strdup(s->arena, l.c),
			     type, "@var", spec, quiet);
	if (!tv)
		return -1;
	tv->base_reads = l.reads;
	tv->user = user;
	tvar_name_fn(s, e, tv, name, 0, &e->u.op.comps);
	e->u.op.resolved = tv;
	return 0;
}
