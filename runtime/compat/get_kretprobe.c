/* get_kretprobe: a kretprobe instance's probe is get_kretprobe(ri) (5.11
 * on; before, the instance's rp field). */
#include <linux/kprobes.h>

struct kretprobe *stp_feature(struct kretprobe_instance *ri);
struct kretprobe *stp_feature(struct kretprobe_instance *ri)
{
	return get_kretprobe(ri);
}
