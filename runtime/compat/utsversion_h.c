/* utsversion_h: the kernel's build (UTS_VERSION, "#1 SMP ... (date)") is
 * in generated/utsversion.h (5.19 on), not generated/compile.h. */
#include <generated/utsversion.h>

const char *stp_feature(void);
const char *stp_feature(void)
{
	return UTS_VERSION;
}
