/* tbhang.h - where a hung testbed guest's CPUs are (see tbhang.c). */
#ifndef TBHANG_H
#define TBHANG_H

#include <stddef.h>

struct tb_hang {
	const char *monitor;		/* qemu's monitor socket */
	const char *console_log;	/* the guest's console */
	const char *monitor_log;	/* where the monitor's answer is kept */
	const char *system_map;		/* the guest kernel's, or NULL */
};

/* "CPU0 idle, CPU1 in the kernel at f+0x1c" into BUF; empty when the
 * monitor does not answer. */
void tb_hang_report(const struct tb_hang *h, char *buf, size_t len);

#endif
