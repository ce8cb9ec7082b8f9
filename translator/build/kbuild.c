/* kbuild.c - run kbuild on a module directory (kbuild.h).
 *
 * `make -C KERNEL-BUILD M=DIR modules`, with -B's options, quietly (its
 * output in a log) unless -vv.  Pass 4 builds the script's module so when
 * the recipe cannot (build.c); the recipe's capture builds its own small
 * module so (recipe.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/kbuild.h"
#include "kernel/kernel.h"
#include "session.h"

/* Run make; its output goes to LOG (or to stderr with -vv). */
int kbuild_make(struct session *s, const char *dir, const char *log)
{
	const struct kernel_info *k = s->kernel;
	struct vec argv = { 0 };
	const char *opt;
	int i, status;
	pid_t pid;

	vec_push(s->arena, &argv, "make");
	vec_push(s->arena, &argv, "-C");
	vec_push(s->arena, &argv, (void *)k->build_dir);
	vec_push(s->arena, &argv, arena_printf(s->arena, "M=%s", dir));
	if (s->verbose < 2)
		vec_push(s->arena, &argv, "-s");
	else
		vec_push(s->arena, &argv, "V=1");
	/* No make-level parallelism to win for one object, and no
	 * rebuild of the tree's host tools. */
	vec_push(s->arena, &argv, "--no-print-directory");
	/* No DWARF in the .mod.o either (ccflags-y does not reach it):
	 * like stap's, the module carries none, and is a third smaller. */
	vec_push(s->arena, &argv, "CFLAGS_MODULE=-g0");
	VEC_EACH(s->kbuild_opts, i, opt)
		vec_push(s->arena, &argv, (void *)opt);
	vec_push(s->arena, &argv, "modules");
	vec_push(s->arena, &argv, NULL);
	if (s->verbose >= 2) {
		fputs("Running", stderr);
		for (i = 0; argv.v[i]; i++)
			fprintf(stderr, " %s", (char *)argv.v[i]);
		fputc('\n', stderr);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = s->verbose >= 2 ? 2 : open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("make", (char **)argv.v);
		fprintf(stderr, "cannot run make: %s\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
