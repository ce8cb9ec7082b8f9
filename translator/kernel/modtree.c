/* modtree.c - the kernel modules (.ko files) under a directory.
 *
 * The testbed (testbed/tbmods.c) and @cast's module types (cast.c) find a
 * module by name, the tracepoint catalog scans them all (tpcat.c).  A module's name is its file's less
 * ".ko", '-' read as '_' as the kernel does ("kyber-iosched.ko" is
 * kyber_iosched).  Compressed modules (.ko.xz …) are not read.
 */
#define _GNU_SOURCE	/* nftw's FTW_ACTIONRETVAL */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/modtree.h"

static struct {		/* nftw passes no argument */
	modtree_fn *fn;
	void *arg;
	int stopped;
} walk;

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t n = strlen(base);
	char *name, *p;

	(void)st;
	if (type != FTW_F || n < 4 || strcmp(base + n - 3, ".ko"))
		return FTW_CONTINUE;
	name = strndup(base, n - 3);
	if (!name)
		return FTW_STOP;
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	walk.stopped = walk.fn(path, name, walk.arg);
	free(name);
	return walk.stopped ? FTW_STOP : FTW_CONTINUE;
}

int modtree_each(const char *dir, modtree_fn *fn, void *arg)
{
	walk.fn = fn;
	walk.arg = arg;
	walk.stopped = 0;
	if (dir)
		nftw(dir, visit, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	return walk.stopped;
}

int modtree_same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return 0;
	return !*a && !*b;
}

struct wanted {
	const char *name;
	char *found;
};

static int match_ko(const char *path, const char *name, void *arg)
{
	struct wanted *w = arg;

	if (!modtree_same_name(w->name, name))
		return 0;
	w->found = strdup(path);
	return 1;
}

char *modtree_find(const char *dir, const char *name)
{
	struct wanted w = { name, NULL };

	modtree_each(dir, match_ko, &w);
	return w.found;
}
