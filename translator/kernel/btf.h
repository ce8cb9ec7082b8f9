/* btf.h - reading a kernel's BPF Type Format (BTF) type data.
 *
 * The kernel image carries, in its .BTF section, every type and function
 * prototype of the kernel with names: enough to type tracepoint arguments
 * and walk struct members without DWARF.  This module only reads the
 * format (it knows nothing of scripts or sessions); ctype_btf.c turns its
 * records into the translator's C type model.  Type ids start at 1; id 0
 * is void.  The raw records are the kernel's own (linux/btf.h).
 */
#ifndef BTF_H
#define BTF_H

#include <stddef.h>
#include <stdint.h>
#include <linux/btf.h>

struct btf;

/* Load the .BTF section of the ELF file PATH (a vmlinux), or NULL with a
 * message in ERR. */
struct btf *btf_open_elf(const char *path, char *err, size_t errlen);
/* The same for a module's split BTF, whose types and strings follow those
 * of BASE (the kernel's, which must outlive it). */
struct btf *btf_open_elf_split(const char *path, const struct btf *base,
			       char *err, size_t errlen);
/* Parse a raw BTF blob (e.g. /sys/kernel/btf/vmlinux); DATA is copied. */
struct btf *btf_from_mem(const void *data, size_t size, char *err,
			 size_t errlen);
void btf_close(struct btf *b);

uint32_t btf_ntypes(const struct btf *b);	/* valid ids: 1 .. n-1 */
const struct btf_type *btf_type(const struct btf *b, uint32_t id);
const char *btf_str(const struct btf *b, uint32_t off);
static inline int btf_kind(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info);
}
static inline int btf_vlen(const struct btf_type *t)
{
	return BTF_INFO_VLEN(t->info);
}
/* The records that follow a type: members, params, enumerators, … */
static inline const void *btf_extra(const struct btf_type *t)
{
	return t + 1;
}

/* The id of the type of kind KIND named NAME, or 0. */
uint32_t btf_find(const struct btf *b, const char *name, int kind);

#endif
