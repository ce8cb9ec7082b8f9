/* dprog.c - a program instrumented the DTrace way: dprog.h from
 * `dtrace -C -DDPROG_EXTRA -h -s dprog.d`, its semaphores in the object
 * from `dtrace -G`.  Each round prints nothing; DPROG_QUERY_DONE fires
 * only when its _ENABLED() guard says a script listens, and the extra
 * marker reports that guard's value; dprog:multi is used at two places.  Usage: dprog [N [SECS]]: N rounds
 * (default 3), after sleeping SECS seconds. */
#include <stdlib.h>
#include <unistd.h>
#include "dprog.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, i;

	if (argc > 2)
		sleep((unsigned)atoi(argv[2]));
	DPROG_START(n, "dprog");
	for (i = 0; i < n; i++) {
		DPROG_TICK();
		if (DPROG_QUERY_DONE_ENABLED())
			DPROG_QUERY_DONE(100 + i, -i, 'q');
		DPROG_EXTRA(DPROG_QUERY_DONE_ENABLED());
		if (i % 2)	/* one marker at two places */
			STAP_PROBE1(dprog, multi, i);
		else
			STAP_PROBE1(dprog, multi, -i);
	}
	return 0;
}
