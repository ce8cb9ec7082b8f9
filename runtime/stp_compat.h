/* stp_compat.h - the one place where the runtime meets kernel API changes.
 *
 * Pass 4 compiles the tests in compat/ against the target kernel and
 * writes stp_features.h (translator/build/features.c), included before
 * anything else: STP_HAVE_NAME for each test NAME.c that compiled.  Here
 * each difference becomes one name the rest of the runtime uses, whatever
 * the kernel; no other file tests kernel versions or features.  Adding
 * one: compat/NAME.c (a first comment saying what it tests, compiling
 * only where the feature exists), and its shim here.
 */
#ifndef STP_COMPAT_H
#define STP_COMPAT_H

#ifndef STP_FEATURES_H
#error "stp_features.h was not included: pass 4 writes it (translator/build/features.c)"
#endif

#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/proc_fs.h>

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

#endif
