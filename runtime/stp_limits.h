/* stp_limits.h - the script's safety limits, each overridable with -D.
 *
 * Names and defaults are SystemTap's, so scripts and habits carry over
 * (stap -DMAXACTION=10000 …).
 */
#ifndef STP_LIMITS_H
#define STP_LIMITS_H

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512		/* bytes in a string, with its NUL */
#endif
#ifndef MAXACTION
#define MAXACTION 1000			/* statements per probe hit */
#endif
#ifndef MAXACTION_INTERRUPTIBLE
#define MAXACTION_INTERRUPTIBLE (MAXACTION * 10)	/* … if INTERRUPTIBLE */
#endif
#ifndef INTERRUPTIBLE
#define INTERRUPTIBLE 1			/* 0: every probe but begin/end gets
					   only MAXACTION (as stap's switch) */
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048		/* entries of an array */
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 100			/* retries of a probe's busy locks, all
					   together, before the hit is skipped */
#endif
#ifndef TRYLOCKDELAY
#define TRYLOCKDELAY 10			/* µs between two retries */
#endif
#ifndef MAXERRORS
#define MAXERRORS 0			/* errors tolerated before exit */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100			/* skipped probes tolerated */
#endif
#ifndef STP_PRINT_BUF_SIZE
#define STP_PRINT_BUF_SIZE 8192		/* per-CPU output before a flush */
#endif
#ifndef STP_OVERLOAD_THRESHOLD
#define STP_OVERLOAD_THRESHOLD 500000000LL	/* cycles in probes … */
#endif
#ifndef STP_OVERLOAD_INTERVAL
#define STP_OVERLOAD_INTERVAL 1000000000LL	/* … per this many cycles */
#endif

#endif
