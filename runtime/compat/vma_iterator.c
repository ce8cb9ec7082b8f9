/* vma_iterator: a process's mappings are walked with VMA_ITERATOR and
 * for_each_vma (6.1 on, the maple tree; before, the list from mm->mmap
 * through vm_next). */
#include <linux/mm.h>

int stp_feature(struct mm_struct *mm);
int stp_feature(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	int n = 0;
	VMA_ITERATOR(vmi, mm, 0);

	for_each_vma(vmi, vma)
		n++;
	return n;
}
