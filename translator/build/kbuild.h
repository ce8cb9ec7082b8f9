/* kbuild.h - run kbuild on a module directory (kbuild.c). */
#ifndef KBUILD_H
#define KBUILD_H

struct session;

/* Run make for the module directory DIR; its output goes to LOG (or to
 * stderr with -vv).  0 when make succeeded. */
int kbuild_make(struct session *s, const char *dir, const char *log);

/* The same with make's other arguments TARGETS (NULL-terminated) in place
 * of "modules"; 0 when make succeeded. */
int kbuild_run(struct session *s, const char *dir, const char *log,
	       const char *const *targets);

/* In a child about to exec a build command: enter the target kernel's
 * build root when it has one (kernel.h), and change to CWD (a path inside
 * the root).  -1 with a message on stderr when it cannot. */
int kbuild_enter(struct session *s, const char *cwd);

#endif
