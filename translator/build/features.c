/* features.c - what the target kernel's API offers, found by compiling.
 *
 * Each runtime/compat/NAME.c compiles against a kernel that has the
 * feature NAME, and fails against one that does not.  Before the module's
 * build, pass 4 compiles them all in one kbuild run (make -k, in parallel,
 * each test an object of its own) and writes stp_features.h into the
 * module's directory: "#define STP_HAVE_NAME 1" for each test that
 * compiled.  runtime/stp_compat.h is its one reader.  The header is kept
 * per kernel build and set of tests in CACHE/features/KEY.h, so a kernel
 * pays for the tests once (about two seconds); only a run whose compiles
 * all ran to their end is kept (one a signal stopped says nothing about
 * the kernel), and it is written whole (temporary file and rename).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/cache.h"
#include "build/features.h"
#include "build/kbuild.h"
#include "session.h"
#include "util/fileio.h"
#include "util/tmpdir.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tests' names (NAME of compat/NAME.c), sorted; their count in *N. */
static char **test_names(struct session *s, const char *cdir, int *n)
{
	struct vec names = { 0 };
	struct dirent *e;
	DIR *d = opendir(cdir);

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 2 && e->d_name[0] != '.' && !strcmp(e->d_name + len - 2, ".c"))
			vec_push(s->arena, &names, arena_strndup(s->arena, e->d_name, len - 2));
	}
	if (d)
		closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, by_name);
	*n = names.n;
	return (char **)names.v;
}

/* Compile the tests in TDIR; the header's text into OUT.  -2 when a
 * signal ended the compiles (a test that did not run to its end is no
 * answer: nothing goes into OUT then). */
static int run_tests(struct session *s, const char *cdir, char **names,
		     int n, struct strbuf *out)
{
	const char *tdir = arena_printf(s->arena, "%s/features", session_tmpdir(s));
	const char **targets = arena_alloc(s->arena, (n + 3) * sizeof *targets);
	const char *log;
	struct strbuf kb = { 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int i, j, rc = 0;

	if (fio_mkdirs(tdir))
		return -1;
	sb_puts(&kb, "obj-m :=");
	targets[0] = "-k";
	targets[1] = arena_printf(s->arena, "-j%ld", cpus > 0 ? cpus : 1);
	for (i = 0; i < n && !rc; i++) {
		rc = fio_copy(arena_printf(s->arena, "%s/%s.c", cdir, names[i]),
			      arena_printf(s->arena, "%s/%s.c", tdir, names[i]));
		sb_printf(&kb, " %s.o", names[i]);
		targets[i + 2] = arena_printf(s->arena, "%s.o", names[i]);
	}
	targets[n + 2] = NULL;
	sb_putc(&kb, '\n');
	rc = rc || fio_put(&s->diags, arena_printf(s->arena, "%s/Kbuild", tdir), kb.s);
	sb_free(&kb);
	if (rc)
		return -1;
	/* A failing test is an answer, not an error; a killed one is
	 * neither (Ctrl-C, or SIGPIPE from `stap -vv ... 2>&1 | head`). */
	log = arena_printf(s->arena, "%s/build.log", tdir);
	rc = kbuild_run_logged(s, tdir, log, targets);
	if (!fio_read(log, &kb)) {
		if (s->verbose >= 2)
			fputs(kb.s ? kb.s : "", stderr);
		if (kb.s && kbuild_log_killed(kb.s))
			rc = -2;
	}
	sb_free(&kb);
	if (rc == -2)
		return -2;
	sb_puts(out, "/* stp_features.h - the target kernel's API, by compile tests (runtime/compat/) */\n#define STP_FEATURES_H 1\n");
	for (i = 0; i < n; i++) {
		int have = !access(arena_printf(s->arena, "%s/%s.o", tdir, names[i]), F_OK);
		sb_printf(out, have ? "#define STP_HAVE_" : "/* no STP_HAVE_");
		for (j = 0; names[i][j]; j++)
			sb_putc(out, toupper((unsigned char)names[i][j]));
		sb_puts(out, have ? " 1\n" : " */\n");
	}
	return 0;
}

int features_write(struct session *s, const char *dir, const char *kernel_key)
{
	const char *cdir = arena_printf(s->arena, "%s/compat", s->runtime_dir);
	const char *cache = fio_cache_dir(s), *path = NULL;
	struct strbuf text = { 0 };
	struct sha256 key;
	char hex[65];
	char **names;
	int n, rc;

	sha256_init(&key);
	cache_key_str(&key, "kernel", kernel_key);
	cache_key_tree(s, &key, "compat", cdir);
	sha256_final_hex(&key, hex);
	if (cache)
		path = arena_printf(s->arena, "%s/features/%s.h", cache, hex);
	if (!path || fio_read(path, &text)) {
		sb_free(&text);
		names = test_names(s, cdir, &n);
		if (s->verbose)
			fprintf(stderr, "Pass 4: probing the kernel's API (%d compile tests)\n", n);
		rc = run_tests(s, cdir, names, n, &text);
		if (rc) {
			sb_free(&text);
			diag_fatal(&s->diags, rc == -2 ?
				   "the kernel feature tests in %s/features were stopped by a signal" :
				   "cannot run the kernel feature tests in %s/features",
				   session_tmpdir(s));
			return -1;
		}
		/* Not an error when the cache cannot keep it. */
		if (path && !fio_mkdirs(arena_printf(s->arena, "%s/features", cache)))
			fio_write_atomic(path, text.s, text.len);
	}
	rc = fio_put(&s->diags, arena_printf(s->arena, "%s/stp_features.h", dir), text.s);
	sb_free(&text);
	return rc ? -1 : 0;
}
