/* pde_data: a procfs entry's data is pde_data(inode) (before 5.17,
 * PDE_DATA(inode)). */
#include <linux/proc_fs.h>

void *stp_feature(const struct inode *inode);
void *stp_feature(const struct inode *inode)
{
	return pde_data(inode);
}
