/* recipe.h - build a module without make, from the commands kbuild runs.
 *
 * A recipe is the list of commands kbuild runs for a two-object external
 * module of the target kernel, with the module's directory, name, objects
 * and our compiler flags left as placeholders.  It is captured once per
 * kernel (and verified: replaying it must give kbuild's module byte for
 * byte) and kept in the cache directory.  A module built by it is the
 * script's unit (compiled with -DSTP_RT_SPLIT) and the runtime's
 * (runtime/stp_rtlib.c), the latter compiled once per kernel, runtime and
 * -D options and kept in the cache too.
 */
#ifndef RECIPE_H
#define RECIPE_H

struct session;

/* Build DIR/NAME.ko from DIR/SRC_BASE.c and the runtime's object with
 * CCFLAGS (what Kbuild's ccflags-y would hold, -DSTP_RT_SPLIT among
 * them), with the recipe stored under KEY, capturing it first if there is
 * none, and the runtime's object stored under RT_KEY, compiled first if
 * there is none.  Returns 0 when the module is built; -1 when no recipe
 * can be had or a command failed: the caller then builds with kbuild (one
 * object), which also reports any compiler errors. */
int recipe_build(struct session *s, const char *key, const char *rt_key,
		 const char *dir, const char *name, const char *src_base,
		 const char *ccflags);

#endif
