/* dwarfdecl.h - the target kernel's DWARF, through its function index
 * (dwarf/dw_index.h): the index of the debug vmlinux and of modules' debug
 * files, and where a function is declared. */
#ifndef DWARFDECL_H
#define DWARFDECL_H

#include <stdint.h>

struct session;
struct dw_file;
struct dw_index;

/* The function index of the target kernel's debug vmlinux, built on first
 * use into the cache ($SYSTEMTAP_DIR/cache/dwarf); NULL when the kernel
 * has no debug vmlinux (WHY, if not NULL, says so) or it cannot be read
 * (reported once). */
struct dw_index *kernel_dwarf_index(struct session *s, const char **why);

/* The same for the module debug file PATH (a .ko with DWARF). */
struct dw_index *kernel_module_dwarf_index(struct session *s,
					   const char *path);

/* Module NAME's debug file (its DWARF, through its index), found by name
 * in the modules' debug tree; NULL when the tree lacks it. */
struct dw_file *kernel_module_dwarf(struct session *s, const char *name);
/* The same file's index. */
struct dw_index *kernel_module_dwarf_named(struct session *s,
					   const char *name);

/* The C of the run-time address OFF bytes past symbol SYM of kernel module
 * MODULE (as the kernel names it), through the table of module symbols
 * the generated module looks up (s->modsyms, runtime/modsym.c). */
const char *kernel_modsym_c(struct session *s, const char *module,
			    const char *sym, uint64_t off);
/* The same for code: the address the kernel gives a kprobe at FUNC+OFF
 * (which may differ from FUNC's address plus OFF where OFF is 0 and the
 * function starts with an endbr). */
const char *kernel_modsite_c(struct session *s, const char *module,
			     const char *func, uint64_t off);

/* "NAME@FILE:LINE" for kernel function FUNC (a symbol name, maybe a
 * compiler's clone NAME.isra.0) at link-time address ADDR, from the target
 * kernel's debug vmlinux; NULL without debug info or a match. */
const char *dw_func_decl(struct session *s, const char *func,
			    uint64_t addr);

#endif
