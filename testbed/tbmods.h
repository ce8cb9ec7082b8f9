/* tbmods.h - kernel modules for the testbed guest to load before its job.
 *
 * The guest boots with no modules; a script probing a module (a module's
 * tracepoint, say) needs it loaded: stap records those in the module it
 * builds, and the user or a test may name more.  Given names, find each
 * NAME.ko under the testbed's module tree (kernel/modtree.c), add what its
 * .modinfo says it depends on, and order the list so that dependencies
 * load first.
 */
#ifndef TBMODS_H
#define TBMODS_H

#include <stddef.h>

struct tb_module {
	char *path;		/* the .ko on the host */
	char *name;		/* "nfs" */
	char *params;		/* for insmod: "a=1 b=2", or "" */
};

/* Resolve LIST ("softdog:soft_noboot=1 nfs", words of NAME[:PARAM=V…];
 * a NAME with a / is the path of a .ko, a module of that file's name)
 * against DIR.  Returns the number of modules in *OUT (dependencies
 * first, each once), or -1 with a message in ERR. */
int tb_modules_resolve(const char *dir, const char *list,
		       struct tb_module **out, char *err, size_t errlen);

/* The kernel modules the probes of the stap-built module KO lie in, as
 * stap recorded them in its .modinfo (ctap_modules=a,b; emit/kmodules.c),
 * as a list for tb_modules_resolve ("a b"), malloc'ed; NULL when it names
 * none. */
char *tb_modules_probed(const char *ko);

#endif
