/* uprobe_handler_data: a uprobe consumer's handler and ret_handler take a
 * trailing __u64 *data, the entry handler's word for the return handler
 * (6.13 on). */
#include <linux/uprobes.h>

static int handler(struct uprobe_consumer *self, struct pt_regs *regs,
		   __u64 *data)
{
	return 0;
}

struct uprobe_consumer stp_feature = { .handler = handler };
