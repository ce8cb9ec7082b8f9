/* ring.c - the byte ring under every transport file.
 *
 * Many writers in any context (process, softirq, hardirq, NMI, probe
 * handlers holding locks) append whole records under a raw spinlock held
 * only for the copy; one reader (stapio, process context) copies out without
 * the lock. head and tail count bytes ever written and read, so the ring
 * holds head - tail bytes and a writer that finds too little room drops its
 * whole record, which keeps each call's bytes together. Writers never wake
 * the reader themselves: they queue an irq_work, and only when the reader has
 * said it is about to sleep. The lazy one runs at the next tick, so a steady
 * trickle of lines costs one wake-up per tick rather than one per line; the
 * immediate one is for a ring that is filling up.
 * A data ring with no reader (stapio detached: staprun -L, stap -F) is a
 * flight recorder: a write that does not fit drops the oldest output
 * instead (whole lines, or whole bulk records), and is not counted lost.
 */
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "stp_compat.h"
#include <linux/poll.h>
#include <linux/mutex.h>
#include <linux/log2.h>
#include "stp_mem.h"

struct _stp_ring {
	char *buf;
	unsigned long size;		/* a power of two */
	unsigned long head;		/* bytes written; writers, under lock */
	unsigned long tail;		/* bytes consumed; the reader */
	raw_spinlock_t lock;		/* serializes writers only */
	struct mutex read_lock;		/* serializes readers of one open file */
	atomic_t opened;		/* one open file at a time */
	int waiting;			/* the reader sleeps or polls: wake it */
	int lazy_queued;		/* wake_lazy is queued: writers that
					   find the reader waiting need not
					   queue it again */
	int closed;			/* the module is going away */
	int may_overwrite;		/* a data ring (never the control one) */
	int framed;			/* records start with a stp_bulk_hdr */
	int overwrite;			/* no reader: drop the oldest; under lock */
	struct irq_work wake_work;	/* now: the ring is half full */
	struct irq_work wake_lazy;	/* at the next tick */
	wait_queue_head_t waitq;
};

/* Set while this CPU is inside a ring write with interrupts off: a probe or
 * NMI that re-enters on the same CPU must not spin on a lock it holds. */
static DEFINE_PER_CPU(int, _stp_ring_busy);

/* The writers' lock, taken with interrupts off and _stp_ring_busy set (so
 * never by this CPU twice): the arch-level lock, inline, without the
 * preempt count work of raw_spin_lock()'s call. */
static inline void _stp_ring_lock(struct _stp_ring *r)
{
	arch_spin_lock(&r->lock.raw_lock);
}

static inline void _stp_ring_unlock(struct _stp_ring *r)
{
	arch_spin_unlock(&r->lock.raw_lock);
}

static void _stp_ring_wake(struct _stp_ring *r)
{
	WRITE_ONCE(r->waiting, 0);
	wake_up_interruptible(&r->waitq);
}

static void _stp_ring_wake_now(struct irq_work *work)
{
	_stp_ring_wake(container_of(work, struct _stp_ring, wake_work));
}

static void _stp_ring_wake_lazy(struct irq_work *work)
{
	struct _stp_ring *r = container_of(work, struct _stp_ring, wake_lazy);

	/* cleared before the wake-up: a writer that still saw it set wrote
	 * before the reader looks again */
	WRITE_ONCE(r->lazy_queued, 0);
	_stp_ring_wake(r);
}

static struct _stp_ring *_stp_ring_alloc(unsigned long size)
{
	struct _stp_ring *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return NULL;
	r->size = roundup_pow_of_two(size);
	r->buf = vmalloc(r->size);
	if (!r->buf) {
		kfree(r);
		return NULL;
	}
	raw_spin_lock_init(&r->lock);
	mutex_init(&r->read_lock);
	init_waitqueue_head(&r->waitq);
	_stp_init_irq_work(&r->wake_work, _stp_ring_wake_now, 0);
	_stp_init_irq_work(&r->wake_lazy, _stp_ring_wake_lazy, 1);
	return r;
}

/* Tell a sleeping or polling reader that the ring is going away. */
static void _stp_ring_close(struct _stp_ring *r)
{
	if (!r)
		return;
	WRITE_ONCE(r->closed, 1);
	wake_up_interruptible_all(&r->waitq);
}

static void _stp_ring_free(struct _stp_ring *r)
{
	if (!r)
		return;
	irq_work_sync(&r->wake_work);
	irq_work_sync(&r->wake_lazy);
	vfree(r->buf);
	kfree(r);
}

static __always_inline void _stp_ring_copy_in(struct _stp_ring *r,
					      unsigned long pos,
					      const void *src, size_t len)
{
	unsigned long off = pos & (r->size - 1);
	size_t first = min_t(size_t, len, r->size - off);

	memcpy(r->buf + off, src, first);
	if (len > first)
		memcpy(r->buf, (const char *)src + first, len - first);
}

static void _stp_ring_copy_out(struct _stp_ring *r, unsigned long pos,
			       void *dst, size_t len)
{
	unsigned long off = pos & (r->size - 1);
	size_t first = min_t(size_t, len, r->size - off);

	memcpy(dst, r->buf + off, first);
	if (len > first)
		memcpy((char *)dst + first, r->buf, len - first);
}

/* Flight recorder: with the lock held and no reader, move the tail past
 * the oldest records until len bytes fit (a raw ring's cut goes on to the
 * next line, within a page).  Returns the room there is now.  Out of line:
 * the writers' common path keeps no record header on its stack. */
static noinline unsigned long _stp_ring_make_room(struct _stp_ring *r,
						  unsigned long head,
						  size_t len)
{
	unsigned long tail = r->tail, stop;
	struct stp_bulk_hdr h;

	if (len > r->size)
		return r->size - (head - tail);
	if (r->framed) {
		while (r->size - (head - tail) < len) {
			_stp_ring_copy_out(r, tail, &h, sizeof(h));
			tail += sizeof(h) + h.len;
		}
	} else {
		tail = head + len - r->size;
		for (stop = tail + min_t(unsigned long, head - tail, PAGE_SIZE);
		     tail != stop; tail++)
			if (r->buf[tail & (r->size - 1)] == '\n') {
				tail++;
				break;
			}
	}
	smp_store_release(&r->tail, tail);
	return r->size - (head - tail);
}

/* A reader opens (off) or closes (on) a data ring's file.  Under the lock,
 * with writers on this CPU kept out, so that once a reader is there no
 * writer moves the tail under it. */
static void _stp_ring_set_overwrite(struct _stp_ring *r, int on)
{
	unsigned long flags;

	if (!r->may_overwrite)
		return;
	local_irq_save(flags);
	this_cpu_write(_stp_ring_busy, 1);
	_stp_ring_lock(r);
	r->overwrite = on;
	_stp_ring_unlock(r);
	this_cpu_write(_stp_ring_busy, 0);
	local_irq_restore(flags);
}

/* Append a then b as one record; false (nothing written) if it does not fit
 * or if this CPU is already inside a ring write. */
static bool _stp_ring_write2(struct _stp_ring *r, const void *a, size_t alen,
			     const void *b, size_t blen)
{
	unsigned long flags, head, room;
	size_t len = alen + blen;
	bool ok = false;

	local_irq_save(flags);
	if (this_cpu_read(_stp_ring_busy))
		goto out;
	this_cpu_write(_stp_ring_busy, 1);
	_stp_ring_lock(r);
	head = r->head;
	/* acquire: the reader has finished copying out what it consumed */
	room = r->size - (head - smp_load_acquire(&r->tail));
	if (unlikely(len > room) && r->overwrite)
		room = _stp_ring_make_room(r, head, len);
	if (len <= room) {
		_stp_ring_copy_in(r, head, a, alen);
		if (blen)
			_stp_ring_copy_in(r, head + alen, b, blen);
		smp_store_release(&r->head, head + len);
		ok = true;
	}
	_stp_ring_unlock(r);
	this_cpu_write(_stp_ring_busy, 0);
out:
	local_irq_restore(flags);
	if (ok) {
		/* pairs with smp_store_mb() in _stp_ring_wait_prepare(): either
		 * we see the reader waiting or it sees our new head */
		smp_mb();
		if (!READ_ONCE(r->waiting))
			return ok;
		if (head + len - READ_ONCE(r->tail) > r->size / 2)
			irq_work_queue(&r->wake_work);
		else if (!READ_ONCE(r->lazy_queued)) {
			WRITE_ONCE(r->lazy_queued, 1);
			irq_work_queue(&r->wake_lazy);
		}
	}
	return ok;
}

static unsigned long _stp_ring_avail(struct _stp_ring *r)
{
	return smp_load_acquire(&r->head) - r->tail;
}

/* The reader is about to sleep or to report "nothing yet" to poll(): from
 * now on writers wake it. True if there is data after all. */
static bool _stp_ring_wait_prepare(struct _stp_ring *r)
{
	smp_store_mb(r->waiting, 1);
	return _stp_ring_avail(r) != 0;
}

static __poll_t _stp_ring_poll(struct _stp_ring *r, struct file *file,
			       poll_table *wait)
{
	poll_wait(file, &r->waitq, wait);
	if (READ_ONCE(r->closed))
		return EPOLLHUP;
	if (_stp_ring_avail(r) || _stp_ring_wait_prepare(r))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

/* Copy up to count bytes to user space. Blocks unless nonblock; returns 0
 * only once the ring is closed and empty. */
static ssize_t _stp_ring_read(struct _stp_ring *r, char __user *ubuf,
			      size_t count, bool nonblock)
{
	unsigned long tail, off, n, first;
	ssize_t ret;

	if (mutex_lock_interruptible(&r->read_lock))
		return -ERESTARTSYS;
	while (!_stp_ring_avail(r)) {
		ret = 0;
		if (READ_ONCE(r->closed))
			goto out;
		ret = -EAGAIN;
		if (nonblock)
			goto out;
		ret = -ERESTARTSYS;
		if (!_stp_ring_wait_prepare(r) &&
		    wait_event_interruptible(r->waitq, !READ_ONCE(r->waiting) ||
					     READ_ONCE(r->closed)))
			goto out;
	}
	tail = r->tail;
	n = min_t(unsigned long, count, _stp_ring_avail(r));
	off = tail & (r->size - 1);
	first = min(n, r->size - off);
	ret = -EFAULT;
	if (_stp_fileop_copy_to_user(ubuf, r->buf + off, first))
		goto out;
	if (n > first && _stp_fileop_copy_to_user(ubuf + first, r->buf, n - first))
		goto out;
	/* release: writers may reuse the bytes only after the copy */
	smp_store_release(&r->tail, tail + n);
	ret = n;
out:
	mutex_unlock(&r->read_lock);
	return ret;
}
