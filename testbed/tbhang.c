/* tbhang.c - where a hung testbed guest's CPUs are.
 *
 * When the guest stops answering, testbed.c asks qemu's monitor (a unix
 * socket in the work directory) for every CPU's registers before it kills
 * qemu, and names each CPU's instruction pointer from the kernel's
 * System.map.  The kernel is loaded at a random address (KASLR); the
 * guest's /init prints "testbed: _stext ADDR" on the console, which gives
 * the shift.  The monitor's whole answer is kept as monitor.log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "testbed/tbhang.h"

/* Everything the monitor says within about two seconds of the command. */
static size_t ask_monitor(const char *sock, const char *cmd, char *buf,
			  size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t got = 0;
	int fd, quiet = 0;

	if (strlen(sock) >= sizeof sa.sun_path)
		return 0;
	strcpy(sa.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    write(fd, cmd, strlen(cmd)) < 0) {
		close(fd);
		return 0;
	}
	while (got < len - 1 && quiet < 4) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 500) <= 0) {
			quiet++;
			continue;
		}
		n = read(fd, buf + got, len - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		quiet = 0;
	}
	buf[got] = '\0';
	close(fd);
	return got;
}

/* The load address of _stext the guest printed, or 0. */
static unsigned long long guest_stext(const char *console_log)
{
	unsigned long long a = 0;
	char line[512];
	FILE *f = fopen(console_log, "r");

	while (f && fgets(line, sizeof line, f)) {
		const char *m = strstr(line, "testbed: _stext ");
		if (m)
			a = strtoull(m + 16, NULL, 16);
	}
	if (f)
		fclose(f);
	return a;
}

/* NAME+0xOFF of the kernel's text symbol at or below IP, a run-time
 * address SHIFT above its link-time address. */
static void symbolize(const char *system_map, unsigned long long ip,
		      unsigned long long shift, char *buf, size_t len)
{
	unsigned long long addr = ip - shift;
	unsigned long long best = 0, end = 0, a;
	char line[512], name[256], best_name[256] = "", type;
	FILE *f = fopen(system_map, "r");

	while (f && fgets(line, sizeof line, f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_end"))
			end = a;
		if (!strchr("tTwW", type) || a > addr || a < best)
			continue;
		best = a;
		strcpy(best_name, name);
	}
	if (f)
		fclose(f);
	if (end && addr >= end)
		snprintf(buf, len, "0x%llx (a module's code)", ip);
	else if (best_name[0])
		snprintf(buf, len, "%s+0x%llx", best_name, addr - best);
	else
		snprintf(buf, len, "0x%llx", addr);
}

/* The link-time address of _stext. */
static unsigned long long link_stext(const char *system_map)
{
	unsigned long long a;
	char line[512], name[256], type;
	FILE *f = fopen(system_map, "r");

	while (f && fgets(line, sizeof line, f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    !strcmp(name, "_stext")) {
			fclose(f);
			return a;
		}
	}
	if (f)
		fclose(f);
	return 0;
}

/* One CPU's summary from its block of "info registers -a"; a CPU in the
 * kernel with interrupts off (RFLAGS.IF clear) says so: it answers no
 * cross-CPU call, which the others may be waiting for. */
static void describe_cpu(const struct tb_hang *h, const char *block,
			 unsigned long long shift, char *buf, size_t len)
{
	const char *rip = strstr(block, "RIP="), *cpl = strstr(block, "CPL=");
	const char *hlt = strstr(block, "HLT="), *rfl = strstr(block, "RFL=");
	unsigned long long ip = rip ? strtoull(rip + 4, NULL, 16) : 0;
	unsigned long long flags = rfl ? strtoull(rfl + 4, NULL, 16) : 0x200;
	char sym[300];

	if (!rip) {
		snprintf(buf, len, "unknown");
	} else if (hlt && hlt[4] == '1') {
		snprintf(buf, len, "idle");
	} else if (cpl && cpl[4] == '3') {
		snprintf(buf, len, "in user space at 0x%llx", ip);
	} else {
		if (h->system_map && shift)
			symbolize(h->system_map, ip, shift, sym, sizeof sym);
		else
			snprintf(sym, sizeof sym, "0x%llx", ip);
		snprintf(buf, len, "in the kernel at %s%s", sym,
			 flags & 0x200 ? "" : " with interrupts off");
	}
}

void tb_hang_report(const struct tb_hang *h, char *buf, size_t len)
{
	static char regs[65536];
	unsigned long long stext = guest_stext(h->console_log), shift = 0;
	char *cpu, one[400];
	size_t used = 0;
	FILE *f;

	buf[0] = '\0';
	if (!ask_monitor(h->monitor, "info registers -a\n", regs, sizeof regs))
		return;
	f = fopen(h->monitor_log, "w");
	if (f) {
		fputs(regs, f);
		fclose(f);
	}
	if (stext && h->system_map)
		shift = stext - link_stext(h->system_map);
	for (cpu = strstr(regs, "CPU#"); cpu && used < len;) {
		char *next = strstr(cpu + 4, "CPU#");
		int n = atoi(cpu + 4);

		if (next)
			next[-1] = '\0';	/* the block ends before the next */
		describe_cpu(h, cpu, shift, one, sizeof one);
		used += (size_t)snprintf(buf + used, len - used, "%sCPU%d %s",
					 used ? ", " : "", n, one);
		cpu = next;
	}
}
