/* rdmsrq: a model-specific register is read into a u64 by rdmsrq() (6.16
 * renamed rdmsrl() to it). */
#include <asm/msr.h>

u64 stp_feature(void);
u64 stp_feature(void)
{
	u64 v;

	rdmsrq(MSR_FS_BASE, v);
	return v;
}
