/* no_llseek: the kernel has no_llseek() for files that cannot seek (6.12
 * removed it: a NULL llseek means the same there). */
#include <linux/fs.h>

loff_t (*stp_feature)(struct file *, loff_t, int) = no_llseek;
