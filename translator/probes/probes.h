/* probes.h - what the files of probes/ share among themselves.
 *
 * Each family's file defines its struct probe_family, and families.c lists
 * them in its table; perf.c resolves timer.profile for the timer family.
 * Nothing outside probes/ includes this header.
 */
#ifndef PROBES_H
#define PROBES_H

struct derived_probe;
struct probe_family;
struct probe_point;
struct session;

extern const struct probe_family family_been, family_never, family_timer;
extern const struct probe_family family_kprobe, family_procfs, family_perf;
extern const struct probe_family family_tracepoint, family_netfilter;

/* perf.c: timer.profile as a perf cpu-clock probe (timer.c) */
int timer_profile_resolve(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp);

#endif
