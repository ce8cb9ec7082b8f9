/* transport.c - the transport's implementation: rings, files, and the calls
 * the generated module makes (_stp_transport_write/error/warn/...).
 *
 * One data ring carries all output in normal mode, so a single thread's
 * prints arrive in order whatever CPU they ran on; in bulk mode each CPU has
 * its own ring and file. Every write that does not fit is dropped whole and
 * counted; the count travels to stapio in STP_MSG_STOPPED. Messages for
 * stapio (errors, warnings, handshake replies) go through a smaller control
 * ring with the same code.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include "transport.h"
#include "ring.c"
#include "fs.c"

/* Set by staprun: data ring size in MB (-s). */
static int _stp_bufsize = STP_DEFAULT_BUFSIZE_MB;
module_param(_stp_bufsize, int, 0);
MODULE_PARM_DESC(_stp_bufsize, "transport buffer size in MB");

#define _STP_CTL_RING_SIZE (64 * 1024)

int _stp_target;
int _stp_ns_pid;
int64_t _stp_remote_id = -1;
char _stp_remote_uri[STP_REMOTE_URI_LEN];

static struct _stp_ring *_stp_ctl_ring;
static struct _stp_ring **_stp_data_rings;	/* nr_cpu_ids slots in bulk mode */
static int _stp_nr_data_rings;
atomic64_t _stp_transport_dropped = ATOMIC64_INIT(0);
static atomic_t _stp_bulk_seq = ATOMIC_INIT(0);	/* bulk mode's record order */

void _stp_ctl_send(uint32_t type, const void *data, size_t len)
{
	struct stp_msg_hdr hdr = { .type = type, .len = len };

	if (!_stp_ctl_ring ||
	    !_stp_ring_write2(_stp_ctl_ring, &hdr, sizeof(hdr), data, len))
		atomic64_inc(&_stp_transport_dropped);
}

static void _stp_ctl_send_text(uint32_t type, const char *msg)
{
	_stp_ctl_send(type, msg, strnlen(msg, STP_MSG_MAX_PAYLOAD));
}

/* Bulk mode's record: stap-merge's sequence number and length first (out of
 * line: the normal mode's writes keep no header on their stack). */
static noinline void _stp_transport_write_bulk(struct _stp_ring *r,
					       const char *buf, size_t len)
{
	struct stp_bulk_hdr hdr = {
		.seq = (uint32_t)atomic_inc_return(&_stp_bulk_seq),
		.len = (uint32_t)len,
	};

	if (!r || !_stp_ring_write2(r, &hdr, sizeof(hdr), buf, len))
		atomic64_inc(&_stp_transport_dropped);
}

void _stp_transport_write(const char *buf, size_t len)
{
	struct _stp_ring *r = NULL;

	if (!len)
		return;
	if (likely(_stp_data_rings)) {
		r = _stp_data_rings[0];
		/* a task that migrates now only lands in a neighbour's ring */
		if (_stp_nr_data_rings > 1 &&
		    _stp_data_rings[raw_smp_processor_id()])
			r = _stp_data_rings[raw_smp_processor_id()];
	}
	if (_stp_bulkmode) {
		_stp_transport_write_bulk(r, buf, len);
		return;
	}
	if (!r || !_stp_ring_write2(r, buf, len, NULL, 0))
		atomic64_inc(&_stp_transport_dropped);
}

static void _stp_ctl_send_cut(uint32_t type, const char *msg, size_t room)
{
	_stp_ctl_send(type, msg, strnlen(msg, room));
}

void _stp_transport_error(const char *msg)
{
	_stp_ctl_send_cut(STP_MSG_ERROR, msg, STP_CTL_MSG_SIZE - sizeof("ERROR: "));
}

void _stp_transport_warn(const char *msg)
{
	_stp_ctl_send_cut(STP_MSG_WARNING, msg, STP_CTL_MSG_SIZE - sizeof("WARNING: "));
}

void _stp_transport_system(const char *cmd)
{
	_stp_ctl_send_text(STP_MSG_SYSTEM, cmd);
}

static void _stp_transport_free(void)
{
	int i;

	if (_stp_data_rings) {
		for (i = 0; i < _stp_nr_data_rings; i++)
			_stp_ring_free(_stp_data_rings[i]);
		kfree(_stp_data_rings);
		_stp_data_rings = NULL;
	}
	_stp_ring_free(_stp_ctl_ring);
	_stp_ctl_ring = NULL;
}

static int _stp_transport_alloc(void)
{
	unsigned long size;
	int i;

	if (_stp_bufsize <= 0 || _stp_bufsize > STP_MAX_BUFSIZE_MB)
		_stp_bufsize = STP_DEFAULT_BUFSIZE_MB;
	size = (unsigned long)_stp_bufsize << 20;
	_stp_nr_data_rings = _stp_bulkmode ? nr_cpu_ids : 1;
	_stp_data_rings = kcalloc(_stp_nr_data_rings, sizeof(*_stp_data_rings),
				  GFP_KERNEL);
	_stp_ctl_ring = _stp_ring_alloc(_STP_CTL_RING_SIZE);
	if (!_stp_data_rings || !_stp_ctl_ring)
		return -ENOMEM;
	/* ring 0 always exists: CPUs that come online later write there */
	for (i = 0; i < _stp_nr_data_rings; i++) {
		if (i && !cpu_online(i))
			continue;
		_stp_data_rings[i] = _stp_ring_alloc(size);
		if (!_stp_data_rings[i])
			return -ENOMEM;
		/* detached, it keeps the newest output (stap -F) */
		_stp_data_rings[i]->may_overwrite = 1;
		_stp_data_rings[i]->framed = _stp_bulkmode;
	}
	return 0;
}

int _stp_transport_init(void)
{
	int rc = _stp_transport_alloc();

	if (!rc)
		rc = _stp_fs_init(THIS_MODULE->name, _stp_ctl_ring,
				  _stp_data_rings, _stp_nr_data_rings);
	if (rc) {
		_stp_fs_remove();
		_stp_transport_free();
		printk(KERN_ERR "%s: cannot set up the transport (%d)\n",
		       THIS_MODULE->name, rc);
	}
	return rc;
}

/* Forced out (rmmod -f) while stapio still reads: give it a moment (5 s
 * at most) to take what the end probes wrote before the files go.  After
 * a normal stop stapio has closed them all, and this returns at once. */
static void _stp_transport_drain_wait(void)
{
	int i, tries;

	for (tries = 0; tries < 50 && atomic_read(&_stp_ctl_ring->opened);
	     tries++) {
		bool left = _stp_ring_avail(_stp_ctl_ring);

		for (i = 0; i < _stp_nr_data_rings; i++)
			if (_stp_data_rings[i] &&
			    _stp_ring_avail(_stp_data_rings[i]))
				left = true;
		if (!left)
			return;
		msleep(100);
	}
}

/* Forced out (rmmod -f) with its files still open (stapio slow, stopped
 * or not yet scheduled): each open file holds a reference on the module,
 * and closing it runs our release and reads our file_operations (debugfs
 * calls them through its proxy), so the module's memory and the rings the
 * release touches must outlive the last close, or the close oopses in
 * freed memory.  The rings are closed and the files removed by now, so
 * stapio's next read fails and it closes them: wait for that, however
 * long it takes (a stopped stapio holds rmmod -f until it continues).
 * After a normal stop nothing holds a reference (delete_module refuses a
 * module in use), and this returns at once. */
static void _stp_transport_release_wait(void)
{
	unsigned int waited;

	for (waited = 1; module_refcount(THIS_MODULE) > 0; waited++) {
		if (waited % 1000 == 0)	/* every 10 s */
			printk(KERN_INFO "%s: forced out: waiting for %d open transport files to be closed\n",
			       THIS_MODULE->name, module_refcount(THIS_MODULE));
		msleep(10);
	}
}

void _stp_transport_close(void)
{
	int i;

	_stp_transport_drain_wait();
	_stp_ring_close(_stp_ctl_ring);
	for (i = 0; i < _stp_nr_data_rings; i++)
		_stp_ring_close(_stp_data_rings[i]);
	_stp_fs_remove();
	_stp_transport_release_wait();
	_stp_transport_free();
}
