/* strlcpy: the kernel has strlcpy() (6.8 removed it; embedded C, the
 * tapsets' and scripts', still calls it). */
#include <linux/string.h>

size_t stp_feature(char *dst, const char *src, size_t size);
size_t stp_feature(char *dst, const char *src, size_t size)
{
	return strlcpy(dst, src, size);
}
