/* stpfake.c - a stand-in for a generated module, to test the transport.
 *
 * It is built like a generated module (transport.h first, module.c last)
 * and plays the session with canned behaviours chosen by the "mode"
 * parameter, which staprun passes as mode=NAME like any script global:
 *   hello   begin prints two lines and exits; end prints a line
 *   wait    begin prints; runs until stapio stops it (signal, -c end)
 *   timer   an hrtimer prints from hard irq context, then requests exit
 *   flood   begin prints "lines" numbered lines, then exits
 *   error   begin reports an error and exits (stapio must return 1)
 *   warn    begin warns and exits
 *   fail    begin reports an error and the start fails
 *   target  begin prints target(); runs until stopped
 *   huge    one write larger than the buffer (-s 1): dropped and counted
 *   multi   every CPU floods "lines" lines at once, then exit
 *   param   prints the "text" parameter and exits
 *   ticker  an hrtimer prints a line every 10 ms until stopped
 *   late    half a second after begin (staprun -L has detached by then),
 *           prints "lines" numbered lines; runs until stopped
 *   slowstart  begin prints, then the start goes on (as while it registers
 *           a thousand kprobes) until guest.sh, having read that line, sets
 *           the "ack" parameter (20 s at most); prints whether it came and
 *           exits
 *   slowwait   as slowstart, but then runs until stopped
 *   endexit begin prints; runs until stopped; end prints and requests exit
 *           (a script's "probe end { exit() }")
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include "transport/transport.h"
#include "stp_compat.h"

static char *mode = "hello";
module_param(mode, charp, 0);
static int lines = 100000;
module_param(lines, int, 0);
static char *text = "";
module_param(text, charp, 0);
static int ack;
module_param(ack, int, 0644);

static struct hrtimer fake_timer;
static int fake_ticks;

static void fake_print(const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	_stp_transport_write(buf, n);
}

static bool fake_mode(const char *m)
{
	return !strcmp(mode, m);
}

static enum hrtimer_restart fake_timer_fn(struct hrtimer *t)
{
	fake_print("timer %d\n", ++fake_ticks);
	if (fake_ticks < 3 || fake_mode("ticker")) {
		hrtimer_forward_now(t, ms_to_ktime(20));
		return HRTIMER_RESTART;
	}
	_stp_transport_request_exit();
	return HRTIMER_NORESTART;
}

static DEFINE_PER_CPU(struct work_struct, fake_work);
static atomic_t fake_running;

static void fake_flood_fn(struct work_struct *w)
{
	int i, cpu = raw_smp_processor_id();

	for (i = 0; i < lines; i++)
		fake_print("cpu%d %d\n", cpu, i);
	if (atomic_dec_and_test(&fake_running))
		_stp_transport_request_exit();
}

static void fake_multi(void)
{
	int cpu;

	atomic_set(&fake_running, num_online_cpus());
	for_each_online_cpu(cpu) {
		INIT_WORK(per_cpu_ptr(&fake_work, cpu), fake_flood_fn);
		schedule_work_on(cpu, per_cpu_ptr(&fake_work, cpu));
	}
}

static void fake_huge(void)
{
	size_t len = 2 << 20;
	char *big = vmalloc(len);

	fake_print("small\n");
	if (big) {
		memset(big, 'x', len);
		_stp_transport_write(big, len);
		vfree(big);
	}
	fake_print("small again\n");
	_stp_transport_request_exit();
}

static void fake_late_fn(struct work_struct *w)
{
	int i;

	for (i = 0; i < lines; i++) {
		fake_print("line %d\n", i);
		if (!(i & 1023))
			cond_resched();
	}
	pr_info("stpfake: late lines written\n");	/* guest.sh waits for it */
}

static DECLARE_DELAYED_WORK(fake_late_work, fake_late_fn);

int stp_session_start(void)
{
	int i;

	if (fake_mode("hello")) {
		fake_print("hello world\n");
		fake_print("second line\n");
		_stp_transport_request_exit();
	} else if (fake_mode("wait") || fake_mode("endexit")) {
		fake_print("begin\n");
	} else if (fake_mode("timer") || fake_mode("ticker")) {
		_stp_hrtimer_setup(&fake_timer, fake_timer_fn, CLOCK_MONOTONIC,
				   HRTIMER_MODE_REL);
		hrtimer_start(&fake_timer, ms_to_ktime(20), HRTIMER_MODE_REL);
	} else if (fake_mode("flood")) {
		for (i = 0; i < lines; i++) {
			fake_print("line %d\n", i);
			if (!(i & 1023))
				cond_resched();
		}
		_stp_transport_request_exit();
	} else if (fake_mode("error")) {
		fake_print("before error\n");
		_stp_transport_error("division by 0 near identifier 'x' at <input>:1:20");
		_stp_transport_request_exit();
	} else if (fake_mode("warn")) {
		_stp_transport_warn("this is a warning");
		_stp_transport_request_exit();
	} else if (fake_mode("fail")) {
		_stp_transport_error("probe registration failed");
		return -EINVAL;
	} else if (fake_mode("param")) {
		fake_print("text=%s\n", text);
		_stp_transport_request_exit();
	} else if (fake_mode("huge")) {
		fake_huge();
	} else if (fake_mode("multi")) {
		fake_multi();
	} else if (fake_mode("late")) {
		schedule_delayed_work(&fake_late_work, msecs_to_jiffies(500));
	} else if (fake_mode("slowstart") || fake_mode("slowwait")) {
		fake_print("begin\n");
		for (i = 0; i < 200 && !READ_ONCE(ack); i++)
			msleep(100);
		fake_print(READ_ONCE(ack) ? "acknowledged\n" : "not acknowledged\n");
		if (fake_mode("slowstart"))
			_stp_transport_request_exit();
	} else if (fake_mode("target")) {
		fake_print("target=%d\n", _stp_target);
	}
	return 0;
}

void stp_session_stop(void)
{
	int cpu;

	if (fake_mode("timer") || fake_mode("ticker"))
		hrtimer_cancel(&fake_timer);
	if (fake_mode("late"))
		cancel_delayed_work_sync(&fake_late_work);
	if (fake_mode("multi"))
		for_each_online_cpu(cpu)
			flush_work(per_cpu_ptr(&fake_work, cpu));
	fake_print("end\n");
	if (fake_mode("endexit"))
		_stp_transport_request_exit();
}

#include "module.c"
