/* modtree.h - the kernel modules under a directory (see modtree.c). */
#ifndef MODTREE_H
#define MODTREE_H

/* Called for each module: its file and its name ('-' made '_'); nonzero
 * stops the walk. */
typedef int modtree_fn(const char *path, const char *name, void *arg);

/* Walk DIR's .ko files (none if DIR is NULL); returns nonzero when FN
 * stopped it. */
int modtree_each(const char *dir, modtree_fn *fn, void *arg);

/* The path of module NAME's .ko under DIR ('-' and '_' alike), malloc'ed;
 * NULL if there is none. */
char *modtree_find(const char *dir, const char *name);

/* Whether module names A and B are the same, '-' and '_' alike. */
int modtree_same_name(const char *a, const char *b);

#endif
