/* task___state: a task's run state is its __state field, an unsigned int
 * (5.14 on; before, a volatile long named state). */
#include <linux/sched.h>

unsigned int stp_feature(struct task_struct *t);
unsigned int stp_feature(struct task_struct *t)
{
	return t->__state;
}
