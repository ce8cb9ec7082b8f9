/* stp_compat.h - the one place where the runtime meets kernel API changes.
 *
 * Pass 4 compiles the tests in compat/ against the target kernel and
 * writes stp_features.h (translator/build/features.c), included before
 * anything else: STP_HAVE_NAME for each test NAME.c that compiled.  Here
 * each difference becomes one name the rest of the runtime uses, whatever
 * the kernel; no other file tests kernel versions or features.  Adding
 * one: compat/NAME.c (a first comment saying what it tests, compiling
 * only where the feature exists), and its shim here.
 *
 * The kernel headers included here are the few every module needs: each
 * script's own unit includes this, and cc1's time and memory for it are
 * mostly these headers (bench/README, build).  A shim over the memory
 * manager, the page cache, block devices or uprobes is in the second part
 * below, with the headers it needs: a file that uses one defines
 * STP_COMPAT_MM before it includes this header (again, if need be: that
 * part has a guard of its own).  Macros need no declaration where they
 * are defined: a file using one includes the kernel header that declares
 * what it expands to.
 */
#ifndef STP_COMPAT_H
#define STP_COMPAT_H

#ifndef STP_FEATURES_H
#error "stp_features.h was not included: pass 4 writes it (translator/build/features.c)"
#endif

#include <asm/msr.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/string.h>

/* UTS_VERSION: the build of the kernel the module is built for. */
#ifdef STP_HAVE_UTSVERSION_H
#include <generated/utsversion.h>
#else
#include <generated/compile.h>
#endif

/* The llseek of a file that cannot seek. */
#ifdef STP_HAVE_NO_LLSEEK
#define _stp_no_llseek no_llseek
#else
#define _stp_no_llseek NULL
#endif

/* The data of a procfs entry. */
#ifdef STP_HAVE_PDE_DATA
#define _stp_pde_data(inode) pde_data(inode)
#else
#define _stp_pde_data(inode) PDE_DATA(inode)
#endif

/* The kretprobe a return probe's instance belongs to. */
#ifdef STP_HAVE_GET_KRETPROBE
#define _stp_get_kretprobe(ri) get_kretprobe(ri)
#else
#define _stp_get_kretprobe(ri) ((ri)->rp)
#endif

/* The address a return probe's function returns to. */
#ifdef STP_HAVE_GET_KRETPROBE_RETADDR
#define _stp_kretprobe_retaddr(ri) get_kretprobe_retaddr(ri)
#else
#define _stp_kretprobe_retaddr(ri) ((unsigned long)(ri)->ret_addr)
#endif

/* An irq_work running FN; LAZY: on the next tick rather than at once. */
static inline void _stp_init_irq_work(struct irq_work *w,
				      void (*fn)(struct irq_work *), int lazy)
{
#ifdef STP_HAVE_IRQ_WORK_INIT
	*w = lazy ? IRQ_WORK_INIT_LAZY(fn) : IRQ_WORK_INIT(fn);
#else
	init_irq_work(w, fn);
	if (lazy)
		atomic_set(&w->flags, IRQ_WORK_LAZY);
#endif
}

/* An hrtimer T on clock CLOCK in mode MODE whose expiry runs FN. */
#ifdef STP_HAVE_HRTIMER_SETUP
#define _stp_hrtimer_setup(t, fn, clock, mode) hrtimer_setup(t, fn, clock, mode)
#else
static inline void _stp_hrtimer_setup(struct hrtimer *t,
				      enum hrtimer_restart (*fn)(struct hrtimer *),
				      clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#endif

/* Model-specific register MSR read into the u64 VAL. */
#ifdef STP_HAVE_RDMSRQ
#define _stp_rdmsr(msr, val) rdmsrq(msr, val)
#else
#define _stp_rdmsr(msr, val) rdmsrl(msr, val)
#endif

/* The bit of a page's mapping pointer that marks an anonymous page (embedded
 * C in the tapsets: ioblock). */
#ifdef STP_HAVE_FOLIO_MAPPING_ANON
#define _STP_MAPPING_ANON FOLIO_MAPPING_ANON
#else
#define _STP_MAPPING_ANON PAGE_MAPPING_ANON
#endif

/* strlcpy, for embedded C (the tapsets' and the scripts') on kernels that
 * dropped it: the same contract, the length of SRC returned. */
#ifndef STP_HAVE_STRLCPY
static inline size_t _stp_compat_strlcpy(char *dst, const char *src,
					 size_t size)
{
	size_t len = strlen(src), n = len < size ? len : size - 1;

	if (size) {
		memmove(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
#define strlcpy(dst, src, size) _stp_compat_strlcpy(dst, src, size)
#endif

/* Each mapping of MM in turn as VMA (its mmap lock held):
 *	_STP_VMA_ITERATOR(it, mm);
 *	_stp_for_each_vma(it, vma) { ... }
 */
#ifdef STP_HAVE_VMA_ITERATOR
#define _STP_VMA_ITERATOR(it, mm) VMA_ITERATOR(it, mm, 0)
#define _stp_for_each_vma(it, vma) for_each_vma(it, vma)
#else
#define _STP_VMA_ITERATOR(it, mm) struct vm_area_struct *it = (mm)->mmap
#define _stp_for_each_vma(it, vma) \
	for ((vma) = (it); (vma); (vma) = (vma)->vm_next)
#endif

/* The task_struct fields that hold a task's run state and the CPU it runs
 * on, as member designators (&t->_STP_TASK_STATE).  Before it was the
 * unsigned int __state the state was a long: a 4-byte read of it gives
 * its low half (x86 is little-endian), which holds every TASK_* bit. */
#ifdef STP_HAVE_TASK___STATE
#define _STP_TASK_STATE __state
#else
#define _STP_TASK_STATE state
#endif
#ifdef STP_HAVE_THREAD_INFO_CPU
#define _STP_TASK_CPU thread_info.cpu
#else
#define _STP_TASK_CPU cpu
#endif

/* This module's text (its start in *BASE) and its other loaded parts
 * (data, read-only data), in bytes. */
static inline void _stp_module_parts(unsigned long *base, size_t *text,
				     size_t *data)
{
#ifdef STP_HAVE_MODULE_MEM
	*base = (unsigned long)THIS_MODULE->mem[MOD_TEXT].base;
	*text = THIS_MODULE->mem[MOD_TEXT].size;
	*data = THIS_MODULE->mem[MOD_DATA].size +
		THIS_MODULE->mem[MOD_RODATA].size +
		THIS_MODULE->mem[MOD_RO_AFTER_INIT].size;
#else
	*base = (unsigned long)THIS_MODULE->core_layout.base;
	*text = THIS_MODULE->core_layout.text_size;
	*data = THIS_MODULE->core_layout.size - *text;
#endif
}

/* The address of the long that counts MM's pages of kind MEMBER
 * (MM_FILEPAGES …), for a fault-safe read: a percpu_counter's total, or
 * before 6.2 an atomic in rss_stat. */
#ifdef STP_HAVE_RSS_PERCPU
#define _stp_mm_counter_addr(mm, member) \
	((unsigned long)&(mm)->rss_stat[member].count)
#else
#define _stp_mm_counter_addr(mm, member) \
	((unsigned long)&(mm)->rss_stat.count[member])
#endif

#endif /* STP_COMPAT_H */

/* The second part: shims that need the memory manager's, the page cache's,
 * block devices' or uprobes' headers, which cost every unit that includes
 * them (a file using one defines STP_COMPAT_MM first). */
#if defined(STP_COMPAT_MM) && !defined(STP_COMPAT_MM_H)
#define STP_COMPAT_MM_H

#include <linux/blk_types.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/page-flags.h>
#include <linux/uprobes.h>

/* The mapping of MM that contains ADDR, or NULL (MM's mmap lock held). */
#ifdef STP_HAVE_VMA_LOOKUP
#define _stp_vma_lookup(mm, addr) vma_lookup(mm, addr)
#else
static inline struct vm_area_struct *_stp_vma_lookup(struct mm_struct *mm,
						     unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	return vma && vma->vm_start <= addr ? vma : NULL;
}
#endif

/* The address of the byte that holds block device B's partition number,
 * for a fault-safe read: its bd_partno, or on kernels without it the low
 * byte (this machine is little-endian) of __bd_flags, BD_PARTNO's bits. */
#ifdef STP_HAVE_BD_PARTNO
#define _stp_bdev_partno_addr(b) ((unsigned long)&(b)->bd_partno)
#else
static_assert(BD_PARTNO == 0xff);
#define _stp_bdev_partno_addr(b) ((unsigned long)&(b)->__bd_flags)
#endif

/* Is a page whose flags are FLAGS and page_type TYPE (both read by the
 * caller, fault-safe) a slab page?  A page flag on older kernels, a page
 * type on newer ones. */
static inline int _stp_page_slab(unsigned long flags, unsigned int type)
{
#if defined(STP_HAVE_PG_SLAB)
	return !!(flags & (1UL << PG_slab));
#elif defined(STP_HAVE_PGTY_SLAB)
	return type >> 24 == PGTY_slab;
#else
	return 0;
#endif
}

/* uprobes by inode and file offset, REF the file offset of a semaphore
 * the kernel counts (0: none):
 *	_stp_uprobe_register(inode, off, ref, uc, &handle) -> 0 or -errno
 *	_stp_uprobe_unregister_nosync(inode, off, uc, handle), then once
 *	_stp_uprobe_unregister_sync()
 * and the handlers' prototypes end in _STP_UPROBE_DATA_ARG. */
#ifdef STP_HAVE_UPROBE_REGISTER_HANDLE
typedef struct uprobe *_stp_uprobe_handle;
static inline int _stp_uprobe_register(struct inode *inode, loff_t off,
				       loff_t ref, struct uprobe_consumer *uc,
				       _stp_uprobe_handle *h)
{
	struct uprobe *u = uprobe_register(inode, off, ref, uc);

	if (IS_ERR(u))
		return PTR_ERR(u);
	*h = u;
	return 0;
}
#define _stp_uprobe_unregister_nosync(inode, off, uc, h) \
	uprobe_unregister_nosync(h, uc)
#define _stp_uprobe_unregister_sync() uprobe_unregister_sync()
#else
typedef int _stp_uprobe_handle;
static inline int _stp_uprobe_register(struct inode *inode, loff_t off,
				       loff_t ref, struct uprobe_consumer *uc,
				       _stp_uprobe_handle *h)
{
	*h = 0;
	return uprobe_register_refctr(inode, off, ref, uc);
}
#define _stp_uprobe_unregister_nosync(inode, off, uc, h) \
	uprobe_unregister(inode, off, uc)
#define _stp_uprobe_unregister_sync() do { } while (0)
#endif
#ifdef STP_HAVE_UPROBE_HANDLER_DATA
#define _STP_UPROBE_DATA_ARG , __u64 *_stp_uprobe_data
#else
#define _STP_UPROBE_DATA_ARG
#endif
/* A uprobe consumer's filter: _stp_uprobe_filter(_STP_UPROBE_FILTER_ARGS)
 * names its arguments uc and mm. */
#ifdef STP_HAVE_UPROBE_FILTER_MM
#define _STP_UPROBE_FILTER_ARGS struct uprobe_consumer *uc, struct mm_struct *mm
#else
#define _STP_UPROBE_FILTER_ARGS struct uprobe_consumer *uc, \
	enum uprobe_filter_ctx _stp_uprobe_ctx, struct mm_struct *mm
#endif

/* The first LEN bytes (at most a page) of FILE as cached, without
 * blocking or faulting: 0, or -1 when its first page is not cached and up
 * to date. */
static inline int _stp_file_head(struct file *file, void *buf, size_t len)
{
	void *k;
#ifdef STP_HAVE_FILEMAP_GET_FOLIO
	struct folio *f = filemap_get_folio(file->f_mapping, 0);

	if (IS_ERR_OR_NULL(f))
		return -1;
	if (len > PAGE_SIZE || !folio_test_uptodate(f)) {
		folio_put(f);
		return -1;
	}
	k = kmap_local_folio(f, 0);
	memcpy(buf, k, len);
	kunmap_local(k);
	folio_put(f);
#else
	struct page *p = find_get_page(file->f_mapping, 0);

	if (!p)
		return -1;
	if (len > PAGE_SIZE || !PageUptodate(p)) {
		put_page(p);
		return -1;
	}
	k = kmap_atomic(p);
	memcpy(buf, k, len);
	kunmap_atomic(k);
	put_page(p);
#endif
	return 0;
}

#endif /* STP_COMPAT_MM */
