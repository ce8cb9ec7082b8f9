/* dw_types.h - C types (kernel/ctypes.h) built from a debug file's DWARF.
 *
 * Each type DIE becomes one struct ctype, built on first use and kept for
 * the life of the file; a struct's members are read only when something
 * walks into it.  A struct only declared in one unit (a pointer's target
 * in a file that never includes its definition) takes its members from
 * the unit that defines it, found by name, as stap does.
 */
#ifndef DW_TYPES_H
#define DW_TYPES_H

#include <stdint.h>

#include "util/ctypes.h"

struct dw_file;

/* The type whose DIE is at offset DIE_OFF in F (0: void). */
struct ctype *dw_type_at(struct dw_file *f, uint64_t die_off);

/* The type of the DIE at DIE_OFF (its DW_AT_type; void without one). */
struct ctype *dw_type_of(struct dw_file *f, uint64_t die_off);

/* A named type defined anywhere in F: "task_struct" with CT_STRUCT (or
 * CT_UNION, CT_ENUM, CT_TYPEDEF, CT_INT for base types); NULL if none. */
struct ctype *dw_type_find(struct dw_file *f, const char *name,
			   enum ctype_kind kind);

#endif
