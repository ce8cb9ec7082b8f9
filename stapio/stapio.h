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

extern int stapio_verbose;

#endif /* STAPIO_H */
