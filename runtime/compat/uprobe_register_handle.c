/* uprobe_register_handle: uprobe_register(inode, offset, ref_ctr_offset,
 * uc) returns the struct uprobe * that uprobe_unregister_nosync() takes,
 * and uprobe_unregister_sync() waits for handlers (6.12 on; before, it
 * returned an int, uprobe_register_refctr took the counter's offset, and
 * uprobe_unregister(inode, offset, uc) did both). */
#include <linux/uprobes.h>

struct uprobe *stp_feature(struct inode *inode, loff_t off,
			   struct uprobe_consumer *uc);
struct uprobe *stp_feature(struct inode *inode, loff_t off,
			   struct uprobe_consumer *uc)
{
	struct uprobe *u = uprobe_register(inode, off, 0, uc);

	if (!IS_ERR(u))
		uprobe_unregister_nosync(u, uc);
	uprobe_unregister_sync();
	return u;
}
