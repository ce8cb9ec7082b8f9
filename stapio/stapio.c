/* stapio.c - stapio: drive a loaded module and relay its output.
 *
 * Run by staprun with the module's name. Opens the control channel, sends
 * STP_CMD_START (with the -c command's or -x pid), then loops on ppoll():
 * data goes out through relay.c, ERROR/WARNING messages go to stderr,
 * SIGINT/SIGTERM/SIGHUP and the end of the -c command send STP_CMD_STOP;
 * SIGQUIT detaches, leaving the script running (staprun -A reattaches);
 * SIGUSR2 moves -o's output on to the next file.
 * STP_MSG_STOPPED means every byte is queued: drain, report losses, unload
 * the module (staprun became this process after loading it), exit 0, or 1
 * if an error arrived or the start failed.
 * The module runs the begin probes and registers every probe inside
 * STP_CMD_START's write() (a thousand kprobes take seconds): the main
 * thread writes it, so that the begin probes run in it as under stap 4.8,
 * while a second thread relays their output meanwhile, then ends.
 * Signals stay blocked but inside ppoll(), and their handlers only set
 * flags: stapio does no pipe or eventfd I/O of its own while the script
 * runs, which a system-wide vfs probe would see (as with stap 4.8's, the
 * script's first pipe is the traced program's), and sends itself no
 * signal, which a signal tracepoint would see: the relaying thread looks
 * for the end of the start every STAPIO_START_POLL_MS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>
#include "modload.h"
#include "stapio.h"
#include "stp_msgs.h"

#define STAPIO_DEBUGFS "/sys/kernel/debug"
#define STAPIO_DEBUGFS_MAGIC 0x64626720
#define STAPIO_CTL_BUF (sizeof(struct stp_msg_hdr) + STP_MSG_MAX_PAYLOAD + 4096)

int stapio_verbose;

static struct stp_opts opts;
static sigset_t wait_mask;	/* ppoll()'s: the handled signals let in */
static int ctl_fd = -1;
static pid_t target_pid;	/* the -c command, while it runs */
static int stop_sent, stopped, detached, failed;
static int lost;		/* the main loop must end (reported) */
static int start_wanted;	/* the module asked for STP_CMD_START */
static int start_pending;	/* its write() has not returned */
static int stop_deferred;	/* a stop came meanwhile: sent after it */
static uint64_t dropped;
static struct stapio_relay relay;

/* What the handlers saw; they run only inside ppoll(). */
static volatile sig_atomic_t sig_stop, sig_quit, sig_switch, sig_child;

/* How often the thread that relays during the start looks whether the
 * start is over (the main loop then takes over). */
#define STAPIO_START_POLL_MS 10

static void stapio_on_signal(int sig)
{
	if (sig == SIGCHLD)
		sig_child = 1;
	else if (sig == SIGQUIT)
		sig_quit = 1;
	else if (sig == SIGUSR2)
		sig_switch++;
	else
		sig_stop = 1;
}

/* Handle the signals, blocked outside ppoll() (staprun kept the first
 * four blocked while the module loaded; the relaying thread inherits the
 * mask). */
static void stapio_signals(void)
{
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2,
			     SIGCHLD };
	struct sigaction sa;
	sigset_t set;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stapio_on_signal;
	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&set, sigs[i]);
	}
	signal(SIGPIPE, SIG_IGN);
	pthread_sigmask(SIG_BLOCK, &set, &wait_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigdelset(&wait_mask, sigs[i]);
}

static int stapio_send(uint32_t type, const void *payload, uint32_t len)
{
	if (modload_ctl_send(ctl_fd, type, payload, len) < 0) {
		fprintf(stderr, "ERROR: Couldn't send a command to the module: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* STP_CMD_STOP after taking the output so far (a flood the begin probes
 * wrote would leave the end probes no room); during the start, once it is
 * over (the module would otherwise run the end probes while it still
 * registers probes). */
static void stapio_send_stop(void)
{
	if (__atomic_load_n(&start_pending, __ATOMIC_ACQUIRE)) {
		stop_deferred = 1;
		return;
	}
	if (stapio_verbose)
		fprintf(stderr, "stapio: stopping the module\n");
	if (!opts.load_only)
		relay_pump(&relay);
	stapio_send(STP_CMD_STOP, NULL, 0);
}

/* The one STP_CMD_STOP of a session, whoever asks first (the script's
 * exit(), a signal, the -c command's end, a reader gone): a later request
 * finds the session stopping (its end probes may call exit() again). */
static void stapio_stop(void)
{
	if (stop_sent)
		return;
	stop_sent = 1;
	stapio_send_stop();
}

#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif

/* Unload the module.  delete_module is root's: for a user who is not,
 * staprun -d (setuid root, which checks that they loaded it) does it, as
 * with stap.  0, or -1 after the error. */
static int stapio_unload(void)
{
	const char *staprun = getenv("SYSTEMTAP_STAPRUN");
	int status;
	pid_t pid;

	if (modload_delete(opts.module) == 0)
		return 0;
	if (errno == ENOENT) {	/* rmmod -f: its end probes ran, output kept */
		fprintf(stderr, "ERROR: module '%s' was removed while its script ran\n",
			opts.module);
		return -1;
	}
	if (errno != EPERM || getuid() == 0) {
		fprintf(stderr, "ERROR: Couldn't remove module '%s': %s\n",
			opts.module, strerror(errno));
		return -1;
	}
	if (!staprun || !*staprun)
		staprun = BINDIR "/staprun";
	pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &wait_mask, NULL);
		execl(staprun, staprun, "-d", opts.module, (char *)NULL);
		fprintf(stderr, "ERROR: Couldn't run '%s': %s\n", staprun,
			strerror(errno));
		_exit(1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

/* Find the module's directory: debugfs (mounted if needed), else procfs. */
static int stapio_find_dir(const char *mod, char *dir, size_t n)
{
	struct statfs sfs;

	if (opts.dirfd >= 0) {	/* opened for us by staprun */
		snprintf(dir, n, "/proc/self/fd/%d", opts.dirfd);
		return 0;
	}
	if (statfs(STAPIO_DEBUGFS, &sfs) == 0 &&
	    sfs.f_type != STAPIO_DEBUGFS_MAGIC)
		mount("debugfs", STAPIO_DEBUGFS, "debugfs", 0, NULL);
	snprintf(dir, n, STAPIO_DEBUGFS "/" STP_TRANSPORT_ROOT "/%s", mod);
	if (access(dir, F_OK) == 0)
		return 0;
	snprintf(dir, n, "/proc/" STP_TRANSPORT_ROOT "/%s", mod);
	if (access(dir, F_OK) == 0)
		return 0;
	if (opts.attach)	/* stap's words */
		fprintf(stderr, "ERROR: Cannot attach to module %s control channel; not running?\n",
			mod);
	else
		fprintf(stderr, "ERROR: Couldn't find the transport of module '%s' "
			"in " STAPIO_DEBUGFS " or /proc\n", mod);
	return -1;
}

/* The -c command, as stap 4.8 runs it: a list of words (the shell's
 * expansions done, command substitution refused) is executed directly, so
 * that target() is the program itself; anything else goes to /bin/sh -c. */
static void stapio_exec_target(const char *cmd)
{
	wordexp_t we;

	if (wordexp(cmd, &we, WRDE_NOCMD | WRDE_UNDEF) == 0 && we.we_wordc) {
		execvp(we.we_wordv[0], we.we_wordv);
		fprintf(stderr, "%s: %s\n", cmd, strerror(errno));
		_exit(1);
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "ERROR: Couldn't run /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

static volatile sig_atomic_t target_woken;

static void stapio_target_wake(int sig)
{
	(void)sig;
	target_woken = 1;
}

/* -c: fork the command now (its pid is target()); it waits for SIGUSR1
 * (blocked from before the fork, so none is lost) and then, as under stap
 * 4.8, a script tracing target() sees it put SIGUSR1 and its signal mask
 * back, cancel its 60 s safety alarm and exec the command. */
static void stapio_target_fork(const char *cmd)
{
	static const int dfl[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
	struct sigaction sa = { .sa_handler = stapio_target_wake };
	sigset_t usr1, old, none;
	size_t i;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	if ((target_pid = fork()) < 0) {
		perror("ERROR: Couldn't start the -c command");
		exit(1);
	}
	if (target_pid > 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return;
	}
	for (i = 0; i < sizeof(dfl) / sizeof(dfl[0]); i++)
		signal(dfl[i], SIG_DFL);
	/* as stap 4.8's, the command starts with these two ignored */
	signal(SIGUSR2, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGUSR1, &sa, NULL);
	sigprocmask(SIG_SETMASK, &usr1, NULL);
	alarm(60);	/* a stapio that never releases it leaves no orphan */
	sigemptyset(&none);
	while (!target_woken)
		sigsuspend(&none);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR1, &sa, NULL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	alarm(0);
	stapio_exec_target(cmd);
}

/* Let the -c command run (GO), or end it because the start failed. */
static void stapio_target_release(int go)
{
	static int released;

	if (target_pid <= 0 || released)
		return;
	released = 1;
	if (kill(target_pid, go ? SIGUSR1 : SIGKILL) < 0)
		perror("ERROR: Couldn't release the -c command");
}

/* system(CMD) from the script: run after the output its probe printed,
 * in the background, with stapio's stdout and stderr. */
static void stapio_system(const char *p, uint32_t len)
{
	char cmd[STP_MSG_MAX_PAYLOAD + 1];
	sigset_t mask;
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "%.*s", (int)len, p);
	relay_pump(&relay);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "WARNING: system(\"%s\") failed: %s\n", cmd,
			strerror(errno));
		return;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (null >= 0)
			dup2(null, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&mask);
		sigprocmask(SIG_SETMASK, &mask, NULL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
}

/* SGR parameters for KEY ("error", "warning") from SYSTEMTAP_COLORS
 * ("key=01;31:key2=..."), else stap's defaults; NULL: no colour. */
static const char *stapio_sgr(const char *key, char *buf, size_t n)
{
	const char *env = getenv("SYSTEMTAP_COLORS"), *p, *end;
	size_t klen = strlen(key), len;

	if (!env)
		return !strcmp(key, "error") ? "01;31" : "00;33";
	for (p = env; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (strncmp(p, key, klen) || p[klen] != '=')
			continue;
		len = (size_t)(end - p) - klen - 1;
		if (!len || len >= n || strspn(p + klen + 1, "0123456789;") < len)
			return NULL;
		memcpy(buf, p + klen + 1, len);
		buf[len] = '\0';
		return buf;
	}
	return NULL;
}

/* "ERROR:"/"WARNING:" as stderr shows it: coloured as stap's staprun does
 * with -C always, or -C auto on a terminal that is not dumb. */
static const char *stapio_prefix(const char *key, const char *label)
{
	static char out[2][96];
	const char *term = getenv("TERM");
	char sgr[32];
	const char *code;
	int slot = !strcmp(key, "warning");

	if (opts.color == STP_COLOR_NEVER ||
	    (opts.color == STP_COLOR_AUTO &&
	     (!isatty(2) || !term || !strcmp(term, "dumb"))))
		return label;
	code = stapio_sgr(key, sgr, sizeof sgr);
	if (!code)
		return label;
	snprintf(out[slot], sizeof out[slot], "\033[%sm\033[K%s\033[m\033[K",
		 code, label);
	return out[slot];
}

/* A -c command that failed fails the run, as with stap's staprun. */
static void stapio_target_status(int status)
{
	const char *warning = stapio_prefix("warning", "WARNING:");

	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		fprintf(stderr, "%s Child process exited with status %d\n",
			warning, WEXITSTATUS(status));
		failed = 1;
	} else if (WIFSIGNALED(status)) {
		fprintf(stderr, "%s Child process exited with signal %d (%s)\n",
			warning, WTERMSIG(status), strsignal(WTERMSIG(status)));
		failed = 1;
	}
}

static void stapio_reap(void)
{
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if (pid == target_pid) {
			target_pid = 0;
			stapio_target_status(status);
			stapio_stop();	/* the script ends with its command */
		}
}

/* What the handlers saw in the last ppoll() (blocked here: no race). */
static void stapio_handle_signals(void)
{
	if (sig_child) {
		sig_child = 0;
		stapio_reap();
	}
	if (sig_quit) {
		sig_quit = 0;
		detached = 1;	/* leave the script running */
	}
	for (; sig_switch > 0; sig_switch--)
		relay_switch(&relay);	/* next output file */
	if (sig_stop) {
		sig_stop = 0;
		stapio_stop();
	}
}

/* STP_CMD_START's payload: the target, and staprun's -N and -r */
static void stapio_start_cmd(struct stp_cmd_start *start, int target)
{
	memset(start, 0, sizeof(*start));
	start->target = target;
	start->ns_pid = opts.ns_pid;
	start->remote_id = opts.remote_id;
	if (opts.remote_uri)
		snprintf(start->remote_uri, sizeof(start->remote_uri), "%s",
			 opts.remote_uri);
}

/* (the start waits until the control message in hand is dispatched) */
static void stapio_on_state(int32_t state)
{
	if (state == STP_STATE_LOADED) {
		start_wanted = 1;
	} else if (state == STP_STATE_STOPPED || state == STP_STATE_STOPPING) {
		fprintf(stderr, "ERROR: module '%s' has already stopped\n",
			opts.module);
		exit(1);
	}
}

/* stap prints each distinct warning once: remember what was printed (a
 * bounded table of hashes; past it, warnings are no longer deduplicated). */
static int stapio_seen_warning(const char *p, uint32_t len)
{
	static uint64_t seen[4096];
	static unsigned nseen;
	uint64_t h = 1469598103934665603ULL;
	unsigned i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	h |= 1;
	for (i = 0; i < nseen; i++)
		if (seen[i] == h)
			return 1;
	if (nseen < sizeof seen / sizeof seen[0])
		seen[nseen++] = h;
	return 0;
}

static void stapio_message(uint32_t type, const char *p, uint32_t len)
{
	int32_t v;

	switch (type) {
	case STP_MSG_STARTED:
		memcpy(&v, p, sizeof(v));
		if (v < 0)
			failed = 1;
		if (stapio_verbose)
			fprintf(stderr, "stapio: module started (%d)\n", v);
		/* begin's output first, then the command's (after -L, the
		 * output waits for staprun -A) */
		if (!opts.load_only)
			relay_pump(&relay);
		if (v >= 0 && opts.read_stdin)
			input_open(opts.module);
		stapio_target_release(v >= 0);
		if (v >= 0 && opts.load_only)
			detached = 1;
		break;
	case STP_MSG_STOPPED:
		memcpy(&dropped, p, sizeof(dropped));
		stopped = 1;
		break;
	case STP_MSG_ERROR:
		fprintf(stderr, "%s %.*s\n", stapio_prefix("error", "ERROR:"),
			(int)len, p);
		failed = 1;
		break;
	case STP_MSG_WARNING:
		if (!opts.suppress_warnings && !stapio_seen_warning(p, len))
			fprintf(stderr, "%s %.*s\n",
				stapio_prefix("warning", "WARNING:"), (int)len, p);
		break;
	case STP_MSG_REQUEST_EXIT:
		stapio_stop();	/* once, whoever asks first */
		break;
	case STP_MSG_SYSTEM:
		stapio_system(p, len);
		break;
	case STP_MSG_STATE:
		memcpy(&v, p, sizeof(v));
		stapio_on_state(v);
		break;
	}
}

/* Read and dispatch whole control messages; -1 if the module went away. */
static int stapio_read_ctl(void)
{
	static char buf[STAPIO_CTL_BUF];
	static size_t have;
	struct stp_msg_hdr hdr;
	size_t used;
	ssize_t n;

	for (;;) {
		n = read(ctl_fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return -1;
		have += n;
		used = 0;
		while (have - used >= sizeof(hdr)) {
			memcpy(&hdr, buf + used, sizeof(hdr));
			if (have - used - sizeof(hdr) < hdr.len)
				break;
			stapio_message(hdr.type, buf + used + sizeof(hdr), hdr.len);
			used += sizeof(hdr) + hdr.len;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
	}
}

/* One round: wait (the signals let in) up to MS, then take up the
 * signals, stdin, the output and the control messages; sets lost if the
 * loop must end. */
static void stapio_round(int ms)
{
	struct pollfd pfd[STAPIO_MAX_RINGS + 2];
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
	int n, in;

	/* -L leaves the output for staprun -A */
	n = opts.load_only ? 0 : relay_pollfds(&relay, pfd);
	pfd[n].fd = ctl_fd;
	pfd[n].events = POLLIN;
	pfd[n + 1].revents = 0;
	in = input_pollfd(&pfd[n + 1]);
	if (ppoll(pfd, n + 1 + in, &ts, &wait_mask) < 0 && errno != EINTR) {
		lost = 1;
		return;
	}
	stapio_handle_signals();
	if (in)
		input_pump(&pfd[n + 1]);
	if (!opts.load_only)
		relay_pump(&relay);
	if (relay.out_broken)
		stapio_stop();	/* nobody reads the output: end the script */
	if (stapio_read_ctl() < 0) {
		fprintf(stderr, "ERROR: lost the connection to module '%s'\n",
			opts.module);
		failed = 1;
		lost = 1;
	}
}

/* The second thread: relays while the main thread is in the start. */
static void *stapio_relay_fn(void *arg)
{
	int ms = opts.timeout_ms < STAPIO_START_POLL_MS ?
		 opts.timeout_ms : STAPIO_START_POLL_MS;

	(void)arg;

	while (__atomic_load_n(&start_pending, __ATOMIC_ACQUIRE) && !lost)
		stapio_round(ms);
	return NULL;
}

/* Send STP_CMD_START with TARGET from the main thread, where the module
 * runs the begin probes, while a second thread relays their output and
 * takes the signals (without one, the output waits); a stop that came
 * meanwhile goes after it.  -1 if it could not be sent. */
static int stapio_start(int target)
{
	struct stp_cmd_start start;
	pthread_t relayer;
	int threaded, rc;

	stapio_start_cmd(&start, target);
	__atomic_store_n(&start_pending, 1, __ATOMIC_RELEASE);
	threaded = pthread_create(&relayer, NULL, stapio_relay_fn, NULL) == 0;
	rc = stapio_send(STP_CMD_START, &start, sizeof(start));
	__atomic_store_n(&start_pending, 0, __ATOMIC_RELEASE);
	if (threaded)
		pthread_join(relayer, NULL);	/* within STAPIO_START_POLL_MS */
	if (rc == 0 && stop_deferred)
		stapio_send_stop();
	return rc;
}

static void stapio_loop(void)
{
	while (!stopped && !detached && !lost) {
		stapio_round(opts.timeout_ms);
		if (start_wanted) {	/* staprun -A found it loaded */
			start_wanted = 0;
			stapio_start(opts.target_pid);
		}
	}
	/* STP_MSG_STOPPED came after the last output: take all of it (what
	 * a detached script prints waits for the next staprun -A) */
	if (!detached)
		relay_drain(&relay);
}

/* stapio cannot start the script (no control channel, an output file
 * it cannot create): as at the end, the module staprun loaded for it goes
 * (one it attached to keeps running).  Returns stapio's status, 1. */
static int stapio_abandon(void)
{
	if (opts.attach)
		return 1;
	stapio_target_release(0);	/* a -c command forked: it never runs */
	if (ctl_fd >= 0)
		close(ctl_fd);
	relay_close(&relay);
	stapio_unload();
	return 1;
}

int main(int argc, char **argv)
{
	char dir[4096], path[4200];

	stp_std_fds();
	/* a staprun -d run before the signals are handled keeps this mask */
	pthread_sigmask(SIG_BLOCK, NULL, &wait_mask);
	if (stp_opts_parse(&opts, argc, argv, "stapio") < 0)
		return 1;
	stapio_verbose = opts.verbose;
	if (opts.dirfd >= 0)	/* not for the -c command */
		fcntl(opts.dirfd, F_SETFD, FD_CLOEXEC);
	if (stapio_find_dir(opts.module, dir, sizeof(dir)) < 0)
		return stapio_abandon();
	if (stapio_verbose)
		fprintf(stderr, "stapio: using %s\n", dir);
	snprintf(path, sizeof(path), "%s/%s", dir, STP_CTL_NAME);
	ctl_fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (ctl_fd < 0 && errno == EBUSY && opts.attach) {
		/* another stapio holds it (stap 4.8's words) */
		fprintf(stderr, "ERROR: Cannot attach to module %s control channel; not running?\n",
			opts.module);
		return 1;
	}
	if (ctl_fd < 0) {
		fprintf(stderr, "ERROR: Couldn't open control channel '%s': %s\n",
			path, strerror(errno));
		return stapio_abandon();
	}
	if (relay_open(&relay, dir, &opts) < 0)
		return stapio_abandon();
	stapio_signals();
	if (opts.attach) {
		stapio_send(STP_CMD_ATTACH, NULL, 0);
	} else {
		if (opts.cmd)
			stapio_target_fork(opts.cmd);
		opts.target_pid = opts.cmd ? target_pid : opts.target_pid;
		if (stapio_start(opts.target_pid) < 0)
			return stapio_abandon();
	}
	stapio_loop();
	if (relay.out_error)
		failed = 1;	/* the output failed (reported) */
	if (dropped && !opts.suppress_warnings)
		fprintf(stderr, "%s There were %llu transport failures. Try stap -s to increase the buffer size from %d.\n",
			stapio_prefix("warning", "WARNING:"),
			(unsigned long long)dropped,
			opts.bufsize_mb ? opts.bufsize_mb : STP_DEFAULT_BUFSIZE_MB);
	stapio_target_release(0);
	if (target_pid > 0)
		kill(target_pid, SIGKILL);
	if (detached && !failed) {
		fprintf(stderr, "\nDisconnecting from systemtap module.\n"
			"To reconnect, type \"staprun -A %s\"\n", opts.module);
		return 0;
	}
	input_close();
	close(ctl_fd);
	relay_close(&relay);
	if (stapio_unload() < 0)
		failed = 1;
	/* the commands of system() finish before stapio does */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	return failed ? 1 : 0;
}
