/* main.c - the stap driver: the pipeline in one table.
 *
 * Reads the command line, then runs the passes in order until the one the
 * user asked to stop after (-p N).  Each pass prints its own listing when it
 * is the last one.  A failing pass ends the run with SystemTap's summary line
 * ("Pass 2: analysis failed.  [man error::pass2]") and exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "session.h"

struct pass {
	const char *failed;	/* "Pass N: <failed> failed." */
	const char *done;	/* -v: "Pass N: <done> …" */
	int (*run)(struct session *s);
};

static const struct pass passes[] = {
	{ "parse", "parsed user script and library scripts", pass_parse },
	{ "analysis", "analyzed script", pass_elaborate },
	{ "translation", "translated to C", pass_translate },
	{ "compilation", "compiled C into a kernel module", pass_build },
	{ "run", "run completed", pass_run },
};
_Static_assert(sizeof passes / sizeof passes[0] == 5, "five passes");

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_ms(int sys)
{
	struct rusage ru;
	struct timeval *tv;

	getrusage(RUSAGE_SELF, &ru);
	tv = sys ? &ru.ru_stime : &ru.ru_utime;
	return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

static int run_passes(struct session *s)
{
	int i, rc;

	for (i = 0; i < 5 && i < s->last_pass; i++) {
		double t0 = now_ms(), u0 = cpu_ms(0), k0 = cpu_ms(1);

		rc = passes[i].run(s);
		if (rc || s->diags.errors) {
			if (i < 4 || rc > 0)
				fprintf(stderr, "Pass %d: %s failed.  [man error::pass%d]\n",
					i + 1, passes[i].failed, i + 1);
			return rc ? rc : 1;
		}
		/* A module from the cache was announced by pass 4 itself. */
		if (s->verbose && i < 4 && !(i == 3 && s->module_cached))
			fprintf(stderr, "Pass %d: %s in %.0fusr/%.0fsys/%.0freal ms.\n",
				i + 1, passes[i].done, cpu_ms(0) - u0,
				cpu_ms(1) - k0, now_ms() - t0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct session s;
	int rc;

	memset(&s, 0, sizeof s);
	s.arena = arena_new();
	diag_init(&s.diags);
	rc = cmdline_parse(&s, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = run_passes(&s);
	if (!rc)
		rc = s.exit_status;
	arena_free(s.arena);
	return rc;
}
