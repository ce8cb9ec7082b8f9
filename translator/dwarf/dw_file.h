/* dw_file.h - debug files opened once: the libdw wrapper's entry point.
 *
 * translator/dwarf/ is the only code that includes elfutils headers; it
 * knows nothing of the session or the passes (callers pass paths and get
 * plain data back).  A debug file is opened through libdwfl so that a
 * kernel module's DWARF (ET_REL, .rela.debug_*) comes relocated, while a
 * vmlinux (ET_EXEC, whose leftover .rela.debug_* must not be applied) is
 * read as linked.  Addresses are link-time addresses of the file (module
 * sections laid out as libdwfl lays them out: see dw_file_bias).
 */
#ifndef DW_FILE_H
#define DW_FILE_H

#include <stddef.h>
#include <stdint.h>

struct dw_file;

/* The debug file at PATH, opened on first use and kept open until
 * dw_file_close_all; NULL with a message in ERR (ERRLEN bytes). */
struct dw_file *dw_file_open(const char *path, char *err, size_t errlen);

/* Its path, as given. */
const char *dw_file_path(const struct dw_file *f);
/* The elfutils release libdw reports ("0.188"), for -V. */
const char *dw_lib_version(void);

/* --sysroot: ROOT holds the target's user-space files (programs,
 * libraries, /usr/lib/debug); NULL or "/" for this machine's.  Target
 * paths given to elf_user, elf_unwind and the separate debug files libdw
 * looks for are read under it. */
void dw_set_sysroot(const char *root);
/* Target path PATH as this machine reads it: under the sysroot when there
 * is one (BUF holds it), else PATH. */
const char *dw_rooted(const char *path, char *buf, size_t n);

/* Its NT_GNU_BUILD_ID as lowercase hex ("" when it has none). */
const char *dw_file_build_id(const struct dw_file *f);

/* The libdw handle (a Dwarf *) and the bias to add to its DWARF addresses
 * to get the file's addresses (0 for a vmlinux). */
void *dw_file_dwarf(const struct dw_file *f, uint64_t *bias);

/* The libdwfl module (a Dwfl_Module *), for symbol tables and CFI. */
void *dw_file_module(const struct dw_file *f);

/* A kernel module's statics lie in sections only the loaded module
 * places, so their addresses are C the caller writes: FN(ARG, PATH, SYM,
 * OFF) is the C expression of the address OFF bytes past symbol SYM of
 * the loaded module whose debug file is PATH (NULL: it cannot be had).
 * One hook for every module file. */
typedef const char *dw_symaddr_fn(void *arg, const char *path,
				  const char *sym, uint64_t off);
void dw_file_set_symaddr(dw_symaddr_fn *fn, void *arg);

/* That C for the module file's address ADDR: through the symbol (an
 * object or function, not a section) that holds it, whose name the module
 * must have once; NULL without a hook or such a symbol. */
const char *dw_file_symaddr(struct dw_file *f, uint64_t addr);

/* The address of F's data symbol NAME (an object, or untyped, in a
 * section: a variable the linker defines, as the kernel's jiffies), the
 * first of that name: 0 and *ADDR, or -1. */
int dw_file_symbol(struct dw_file *f, const char *name, uint64_t *addr);

void dw_file_close_all(void);

#endif
