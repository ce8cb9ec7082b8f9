/* ctype_btf.h - C types (ctypes.h) built from BTF records (btf.h).
 *
 * Each BTF id becomes one struct ctype, built on first use and kept;
 * struct members are read only when something walks into the struct.
 */
#ifndef CTYPE_BTF_H
#define CTYPE_BTF_H

#include "kernel/btf.h"
#include "util/ctypes.h"

struct ctype_btf;

struct ctype_btf *ctype_btf_new(const struct btf *b);
struct ctype *ctype_btf_get(struct ctype_btf *cb, uint32_t id);
/* A named type: "task_struct" as a struct (or union, or typedef), for
 * @cast(p, "struct task_struct"); NULL if unknown. */
struct ctype *ctype_btf_find(struct ctype_btf *cb, const char *name,
			     enum ctype_kind kind);

#endif
