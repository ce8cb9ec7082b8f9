/* thread_info_cpu: the CPU a task runs on is in its thread_info (x86 from
 * 5.16 on; before, the task_struct's own cpu field). */
#include <linux/sched.h>

unsigned int stp_feature(struct task_struct *t);
unsigned int stp_feature(struct task_struct *t)
{
	return t->thread_info.cpu;
}
