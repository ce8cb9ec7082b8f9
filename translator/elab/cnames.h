/* cnames.h - the names stap 4.8 gives globals and functions in its C
 * (cnames.c): what -v -p2 bodies and the -q coverage rows show. */
#ifndef CNAMES_H
#define CNAMES_H

#include "elab/program.h"

/* A global's name: __global_NAME, or __private_FILE_NAME for a private
 * one (FILE its declaring file's name as given, every character but
 * letters and digits made '_'). */
const char *cname_global(struct arena *a, const struct sym *sym);
/* A file as private names carry it: "d.stp" is "d_stp", "/tmp/d.stp"
 * "_tmp_d_stp". */
const char *cname_file_tag(struct arena *a, const struct src_file *f);
/* A function's name with its overload number, counted among the
 * functions of FUNCS (struct func *) of its name and scope that come
 * before it. */
const char *cname_func(struct arena *a, const struct vec *funcs,
		       const struct func *fn);
/* The name of global NAME as an unbound probe point condition at LOC
 * reads it (conditions are shown as written): the private one of LOC's
 * file among GLOBALS (struct sym *) if there is one, else the public. */
const char *cname_cond_global(struct arena *a, const struct vec *globals,
			      const char *name, struct loc loc);

#endif
