/* uprobe_filter_mm: a uprobe consumer's filter takes (self, mm) (6.11 on;
 * before, (self, enum uprobe_filter_ctx, mm)). */
#include <linux/uprobes.h>

static bool filter(struct uprobe_consumer *self, struct mm_struct *mm)
{
	return true;
}

struct uprobe_consumer stp_feature = { .filter = filter };
