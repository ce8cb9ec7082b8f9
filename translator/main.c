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
#include <unistd.h>

#include "includes/sys/sdt.h"

#include "elab/program.h"
#include "autopriv.h"
#include "session.h"

struct pass {
	const char *failed;	/* "Pass N: <failed> failed." */
	/* -v: what the pass did, as stap words it ("parsed user script …") */
	char *(*done)(struct session *s);
	int (*run)(struct session *s);
};

/* "1 probe", "2 probes" */
static const char *count(struct session *s, int n, const char *what)
{
	return arena_printf(s->arena, "%d %s%s", n, what, n == 1 ? "" : "s");
}

static char *done_parse(struct session *s)
{
	return arena_printf(s->arena, "parsed user script and %s",
			    count(s, s->library_files.n, "library script"));
}

static char *done_elaborate(struct session *s)
{
	struct program *p = s->program;
	int probes = p->probes.n + p->nsynthesized;

	return arena_printf(s->arena, "analyzed script: %s, %s, %s, %s",
			    count(s, probes, "probe"),
			    count(s, p->funcs.n + p->accessors.n, "function"),
			    count(s, p->embeds.n, "embed"),
			    count(s, p->globals.n, "global"));
}

static char *done_translate(struct session *s)
{
	return arena_printf(s->arena, "translated to C into \"%s\"",
			    s->c_source ? s->c_source : "<stdout>");
}

static char *done_build(struct session *s)
{
	return arena_printf(s->arena, "compiled C into \"%s\"",
			    s->module_path ? s->module_path : "?");
}

static const struct pass passes[] = {
	{ "parse", done_parse, pass_parse },
	{ "analysis", done_elaborate, pass_elaborate },
	{ "translation", done_translate, pass_translate },
	{ "compilation", done_build, pass_build },
	{ "run", NULL, pass_run },
};

/* "Xvirt/Yres/Zshr/Wdata kb", from /proc/self/statm (pages). */
static void memory_use(char *buf, size_t n)
{
	unsigned long virt = 0, res = 0, shr = 0, text, lib, data = 0;
	long kb = sysconf(_SC_PAGESIZE) / 1024;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu %lu %lu %lu %lu", &virt, &res, &shr, &text,
			   &lib, &data) != 6)
			virt = res = shr = data = 0;
		fclose(f);
	}
	snprintf(buf, n, "%luvirt/%lures/%lushr/%ludata kb", virt * kb, res * kb,
		 shr * kb, data * kb);
}
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

/* The SDT markers of passes 2-5 (stap 4.8's names: its stap.pass2 ...
 * tapset aliases probe them in this program), each with the session's
 * address; pass 1's are in parse/parse_pass.c, pass 0's and 6's in main. */
static void mark_pass(struct session *s, int pass, int end)
{
	switch (pass * 2 + end) {
	case 4: STAP_PROBE1(stap, pass2__start, s); break;
	case 5: STAP_PROBE1(stap, pass2__end, s); break;
	case 6: STAP_PROBE1(stap, pass3__start, s); break;
	case 7: STAP_PROBE1(stap, pass3__end, s); break;
	case 8: STAP_PROBE1(stap, pass4__start, s); break;
	case 9: STAP_PROBE1(stap, pass4__end, s); break;
	case 10: STAP_PROBE1(stap, pass5__start, s); break;
	case 11: STAP_PROBE1(stap, pass5__end, s); break;
	}
}

static int run_passes(struct session *s)
{
	int i, rc;

	for (i = 0; i < 5 && i < s->last_pass; i++) {
		double t0 = now_ms(), u0 = cpu_ms(0), k0 = cpu_ms(1);

		/* a user without stapdev's credentials runs what staprun
		 * builds from the script (autopriv.c): passes 3 and 4 are
		 * its, after the checks of passes 1 and 2 here */
		if (s->auto_privilege_cred && (i == 2 || i == 3))
			continue;

		mark_pass(s, i + 1, 0);
		rc = passes[i].run(s);
		mark_pass(s, i + 1, 1);
		if (rc || s->diags.errors) {
			/* stap -l/-L says nothing more after pass 1 */
			if ((i < 4 || rc > 0) &&
			    !(i == 0 && (s->list_probes || s->list_probes_vars)))
				fprintf(stderr, "Pass %d: %s failed.  [man error::pass%d]\n",
					i + 1, passes[i].failed, i + 1);
			diag_similar_summary(&s->diags);
			return rc ? rc : 1;
		}
		/* A module from the cache was announced by pass 4 itself. */
		if (s->verbose && passes[i].done && !(i == 3 && s->module_cached)) {
			char mem[128];
			memory_use(mem, sizeof mem);
			fprintf(stderr, "Pass %d: %s using %s, in %.0fusr/%.0fsys/%.0freal ms.\n",
				i + 1, passes[i].done(s), mem, cpu_ms(0) - u0,
				cpu_ms(1) - k0, now_ms() - t0);
		}
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
	s.diags.arena = s.arena;
	/* pass 0: the command line and the session (stap.pass0) */
	STAP_PROBE1(stap, pass0__start, &s);
	rc = cmdline_parse(&s, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (s.staprun_args)
		return run_staprun_in_testbed(&s, s.staprun_nargs, s.staprun_args);
	rc = autopriv_select(&s);
	if (rc)
		return rc;
	STAP_PROBE1(stap, pass0__end, &s);
	rc = run_passes(&s);
	/* -q: as stap, only a run whose passes all succeeded is recorded */
	if (!rc && s.coverage)
		elab_write_coverage(&s, s.last_pass >= 2 ? s.program : NULL);
	if (!rc)
		rc = s.exit_status;
	/* as stap: when the module could not be built */
	autopriv_explain(&s, rc != 0 && !s.module_path);
	/* pass 6: the clean-up (stap.pass6) */
	STAP_PROBE1(stap, pass6__start, &s);
	arena_free(s.arena);
	STAP_PROBE1(stap, pass6__end, &s);
	return rc;
}
