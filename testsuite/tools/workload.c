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
 *   misc            lseek() to the end of /dev/zero, fcntl() F_GETFD and
 *                   F_SETFD, access() of / (R_OK|X_OK) and of a missing
 *                   file (F_OK), close(-1) (EBADF)
 *   sock            socket(), bind() and connect() of an AF_INET datagram
 *                   socket to 127.0.0.1:4242 and :4243, an AF_INET6 one to
 *                   [::1]:4244 (flowinfo 5, scope 0) and an AF_UNIX one to
 *                   "/tmp/workload.sock"; closes (the calls may fail: the
 *                   guest's loopback can be down)
 *   exit N          exit with status N now
 *   abort           abort() (SIGABRT)
 * Exit status 0, or 2 for a step it does not know.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <netinet/in.h>
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
