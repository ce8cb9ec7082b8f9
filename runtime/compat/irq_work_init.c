/* irq_work_init: IRQ_WORK_INIT() and IRQ_WORK_INIT_LAZY() initialize an
 * irq_work (5.11 on; before, init_irq_work() and the flags by hand). */
#include <linux/irq_work.h>

static void stp_feature_fn(struct irq_work *w)
{
}

struct irq_work stp_feature = IRQ_WORK_INIT(stp_feature_fn);
struct irq_work stp_feature_lazy = IRQ_WORK_INIT_LAZY(stp_feature_fn);
