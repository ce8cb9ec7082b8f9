/* testbed.c - boot the testbed guest under qemu and relay its job's output.
 *
 * Serial ports: ttyS0 is the kernel console (a log file in the workdir),
 * ttyS1 the job's stdout, ttyS2 its stderr, ttyS3 control: the guest sends
 * "B" once /init runs and "X <status>\n" when the job is over; the host
 * sends "I" or "T" to forward SIGINT or SIGTERM.  Before "X" the guest
 * sends back each file the job left in /work/out as "F <size> <name>\n"
 * and the bytes (a bulk-mode run's per-CPU files, -S's rotated files).  Ports 1-3 are qemu
 * "pipe" chardevs (FIFOs NAME.in/NAME.out in the workdir), set raw in the
 * guest so bytes pass unchanged.  Closing a serial port waits until its
 * output is sent, so the job's output is complete before "X" is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testbed/initramfs.h"
#include "testbed/tbhang.h"
#include "testbed/tbmods.h"
#include "testbed/testbed.h"
#include "util/fileio.h"

/* The guest's /init, run by the guest's busybox itself: a -c command's
 * program copied in from the host may take /bin/sh's place (the host's
 * dash), and the testbed's own shell code must not change with it.  The
 * job runs with stdout/stderr on ttyS1/ttyS2; the watcher reads ttyS3 with
 * the shell's own read so that killing it closes the port, and the final
 * "X" is the last close of ttyS3 (which drains). */
static const char guest_init[] =
"#!/bin/busybox sh\n"
"export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
"export HOME=/root TERM=dumb\n"
"mount -t proc proc /proc\n"
"mount -t sysfs sysfs /sys\n"
"mount -t devtmpfs devtmpfs /dev\n"
"mount -t debugfs debugfs /sys/kernel/debug\n"
"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
"# Programs copied from the host may live under /tmp: keep them visible.\n"
"[ -z \"$(ls -A /tmp)\" ] && mount -t tmpfs tmpfs /tmp\n"
"mkdir -p /run\n"
"for t in 1 2 3; do stty -F /dev/ttyS$t raw -echo; done\n"
"tb_group() {\n"
"	rm -f /run/tb_pgid\n"
"	setsid /bin/busybox sh -c 'echo $$ >/run/tb_pgid; exec 3>&-; exec \"$@\"' tb \"$@\"\n"
"}\n"
"tb_timed() {\n"
"	local secs=$1 rc w\n"
"	shift\n"
"	rm -f /run/tb_timedout /run/tb_pgid\n"
"	( sleep \"$secs\"; read -r p </run/tb_pgid || exit 0\n"
"	  : >/run/tb_timedout; kill -INT -$p; sleep 5; kill -KILL -$p\n"
"	) 2>/dev/null &\n"
"	w=$!\n"
"	tb_group \"$@\"\n"
"	rc=$?\n"
"	kill $w 2>/dev/null\n"
"	wait $w 2>/dev/null\n"
"	[ -e /run/tb_timedout ] && rc=124\n"
"	return $rc\n"
"}\n"
"( while read -r -n 1 c; do\n"
"	case \"$c\" in I) s=INT ;; T) s=TERM ;; *) continue ;; esac\n"
"	read -r p </run/tb_pgid && kill -$s -$p\n"
"  done ) </dev/ttyS3 2>/dev/null &\n"
"tb_watch=$!\n"
"exec 3>/dev/ttyS3\n"
"printf B >&3\n"
"mkdir -p /work\n"
"cd /work\n"
". /job.sh </dev/null >/dev/ttyS1 2>/dev/ttyS2\n"
"rc=$?\n"
"kill $tb_watch 2>/dev/null\n"
"wait $tb_watch 2>/dev/null\n"
"for f in /work/out/*; do\n"
"	[ -f \"$f\" ] || continue\n"
"	printf 'F %d %s\\n' $(wc -c <\"$f\") \"${f##*/}\" >&3\n"
"	cat \"$f\" >&3\n"
"done\n"
"printf 'X %d\\n' $rc >&3\n"
"exec 3>&-\n"
"poweroff -f\n";

static int tb_fail(struct tb_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int tb_fail(struct tb_result *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->error[0]) {
		va_start(ap, fmt);
		vsnprintf(r->error, sizeof r->error, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void path_in(char *buf, size_t len, const struct tb_guest *g,
		    const char *name)
{
	snprintf(buf, len, "%s/%s", g->workdir, name);
}

const char *tb_console_log(const struct tb_guest *g, char *buf, size_t len)
{
	path_in(buf, len, g, "console.log");
	return buf;
}

/* The modules G's job wants: G->modules, then those its stap modules'
 * probes lie in (the first naming of a module gives its parameters). */
static char *modules_wanted(const struct tb_guest *g)
{
	char *list = NULL, *probed;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);
	int k;

	fputs(g->modules ? g->modules : "", f);
	for (k = 0; k < g->nfiles; k++) {
		if (!g->files[k].stap_module)
			continue;
		probed = tb_modules_probed(g->files[k].host);
		if (probed)
			fprintf(f, " %s", probed);
		free(probed);
	}
	fclose(f);
	return list;
}

/* The job: for a guest with an idle limit, a line that prints the
 * kernel's load address on the console (tbhang.c reads it); the commands
 * that load G's modules (their files added to IR); G's job.  NULL after
 * tb_fail. */
static char *add_modules(struct initramfs *ir, const struct tb_guest *g,
			 struct tb_result *r)
{
	struct tb_module *mods;
	char *job = NULL, guest[4200], *list;
	size_t len = 0;
	FILE *f;
	int n = 0, i;

	list = modules_wanted(g);
	if (*list) {
		n = tb_modules_resolve(g->modules_dir ? g->modules_dir : "/nonexistent",
				       list, &mods, r->error, sizeof r->error);
		if (n < 0) {
			free(list);
			return NULL;
		}
	}
	free(list);
	f = open_memstream(&job, &len);
	/* The kernel's load address on the console, for naming where a hung
	 * guest's CPUs are (only a guest with an idle limit is called hung). */
	if (g->idle_timeout > 0)
		fputs("awk '$3 == \"_stext\" { print \"testbed: _stext \" $1; exit }' "
		      "/proc/kallsyms >/dev/console\n", f);
	for (i = 0; i < n; i++) {
		snprintf(guest, sizeof guest, "lib/tbmods/%s.ko", mods[i].name);
		ir_add_file(ir, guest, mods[i].path, 0644);
		fprintf(f, "insmod /%s %s || { echo \"testbed: cannot load module %s\" >&2; return 1; }\n",
			guest, mods[i].params, mods[i].name);
	}
	fputs(g->job, f);
	fclose(f);
	return job;
}

static int make_initramfs(const struct tb_guest *g, const char *path,
			  struct tb_result *r)
{
	struct initramfs *ir = ir_create(path);
	char *job;
	const char *dirs[] = { "proc", "sys", "dev", "tmp", "work", "root" };
	size_t i;
	int k;

	if (!ir)
		return tb_fail(r, "out of memory");
	ir_add_busybox(ir, g->busybox ? g->busybox : "/bin/busybox");
	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		ir_add_dir(ir, dirs[i]);
	ir_add_chardev(ir, "dev/console", 5, 1);
	ir_add_data(ir, "init", guest_init, strlen(guest_init), 0755);
	job = add_modules(ir, g, r);
	if (!job) {
		ir_finish(ir, NULL, 0);
		return -1;
	}
	ir_add_data(ir, "job.sh", job, strlen(job), 0644);
	free(job);
	for (k = 0; k < g->nfiles; k++) {
		const struct tb_file *f = &g->files[k];
		if (f->program)
			ir_add_program(ir, f->host);
		if (f->guest || !f->program)
			ir_add_file(ir, f->guest ? f->guest : f->host, f->host,
				    0755);
	}
	return ir_finish(ir, r->error, sizeof r->error);
}

/* ---- the host side ---- */

static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int e = errno;
	char c = (char)sig;

	if (write(sig_pipe[1], &c, 1) < 0) {
		/* the pipe is full: a signal is already pending */
	}
	errno = e;
}

static int make_fifos(const struct tb_guest *g, struct tb_result *r)
{
	static const char *names[] = { "out.in", "out.out", "err.in",
				       "err.out", "ctl.in", "ctl.out" };
	char p[4096];
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		path_in(p, sizeof p, g, names[i]);
		unlink(p);
		if (mkfifo(p, 0600) < 0)
			return tb_fail(r, "cannot create %s: %s", p, strerror(errno));
	}
	return 0;
}

static int open_fifo(const struct tb_guest *g, const char *name)
{
	char p[4096];

	/* O_RDWR: never blocks, and never reads EOF before qemu opens it;
	 * the end of the run is qemu's exit, not the FIFO's. */
	path_in(p, sizeof p, g, name);
	return open(p, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

/* The qemu that boots G's kernel: $STAP_TESTBED_QEMU, else the "qemu"
 * beside the kernel's image when its testbed directory has one (stap-testbed
 * setup --kernel puts a newer qemu there for kernels the host's mis-runs),
 * else the host's.  BUF holds the path. */
static const char *qemu_for(const struct tb_guest *g, char *buf, size_t size)
{
	const char *e = getenv("STAP_TESTBED_QEMU"), *slash;

	if (e && *e)
		return e;
	slash = strrchr(g->kernel, '/');
	if (slash && (size_t)(slash - g->kernel) + sizeof "/qemu" <= size) {
		snprintf(buf, size, "%.*s/qemu", (int)(slash - g->kernel), g->kernel);
		if (!access(buf, X_OK))
			return buf;
	}
	return "qemu-system-x86_64";
}

static pid_t start_qemu(const struct tb_guest *g, const char *initrd,
			struct tb_result *r)
{
	char console[4200], log[4200], out[4200], err[4200], ctl[4200];
	char chr_out[4300], chr_err[4300], chr_ctl[4300], ser0[4300];
	char mon[4300], qbuf[4200];
	const char *qemu = qemu_for(g, qbuf, sizeof qbuf);
	pid_t pid, parent;

	path_in(console, sizeof console, g, "console.log");
	path_in(log, sizeof log, g, "qemu.log");
	path_in(out, sizeof out, g, "out");
	path_in(err, sizeof err, g, "err");
	path_in(ctl, sizeof ctl, g, "ctl");
	snprintf(ser0, sizeof ser0, "file:%s", console);
	snprintf(chr_out, sizeof chr_out, "pipe,id=out,path=%s", out);
	snprintf(chr_err, sizeof chr_err, "pipe,id=err,path=%s", err);
	snprintf(chr_ctl, sizeof chr_ctl, "pipe,id=ctl,path=%s", ctl);
	/* The monitor, asked where the CPUs are when the guest hangs (a unix
	 * socket's path has at most 107 bytes). */
	path_in(mon, sizeof mon, g, "monitor.sock");
	unlink(mon);
	if (strlen(mon) < 100)
		snprintf(mon, sizeof mon, "unix:%s/monitor.sock,server=on,wait=off",
			 g->workdir);
	else
		strcpy(mon, "none");

	char append[1024], smp[16];

	/* no_timer_check: under TCG on a loaded host the kernel's IO-APIC
	 * timer test can miss its ticks and panic the boot ("IO-APIC + timer
	 * doesn't work!"; seen with the host's load at 20) */
	snprintf(append, sizeof append, "console=ttyS0 panic=-1 quiet cryptomgr.notests no_timer_check%s%s",
		 g->kargs ? " " : "", g->kargs ? g->kargs : "");
	snprintf(smp, sizeof smp, "%d", g->cpus > 0 ? g->cpus : 2);
	/* thread=single: one host thread runs every vCPU in turn.  Under
	 * multi-threaded TCG a vCPU now and then runs code another vCPU has
	 * already rewritten and synchronized (x86's cross-modifying protocol:
	 * text_poke_bp's int3 and IPIs), so the kernel's text patching breaks:
	 * on 6.1 an ftrace-site kprobe being removed, a CPU traps on the int3
	 * after the patch is over and jumps to 0 (shell/testbed-text-patching
	 * tells the whole story). */
	char *argv[] = {
		(char *)qemu, "-accel", "tcg,thread=single", "-cpu", "max", "-m", "1024",
		"-smp", smp, "-no-reboot", "-display", "none", "-nodefaults",
		"-no-user-config", "-monitor", mon,
		"-kernel", (char *)g->kernel, "-initrd", (char *)initrd,
		"-append", append,
		"-serial", ser0,
		"-chardev", chr_out, "-serial", "chardev:out",
		"-chardev", chr_err, "-serial", "chardev:err",
		"-chardev", chr_ctl, "-serial", "chardev:ctl",
		NULL
	};

	if (g->verbose) {
		char **a;
		fputs("testbed:", stderr);
		for (a = argv; *a; a++)
			fprintf(stderr, " %s", *a);
		fputc('\n', stderr);
	}
	parent = getpid();
	pid = fork();
	if (pid < 0)
		return tb_fail(r, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDONLY);
		sigset_t none;

		/* Its own process group: a Ctrl-C at the terminal is for
		 * stap to forward, not for qemu to die of. */
		setpgid(0, 0);
		/* and it dies with us: a testbed process killed (run-tests'
		 * timeout, SIGKILL) left its guest spinning on the host's CPUs
		 * for good */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (nul >= 0)
			dup2(nul, 0);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(qemu, argv);
		dprintf(2, "cannot run %s: %s\n", qemu, strerror(errno));
		_exit(127);
	}
	return pid;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct relay {
	int fd[3];		/* out, err, ctl FIFOs (read ends) */
	int to[2];		/* where out and err go */
	int ctl_in;		/* write end towards the guest */
	char line[512];		/* a control line being received */
	size_t line_len;
	const char *results;	/* where returned files go, or NULL */
	int file_fd;		/* a returned file being received, or -1 */
	long long file_left;	/* its bytes still to come */
	int booted, exited, status;
};

/* "F <size> <name>": a file the job left, its bytes next. */
static void file_header(struct relay *rl, const char *line)
{
	char path[4200];
	const char *name;
	char *end;

	rl->file_left = strtoll(line + 2, &end, 10);
	name = end + (*end == ' ');
	rl->file_fd = -1;
	if (rl->results && *name && !strchr(name, '/') && strcmp(name, ".") &&
	    strcmp(name, "..")) {
		snprintf(path, sizeof path, "%s/%s", rl->results, name);
		rl->file_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				   0666);
	}
}

/* The control stream: "B", returned files, "X <status>\n". */
static void control(struct relay *rl, const char *p, size_t n)
{
	while (n) {
		if (rl->file_left > 0) {
			size_t k = (size_t)rl->file_left < n ?
				   (size_t)rl->file_left : n;
			if (rl->file_fd >= 0)
				fio_write_fd(rl->file_fd, p, k);
			p += k;
			n -= k;
			rl->file_left -= (long long)k;
		} else if (*p == 'B' && !rl->line_len) {
			rl->booted = 1;
			p++, n--;
		} else if (*p != '\n') {
			if (rl->line_len < sizeof rl->line - 1)
				rl->line[rl->line_len++] = *p;
			p++, n--;
		} else {
			rl->line[rl->line_len] = '\0';
			rl->line_len = 0;
			p++, n--;
			if (!strncmp(rl->line, "X ", 2) && !rl->exited) {
				rl->exited = 1;
				rl->status = atoi(rl->line + 2);
			} else if (!strncmp(rl->line, "F ", 2)) {
				file_header(rl, rl->line);
			}
		}
		if (rl->file_left <= 0 && rl->file_fd >= 0) {
			close(rl->file_fd);
			rl->file_fd = -1;
		}
	}
}

/* Move whatever is waiting in the FIFOs; a closed destination (a reader
 * that went away) just drops the output. */
static size_t drain(struct relay *rl)
{
	char buf[65536];
	size_t moved = 0;
	int i;

	for (i = 0; i < 3; i++) {
		ssize_t n;
		while ((n = read(rl->fd[i], buf, sizeof buf)) > 0) {
			if (i < 2)
				fio_write_fd(rl->to[i], buf, (size_t)n);
			else
				control(rl, buf, (size_t)n);
			moved += (size_t)n;
		}
	}
	return moved;
}

/* The guest said nothing for G->idle_timeout s: name where its CPUs are,
 * then stop it. */
static void hung(const struct tb_guest *g, pid_t qemu, int *wstatus,
		 struct tb_result *r)
{
	char mon[4200], console[4200], mlog[4200], where[400];
	struct tb_hang h = { mon, console, mlog, g->system_map };

	path_in(mon, sizeof mon, g, "monitor.sock");
	path_in(console, sizeof console, g, "console.log");
	path_in(mlog, sizeof mlog, g, "monitor.log");
	tb_hang_report(&h, where, sizeof where);
	kill(qemu, SIGKILL);
	waitpid(qemu, wstatus, 0);
	tb_fail(r, "the testbed guest hung: nothing from it for %d s%s%s",
		g->idle_timeout, where[0] ? "; " : "", where);
}

static void install(int sig, void (*fn)(int), struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, old);
}

/* The CPU time qemu (all its threads: the guest's CPUs) has had, in
 * seconds; -1 if unknown. */
static double cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(buf, sizeof buf, f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* after the name: state, ppid, pgrp, session, tty, tpgid, flags,
	 * 4 fault counts, then utime and stime */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* The guest has not reached its /init: has it had its time?  Its boot
 * limit counts the CPU time qemu got, not the clock, so that a boot
 * starved by the host's load is waited for (up to 10 times the limit on
 * the clock) rather than failed and booted again, and a boot that used
 * its time and stayed silent fails the run: no boot is ever retried. */
static int boot_overdue(const struct tb_guest *g, pid_t qemu, double start,
			struct tb_result *r)
{
	int limit = g->boot_timeout > 0 ? g->boot_timeout : 60;
	double wall = now_s() - start, cpu = cpu_s(qemu);

	if (cpu < 0)
		cpu = wall;
	if (cpu < limit && wall < 10.0 * limit)
		return 0;
	tb_fail(r, "the testbed guest did not boot within %d s (%.0f s of CPU time, %.0f s on the clock)",
		limit, cpu, wall);
	return 1;
}

/* The relay loop: until qemu exits.  Returns qemu's wait status. */
static int relay_loop(const struct tb_guest *g, pid_t qemu, struct relay *rl,
		      struct tb_result *r)
{
	double start = now_s(), kill_deadline = 0, last = start;
	int wstatus = 0;

	for (;;) {
		struct pollfd pfd[4];
		double now = now_s(), until = 0;
		char sig;
		int i;

		for (i = 0; i < 3; i++) {
			pfd[i].fd = rl->fd[i];
			pfd[i].events = POLLIN;
		}
		pfd[3].fd = sig_pipe[0];
		pfd[3].events = POLLIN;
		if (!rl->booted)
			until = now + 0.2;	/* its CPU time is checked */
		if (kill_deadline && (!until || kill_deadline < until))
			until = kill_deadline;
		poll(pfd, 4, until ? (int)((until - now) * 1000) + 1 : 1000);
		if (drain(rl))
			last = now_s();
		while (read(sig_pipe[0], &sig, 1) == 1) {
			if (sig == SIGCHLD)
				continue;
			r->interrupted = 1;
			if (rl->booted && g->forward_signals && !kill_deadline) {
				fio_write_fd(rl->ctl_in, sig == SIGINT ? "I" : "T", 1);
				/* Give the script time to run its end probes. */
				kill_deadline = now_s() + 60;
			} else {
				kill(qemu, SIGKILL);
			}
		}
		if (waitpid(qemu, &wstatus, WNOHANG) == qemu)
			break;
		now = now_s();
		if (!rl->booted && boot_overdue(g, qemu, start, r)) {
			kill(qemu, SIGKILL);
			waitpid(qemu, &wstatus, 0);
			break;
		}
		if (rl->booted && g->idle_timeout > 0 &&
		    now - last >= g->idle_timeout) {
			hung(g, qemu, &wstatus, r);
			break;
		}
		if (kill_deadline && now >= kill_deadline) {
			kill(qemu, SIGKILL);
			waitpid(qemu, &wstatus, 0);
			tb_fail(r, "the testbed guest did not stop within 60 s of the signal");
			break;
		}
	}
	drain(rl);
	return wstatus;
}

/* A line of the work directory's log NAME for an error message: the
 * first holding one of MARKS (from the mark on), or with no MARKS the last
 * non-empty line.  Written as ": " PREFIX "LINE" SUFFIX into BUF. */
static void log_line(const struct tb_guest *g, const char *name,
		     const char *const *marks, const char *prefix,
		     const char *suffix, char *buf, size_t len)
{
	char p[4096], line[512];
	const char *m = NULL;
	FILE *f;

	buf[0] = '\0';
	path_in(p, sizeof p, g, name);
	f = fopen(p, "r");
	if (!f)
		return;
	while ((!marks || !buf[0]) && fgets(line, sizeof line, f)) {
		const char *const *k;

		for (k = marks; k && *k && !(m = strstr(line, *k)); k++)
			;
		if (!marks && line[0] != '\n')
			m = line;
		if (m)
			snprintf(buf, len, ": %s%.*s%s", prefix,
				 (int)strcspn(m, "\r\n"), m, suffix);
	}
	fclose(f);
}

/* What the guest kernel said when it went down (a panic, an oops, a BUG). */
static void kernel_complaint(const struct tb_guest *g, char *buf, size_t len)
{
	static const char *const marks[] = {
		"Kernel panic", "BUG:", "Oops:", "general protection fault",
		"kernel BUG", "watchdog:", NULL
	};

	log_line(g, "console.log", marks, "the guest kernel reported \"", "\"",
		 buf, len);
}

/* qemu's own complaint: its last line. */
static void qemu_complaint(const struct tb_guest *g, char *buf, size_t len)
{
	log_line(g, "qemu.log", NULL, "", "", buf, len);
}

int tb_run(const struct tb_guest *g, int out_fd, int err_fd,
	   struct tb_result *r)
{
	struct sigaction old_int, old_term, old_chld;
	struct relay rl;
	char initrd[4096];
	sigset_t block, oldmask;
	pid_t qemu;
	int i, wstatus, rc = 0;

	memset(r, 0, sizeof *r);
	memset(&rl, 0, sizeof rl);
	path_in(initrd, sizeof initrd, g, "initrd.cpio");
	if (make_initramfs(g, initrd, r) || make_fifos(g, r))
		return -1;
	rl.fd[0] = open_fifo(g, "out.out");
	rl.fd[1] = open_fifo(g, "err.out");
	rl.fd[2] = open_fifo(g, "ctl.out");
	rl.ctl_in = open_fifo(g, "ctl.in");
	rl.to[0] = out_fd;
	rl.to[1] = err_fd;
	rl.results = g->results_dir;
	rl.file_fd = -1;
	if (rl.fd[0] < 0 || rl.fd[1] < 0 || rl.fd[2] < 0 || rl.ctl_in < 0)
		rc = tb_fail(r, "cannot open the testbed FIFOs in %s: %s",
			     g->workdir, strerror(errno));
	if (!rc && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		rc = tb_fail(r, "cannot create a pipe: %s", strerror(errno));
	if (rc)
		goto out;

	/* Block the signals until the handlers are in place and qemu is
	 * forked (the child unblocks them). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &oldmask);
	install(SIGINT, on_signal, &old_int);
	install(SIGTERM, on_signal, &old_term);
	install(SIGCHLD, on_signal, &old_chld);
	qemu = start_qemu(g, initrd, r);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (qemu > 0) {
		wstatus = relay_loop(g, qemu, &rl, r);
		r->booted = rl.booted;
		if (r->error[0]) {
			rc = -1;
		} else if (rl.exited) {
			r->status = rl.status;
		} else if (r->interrupted && !rl.booted) {
			rc = tb_fail(r, "interrupted while the testbed guest was booting");
		} else if (r->interrupted && !g->forward_signals) {
			rc = tb_fail(r, "interrupted");
		} else {
			char why[300];
			/* the kernel's own words first, booted or not (a
			 * panic while booting is a crash, not a slow boot) */
			kernel_complaint(g, why, sizeof why);
			r->crashed = why[0] != '\0';
			if (!why[0])
				qemu_complaint(g, why, sizeof why);
			if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127)
				rc = tb_fail(r, "cannot start qemu%s", why);
			else
				rc = tb_fail(r, "the testbed guest stopped before its job ended%s",
					     why);
		}
	} else {
		rc = -1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
out:
	for (i = 0; i < 3; i++)
		if (rl.fd[i] >= 0)
			close(rl.fd[i]);
	if (rl.ctl_in >= 0)
		close(rl.ctl_in);
	if (rl.file_fd >= 0)
		close(rl.file_fd);
	for (i = 0; i < 2; i++) {
		if (sig_pipe[i] >= 0)
			close(sig_pipe[i]);
		sig_pipe[i] = -1;
	}
	return rc;
}
