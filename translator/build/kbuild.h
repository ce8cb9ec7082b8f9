/* kbuild.h - run kbuild on a module directory (kbuild.c). */
#ifndef KBUILD_H
#define KBUILD_H

struct session;

/* Run make for the module directory DIR; its output goes to LOG (or to
 * stderr with -vv).  0 when make succeeded. */
int kbuild_make(struct session *s, const char *dir, const char *log);

#endif
