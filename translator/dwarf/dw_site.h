/* dw_site.h - one probe site found in DWARF, as the dwarf probe family
 * (probes/dwarf.c) hands it to the code that resolves target variables
 * and lists them (the variables at SITE's pc, in SITE's function).
 *
 * Contract with probes/dwarf.c: a derived probe of family_dwarf has its
 * site as the first member of its data, so `(struct dw_site *)dp->data`
 * is the site of any probe whose dp->family is &family_dwarf (a function
 * or statement found in DWARF; for kernel.statement(ADDR).absolute only
 * pc and is_statement are set, file is NULL).  Its family record's
 * .target_var, .list_vars, .entry_target and .entry_probe are the hooks
 * for target variables; they are NULL until that code fills them.
 */
#ifndef DW_SITE_H
#define DW_SITE_H

#include <stdint.h>

struct dw_file;

struct dw_site {
	struct dw_file *file;	/* the debug file (vmlinux, module .ko) */
	const char *module;	/* NULL: the kernel; else the module's name */
	uint64_t cu_off;	/* offset of its compilation unit's DIE */
	uint64_t die_off;	/* the function: a DW_TAG_subprogram or a
				   DW_TAG_inlined_subroutine (function
				   probes), or the innermost one holding pc
				   (statement probes) */
	uint64_t pc;		/* the probe's address in the file (as
				   dw_file's addresses: a vmlinux's link
				   addresses; a module's as libdwfl lays
				   its sections out) */
	unsigned is_return : 1;	/* a .return probe (kretprobe at the
				   function's entry; $return exists) */
	unsigned is_inline : 1;	/* an inline instance */
	unsigned is_statement : 1;
	unsigned is_user : 1;	/* a user-space file (probes/uprobe.c, whose
				   data starts with a site too): module is
				   its path, registers and memory are the
				   process's, no __fentry__ retry */
};

#endif
