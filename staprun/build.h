/* build.h - staprun -P: a user's script built by the installed translator
 * as root (build.c). */
#ifndef STP_BUILD_H
#define STP_BUILD_H

#include <limits.h>
#include "opts.h"

struct stp_build {
	char dir[64];		/* root's directory it is built in ("" none) */
	char name[56];		/* the module's name */
	char path[PATH_MAX];	/* DIR/NAME.ko */
	int level;		/* STP_PRIV_STAPUSR or _STAPSYS */
};

/* Build o->module (the script) for -P LEVEL into B: 0, -1 after an error
 * (said), or 255 when the user's groups do not allow LEVEL. */
int build_module(const struct stp_opts *o, struct stp_build *b);
/* Remove B's directory and files. */
void build_cleanup(struct stp_build *b);

#endif
