/* stp_procroot.h - /proc/systemtap, the directory every module's procfs
 * files go under (the transport's when debugfs is missing, procfs probes').
 *
 * proc_mkdir() warns both when a path's parent is missing and when the
 * directory exists already: the shared parent is looked up first and made
 * only when absent, so that no module load writes a kernel warning.
 */
#ifndef STP_PROCROOT_H
#define STP_PROCROOT_H

#include <linux/namei.h>
#include <linux/proc_fs.h>
#include "transport/stp_msgs.h"

/* /proc/systemtap exists once this returns (unless memory ran out). */
static void _stp_proc_root_ensure(void)
{
	struct path root;

	if (kern_path("/proc/" STP_TRANSPORT_ROOT, LOOKUP_DIRECTORY, &root))
		proc_mkdir(STP_TRANSPORT_ROOT, NULL);
	else
		path_put(&root);
}

#endif
