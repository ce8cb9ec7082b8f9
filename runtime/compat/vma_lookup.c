/* vma_lookup: the mapping that contains an address is vma_lookup(mm,
 * addr) (5.14 on; before, find_vma() and a check of its start). */
#include <linux/mm.h>

struct vm_area_struct *stp_feature(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *stp_feature(struct mm_struct *mm, unsigned long addr)
{
	return vma_lookup(mm, addr);
}
