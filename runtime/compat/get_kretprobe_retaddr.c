/* get_kretprobe_retaddr: a kretprobe instance's return address is
 * get_kretprobe_retaddr(ri) (5.19 on, kept by a rethook node; before, the
 * instance's ret_addr field). */
#include <linux/kprobes.h>

unsigned long stp_feature(struct kretprobe_instance *ri);
unsigned long stp_feature(struct kretprobe_instance *ri)
{
	return get_kretprobe_retaddr(ri);
}
