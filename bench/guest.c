/* guest.c - benchg, the benchmark helper run inside the testbed guest.
 *
 * Built static on the host and put in the guest's initramfs by guest.sh.
 * Each subcommand prints one line of "key=value" results on stdout:
 *
 *   benchg first CMD...             run CMD (staprun M.ko); ns from the
 *                                   start to its first output byte and to
 *                                   its exit
 *   benchg cost KIND N [CMD...]     start CMD, wait for a line "ready" on
 *                                   its stdout, run workload KIND (spin: N
 *                                   loop iterations; getppid: N syscalls;
 *                                   ucall: N calls of bench_ufunc(); usdt:
 *                                   N hits of the SDT marker benchg:hit),
 *                                   then SIGINT CMD; its output is read all
 *                                   along and its lines with a '=' (the end
 *                                   probe's counters) printed as out:
 *                                   lines; without CMD, the bare
 *                                   workload.  ns of the workload alone.
 *   benchg drain SECS CMD...        run CMD, SIGINT it after SECS seconds,
 *                                   read its stdout to the end: lines
 *                                   "SEQ ..." received, lines lost (the
 *                                   script's "total=N" line minus those
 *                                   received, or else the gaps in SEQ), and
 *                                   lines per second between the first and
 *                                   the last line
 *   benchg flood N CMD...           start CMD, wait for "ready", then a
 *                                   child makes N getppid() calls (CMD's
 *                                   probe prints a line for each); read
 *                                   until the lines stop for 2 s after the
 *                                   child ended, SIGINT CMD, read to the
 *                                   end: as drain, the lines received and
 *                                   lost and their rate
 * CMD's stderr is appended to /tmp/benchg.err.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Start ARGV with stdout on a pipe; returns the pipe's read end. */
static int spawn(char **argv, pid_t *pid)
{
	int p[2], err;

	if (pipe(p) < 0) {
		perror("benchg: pipe");
		exit(1);
	}
	*pid = fork();
	if (*pid < 0) {
		perror("benchg: fork");
		exit(1);
	}
	if (*pid == 0) {
		dup2(p[1], 1);
		err = open("/tmp/benchg.err", O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (err >= 0)
			dup2(err, 2);
		close(p[0]);
		close(p[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "benchg: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	return p[0];
}

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int cmd_first(char **argv)
{
	char buf[65536];
	long long t0 = now_ns(), first = -1;
	ssize_t n;
	pid_t pid;
	int fd = spawn(argv, &pid), rc;

	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (first < 0)
			first = now_ns() - t0;
	}
	rc = reap(pid);
	printf("first_ns=%lld total_ns=%lld rc=%d\n", first, now_ns() - t0, rc);
	return 0;
}

/* The function the uprobe benchmarks probe (by name: keep it out of
 * line). */
__attribute__((noinline)) long bench_ufunc(long i)
{
	__asm__ __volatile__("" ::: "memory");
	return i + 1;
}

static void workload(const char *kind, long n)
{
	volatile long sink = 0;
	long i;

	if (!strcmp(kind, "getppid"))
		for (i = 0; i < n; i++)
			sink += syscall(SYS_getppid);
	else if (!strcmp(kind, "ucall"))
		for (i = 0; i < n; i++)
			sink += bench_ufunc(i);
	else if (!strcmp(kind, "usdt"))
		for (i = 0; i < n; i++) {
			STAP_PROBE1(benchg, hit, i);
			sink += i;
		}
	else
		for (i = 0; i < n; i++)
			sink += i;
}

/* Read FD until a line "ready" has arrived (or 300 s); 0 if it did. */
static int wait_ready(int fd)
{
	char buf[4096], line[256];
	size_t len = 0;
	ssize_t n, i;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (poll(&p, 1, 300000) > 0) {
		n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof line - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			len = 0;
			if (!strcmp(line, "ready"))
				return 0;
		}
	}
	return -1;
}

/* The "cpu" line of /proc/stat: user nice system idle iowait irq softirq,
 * in USER_HZ ticks; zeros if unreadable. */
static void cpu_ticks(long long v[7])
{
	FILE *f = fopen("/proc/stat", "r");

	memset(v, 0, 7 * sizeof v[0]);
	if (!f)
		return;
	if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6]) != 7)
		memset(v, 0, 7 * sizeof v[0]);
	fclose(f);
}

static int cmd_cost(const char *kind, long n, char **argv)
{
	char line[1024];
	long long t0, ns, a[7], b[7];
	pid_t pid = 0, reader = 0;
	FILE *out;
	int fd, rc = 0;

	if (argv[0]) {
		fd = spawn(argv, &pid);
		if (wait_ready(fd)) {
			kill(pid, SIGINT);
			printf("ns=-1 rc=%d\n", reap(pid));
			return 1;
		}
		/* CMD's output is read while the workload runs (a probe that
		 * prints must not find its reader stopped): a child passes on
		 * the result lines ("key=value") and drops the others. */
		fflush(stdout);
		reader = fork();
		if (reader == 0) {
			out = fdopen(fd, "r");
			while (out && fgets(line, sizeof line, out))
				if (strchr(line, '='))
					printf("out: %s", line);
			fflush(stdout);
			_exit(0);
		}
		close(fd);
	}
	cpu_ticks(a);
	t0 = now_ns();
	workload(kind, n);
	ns = now_ns() - t0;
	cpu_ticks(b);
	if (pid) {
		kill(pid, SIGINT);
		rc = reap(pid);
		reap(reader);
	}
	printf("ns=%lld rc=%d user=%lld sys=%lld idle=%lld irq=%lld softirq=%lld\n",
	       ns, rc, b[0] - a[0] + b[1] - a[1], b[2] - a[2], b[3] - a[3] + b[4] - a[4],
	       b[5] - a[5], b[6] - a[6]);
	return 0;
}

/* Line accounting for drain: numbered lines, gaps, other lines, and the
 * count the script says it printed ("total=N"). */
struct tally {
	long lines, lost, other, total;
	long long prev;		/* last sequence number, -1 before any */
	long long first_ns, last_ns;
};

static void tally_line(struct tally *t, const char *line, long long at)
{
	char *end;
	long long seq = strtoll(line, &end, 10);

	if (!strncmp(line, "total=", 6)) {
		t->total = atol(line + 6);
		return;
	}
	if (end == line || (*end != ' ' && *end != '\0')) {
		t->other++;
		return;
	}
	if (!t->lines++)
		t->first_ns = at;
	t->last_ns = at;
	if (t->prev >= 0 && seq > t->prev + 1)
		t->lost += seq - t->prev - 1;
	t->prev = seq;
}

/* Feed N bytes of BUF to T, line by line (LINE/LEN carry a partial one). */
static void tally_bytes(struct tally *t, const char *buf, ssize_t n,
			char *line, size_t *len, size_t cap, long long at)
{
	ssize_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (*len < cap - 1)
				line[(*len)++] = buf[i];
			continue;
		}
		line[*len] = '\0';
		*len = 0;
		tally_line(t, line, at);
	}
}

static void print_tally(const struct tally *t, int rc)
{
	printf("lines=%ld lost=%ld total=%ld other=%ld first_ns=%lld span_ns=%lld rate=%.0f rc=%d\n",
	       t->lines, t->total >= 0 ? t->total - t->lines : t->lost, t->total,
	       t->other, t->first_ns, t->last_ns - t->first_ns,
	       t->last_ns > t->first_ns ?
	       (double)(t->lines - 1) * 1e9 / (double)(t->last_ns - t->first_ns) : 0.0,
	       rc);
}

static int cmd_flood(long calls, char **argv)
{
	static char buf[1 << 16], line[4096];
	struct tally t = { .prev = -1, .total = -1 };
	long long t0 = now_ns(), quiet_since = 0;
	struct pollfd p;
	size_t len = 0;
	ssize_t n;
	int sent = 0, child_done = 0, status;
	pid_t pid, child;

	p.fd = spawn(argv, &pid);
	p.events = POLLIN;
	if (wait_ready(p.fd)) {
		kill(pid, SIGINT);
		printf("lines=0 rc=%d\n", reap(pid));
		return 0;
	}
	child = fork();
	if (child == 0) {
		workload("getppid", calls);
		_exit(0);
	}
	for (;;) {
		if (!child_done && waitpid(child, &status, WNOHANG) == child) {
			child_done = 1;
			quiet_since = now_ns();
		}
		if (child_done && !sent && now_ns() - quiet_since > 2000000000LL) {
			kill(pid, SIGINT);
			sent = 1;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(p.fd, buf, sizeof buf);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		quiet_since = now_ns();
		tally_bytes(&t, buf, n, line, &len, sizeof line, quiet_since - t0);
	}
	if (t.total < 0)	/* no "total=" line came: one line per call */
		t.total = calls;
	print_tally(&t, reap(pid));
	return 0;
}

static int cmd_drain(double secs, char **argv)
{
	static char buf[1 << 16], line[4096];
	struct tally t = { .prev = -1, .total = -1 };
	long long t0 = now_ns(), deadline = t0 + (long long)(secs * 1e9), now;
	struct pollfd p;
	size_t len = 0;
	ssize_t n;
	int sent = 0;
	pid_t pid;

	p.fd = spawn(argv, &pid);
	p.events = POLLIN;
	for (;;) {
		now = now_ns();
		if (!sent && now >= deadline) {
			kill(pid, SIGINT);
			sent = 1;
		}
		if (poll(&p, 1, sent ? 1000 : (int)((deadline - now) / 1000000) + 1) <= 0)
			continue;
		n = read(p.fd, buf, sizeof buf);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		now = now_ns();
		tally_bytes(&t, buf, n, line, &len, sizeof line, now - t0);
	}
	print_tally(&t, reap(pid));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "first"))
		return cmd_first(argv + 2);
	if (argc >= 4 && !strcmp(argv[1], "cost"))
		return cmd_cost(argv[2], atol(argv[3]), argv + 4);
	if (argc >= 4 && !strcmp(argv[1], "drain"))
		return cmd_drain(atof(argv[2]), argv + 3);
	if (argc >= 4 && !strcmp(argv[1], "flood"))
		return cmd_flood(atol(argv[2]), argv + 3);
	fprintf(stderr, "usage: benchg first CMD... | cost KIND N [CMD...] | drain SECS CMD... | flood N CMD...\n");
	return 2;
}
