/* tmpdir.c - the run's temporary directory, $TMPDIR/stapXXXXXX (/tmp by
 * default; tmpdir.h), unless --tmpdir named one (used as it is, and kept).
 *
 * Made on the first call, removed when stap exits (kept with -k, and then
 * named) or when a signal ends passes 1-4.  The directory's path is kept on
 * the heap: the cleanup runs at exit, after the session's arena is gone.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"
#include "util/tmpdir.h"

static char *tmpdir_path;	/* heap: must outlive the session's arena */
static int tmpdir_keep;

/* rm -rf is simpler and surer than a hand-written tree walk.  Only
 * async-signal-safe calls: the signal handler below uses it too. */
static void remove_tree(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/rm", "rm", "-rf", "--", path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void tmpdir_cleanup(void)
{
	if (!tmpdir_path)
		return;
	if (tmpdir_keep)
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", tmpdir_path);
	else
		remove_tree(tmpdir_path);
	free(tmpdir_path);
	tmpdir_path = NULL;
}

/* Ctrl-C in passes 1-4 ends stap at once, as with stap, but without
 * leaving the directory behind.  (Pass 5 has its own handlers.) */
static void tmpdir_on_signal(int sig)
{
	if (tmpdir_path && !tmpdir_keep)
		remove_tree(tmpdir_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tmpdir_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		sigaction(sigs[i], NULL, &old);
		if (old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

const char *session_tmpdir(struct session *s)
{
	const char *base = getenv("TMPDIR");
	char *tmpl;

	if (s->tmpdir)
		return s->tmpdir;
	tmpl = arena_printf(s->arena, "%s/stapXXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpl)) {
		diag_fatal(&s->diags, "cannot create a temporary directory: %s",
			   strerror(errno));
		return NULL;
	}
	tmpdir_path = xstrdup(tmpl);
	tmpdir_keep = s->keep_tmpdir;
	atexit(tmpdir_cleanup);
	catch_signals();
	s->tmpdir = arena_strdup(s->arena, tmpl);
	if (s->verbose >= 2)
		fprintf(stderr, "Created temporary directory \"%s\"\n", s->tmpdir);
	return s->tmpdir;
}
