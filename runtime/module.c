/* module.c - module_init/module_exit and the start/stop handshake.
 *
 * Included last by the generated module. stapio's commands arrive through
 * the control file; begin (stp_session_start) and end (stp_session_stop) run
 * on an ordered workqueue of our own, so stapio keeps draining output while
 * they print and start/stop never overlap. A stop comes from stapio (signal,
 * -c command ended), from the script (_stp_transport_request_exit, any
 * context, via irq_work), or from module_exit when stapio vanished. After
 * the end probes, STP_MSG_STOPPED tells stapio that all output is queued.
 */
#include <linux/init.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <linux/utsname.h>
#include <generated/utsrelease.h>
#include "stp_mem.h"
#ifndef STP_RT_SPLIT	/* else compiled apart, once per kernel (stp_rtlib.c) */
#include "transport/transport.c"
#endif

/* Set by staprun: one data ring and file per CPU (-b, built in as its
 * default); stapio reads it in sysfs. */
#ifdef STP_BULKMODE
bool _stp_bulkmode = true;
#else
bool _stp_bulkmode;
#endif
module_param(_stp_bulkmode, bool, 0444);
MODULE_PARM_DESC(_stp_bulkmode, "one output file per CPU");

static DEFINE_MUTEX(_stp_session_lock);	/* guards the three below */
static int _stp_session_state = STP_STATE_LOADED;
static bool _stp_session_started;	/* stp_session_start() was called */
static bool _stp_session_closing;	/* module_exit began: queue no work */
static struct workqueue_struct *_stp_session_wq;

static void _stp_session_stop_fn(struct work_struct *work)
{
	struct stp_msg_stopped msg = { 0 };
	bool started;

	mutex_lock(&_stp_session_lock);
	if (_stp_session_state == STP_STATE_STOPPED) {
		mutex_unlock(&_stp_session_lock);
		return;
	}
	_stp_session_state = STP_STATE_STOPPING;
	started = _stp_session_started;
	mutex_unlock(&_stp_session_lock);

	if (started)
		stp_session_stop();
	msg.dropped = atomic64_read(&_stp_transport_dropped);

	mutex_lock(&_stp_session_lock);
	_stp_session_state = STP_STATE_STOPPED;
	mutex_unlock(&_stp_session_lock);
	/* after every byte the end probes wrote, so stapio can drain and go */
	_stp_ctl_send(STP_MSG_STOPPED, &msg, sizeof(msg));
}

/* Is this the kernel (release and build) the module was built for?  The
 * kernel refuses another release's module by its vermagic, unless forced;
 * a rebuilt kernel of the same release takes it, with other addresses and
 * layouts.  stap 4.8's messages; no probe runs after them. */
static int _stp_kernel_check(void)
{
	char msg[STP_CTL_MSG_SIZE];
	int rc = 0;

	if (strcmp(utsname()->release, UTS_RELEASE)) {
		snprintf(msg, sizeof(msg), "module release mismatch (%s vs %s)",
			 UTS_RELEASE, utsname()->release);
		_stp_transport_error(msg);
		rc = -EINVAL;
	}
	if (strcmp(utsname()->version, UTS_VERSION)) {
		snprintf(msg, sizeof(msg),
			 "module version mismatch (%s vs %s), release %s",
			 UTS_VERSION, utsname()->version, UTS_RELEASE);
		_stp_transport_error(msg);
		rc = -EINVAL;
	}
	return rc;
}

/* The credentials of the user who loaded the module (stap's bits: stapusr
 * 0x2, stapsys 0x4, stapdev 0x8), as staprun found them; 0 when the
 * loader passed none.  Only a loader with CAP_SYS_MODULE sets it, and
 * staprun passes its own after the user's parameters (the last counts). */
static int _stp_credentials;
module_param(_stp_credentials, int, 0);

#ifdef STP_PRIVILEGE
static const char *_stp_privilege_name(int p)
{
	if (p & 0x8)
		return "stapdev";
	if (p & 0x4)
		return "stapsys";
	if (p & 0x2)
		return "stapusr";
	return "unknown";
}
#endif

/* Does the user who loaded the module have the level it was built for
 * (--privilege)?  As stap 4.8's module checks at start, after staprun's
 * own checks: a loader that passed no credentials is believed for a
 * stapusr or stapdev module, not for a stapsys one.  Its messages; no
 * probe runs after them. */
static int _stp_privilege_check(void)
{
#ifdef STP_PRIVILEGE
	char msg[STP_CTL_MSG_SIZE];

	if (!_stp_credentials) {
		if (STP_PRIVILEGE & 0xa)
			return 0;
		snprintf(msg, sizeof(msg), "Unable to verify that you have the required privilege credentials to run this module (%s required). You must use staprun version 1.7 or higher.",
			 _stp_privilege_name(STP_PRIVILEGE));
		_stp_transport_error(msg);
		return -EINVAL;
	}
	if ((_stp_credentials & STP_PRIVILEGE) != STP_PRIVILEGE) {
		snprintf(msg, sizeof(msg), "Your privilege credentials (%s) are insufficient to run this module (%s required).",
			 _stp_privilege_name(_stp_credentials),
			 _stp_privilege_name(STP_PRIVILEGE));
		_stp_transport_error(msg);
		return -EINVAL;
	}
#endif
	return 0;
}

static void _stp_session_start_fn(struct work_struct *work)
{
	struct stp_msg_started msg = { 0 };

	mutex_lock(&_stp_session_lock);
	if (_stp_session_state != STP_STATE_STARTING) {
		mutex_unlock(&_stp_session_lock);
		return;
	}
	msg.result = _stp_kernel_check();
	if (_stp_privilege_check())
		msg.result = -EINVAL;
	_stp_session_started = !msg.result;
	mutex_unlock(&_stp_session_lock);

	if (!msg.result)
		msg.result = stp_session_start();
	_stp_ctl_send(STP_MSG_STARTED, &msg, sizeof(msg));

	mutex_lock(&_stp_session_lock);
	_stp_session_state = STP_STATE_RUNNING;
	mutex_unlock(&_stp_session_lock);
	if (msg.result < 0)
		_stp_session_stop_fn(NULL);
}

static DECLARE_WORK(_stp_stop_work, _stp_session_stop_fn);

/* hard irq context, after the probe that asked: stapio is told, and it
 * sends STP_CMD_STOP, so the end probes run in stapio's context as in
 * stap; without a reader (module_exit) the work queue stops the session. */
static void _stp_exit_irq_fn(struct irq_work *work)
{
	if (!READ_ONCE(_stp_session_closing))
		_stp_ctl_send(STP_MSG_REQUEST_EXIT, NULL, 0);
}

static DEFINE_IRQ_WORK(_stp_exit_irq_work, _stp_exit_irq_fn);

void _stp_transport_request_exit(void)
{
	irq_work_queue(&_stp_exit_irq_work);
}

static int _stp_ctl_start(const char __user *payload, size_t len)
{
	struct stp_cmd_start cmd;
	int rc = 0;

	if (len < sizeof(cmd))
		return -EINVAL;
	if (_stp_fileop_copy_from_user(&cmd, payload, sizeof(cmd)))
		return -EFAULT;
	mutex_lock(&_stp_session_lock);
	if (_stp_session_closing || _stp_session_state != STP_STATE_LOADED) {
		rc = -EBUSY;
	} else {
		_stp_session_state = STP_STATE_STARTING;
		_stp_target = cmd.target;
		_stp_ns_pid = cmd.ns_pid;
		_stp_remote_id = cmd.remote_id;
		strscpy(_stp_remote_uri, cmd.remote_uri,
			sizeof(_stp_remote_uri));
	}
	mutex_unlock(&_stp_session_lock);
	/* begin probes run here, in stapio's own context (execname()
	 * is "stapio" there, as with stap) */
	if (!rc)
		_stp_session_start_fn(NULL);
	return rc;
}

/* One whole command per write(), from stapio's process context. */
ssize_t _stp_ctl_write_cmd(const char __user *buf, size_t count)
{
	struct stp_msg_hdr hdr;
	struct stp_msg_state st = { 0 };
	int rc = 0;

	if (count < sizeof(hdr))
		return -EINVAL;
	if (_stp_fileop_copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	if (hdr.len != count - sizeof(hdr))
		return -EINVAL;
	switch (hdr.type) {
	case STP_CMD_START:
		rc = _stp_ctl_start(buf + sizeof(hdr), hdr.len);
		break;
	case STP_CMD_STOP:
		/* end probes run here too, in stapio's context */
		if (!READ_ONCE(_stp_session_closing))
			_stp_session_stop_fn(NULL);
		break;
	case STP_CMD_ATTACH:
		mutex_lock(&_stp_session_lock);
		st.state = _stp_session_state;
		mutex_unlock(&_stp_session_lock);
		_stp_ctl_send(STP_MSG_STATE, &st, sizeof(st));
		break;
	default:
		rc = -EINVAL;
	}
	return rc ? rc : count;
}

static int __init _stp_module_init(void)
{
	int rc;

#ifdef STP_LEGACY_PTR
	_stp_fmt_legacy_ptr = 1;
#endif
	_stp_session_wq = alloc_ordered_workqueue("stap_session", 0);
	if (!_stp_session_wq)
		return -ENOMEM;
	rc = _stp_transport_init();
	if (rc)
		destroy_workqueue(_stp_session_wq);
	return rc;
}

static void __exit _stp_module_exit(void)
{
	mutex_lock(&_stp_session_lock);
	_stp_session_closing = true;
	mutex_unlock(&_stp_session_lock);
	/* an exit request already in flight may still queue the stop work */
	irq_work_sync(&_stp_exit_irq_work);
	/* stapio is gone (or never came): stop here, after a pending start */
	queue_work(_stp_session_wq, &_stp_stop_work);
	flush_workqueue(_stp_session_wq);
	destroy_workqueue(_stp_session_wq);
	_stp_transport_close();
}

module_init(_stp_module_init);
module_exit(_stp_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("systemtap-compatible probe module");
