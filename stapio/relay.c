/* relay.c - stapio's data path: module rings -> stdout or output files.
 *
 * Each data file ("trace0", or one per CPU in bulk mode) is read in large
 * nonblocking chunks and written out whole. Without -b there is one file and
 * it holds every CPU's output in order. With -b and -o FILE each CPU goes to
 * FILE_cpuN; with -b alone all CPUs are merged onto stdout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stapio.h"
#include "stp_msgs.h"

#define RELAY_CHUNK (1 << 20)
#define RELAY_BUDGET (8 << 20)	/* per ring and pass, so control is not starved */

static char *relay_buf;

static int relay_open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0)
		fprintf(stderr, "ERROR: Couldn't open output file '%s': %s\n",
			path, strerror(errno));
	return fd;
}

/* Ring numbers present in dir, sorted, into cpus[]; their count. */
static int relay_scan(const char *dir, int *cpus)
{
	size_t plen = strlen(STP_DATA_PREFIX);
	struct dirent *de;
	int n = 0, i, j, v;
	char *end;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < STAPIO_MAX_RINGS) {
		if (strncmp(de->d_name, STP_DATA_PREFIX, plen))
			continue;
		v = strtol(de->d_name + plen, &end, 10);
		if (*end || end == de->d_name + plen || v < 0)
			continue;
		for (i = n; i > 0 && cpus[i - 1] > v; i--)
			cpus[i] = cpus[i - 1];
		cpus[i] = v;
		n++;
	}
	closedir(d);
	for (i = j = 0; i < n; i++)	/* procfs may list a name twice */
		if (!j || cpus[j - 1] != cpus[i])
			cpus[j++] = cpus[i];
	return j;
}

int relay_open(struct stapio_relay *r, const char *dir, const struct stp_opts *o)
{
	int cpus[STAPIO_MAX_RINGS], i, shared_out = 1;
	char path[4096];

	relay_buf = malloc(RELAY_CHUNK);
	r->nrings = relay_scan(dir, cpus);
	if (!relay_buf || !r->nrings) {
		fprintf(stderr, "ERROR: no data files in '%s'\n", dir);
		return -1;
	}
	if (o->outfile && !(o->bulk && r->nrings > 1)) {
		shared_out = relay_open_out(o->outfile);
		if (shared_out < 0)
			return -1;
	}
	for (i = 0; i < r->nrings; i++) {
		snprintf(path, sizeof(path), "%s/%s%d", dir, STP_DATA_PREFIX,
			 cpus[i]);
		r->fd[i] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->fd[i] < 0) {
			fprintf(stderr, "ERROR: Couldn't open data file '%s': %s\n",
				path, strerror(errno));
			return -1;
		}
		r->out[i] = shared_out;
		if (o->outfile && o->bulk && r->nrings > 1) {
			snprintf(path, sizeof(path), "%s_cpu%d", o->outfile,
				 cpus[i]);
			r->out[i] = relay_open_out(path);
			if (r->out[i] < 0)
				return -1;
		}
	}
	return 0;
}

int relay_pollfds(struct stapio_relay *r, struct pollfd *pfd)
{
	int i;

	for (i = 0; i < r->nrings; i++) {
		pfd[i].fd = r->fd[i];
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	return r->nrings;
}

static void relay_write(struct stapio_relay *r, int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n && !r->out_broken) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* the reader went away: keep draining, stop writing */
			r->out_broken = 1;
			break;
		}
		p += w;
		n -= w;
	}
}

/* Read ring i until it is empty or the budget is spent; bytes moved. */
static size_t relay_pump_one(struct stapio_relay *r, int i, size_t budget)
{
	size_t moved = 0;
	ssize_t n;

	while (moved < budget) {
		n = read(r->fd[i], relay_buf, RELAY_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		relay_write(r, r->out[i], relay_buf, n);
		moved += n;
	}
	return moved;
}

int relay_pump(struct stapio_relay *r)
{
	int i, moved = 0;

	for (i = 0; i < r->nrings; i++)
		if (relay_pump_one(r, i, RELAY_BUDGET))
			moved = 1;
	return moved;
}

void relay_drain(struct stapio_relay *r)
{
	int i;

	for (i = 0; i < r->nrings; i++)
		relay_pump_one(r, i, (size_t)-1);
}
