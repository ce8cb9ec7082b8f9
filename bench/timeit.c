/* timeit.c - run a command once and print its wall and CPU time.
 *
 * Usage: timeit [-o OUT] [-e ERR] CMD [ARG...]
 * Prints "WALL USER SYS MAXRSS STATUS" on stdout: seconds with
 * microseconds, the largest resident set in KB, and the exit status (128+N
 * for a signal).  The command's own stdout and
 * stderr go to OUT and ERR (default /dev/null), so that the measurement
 * never mixes with its output.  CPU time is that of the command and all
 * its descendants (RUSAGE_CHILDREN: stap forks make, make forks gcc), and
 * MAXRSS the largest of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv_sec(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void redirect(const char *path, int fd)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (f < 0) {
		fprintf(stderr, "timeit: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	dup2(f, fd);
	close(f);
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null", *err = "/dev/null";
	struct timespec t0, t1;
	struct rusage ru;
	int c, status;
	pid_t pid;

	while ((c = getopt(argc, argv, "+o:e:")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'e': err = optarg; break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: timeit [-o OUT] [-e ERR] CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 1;
	}
	if (pid == 0) {
		redirect(out, 1);
		redirect(err, 2);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "timeit: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("timeit: waitpid");
			return 1;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%.6f %.6f %.6f %ld %d\n",
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       tv_sec(ru.ru_utime), tv_sec(ru.ru_stime), ru.ru_maxrss,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
