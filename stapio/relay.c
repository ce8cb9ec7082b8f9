/* relay.c - stapio's data path: module rings -> stdout or output files.
 *
 * Each data file ("trace0", or one per CPU in bulk mode) is read in large
 * nonblocking chunks and written out whole. A module built without bulk mode
 * has one file, holding every CPU's output in order. A bulk-mode module
 * (stap -b) has one per CPU, of records stap-merge puts back in order: each
 * CPU's go to FILE_cpuN with -o FILE, else to stpd_cpuN, as stap's do.
 * FILE's %-patterns are strftime's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
		fprintf(stderr, "ERROR: Couldn't open output file %s: %s\n",
			path, strerror(errno));
	return fd;
}

/* -o FILE's name now: its strftime(3) %-patterns expanded (in buf). */
static const char *relay_outname(const char *pattern, char *buf, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!strchr(pattern, '%') || !localtime_r(&now, &tm) ||
	    !strftime(buf, n, pattern, &tm))
		return pattern;
	return buf;
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

/* Was MODULE built for bulk mode (stap -b)?  Its parameter says; a ring
 * per CPU says so too. */
static int relay_bulkmode(const char *module, int nrings)
{
	char path[512], c = 0;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/_stp_bulkmode",
		 module);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 0;
		close(fd);
		if (c == 'Y' || c == 'N')
			return c == 'Y';
	}
	return nrings > 1;
}

/* Output file NUM (-1: no number) for ring i: -o's FILE with its patterns
 * expanded now, _cpuN in bulk mode, .NUM with -S. */
static void relay_outpath(const struct stapio_relay *r, int i, int num,
			  char *path, size_t n)
{
	char name[2048];
	const char *file = r->pattern ? relay_outname(r->pattern, name, sizeof(name)) : "";
	int len;

	if (r->bulk && !r->pattern)	/* stap's name, in the current directory */
		len = snprintf(path, n, "stpd_cpu%d", r->cpu[i]);
	else if (r->bulk)
		len = snprintf(path, n, "%s_cpu%d", file, r->cpu[i]);
	else
		len = snprintf(path, n, "%s", file);
	if (num >= 0 && len >= 0 && (size_t)len < n)
		snprintf(path + len, n - (size_t)len, ".%d", num);
}

/* Open the outputs of file number r->fnum, closing the previous ones. */
static int relay_open_outputs(struct stapio_relay *r)
{
	char path[4096];
	int i, fd = -1;

	for (i = 0; i < r->nrings; i++) {
		if (r->bulk || i == 0) {
			if (r->out[i] > 2)
				close(r->out[i]);
			relay_outpath(r, i, r->fnum, path, sizeof(path));
			fd = relay_open_out(path);
			if (fd < 0)
				return -1;
		}
		r->out[i] = fd;
		r->written[i] = 0;
	}
	return 0;
}

int relay_switch(struct stapio_relay *r)
{
	char path[4096];
	int i;

	if (!r->pattern)
		return 0;
	/* without -S the first file is FILE, and the next FILE.1 */
	r->fnum += r->fnum < 0 ? 2 : 1;
	if (r->fnum_max && r->fnum >= r->fnum_max)	/* keep the last N */
		for (i = 0; i < (r->bulk ? r->nrings : 1); i++) {
			relay_outpath(r, i, r->fnum - r->fnum_max, path,
				      sizeof(path));
			unlink(path);
		}
	return relay_open_outputs(r);
}

int relay_open(struct stapio_relay *r, const char *dir, const struct stp_opts *o)
{
	char path[4096];
	int i;

	relay_buf = malloc(RELAY_CHUNK);
	r->nrings = relay_scan(dir, r->cpu);
	if (!relay_buf || !r->nrings) {
		fprintf(stderr, "ERROR: no data files in '%s'\n", dir);
		return -1;
	}
	r->bulk = relay_bulkmode(o->module, r->nrings);
	r->pattern = o->outfile;
	r->fsize = (long long)o->fsize_mb << 20;
	r->fnum_max = o->fnum_max;
	r->fnum = o->fsize_mb ? 0 : -1;
	for (i = 0; i < r->nrings; i++) {
		snprintf(path, sizeof(path), "%s/%s%d", dir, STP_DATA_PREFIX,
			 r->cpu[i]);
		r->fd[i] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->fd[i] < 0) {
			fprintf(stderr, "ERROR: Couldn't open data file '%s': %s\n",
				path, strerror(errno));
			return -1;
		}
		r->out[i] = 1;
	}
	return r->pattern || r->bulk ? relay_open_outputs(r) : 0;
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

/* A write to ring i's output failed (errno): say so, once. */
static void relay_write_failed(struct stapio_relay *r, int i)
{
	char path[4096];
	int err = errno;

	r->out_error = err;
	if (!r->pattern) {
		fprintf(stderr, "ERROR: Couldn't write to the standard output: %s\n",
			strerror(err));
		return;
	}
	relay_outpath(r, i, r->fnum, path, sizeof(path));
	fprintf(stderr, "ERROR: Couldn't write to output file %s: %s\n", path,
		strerror(err));
}

static void relay_write(struct stapio_relay *r, int i, const char *p, size_t n)
{
	ssize_t w;
	int fd;

	if (r->fsize && r->written[i] >= r->fsize && relay_switch(r) < 0)
		r->out_broken = 1;
	r->written[i] += (long long)n;
	fd = r->out[i];

	while (n && !r->out_broken) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* keep draining, stop writing: the reader went away
			 * (EPIPE, silently), or the output failed (a full
			 * disk: what was written stays, the run fails) */
			r->out_broken = 1;
			if (w < 0 && errno != EPIPE)
				relay_write_failed(r, i);
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
		relay_write(r, i, relay_buf, n);
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

void relay_close(struct stapio_relay *r)
{
	int i;

	for (i = 0; i < r->nrings; i++)
		if (r->fd[i] > 2)	/* (those relay_open did not reach are 0) */
			close(r->fd[i]);
	r->nrings = 0;
}
