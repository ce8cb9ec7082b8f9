/* rss_percpu: a mm's RSS counters are percpu_counters, mm->rss_stat[i]
 * (6.2 on; before, mm->rss_stat.count[i], atomic). */
#include <linux/mm_types.h>
#include <linux/percpu_counter.h>

struct percpu_counter *stp_feature(struct mm_struct *mm);
struct percpu_counter *stp_feature(struct mm_struct *mm)
{
	return &mm->rss_stat[MM_ANONPAGES];
}
