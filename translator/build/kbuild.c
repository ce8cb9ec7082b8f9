/* kbuild.c - run kbuild on a module directory (kbuild.h).
 *
 * `make -C KERNEL-BUILD M=DIR modules`, with -B's options, quietly (its
 * output in a log) unless -vv.  Pass 4 builds the script's module so when
 * the recipe cannot (build.c); the recipe's capture builds its own small
 * module so (recipe.c).  For a kernel with a build root (a minimal root of
 * its Debian release, when the host cannot run its compiler or kbuild
 * tools), every build command runs chrooted there (kbuild_enter).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/cache.h"
#include "build/kbuild.h"
#include "util/fileio.h"
#include "kernel/kernel.h"
#include "session.h"
#include "util/sysmark.h"
#include "util/tmpdir.h"

/* Bind the host's PATH at the same path inside ROOT. */
static int bind_in(struct session *s, const char *root, const char *path)
{
	char *real = realpath(path, NULL);
	const char *in;
	int rc;

	if (!real)
		return -1;
	in = arena_printf(s->arena, "%s%s", root, real);
	rc = fio_mkdirs(in) || mount(real, in, NULL, MS_BIND | MS_REC, NULL);
	free(real);
	return rc ? -1 : 0;
}

/* The command sees the root's files, the host's /dev and /proc, and at
 * their own paths the directories the build reads and writes: the run's
 * temporary directory and the runtime.  All of it in a mount namespace of
 * the child's own; a tmpfs on the root's /tmp keeps the mount points of
 * temporary directories from piling up there. */
int kbuild_enter(struct session *s, const char *cwd)
{
	const char *root = s->kernel->build_root, *what = "unshare";

	if (!root)
		return cwd && chdir(cwd) ? -1 : 0;
	if (unshare(CLONE_NEWNS))
		goto fail;
	what = "mount";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", arena_printf(s->arena, "%s/tmp", root), "tmpfs", 0, "mode=1777") ||
	    bind_in(s, root, "/dev") || bind_in(s, root, "/proc") ||
	    bind_in(s, root, session_tmpdir(s)) || bind_in(s, root, s->runtime_dir))
		goto fail;
	what = "chroot";
	if (chroot(root) || chdir(cwd ? cwd : "/"))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "cannot enter the kernel's build root %s (%s): %s\n",
		root, what, strerror(errno));
	return -1;
}

int kbuild_make(struct session *s, const char *dir, const char *log)
{
	static const char *const modules[] = { "modules", NULL };

	return kbuild_run(s, dir, log, modules);
}

int kbuild_exec(struct session *s, const char *const *argv, int out_fd,
		const char *cwd)
{
	int status;
	pid_t pid;

	sysmark_start(s->arena, argv);
	fflush(NULL);
	pid = fork();
	sysmark_spawn(pid, errno);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (out_fd >= 0) {
			dup2(out_fd, 1);
			dup2(out_fd, 2);
		}
		if (kbuild_enter(s, cwd))
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	sysmark_complete(status, pid);
	if (WIFSIGNALED(status))
		return -2;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Run make; its output goes to LOG (or to stderr with -vv, unless
 * TO_LOG). */
static int run_make(struct session *s, const char *dir, const char *log,
		    const char *const *targets, int to_log)
{
	const struct kernel_info *k = s->kernel;
	struct vec argv = { 0 };
	const char *opt;
	int i, fd, rc;

	vec_push(s->arena, &argv, "make");
	vec_push(s->arena, &argv, "-C");
	vec_push(s->arena, &argv, (void *)k->make_dir);
	vec_push(s->arena, &argv, arena_printf(s->arena, "M=%s", dir));
	if (s->verbose < 2)
		vec_push(s->arena, &argv, "-s");
	else
		vec_push(s->arena, &argv, "V=1");
	/* No make-level parallelism to win for one object, and no
	 * rebuild of the tree's host tools. */
	vec_push(s->arena, &argv, "--no-print-directory");
	/* No DWARF in the .mod.o either (ccflags-y does not reach it):
	 * like stap's, the module carries none, and is a third smaller;
	 * nor the record of macro expansions. */
	vec_push(s->arena, &argv, "CFLAGS_MODULE=-g0 " BUILD_LEAN_CFLAGS);
	/* No BTF for the module either: pahole would make it from the
	 * DWARF -g0 leaves out, and fail (kernels whose headers ship a
	 * vmlinux, 6.12's, run it). */
	vec_push(s->arena, &argv, "CONFIG_DEBUG_INFO_BTF_MODULES=");
	VEC_EACH(s->kbuild_opts, i, opt)
		vec_push(s->arena, &argv, (void *)opt);
	for (i = 0; targets[i]; i++)
		vec_push(s->arena, &argv, (void *)targets[i]);
	vec_push(s->arena, &argv, NULL);
	if (s->verbose >= 2) {
		fputs("Running", stderr);
		for (i = 0; argv.v[i]; i++)
			fprintf(stderr, " %s", (char *)argv.v[i]);
		fputc('\n', stderr);
	}
	if (s->verbose >= 2 && !to_log) {
		fd = 2;
	} else {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	}
	rc = kbuild_exec(s, (const char *const *)argv.v, fd,
			 k->build_root ? dir : NULL);
	if (fd > 2)
		close(fd);
	return rc;
}

int kbuild_run(struct session *s, const char *dir, const char *log,
	       const char *const *targets)
{
	return run_make(s, dir, log, targets, 0);
}

int kbuild_run_logged(struct session *s, const char *dir, const char *log,
		      const char *const *targets)
{
	return run_make(s, dir, log, targets, 1);
}

int kbuild_log_killed(const char *text)
{
	const char *p, *q;

	for (p = text; p && *p; p = strchr(p, '\n'), p += p != NULL) {
		size_t n = strcspn(p, "\n");

		if ((q = memmem(p, n, "signal terminated program", 25)))
			return 1;	/* gcc: its cc1 or as was killed */
		if (!(q = memmem(p, n, "*** ", 4)))
			continue;
		q += 4;
		if (!strncmp(q, "Deleting file", 13))
			return 1;	/* make: interrupted */
		if (*q != '[')
			continue;
		/* "*** [TARGET] Error N" is a job that failed; anything else
		 * after the target ("Killed", "Broken pipe", "Interrupt") is
		 * a job a signal ended */
		while (q < p + n && *q != ']')
			q++;
		if (q < p + n && strncmp(q, "] Error ", 8))
			return 1;
	}
	return 0;
}
