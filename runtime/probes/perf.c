/* probes/perf.c - perf.type(T).config(C) probes: a kernel perf counter
 * per online CPU whose overflow runs the probe.
 *
 * The handler sees the registers the event interrupted (kernel or user).
 * A counter the CPU cannot provide (qemu's TCG has no hardware counters)
 * fails the run with stap's "registration error" and the kernel's code.
 */
#include <linux/perf_event.h>
#include <linux/cpu.h>
#include <linux/slab.h>

struct stp_perf {
	struct stp_probe *probe;
	u32 type;
	u64 config, period;
	int freq;			/* period is a frequency */
	struct perf_event **events;	/* per CPU */
};

static notrace void _stp_perf_overflow(struct perf_event *ev, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct stp_perf *p = ev->overflow_handler_context;

	_stp_hit(p->probe, regs, NULL, NULL);
}

static void _stp_perf_stop(struct stp_perf *perfs, int n)
{
	struct stp_perf *p;
	int i, cpu;

	for (i = 0; i < n; i++) {
		p = &perfs[i];
		if (!p->events)
			continue;
		for_each_possible_cpu(cpu)
			if (p->events[cpu])
				perf_event_release_kernel(p->events[cpu]);
		kfree(p->events);
		p->events = NULL;
	}
}

static int _stp_perf_open(struct stp_perf *p)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	int cpu, rc = 0;

	p->events = kcalloc(nr_cpu_ids, sizeof *p->events, GFP_KERNEL);
	if (!p->events)
		return -ENOMEM;
	memset(&attr, 0, sizeof attr);
	attr.type = p->type;
	attr.size = sizeof attr;
	attr.config = p->config;
	attr.freq = p->freq;
	attr.sample_period = p->period;	/* sample_freq shares it */
	attr.pinned = 1;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
						      _stp_perf_overflow, p);
		if (IS_ERR(ev)) {
			rc = PTR_ERR(ev);
			break;
		}
		p->events[cpu] = ev;
	}
	cpus_read_unlock();
	return rc;
}

static int _stp_perf_start(struct stp_perf *perfs, int n)
{
	char msg[MAXSTRINGLEN];
	int i, rc;

	for (i = 0; i < n; i++) {
		rc = _stp_perf_open(&perfs[i]);
		if (rc) {
			snprintf(msg, sizeof msg, "probe %s registration error [man warning::pass5] (rc %d)",
				 perfs[i].probe->pp, rc);
			_stp_transport_error(msg);
			_stp_perf_stop(perfs, i + 1);
			return rc;
		}
	}
	return 0;
}
