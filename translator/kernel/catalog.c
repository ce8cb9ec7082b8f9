/* catalog.c - the target kernel's tracepoint catalog and BTF types.
 *
 * kernel_catalog() (kernel.h) loads them once for @cast, the kprobe
 * family's typed parameters and the tracepoint family, from the kernel
 * kernel.c picks (tpcat.c does the work).  Apart from kernel.c so that
 * what only needs the kernel's identity (the parser's fuzz target) does
 * not link the catalog.
 */
#include <stdio.h>

#include "kernel/kernel.h"
#include "kernel/tpcat.h"

const struct tpcat *kernel_catalog(struct session *s, char *err,
				   size_t errlen)
{
	const struct kernel_info *k = kernel_target(s);

	if (!k) {
		snprintf(err, errlen, "no target kernel");
		return NULL;
	}
	return tpcat_load(k->build_dir, k->vmlinux, k->modules_dir, err,
			  errlen);
}
