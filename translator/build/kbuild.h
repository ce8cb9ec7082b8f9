/* kbuild.h - run kbuild on a module directory (kbuild.c). */
#ifndef KBUILD_H
#define KBUILD_H

struct session;

/* Flags for every compile of a script's module, on top of the kernel's:
 * no record of where each token came from through macro expansions (only
 * a compile error's notes use it), which takes a sixth of gcc's memory
 * over the kernel's headers (a new hello.stp: 81 MB of cc1 to 68; the
 * .mod.c: 51 to 41) and some of its time, for the same code.  Without that
 * record -Wmisleading-indentation cannot tell a macro's expansion from
 * badly indented code: gcc 10 (5.10's compiler) then warns on the kernel's
 * own headers (thread_info.h's copy_overflow, seqlock.h's
 * SEQCOUNT_LOCKNAME) in every module, so that warning goes with it. */
#define BUILD_LEAN_CFLAGS "-ftrack-macro-expansion=0 -Wno-misleading-indentation"

/* Run make for the module directory DIR; its output goes to LOG (or to
 * stderr with -vv).  0 when make succeeded. */
int kbuild_make(struct session *s, const char *dir, const char *log);

/* The same with make's other arguments TARGETS (NULL-terminated) in place
 * of "modules"; 0 when make succeeded, -2 when a signal ended it. */
int kbuild_run(struct session *s, const char *dir, const char *log,
	       const char *const *targets);

/* kbuild_run with make's output in LOG even with -vv. */
int kbuild_run_logged(struct session *s, const char *dir, const char *log,
		      const char *const *targets);

/* 1 when make's output TEXT tells of a job a signal ended (a compile
 * that did not run to its end), 0 when every job ran to its end. */
int kbuild_log_killed(const char *text);

/* Run the build command ARGV (NULL-terminated; ARGV[0] found in PATH) in
 * the target kernel's build root if it has one (kbuild_enter, from CWD),
 * its stdout and stderr going to OUT_FD (-1: stap's own); 0 when it exits
 * with status 0, -2 when a signal ended it, else -1. */
int kbuild_exec(struct session *s, const char *const *argv, int out_fd,
		const char *cwd);

/* In a child about to exec a build command: enter the target kernel's
 * build root when it has one (kernel.h), and change to CWD (a path inside
 * the root).  -1 with a message on stderr when it cannot. */
int kbuild_enter(struct session *s, const char *cwd);

#endif
