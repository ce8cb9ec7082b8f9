/* tpcat.h - the catalog of the target kernel's tracepoints.
 *
 * Which tracepoints exist, in which system, with which arguments: the
 * system comes from the tracepoint headers of the kernel's build tree
 * (TRACE_SYSTEM of the header that declares it, the headers SystemTap
 * reads too), the arguments with their names and types from the kernel's
 * BTF (the prototype of __traceiter_<name>), or from the BTF of the module
 * that defines it (its __tracepoints_strings section names it; a module
 * without BTF, 5.10's, leaves them to its TP_PROTO and to the tracepoint
 * family, which reads the module's DWARF).  Built once per run, in
 * milliseconds; knows nothing of scripts.
 */
#ifndef TPCAT_H
#define TPCAT_H

#include "kernel/tpentry.h"

struct ctype_btf;

struct tpcat {
	int n;
	struct tp_entry *v;	/* sorted by system, then name */
	struct ctype_btf *types;	/* all the kernel's types (@cast) */
	const struct btf *btf;		/* the kernel's BTF (a module's
					   types build on it) */
};

/* Build the catalog from the build tree BUILD_DIR, the kernel's BTF in
 * TYPES (a vmlinux, a boot image or raw BTF: kimage_types) and the modules
 * under MODULES_DIR (NULL: none).  NULL with a message in ERR when
 * impossible. */
const struct tpcat *tpcat_load(const char *build_dir, const char *types,
			       const char *modules_dir, char *err,
			       size_t errlen);

#endif
