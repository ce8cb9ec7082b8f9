/* cnames.c - the names stap 4.8 gives globals and functions in its C.
 *
 * stap mangles every global and function: public ones get __global_, a
 * function also its overload number, and a private one the name of the
 * file that declares it, so that two files' privates never meet.  The -v
 * -p2 listing (listing_body.c) and the -q coverage rows (coverage.c) show
 * these names.  Reads declarations; allocates the names in an arena.
 */
#include <string.h>

#include "elab/cnames.h"

/* A file as stap puts it in private names: its name as given, "d.stp"
 * is "d_stp", "/tmp/d.stp" "_tmp_d_stp". */
const char *cname_file_tag(struct arena *a, const struct src_file *f)
{
	char *t, *c;

	t = arena_strdup(a, f ? f->name : "");
	for (c = t; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9'))
			*c = '_';
	return t;
}

const char *cname_global(struct arena *a, const struct sym *sym)
{
	if (!strncmp(sym->name, "__global_", 9))	/* @entry's (entry.c) */
		return sym->name;
	if (sym->decl && sym->decl->is_private)
		return arena_printf(a, "__private_%s_%s",
				    cname_file_tag(a, sym->decl->file), sym->name);
	return arena_printf(a, "__global_%s", sym->name);
}

/* Overloads are numbered among the functions of one name and scope, in
 * declaration order. */
const char *cname_func(struct arena *a, const struct vec *funcs,
		       const struct func *fn)
{
	const struct func *g;
	int i, n = 0;

	VEC_EACH(*funcs, i, g) {
		if (g == fn)
			break;
		if (!strcmp(g->name, fn->name) &&
		    g->is_private == fn->is_private &&
		    (!fn->is_private || g->file == fn->file))
			n++;
	}
	if (fn->is_private)
		return arena_printf(a, "__private_%s_%s__overload_%d",
				    cname_file_tag(a, fn->file), fn->name, n);
	return arena_printf(a, "__global_%s__overload_%d", fn->name, n);
}

const char *cname_cond_global(struct arena *a, const struct vec *globals,
			      const char *name, struct loc loc)
{
	const struct sym *sym;
	int i;

	VEC_EACH(*globals, i, sym)
		if (sym->decl && sym->decl->is_private &&
		    sym->decl->file == loc.file && !strcmp(sym->name, name))
			return cname_global(a, sym);
	return arena_printf(a, "__global_%s", name);
}
