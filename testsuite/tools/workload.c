/* workload.c - a small deterministic program for run tests' -c commands.
 *
 * Built static on the host (testsuite/run-tests, stap48-run, ctap-run) and
 * run in the testbed guest as "workload STEP…", doing exactly the system
 * calls its steps ask for, in order, so that scripts counting them print
 * the same numbers on every run.  Steps:
 *   read N SIZE     N read()s of SIZE bytes from /dev/zero
 *   write N SIZE    N write()s of SIZE bytes to /dev/null
 *   open PATH       open() PATH read-only (and close it if it opened)
 *   getppid N       N getppid()s
 *   fork N          N children, child I exits with status I; waits for each
 *   thread N        N threads one after another, each one getppid()
 *   sleep MS        nanosleep() MS milliseconds
 *   spin MS         a busy loop in user space for MS milliseconds
 *   efault          read() into and open() from a bad address (EFAULT)
 *   fds             pipe(), pipe2(O_CLOEXEC), dup(), dup2(), dup3(O_CLOEXEC),
 *                   an O_CREAT open() of /tmp/workload, closes; kill(1, 0),
 *                   kill(1, SIGCONT) and kill(-99, 0) (ESRCH)
 *   mmap            an anonymous private mmap() of two pages, mprotect()
 *                   PROT_READ, munmap(), and a bad munmap() (EINVAL)
 *   mremap          an anonymous private mmap() of two pages and one of one
 *                   page, a write to each of the two, mremap() of the two
 *                   down to one page moved onto the other mapping
 *                   (MREMAP_FIXED), munmap()
 *   misc            lseek() to the end of /dev/zero, fcntl() F_GETFD and
 *                   F_SETFD, access() of / (R_OK|X_OK) and of a missing
 *                   file (F_OK), close(-1) (EBADF)
 *   sock            socket(), bind() and connect() of an AF_INET datagram
 *                   socket to 127.0.0.1:4242 and :4243, an AF_INET6 one to
 *                   [::1]:4244 (flowinfo 5, scope 0) and an AF_UNIX one to
 *                   "/tmp/workload.sock"; closes (the calls may fail: the
 *                   guest's loopback can be down)
 *   udp N SIZE      an AF_INET datagram socket bound to 127.0.0.1:4245 and
 *                   connected to itself: N send()s of SIZE bytes, each
 *                   followed by its recv(); connect(AF_UNSPEC) (disconnect)
 *   tcp N SIZE      a TCP connection over 127.0.0.1 from port 4247 to a
 *                   listener on 4246: setsockopt(TCP_NODELAY) on the client,
 *                   then N send()s of SIZE bytes, each followed by the
 *                   server's recv(MSG_WAITALL) of it; the client's
 *                   connect(AF_UNSPEC) (disconnect), closes
 *                   (udp and tcp run in a network namespace of their own,
 *                   unshare(CLONE_NEWNET), with its loopback device brought
 *                   up, SIOCSIFFLAGS; then back to the first namespace, so
 *                   the guest's own lo stays as it was)
 *   netdev          in a network namespace of its own (as udp): lo's MTU
 *                   set to 1500 (SIOCSIFMTU), its hardware address set
 *                   (SIOCSIFHWADDR: refused), a packet socket's
 *                   PACKET_MR_PROMISC membership on lo added and dropped
 *   sigs            sigaction() of a SIGUSR2 handler (SA_RESTART, blocking
 *                   SIGINT), SIGUSR2 blocked, kill() of itself, sigpending(),
 *                   SIGUSR2 unblocked (the handler runs), SIG_DFL for it
 *                   (not the inherited action: stap 4.8's stapio starts
 *                   the command with SIGUSR2 ignored); then signal 40 blocked, a POSIX timer sending it
 *                   in 1 ms, sigwaitinfo() for it, the timer deleted
 *   exit N          exit with status N now
 *   abort           abort() (SIGABRT)
 * Exit status 0, or 2 for a step it does not know.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <sys/ioctl.h>
#include <arpa/inet.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

static void rw(const char *path, int flags, long n, long size)
{
	int fd = open(path, flags);

	if (size > (long)sizeof buf)
		size = sizeof buf;
	for (long i = 0; fd >= 0 && i < n; i++) {
		if (flags == O_RDONLY)
			(void)!read(fd, buf, size);
		else
			(void)!write(fd, buf, size);
	}
	if (fd >= 0)
		close(fd);
}

static void forks(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit((int)i);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}

static void *thread_main(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
	return NULL;
}

static void threads(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_t t;
		if (!pthread_create(&t, NULL, thread_main, NULL))
			pthread_join(t, NULL);
	}
}

static void spin(long ms)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int k = 0; k < 100000; k++)
			n++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void efault(void)
{
	int fd = open("/dev/zero", O_RDONLY);

	(void)!syscall(SYS_read, fd, (void *)8, 16);
	(void)!syscall(SYS_openat, AT_FDCWD, (void *)8, O_RDONLY);
	close(fd);
}

static void fds(void)
{
	int p[2] = { 0, 0 }, q[2] = { 0, 0 }, fd;

	(void)!syscall(SYS_pipe, p);
	(void)!pipe2(q, O_CLOEXEC);
	fd = dup(p[0]);
	dup2(p[1], 20);
	dup3(q[0], 21, O_CLOEXEC);
	close(fd);
	close(20);
	close(21);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	fd = open("/tmp/workload", O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd >= 0)
		close(fd);
	kill(1, 0);
	kill(1, SIGCONT);
	kill(-99, 0);
}

static void maps(void)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m != MAP_FAILED) {
		mprotect(m, 4096, PROT_READ);
		munmap(m, 8192);
	}
	munmap((void *)1, 4096);
}

static void remaps(void)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *to = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || to == MAP_FAILED)
		return;
	m[0] = 1;
	m[4096] = 1;
	m = mremap(m, 8192, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	if (m != MAP_FAILED)
		munmap(m, 4096);
}

static void sock(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(4242) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6,
				    .sin6_port = htons(4244),
				    .sin6_flowinfo = htonl(5) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd;

	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	(void)!bind(fd, (struct sockaddr *)&in, sizeof in);
	in.sin_port = htons(4243);
	(void)!connect(fd, (struct sockaddr *)&in, sizeof in);
	close(fd);
	in6.sin6_addr = in6addr_loopback;
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	(void)!connect(fd, (struct sockaddr *)&in6, sizeof in6);
	close(fd);
	strcpy(un.sun_path, "/tmp/workload.sock");
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	(void)!bind(fd, (struct sockaddr *)&un, sizeof un);
	close(fd);
	unlink("/tmp/workload.sock");
}

static void lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		(void)!ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

/* Enter a new network namespace with its lo up; the old one's fd. */
static int netns_enter(void)
{
	int old = open("/proc/self/ns/net", O_RDONLY);

	(void)!unshare(CLONE_NEWNET);
	lo_up();
	return old;
}

static void netns_leave(int old)
{
	if (old >= 0) {
		(void)!setns(old, CLONE_NEWNET);
		close(old);
	}
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(port) };

	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return in;
}

/* A socket of TYPE bound to 127.0.0.1:PORT (reusable at once). */
static int bound(int type, int port)
{
	struct sockaddr_in in = loopback(port);
	int fd = socket(AF_INET, type, 0), one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	(void)!bind(fd, (struct sockaddr *)&in, sizeof in);
	return fd;
}

static void unconnect(int fd)
{
	struct sockaddr sa = { .sa_family = AF_UNSPEC };

	(void)!connect(fd, &sa, sizeof sa);
}

static void udp(long n, long size)
{
	struct sockaddr_in in = loopback(4245);
	int ns = netns_enter(), fd = bound(SOCK_DGRAM, 4245);

	(void)!connect(fd, (struct sockaddr *)&in, sizeof in);
	for (long k = 0; k < n; k++) {
		(void)!send(fd, buf, size, 0);
		(void)!recv(fd, buf, size, 0);
	}
	unconnect(fd);
	close(fd);
	netns_leave(ns);
}

static void tcp(long n, long size)
{
	struct sockaddr_in in = loopback(4246);
	int ns = netns_enter();
	int ls = bound(SOCK_STREAM, 4246), c = bound(SOCK_STREAM, 4247);
	int s, one = 1;

	listen(ls, 1);
	(void)!connect(c, (struct sockaddr *)&in, sizeof in);
	s = accept(ls, NULL, NULL);
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	for (long k = 0; k < n; k++) {
		(void)!send(c, buf, size, 0);
		(void)!recv(s, buf, size, MSG_WAITALL);
	}
	unconnect(c);
	close(c);
	close(s);
	close(ls);
	netns_leave(ns);
}

static void netdev(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	struct packet_mreq mr = { .mr_type = PACKET_MR_PROMISC };
	int ns = netns_enter(), fd = socket(AF_INET, SOCK_DGRAM, 0), p;

	ifr.ifr_mtu = 1500;
	(void)!ioctl(fd, SIOCSIFMTU, &ifr);
	ifr.ifr_hwaddr.sa_family = 1;	/* ARPHRD_ETHER */
	memcpy(ifr.ifr_hwaddr.sa_data, "\x02\x00\x5e\x10\x20\x30", 6);
	(void)!ioctl(fd, SIOCSIFHWADDR, &ifr);
	close(fd);
	p = socket(AF_PACKET, SOCK_RAW, 0);
	mr.mr_ifindex = if_nametoindex("lo");
	(void)!setsockopt(p, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof mr);
	(void)!setsockopt(p, SOL_PACKET, PACKET_DROP_MEMBERSHIP, &mr, sizeof mr);
	close(p);
	netns_leave(ns);
}

static void on_usr2(int sig)
{
	(void)sig;
}

static void sigs(void)
{
	struct sigaction sa = { .sa_handler = on_usr2, .sa_flags = SA_RESTART };
	struct sigaction old;	/* asked for, to show oact in do_sigaction() */
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = 40 };
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	sigset_t set;
	timer_t timer;

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaction(SIGUSR2, &sa, &old);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR2);
	sigpending(&set);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, 40);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0) {
		timer_settime(timer, 0, &its, NULL);
		sigwaitinfo(&set, NULL);
		timer_delete(timer);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void misc(void)
{
	int fd = open("/dev/zero", O_RDONLY);

	lseek(fd, 0, SEEK_END);
	fcntl(fd, F_GETFD);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	close(fd);
	(void)!syscall(SYS_access, "/", R_OK | X_OK);
	(void)!syscall(SYS_access, "/nonexistent", F_OK);
	close(-1);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		long a = i + 1 < argc ? atol(argv[i + 1]) : 0;
		long b = i + 2 < argc ? atol(argv[i + 2]) : 0;

		if (!strcmp(s, "read") || !strcmp(s, "write")) {
			rw(*s == 'r' ? "/dev/zero" : "/dev/null",
			   *s == 'r' ? O_RDONLY : O_WRONLY, a, b);
			i += 2;
		} else if (!strcmp(s, "open") && i + 1 < argc) {
			int fd = open(argv[++i], O_RDONLY);
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(s, "getppid")) {
			for (long k = 0; k < a; k++)
				syscall(SYS_getppid);
			i++;
		} else if (!strcmp(s, "fork")) {
			forks(a);
			i++;
		} else if (!strcmp(s, "thread")) {
			threads(a);
			i++;
		} else if (!strcmp(s, "sleep")) {
			struct timespec ts = { a / 1000, a % 1000 * 1000000 };
			nanosleep(&ts, NULL);
			i++;
		} else if (!strcmp(s, "spin")) {
			spin(a);
			i++;
		} else if (!strcmp(s, "efault")) {
			efault();
		} else if (!strcmp(s, "fds")) {
			fds();
		} else if (!strcmp(s, "mmap")) {
			maps();
		} else if (!strcmp(s, "mremap")) {
			remaps();
		} else if (!strcmp(s, "sock")) {
			sock();
		} else if (!strcmp(s, "udp") || !strcmp(s, "tcp")) {
			(*s == 'u' ? udp : tcp)(a, b < (long)sizeof buf ? b : 0);
			i += 2;
		} else if (!strcmp(s, "netdev")) {
			netdev();
		} else if (!strcmp(s, "sigs")) {
			sigs();
		} else if (!strcmp(s, "misc")) {
			misc();
		} else if (!strcmp(s, "exit")) {
			exit((int)a);
		} else if (!strcmp(s, "abort")) {
			abort();
		} else {
			fprintf(stderr, "workload: unknown step %s\n", s);
			return 2;
		}
	}
	return 0;
}
