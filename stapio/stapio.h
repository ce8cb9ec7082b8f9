/* stapio.h - pieces of stapio shared between its files. */
#ifndef STAPIO_H
#define STAPIO_H

#include <poll.h>
#include <stdint.h>
#include "opts.h"

#define STAPIO_MAX_RINGS 1024

struct stapio_relay {
	int nrings;
	int fd[STAPIO_MAX_RINGS];	/* data files, O_NONBLOCK */
	int out[STAPIO_MAX_RINGS];	/* where each one's output goes */
	int out_broken;			/* a write failed (e.g. EPIPE) */
	int out_error;			/* its errno, reported (not EPIPE) */
	/* -S SIZE[,N] (and SIGUSR2): output files BASE.0, BASE.1, ... */
	const char *pattern;		/* -o FILE as given, or NULL */
	int bulk;			/* one output per CPU: BASE is FILE_cpuN */
	int cpu[STAPIO_MAX_RINGS];	/* ring i's CPU */
	long long fsize;		/* bytes per file, 0: one file */
	int fnum_max;			/* files kept, 0: all */
	int fnum;			/* the current file's number, -1: no .N */
	long long written[STAPIO_MAX_RINGS];	/* into the current file */
};

/* Open dir's trace files and the outputs -o and -b ask for; -1 on error. */
int relay_open(struct stapio_relay *r, const char *dir,
	       const struct stp_opts *o);
/* Add the data fds to pfd; returns how many. */
int relay_pollfds(struct stapio_relay *r, struct pollfd *pfd);
/* Move what is readable now to the outputs; 1 if anything moved. */
int relay_pump(struct stapio_relay *r);
/* Move everything left; after STP_MSG_STOPPED nothing more arrives. */
void relay_drain(struct stapio_relay *r);
/* Go on in the next output files (-S, SIGUSR2); -1 if one cannot open. */
int relay_switch(struct stapio_relay *r);
/* Close the data files (the module cannot unload while they are open). */
void relay_close(struct stapio_relay *r);

/* input.c: the module's __stdin file, fed from stapio's stdin. */
void input_open(const char *module);
/* Add stdin to pfd while it is relayed; returns how many (0 or 1). */
int input_pollfd(struct pollfd *pfd);
void input_pump(const struct pollfd *pfd);
void input_close(void);

extern int stapio_verbose;

#endif /* STAPIO_H */
