/* workload.c - a small deterministic program for run tests' -c commands.
 *
 * Built static on the host (testsuite/run-tests, stap48-run, ctap-run) and
 * run in the testbed guest as "workload STEP…", doing exactly the system
 * calls its steps ask for, in order, so that scripts counting them print
 * the same numbers on every run.  Steps:
 *   read N SIZE     N read()s of SIZE bytes from /dev/zero
 *   write N SIZE    N write()s of SIZE bytes to /dev/null
 *   readv N SIZE    N readv()s of two SIZE-byte buffers from /dev/zero
 *   writev N SIZE   N writev()s of two SIZE-byte buffers to /dev/null
 *   tmpfile N SIZE  /tmp/workload.rw created: N write()s of SIZE bytes,
 *                   lseek() to 0, N read()s of SIZE bytes and one more at
 *                   its end (0); reopened write-only, one read() (EBADF);
 *                   unlinked
 *   open PATH       open() PATH read-only (and close it if it opened)
 *   sendfile PATH   sendfile()s of PATH to /dev/null, 65536 bytes at a
 *                   time, until one returns 0 (or fails)
 *   fifo            /tmp/workload.fifo made, opened write-only without
 *                   blocking and with no reader (ENXIO), unlinked
 *   seek PATH       lseek()s of PATH opened read-only: to its end, to 3,
 *                   1 on from there, to -1 (EINVAL)
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
 *   adjtime         clock_adjtime(CLOCK_REALTIME) of a zeroed struct timex
 *                   (a query: modes 0), lookup_dcookie(0, NULL, 0) (ENOSYS
 *                   on kernels built without it)
 *   misc            lseek() to the end of /dev/zero, fcntl() F_GETFD and
 *                   F_SETFD, access() of / (R_OK|X_OK) and of a missing
 *                   file (F_OK), close(-1) (EBADF)
 *   sock            socket(), bind() and connect() of an AF_INET datagram
 *                   socket to 127.0.0.1:4242 and :4243, an AF_INET6 one to
 *                   [::1]:4244 (flowinfo 5, scope 0) and an AF_UNIX one to
 *                   "/tmp/workload.sock"; closes (the calls may fail: the
 *                   guest's loopback can be down)
 *   proc            process and signal calls: prctl() PR_SET_NAME,
 *                   PR_GET_NAME, PR_GET_DUMPABLE, PR_SET_DUMPABLE,
 *                   PR_GET_SPECULATION_CTRL, PR_CAPBSET_READ,
 *                   PR_GET/SET_SECUREBITS, PR_SET_TSC, PR_SET_PTRACER,
 *                   PR_MCE_KILL (set, clear), PR_SET_SECCOMP and PR_SET_MM
 *                   (EINVAL), rt_sigaction() of a handler
 *                   with a mask and of SIG_IGN, rt_sigprocmask() SIG_BLOCK
 *                   and SIG_SETMASK, sigaltstack(), getrlimit()/prlimit64(),
 *                   getpriority(), getrusage(), setitimer()/getitimer()
 *                   (disarmed), umask(), uname(), sysinfo(), times(),
 *                   sched_getaffinity(), sched_getscheduler(),
 *                   sched_setscheduler(SCHED_OTHER), sched_get_priority_max(),
 *                   sched_yield(), tgkill()/tkill() with signal 0, a fork()
 *                   waited for by waitid(P_PID, WEXITED|WNOWAIT) and reaped
 *                   by wait4(WNOHANG)
 *   files           file calls in /tmp/workload.d: mkdirat(), openat(),
 *                   newfstatat(AT_EMPTY_PATH), statx(), symlinkat(),
 *                   readlinkat(), linkat(), renameat2(RENAME_NOREPLACE),
 *                   utimensat(UTIME_NOW, UTIME_OMIT), mknodat() of a FIFO,
 *                   inotify_init1(), inotify_add_watch(),
 *                   flock(LOCK_EX|LOCK_NB), fadvise64(SEQUENTIAL),
 *                   getdents64(), fcntl(F_SETFL), ioctl(FIONREAD) on a pipe,
 *                   unlinkat() (and AT_REMOVEDIR)
 *   events          waiting calls: poll(), ppoll(), select() and pselect6()
 *                   with zero timeouts, a select() of 1 ms, epoll_create1(),
 *                   epoll_ctl(), epoll_wait(), eventfd2(),
 *                   futex() FUTEX_WAKE_PRIVATE, FUTEX_WAIT and
 *                   FUTEX_WAIT_BITSET (EAGAIN), FUTEX_WAKE_BITSET and
 *                   FUTEX_WAKE_OP, msync(), madvise(), mremap(),
 *                   getrandom(GRND_NONBLOCK), memfd_create(), timerfd_create(),
 *                   timerfd_settime() (disarmed), timer_create(),
 *                   timer_settime() (disarmed), timer_gettime(),
 *                   timer_delete(), a socketpair() with setsockopt() and
 *                   getsockopt(), sendto() and recvfrom() with MSG_DONTWAIT,
 *                   shutdown()
 *   io              I/O calls on /tmp/workload.io: pwrite64(), pread64(),
 *                   writev(), readv(), ftruncate(), fsync(), fdatasync(),
 *                   fchmod(), fchmodat(), fchownat(AT_SYMLINK_NOFOLLOW),
 *                   statfs(), fstatfs(), copy_file_range(), splice() into a
 *                   pipe, getxattr() (ENODATA) and setxattr(), getcwd(),
 *                   chdir(), fchdir(), mount() of a tmpfs and umount2()
 *                   (MNT_DETACH), sendmsg() and recvmsg() (MSG_DONTWAIT) on
 *                   a socketpair, a listening AF_UNIX stream socket with
 *                   getsockname() and accept4(SOCK_CLOEXEC) (EAGAIN),
 *                   epoll_create1(0), epoll_pwait(), signalfd() with flags 0
 *                   and SFD_CLOEXEC|SFD_NONBLOCK, clock_getres(), getpgid(),
 *                   getsid(), alarm(0), personality() query, mlockall(0)
 *                   (EINVAL), unshare(0), seccomp(SECCOMP_SET_MODE_FILTER)
 *                   (EFAULT), membarrier(MEMBARRIER_CMD_QUERY)
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
 *   tunin N SIZE    a tun device wl0 in the first network namespace, up
 *                   with no address (IPv6 addr_gen_mode none: it sends
 *                   nothing), written N IPv4 UDP datagrams 10.9.8.7:1111
 *                   -> 10.9.8.1:2222 and N IPv6 ones [fd00::7]:3333 ->
 *                   [fd00::1]:4444 of SIZE bytes 'a', 'b', …; the kernel
 *                   receives them (netfilter's PRE_ROUTING) and drops them
 *                   (no route); closing the device deletes it, so the
 *                   namespace is as before (needs the tun module)
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
 *   pty             a pseudo-terminal pair in a devpts instance of its own
 *                   mounted on /tmp/workload.pts: its ptmx opened, unlocked
 *                   (TIOCSPTLCK), its slave opened (O_NOCTTY); the slave
 *                   set raw (tcsetattr), its window size set to 24x80 and
 *                   then 40x132 with 5x7 pixels (TIOCSWINSZ); "hi\n"
 *                   written to the master, poll() of the slave, 3 bytes
 *                   read from it, "ok\n" written to it and read from the
 *                   master; one 'x' pushed into the slave's input
 *                   (TIOCSTI, refused on kernels without legacy TIOCSTI);
 *                   both closed, the devpts unmounted
 *   strs            calls whose flags and codes stap 4.8 decodes, most of
 *                   them failing harmlessly: faccessat2(AT_EACCESS),
 *                   fallocate(FALLOC_FL_KEEP_SIZE), mlock2(MLOCK_ONFAULT),
 *                   preadv2(RWF_HIPRI), pwritev2(RWF_DSYNC), ioprio_get()
 *                   and ioprio_set(), kcmp(KCMP_FILE), set_mempolicy(),
 *                   get_mempolicy(MPOL_F_MEMS_ALLOWED), mbind(MPOL_MF_STRICT),
 *                   System V message queue, semaphore and shared memory
 *                   calls (IPC_PRIVATE, IPC_CREAT, IPC_NOWAIT, SHM_RDONLY,
 *                   IPC_RMID), userfaultfd(O_CLOEXEC|O_NONBLOCK),
 *                   memfd_secret(0), name_to_handle_at(AT_SYMLINK_FOLLOW),
 *                   open_by_handle_at(-1), setns(-1, CLONE_NEWNET),
 *                   delete_module() and finit_module() (refused),
 *                   swapon() of a missing file, sched_getattr(),
 *                   sched_setattr(), settimeofday() of a zero timezone,
 *                   fanotify_init(), fanotify_mark(), move_pages(),
 *                   perf_event_open() (EFAULT), quotactl(Q_GETQUOTA),
 *                   pkey_alloc(), rt_sigtimedwait() with a zero timeout,
 *                   rt_sigqueueinfo() and rt_tgsigqueueinfo() of signal 0,
 *                   sync_file_range(), bpf() (refused), mq_open(),
 *                   get_thread_area(), reboot() with a wrong magic (EINVAL),
 *                   utime() of /tmp/workload.st to 1000 and 2000
 *   oldfds          the calls glibc no longer makes, by number:
 *                   epoll_create(1), signalfd(-1, {}, 8) (closed after),
 *                   and a fork() reaped by wait4() with a status address
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
#include <poll.h>
#include <sched.h>
#include <dirent.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <termios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
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

static void rwv(int write, long n, long size)
{
	int fd = open(write ? "/dev/null" : "/dev/zero",
		      write ? O_WRONLY : O_RDONLY);
	struct iovec iov[2];

	if (size > (long)sizeof buf / 2)
		size = sizeof buf / 2;
	iov[0] = (struct iovec){ buf, size };
	iov[1] = (struct iovec){ buf + size, size };
	for (long i = 0; fd >= 0 && i < n; i++) {
		if (write)
			(void)!writev(fd, iov, 2);
		else
			(void)!readv(fd, iov, 2);
	}
	if (fd >= 0)
		close(fd);
}

static void tmpfile_rw(long n, long size)
{
	const char *path = "/tmp/workload.rw";
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (size > (long)sizeof buf)
		size = sizeof buf;
	if (fd < 0)
		return;
	for (long i = 0; i < n; i++)
		(void)!write(fd, buf, size);
	lseek(fd, 0, SEEK_SET);
	for (long i = 0; i <= n; i++)
		(void)!read(fd, buf, size);
	close(fd);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		(void)!read(fd, buf, size);
		close(fd);
	}
	unlink(path);
}

static void sendfile_null(const char *path)
{
	int in = open(path, O_RDONLY), out = open("/dev/null", O_WRONLY);

	while (in >= 0 && out >= 0 && sendfile(out, in, NULL, 65536) > 0)
		;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

static void seeks(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	lseek(fd, 0, SEEK_END);
	lseek(fd, 3, SEEK_SET);
	lseek(fd, 1, SEEK_CUR);
	lseek(fd, -1, SEEK_SET);
	close(fd);
}

static void fifo(void)
{
	const char *path = "/tmp/workload.fifo";
	int fd;

	if (mkfifo(path, 0600))
		return;
	fd = open(path, O_WRONLY | O_NONBLOCK);
	if (fd >= 0)
		close(fd);
	unlink(path);
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

static void if_up(const char *name)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", name);
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
	if_up("lo");
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

/* The IPv4 header checksum of the LEN bytes at P. */
static uint16_t ip_csum(const unsigned char *p, int len)
{
	uint32_t sum = 0;

	for (int i = 0; i < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* A UDP datagram of SIZE payload bytes at P: the header, then 'a', 'b'… */
static int udp_datagram(unsigned char *p, int sport, int dport, long size)
{
	p[0] = sport >> 8, p[1] = sport & 255;
	p[2] = dport >> 8, p[3] = dport & 255;
	p[4] = (8 + size) >> 8, p[5] = (8 + size) & 255;
	p[6] = p[7] = 0;
	for (long i = 0; i < size; i++)
		p[8 + i] = 'a' + i % 26;
	return 8 + (int)size;
}

static void tunin(long n, long size)
{
	static const unsigned char v4[] = { 10, 9, 8, 7, 10, 9, 8, 1 };
	unsigned char pkt[40 + 8 + 4096] = { 0 };
	struct ifreq ifr = { .ifr_name = "wl0", .ifr_flags = IFF_TUN | IFF_NO_PI };
	int fd = open("/dev/net/tun", O_RDWR), sys, len;

	if (fd < 0 || ioctl(fd, TUNSETIFF, &ifr) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	sys = open("/proc/sys/net/ipv6/conf/wl0/addr_gen_mode", O_WRONLY);
	(void)!write(sys, "1\n", 2);
	close(sys);
	if_up("wl0");
	len = 20 + udp_datagram(pkt + 20, 1111, 2222, size);
	pkt[0] = 0x45, pkt[2] = len >> 8, pkt[3] = len & 255;
	pkt[6] = 0x40, pkt[8] = 64, pkt[9] = IPPROTO_UDP;
	memcpy(pkt + 12, v4, sizeof v4);
	len = ip_csum(pkt, 20);
	pkt[10] = len >> 8, pkt[11] = len & 255;
	for (long k = 0; k < n; k++)
		(void)!write(fd, pkt, 28 + size);
	memset(pkt, 0, sizeof pkt);
	len = udp_datagram(pkt + 40, 3333, 4444, size);
	pkt[0] = 0x60, pkt[4] = len >> 8, pkt[5] = len & 255;
	pkt[6] = IPPROTO_UDP, pkt[7] = 64;
	pkt[8] = pkt[24] = 0xfd, pkt[23] = 7, pkt[39] = 1;
	for (long k = 0; k < n; k++)
		(void)!write(fd, pkt, 48 + size);
	close(fd);
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

static void adjtime_(void)
{
	static struct timex tx;

	(void)!syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx);
	(void)!syscall(SYS_lookup_dcookie, 0L, NULL, 0L);
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

static void on_signal(int sig)
{
	(void)sig;
}

static void proc(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t set, old;
	char name[16];
	stack_t ss = { .ss_sp = buf, .ss_size = 16384 };
	struct rlimit rl;
	struct rusage ru;
	struct itimerval itv = { { 0, 0 }, { 0, 0 } };
	struct utsname u;
	struct sysinfo si = { 0 };
	struct tms t = { 0 };
	cpu_set_t cpus;
	siginfo_t si2;
	struct sched_param sp = { 0 };
	pid_t pid;

	prctl(PR_SET_NAME, "workload");	/* unchanged: scripts test execname() */
	prctl(PR_GET_NAME, name);
	prctl(PR_GET_DUMPABLE);
	prctl(PR_SET_DUMPABLE, 1);
	prctl(PR_GET_SPECULATION_CTRL, 0, 0, 0, 0);
	prctl(PR_CAPBSET_READ, 21);	/* CAP_SYS_ADMIN */
	prctl(PR_GET_SECUREBITS);
	prctl(PR_SET_SECUREBITS, 0x10);	/* SECBIT_KEEP_CAPS */
	prctl(PR_SET_SECUREBITS, 0);
	prctl(PR_SET_TSC, PR_TSC_ENABLE);
	prctl(PR_SET_PTRACER, 0);
	prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0);
	prctl(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 0, 0, 0);
	prctl(PR_SET_SECCOMP, 99, 0);	/* EINVAL */
	prctl(PR_SET_MM, 999, 0, 0, 0);	/* EINVAL */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &ign, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaltstack(&ss, NULL);
	getrlimit(RLIMIT_NOFILE, &rl);
	prlimit(0, RLIMIT_NOFILE, &rl, NULL);
	(void)!getpriority(PRIO_PROCESS, 0);
	getrusage(RUSAGE_SELF, &ru);
	setitimer(ITIMER_REAL, &itv, NULL);
	getitimer(ITIMER_VIRTUAL, &itv);
	umask(022);
	uname(&u);
	sysinfo(&si);
	times(&t);
	sched_getaffinity(0, sizeof cpus, &cpus);
	sched_getscheduler(0);
	sched_setscheduler(0, SCHED_OTHER, &sp);
	sched_get_priority_max(SCHED_FIFO);
	sched_yield();
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), 0);
	syscall(SYS_tkill, syscall(SYS_gettid), 0);
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitid(P_PID, pid, &si2, WEXITED | WNOWAIT);
	waitpid(pid, NULL, WNOHANG);
}

#define DIR "/tmp/workload.d"

static void files(void)
{
	struct stat st;
	struct statx sx;
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
	char link[64];
	int fd, p[2], n, in;

	mkdirat(AT_FDCWD, DIR, 0755);
	fd = openat(AT_FDCWD, DIR "/f", O_RDWR | O_CREAT | O_TRUNC, 0600);
	fstatat(fd, "", &st, AT_EMPTY_PATH);
	statx(AT_FDCWD, DIR "/f", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
	      &sx);
	symlinkat("f", AT_FDCWD, DIR "/l");
	(void)!readlinkat(AT_FDCWD, DIR "/l", link, sizeof link);
	linkat(AT_FDCWD, DIR "/f", AT_FDCWD, DIR "/h", AT_SYMLINK_FOLLOW);
	renameat2(AT_FDCWD, DIR "/h", AT_FDCWD, DIR "/g", RENAME_NOREPLACE);
	utimensat(AT_FDCWD, DIR "/f", ts, AT_SYMLINK_NOFOLLOW);
	mknodat(AT_FDCWD, DIR "/p", S_IFIFO | 0644, 0);
	in = inotify_init1(IN_CLOEXEC);
	inotify_add_watch(in, DIR, IN_CREATE | IN_DELETE);
	close(in);
	flock(fd, LOCK_EX | LOCK_NB);
	posix_fadvise(fd, 0, 4096, POSIX_FADV_SEQUENTIAL);
	fcntl(fd, F_SETFL, O_APPEND | O_NONBLOCK);
	close(fd);
	fd = open(DIR, O_RDONLY | O_DIRECTORY);
	(void)!syscall(SYS_getdents64, fd, buf, 4096);
	close(fd);
	if (pipe(p) == 0) {
		ioctl(p[0], FIONREAD, &n);
		close(p[0]);
		close(p[1]);
	}
	unlinkat(AT_FDCWD, DIR "/g", 0);
	unlinkat(AT_FDCWD, DIR "/p", 0);
	unlinkat(AT_FDCWD, DIR "/l", 0);
	unlinkat(AT_FDCWD, DIR "/f", 0);
	unlinkat(AT_FDCWD, DIR, AT_REMOVEDIR);
}

static void events(void)
{
	struct timeval tv = { 0, 0 };
	struct timespec ts = { 0, 0 };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct pollfd pfd;
	fd_set rd;
	int sv[2], ep, efd, one = 1, val;
	socklen_t len = sizeof val;
	struct itimerspec its = { { 0, 5000 }, { 0, 0 } };	/* disarmed */
	char rnd[8] = { 0 };
	int timer, fd;
	void *m;
	char c;

	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pfd.fd = efd;
	pfd.events = POLLIN;
	poll(&pfd, 1, 0);
	ppoll(&pfd, 1, &ts, NULL);
	FD_ZERO(&rd);
	FD_SET(efd, &rd);
	select(efd + 1, &rd, NULL, NULL, &tv);
	pselect(efd + 1, &rd, NULL, NULL, &ts, NULL);
	tv.tv_usec = 1000;
	syscall(SYS_select, efd + 1, &rd, NULL, NULL, &tv);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.data.fd = efd;
	epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
	epoll_wait(ep, &out, 1, 0);
	close(ep);
	close(efd);
	syscall(SYS_futex, &one, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	syscall(SYS_futex, &one, FUTEX_WAIT, 0, &ts, NULL, 0);	/* EAGAIN */
	syscall(SYS_futex, &one, FUTEX_WAIT_BITSET, 0, &ts, NULL,
		FUTEX_BITSET_MATCH_ANY);
	syscall(SYS_futex, &one, FUTEX_WAKE_BITSET, 1, NULL, NULL,
		FUTEX_BITSET_MATCH_ANY);
	syscall(SYS_futex, &one, FUTEX_WAKE_OP, 1, 1, &val,
		FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 0));
	m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m != MAP_FAILED) {
		msync(m, 4096, MS_SYNC);
		madvise(m, 4096, MADV_DONTNEED);
		m = mremap(m, 8192, 16384, MREMAP_MAYMOVE);
		if (m != MAP_FAILED)
			munmap(m, 16384);
	}
	(void)!getrandom(rnd, sizeof rnd, GRND_NONBLOCK);
	fd = memfd_create("workload", MFD_CLOEXEC);
	close(fd);
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	timerfd_settime(fd, 0, &its, NULL);
	close(fd);
	if (syscall(SYS_timer_create, CLOCK_MONOTONIC, NULL, &timer) == 0) {
		syscall(SYS_timer_settime, timer, 0, &its, NULL);
		syscall(SYS_timer_gettime, timer, &its);
		syscall(SYS_timer_delete, timer);
	}
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) == 0) {
		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &one, sizeof one);
		getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &val, &len);
		(void)!sendto(sv[0], "x", 1, MSG_DONTWAIT | MSG_NOSIGNAL, NULL, 0);
		(void)!recvfrom(sv[1], &c, 1, MSG_DONTWAIT, NULL, NULL);
		shutdown(sv[0], SHUT_RDWR);
		close(sv[0]);
		close(sv[1]);
	}
}

static void io(void)
{
	struct iovec iov[2] = { { buf, 4 }, { buf + 4, 4 } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 1 };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct epoll_event ev;
	struct statfs sf;
	struct timespec ts;
	socklen_t len = sizeof un;
	int fd, fd2, p[2], sv[2], ls, ep, cwd;
	sigset_t mask;

	fd = open("/tmp/workload.io", O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!pwrite(fd, "abcdefgh", 8, 0);
	(void)!pread(fd, buf, 8, 0);
	(void)!writev(fd, iov, 2);
	lseek(fd, 0, SEEK_SET);
	(void)!readv(fd, iov, 2);
	(void)!ftruncate(fd, 4);
	fsync(fd);
	fdatasync(fd);
	fchmod(fd, 0600);
	fchmodat(AT_FDCWD, "/tmp/workload.io", 0640, 0);
	(void)!fchownat(AT_FDCWD, "/tmp/workload.io", 0, 0, AT_SYMLINK_NOFOLLOW);
	statfs("/tmp", &sf);
	fstatfs(fd, &sf);
	fd2 = open("/tmp/workload.io2", O_RDWR | O_CREAT | O_TRUNC, 0644);
	lseek(fd, 0, SEEK_SET);
	(void)!copy_file_range(fd, NULL, fd2, NULL, 4, 0);
	if (pipe(p) == 0) {
		lseek(fd, 0, SEEK_SET);
		(void)!splice(fd, NULL, p[1], NULL, 4, SPLICE_F_NONBLOCK);
		close(p[0]);
		close(p[1]);
	}
	(void)!getxattr("/tmp/workload.io", "user.x", buf, 16);
	(void)!setxattr("/tmp/workload.io", "user.x", "v", 1, XATTR_CREATE);
	close(fd2);
	close(fd);
	unlink("/tmp/workload.io2");
	unlink("/tmp/workload.io");
	cwd = open(".", O_RDONLY | O_DIRECTORY);
	(void)!getcwd(buf, 256);
	(void)!chdir("/tmp");
	(void)!fchdir(cwd);
	close(cwd);
	mkdir("/tmp/workload.mnt", 0755);
	mount("none", "/tmp/workload.mnt", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m");
	umount2("/tmp/workload.mnt", MNT_DETACH);
	rmdir("/tmp/workload.mnt");
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0) {
		(void)!sendmsg(sv[0], &mh, MSG_DONTWAIT);
		(void)!recvmsg(sv[1], &mh, MSG_DONTWAIT | MSG_PEEK);
		close(sv[0]);
		close(sv[1]);
	}
	ls = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	strcpy(un.sun_path, "/tmp/workload.ls");
	bind(ls, (struct sockaddr *)&un, sizeof un);
	listen(ls, 4);
	getsockname(ls, (struct sockaddr *)&un, &len);
	(void)!accept4(ls, NULL, NULL, SOCK_CLOEXEC);
	close(ls);
	unlink("/tmp/workload.ls");
	ep = epoll_create1(0);
	epoll_pwait(ep, &ev, 1, 0, NULL);
	close(ep);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	close(signalfd(-1, &mask, 0));
	close(signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
	clock_getres(CLOCK_MONOTONIC, &ts);
	getpgid(0);
	getsid(0);
	alarm(0);
	personality(0xffffffff);
	mlockall(0);	/* EINVAL */
	unshare(0);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL);	/* EFAULT */
	syscall(SYS_membarrier, 0, 0, 0);	/* MEMBARRIER_CMD_QUERY */
}

static void oldfds(void)
{
	sigset_t mask;
	int st;
	pid_t p;

	sigemptyset(&mask);
	close((int)syscall(SYS_epoll_create, 1));
	close((int)syscall(SYS_signalfd, -1, &mask, 8));
	p = fork();
	if (p == 0)
		_exit(3);
	syscall(SYS_wait4, p, &st, 0, NULL);
}

static void pty(void)
{
	struct winsize ws = { 24, 80, 0, 0 };
	struct termios t;
	struct pollfd pfd;
	int unlock = 0, n;
	char name[32], c = 'x';
	int m, s = -1;

	mkdir("/tmp/workload.pts", 0755);
	if (mount("devpts", "/tmp/workload.pts", "devpts", 0,
		  "newinstance,ptmxmode=0666"))
		return;
	m = open("/tmp/workload.pts/ptmx", O_RDWR | O_NOCTTY);
	if (m >= 0 && !ioctl(m, TIOCSPTLCK, &unlock) &&
	    !ioctl(m, TIOCGPTN, &n)) {
		snprintf(name, sizeof name, "/tmp/workload.pts/%d", n);
		s = open(name, O_RDWR | O_NOCTTY);
	}
	if (s < 0) {
		if (m >= 0)
			close(m);
		umount2("/tmp/workload.pts", MNT_DETACH);
		return;
	}
	if (!tcgetattr(s, &t)) {
		cfmakeraw(&t);
		tcsetattr(s, TCSANOW, &t);
	}
	ioctl(s, TIOCSWINSZ, &ws);
	ws = (struct winsize){ 40, 132, 5, 7 };
	ioctl(s, TIOCSWINSZ, &ws);
	write(m, "hi\n", 3);
	pfd = (struct pollfd){ s, POLLIN, 0 };
	poll(&pfd, 1, 1000);
	read(s, buf, 3);
	write(s, "ok\n", 3);
	read(m, buf, 3);
	ioctl(s, TIOCSTI, &c);
	close(s);
	close(m);
	umount2("/tmp/workload.pts", MNT_DETACH);
	rmdir("/tmp/workload.pts");
}

/* strs: calls whose flags and codes stap 4.8 decodes (see the head) */
static void strs(void)
{
	struct iovec iov = { buf, 4 };
	struct { unsigned int handle_bytes; int handle_type; } fh = { 0, 0 };
	struct { long mtype; char t[4]; } m = { 1, "abc" };
	struct { unsigned int size, policy; unsigned long long flags;
		 int nice; unsigned int prio; unsigned long long r, d, p;
		 unsigned int umin, umax; } attr;
	struct { int tz_minuteswest, tz_dsttime; } tz = { 0, 0 };
	struct { unsigned int entry; unsigned int base, limit, bits; } ud;
	struct utimbuf2 { long actime, modtime; } ut = { 1000, 2000 };
	struct timespec ts0 = { 0, 0 };
	siginfo_t si;
	sigset_t set;
	unsigned long nodes[4] = { 0 };
	void *page, *pages[1];
	int status[1], fd, id, mnt, mode;

	(void)!syscall(SYS_faccessat2, AT_FDCWD, "/", R_OK, AT_EACCESS);
	fd = open("/tmp/workload.st", O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!syscall(SYS_fallocate, fd, 1 /* FALLOC_FL_KEEP_SIZE */, 0L, 4096L);
	(void)!syscall(SYS_preadv2, fd, &iov, 1, 0L, 0L, 1 /* RWF_HIPRI */);
	(void)!syscall(SYS_pwritev2, fd, &iov, 1, 0L, 0L, 2 /* RWF_DSYNC */);
	(void)!syscall(SYS_sync_file_range, fd, 0L, 0L, 1 | 2);
	close(fd);
	(void)!syscall(SYS_utime, "/tmp/workload.st", &ut);
	unlink("/tmp/workload.st");
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	(void)!syscall(SYS_mlock2, page, 4096L, 1 /* MLOCK_ONFAULT */);
	munlock(page, 4096);
	(void)!syscall(SYS_mbind, page, 4096L, 0 /* MPOL_DEFAULT */, NULL, 0L,
		       1 /* MPOL_MF_STRICT */);
	pages[0] = page;
	(void)!syscall(SYS_move_pages, 0, 1L, pages, NULL, status, 2 /* MPOL_MF_MOVE */);
	munmap(page, 4096);
	(void)!syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
	(void)!syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 4 /* BE, 4 */);
	(void)!syscall(SYS_kcmp, getpid(), getpid(), 0 /* KCMP_FILE */, 0L, 0L);
	(void)!syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0L);
	(void)!syscall(SYS_get_mempolicy, &mode, nodes, 256L, NULL,
		       4 /* MPOL_F_MEMS_ALLOWED */);
	id = (int)syscall(SYS_msgget, 0 /* IPC_PRIVATE */, 01000 | 0600);
	(void)!syscall(SYS_msgsnd, id, &m, 4L, 04000 /* IPC_NOWAIT */);
	(void)!syscall(SYS_msgrcv, id, &m, 4L, 0L, 04000 | 010000 /* MSG_NOERROR */);
	(void)!syscall(SYS_msgctl, id, 0 /* IPC_RMID */, NULL);
	id = (int)syscall(SYS_semget, 0, 1, 01000 | 02000 | 0600);
	(void)!syscall(SYS_semctl, id, 0, 0 /* IPC_RMID */);
	id = (int)syscall(SYS_shmget, 0, 4096L, 01000 | 0600);
	page = (void *)syscall(SYS_shmat, id, NULL, 010000 /* SHM_RDONLY */);
	if (page != (void *)-1)
		(void)!syscall(SYS_shmdt, page);
	(void)!syscall(SYS_shmctl, id, 0 /* IPC_RMID */, NULL);
	fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0)
		close(fd);
	fd = (int)syscall(SYS_memfd_secret, 0);
	if (fd >= 0)
		close(fd);
	(void)!syscall(SYS_name_to_handle_at, AT_FDCWD, "/tmp", &fh, &mnt,
		       0x400 /* AT_SYMLINK_FOLLOW */);
	(void)!syscall(SYS_open_by_handle_at, -1, &fh, O_RDONLY);
	(void)!syscall(SYS_setns, -1, CLONE_NEWNET);
	(void)!syscall(SYS_delete_module, "workload_none", O_NONBLOCK | O_TRUNC);
	(void)!syscall(SYS_finit_module, -1, "", 1 /* IGNORE_MODVERSIONS */);
	(void)!syscall(SYS_swapon, "/tmp/workload.none", 0x8000 | 0x10000 | 5);
	memset(&attr, 0, sizeof attr);
	(void)!syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0);
	(void)!syscall(SYS_sched_setattr, 0, &attr, 0);
	(void)!syscall(SYS_settimeofday, NULL, &tz);
	fd = (int)syscall(SYS_fanotify_init, 0 /* FAN_CLASS_NOTIF */ | 1 /* CLOEXEC */,
			  O_RDONLY | O_LARGEFILE);
	(void)!syscall(SYS_fanotify_mark, fd, 1 /* FAN_MARK_ADD */,
		       0x20L | 0x08L /* FAN_OPEN|FAN_CLOSE_WRITE */, AT_FDCWD, "/tmp");
	if (fd >= 0)
		close(fd);
	(void)!syscall(SYS_perf_event_open, NULL, 0, -1, -1, 8L /* FD_CLOEXEC */);
	(void)!syscall(SYS_quotactl, (0x800007 << 8) | 0 /* Q_GETQUOTA, USRQUOTA */,
		       "/dev/null", 0, buf);
	id = (int)syscall(SYS_pkey_alloc, 0L, 2L /* PKEY_DISABLE_WRITE */);
	if (id >= 0)
		(void)!syscall(SYS_pkey_free, id);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	(void)!syscall(SYS_rt_sigtimedwait, &set, &si, &ts0, 8L);
	memset(&si, 0, sizeof si);
	si.si_code = -1 /* SI_QUEUE */;
	si.si_pid = getpid();
	(void)!syscall(SYS_rt_sigqueueinfo, getpid(), 0, &si);
	(void)!syscall(SYS_rt_tgsigqueueinfo, getpid(), getpid(), 0, &si);
	(void)!syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, NULL, 0);
	fd = (int)syscall(SYS_mq_open, "workload", O_RDWR | O_CREAT | O_EXCL,
			  0600, NULL);
	if (fd >= 0) {
		close(fd);
		(void)!syscall(SYS_mq_unlink, "workload");
	}
	memset(&ud, 0, sizeof ud);
	ud.entry = 12;
	(void)!syscall(SYS_get_thread_area, &ud);
	(void)!syscall(SYS_reboot, 0xfee1deadU, 1, 0 /* CAD_OFF */, NULL);
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
		} else if (!strcmp(s, "readv") || !strcmp(s, "writev")) {
			rwv(*s == 'w', a, b);
			i += 2;
		} else if (!strcmp(s, "tmpfile")) {
			tmpfile_rw(a, b);
			i += 2;
		} else if (!strcmp(s, "open") && i + 1 < argc) {
			int fd = open(argv[++i], O_RDONLY);
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(s, "sendfile") && i + 1 < argc) {
			sendfile_null(argv[++i]);
		} else if (!strcmp(s, "fifo")) {
			fifo();
		} else if (!strcmp(s, "seek") && i + 1 < argc) {
			seeks(argv[++i]);
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
		} else if (!strcmp(s, "tunin")) {
			tunin(a, b < 4096 ? b : 0);
			i += 2;
		} else if (!strcmp(s, "netdev")) {
			netdev();
		} else if (!strcmp(s, "sigs")) {
			sigs();
		} else if (!strcmp(s, "misc")) {
			misc();
		} else if (!strcmp(s, "adjtime")) {
			adjtime_();
		} else if (!strcmp(s, "proc")) {
			proc();
		} else if (!strcmp(s, "files")) {
			files();
		} else if (!strcmp(s, "events")) {
			events();
		} else if (!strcmp(s, "io")) {
			io();
		} else if (!strcmp(s, "oldfds")) {
			oldfds();
		} else if (!strcmp(s, "pty")) {
			pty();
		} else if (!strcmp(s, "strs")) {
			strs();
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
