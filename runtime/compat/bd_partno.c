/* bd_partno: a block device's partition number is its bd_partno field
 * (newer kernels keep it in the low byte of __bd_flags: bdev_partno()). */
#include <linux/blk_types.h>

u8 stp_feature(struct block_device *b);
u8 stp_feature(struct block_device *b)
{
	return b->bd_partno;
}
