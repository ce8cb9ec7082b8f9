/* recipe.h - build a module without make, from the commands kbuild runs.
 *
 * A recipe is the list of commands kbuild runs for a one-file external
 * module of the target kernel, with the module's directory, name and our
 * compiler flags left as placeholders.  It is captured once per kernel
 * (and verified: replaying it must give kbuild's module byte for byte) and
 * kept in the cache directory.
 */
#ifndef RECIPE_H
#define RECIPE_H

struct session;

/* Build DIR/NAME.ko from DIR/SRC_BASE.c with CCFLAGS (what Kbuild's
 * ccflags-y would hold), with the recipe stored under KEY, capturing it
 * first if there is none.  Returns 0 when the module is built; -1 when no
 * recipe can be had or a command failed: the caller then builds with
 * kbuild, which also reports any compiler errors. */
int recipe_build(struct session *s, const char *key, const char *dir,
		 const char *name, const char *src_base, const char *ccflags);

#endif
