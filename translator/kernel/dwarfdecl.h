/* dwarfdecl.h - where the target kernel declares a function (DWARF). */
#ifndef DWARFDECL_H
#define DWARFDECL_H

#include <stdint.h>

struct session;

/* "NAME@FILE:LINE" for kernel function FUNC (a symbol name, maybe a
 * compiler's clone NAME.isra.0) at link-time address ADDR, from the target
 * kernel's debug vmlinux; NULL without debug info or a match. */
const char *dw_func_decl(struct session *s, const char *func,
			    uint64_t addr);

#endif
