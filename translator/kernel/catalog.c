/* catalog.c - the target kernel's tracepoint catalog and BTF types.
 *
 * kernel_catalog() (kernel.h) loads them once for @cast, the kprobe
 * family's typed parameters and the tracepoint family, from the kernel
 * kernel.c picks (tpcat.c does the work), or says which package has
 * them.  Apart from kernel.c so that
 * what only needs the kernel's identity (the parser's fuzz target) does
 * not link the catalog.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kernel.h"
#include "kernel/tpcat.h"

const struct tpcat *kernel_catalog(struct session *s, char *err,
				   size_t errlen)
{
	const struct kernel_info *k = kernel_target(s);
	const struct tpcat *cat;

	if (!k) {
		snprintf(err, errlen, "no target kernel");
		return NULL;
	}
	if (!k->types) {
		snprintf(err, errlen, "no type data for kernel %s: install its debug vmlinux (package linux-image-%s-dbg) or its image with BTF (package linux-image-%s)",
			 k->release, k->release, k->release);
		return NULL;
	}
	cat = tpcat_load(k->build_dir, k->types, k->modules_dir, err, errlen);
	if (!cat && k->types != k->vmlinux) {	/* say where else to look */
		size_t n = strlen(err);
		snprintf(err + n, errlen - n, " (install its debug vmlinux: package linux-image-%s-dbg)",
			 k->release);
	}
	return cat;
}
