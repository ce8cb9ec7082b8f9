/* dwarfdecl.c - the target kernel's DWARF through function indexes
 * (dwarfdecl.h).
 *
 * Reads the debug vmlinux kernel.c finds, and module debug files, through
 * dwarf/dw_index (built once per build-id into CACHE/dwarf, or into a
 * temporary file with --disable-cache).  A first build says what it does
 * on stderr when stderr is a terminal or with -v; a test's stderr stays
 * the same whether the cache was warm or not.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_index.h"
#include "kernel/dwarfdecl.h"
#include "kernel/kernel.h"
#include "kernel/modtree.h"
#include "session.h"
#include "util/diag.h"
#include "util/fileio.h"

struct opened {
	const struct session *s;
	const char *path;
	struct dw_index *ix;	/* NULL: failed (reported) */
	struct opened *next;
};

static struct opened *opened;

/* Index of "module:symbol[+offset]" in s->modsyms, added if new. */
static int modsym_index(struct session *s, const char *key)
{
	const char *k;
	int i;

	VEC_EACH(s->modsyms, i, k)
		if (!strcmp(k, key))
			return i;
	vec_push(s->arena, &s->modsyms, (void *)key);
	return s->modsyms.n - 1;
}

const char *kernel_modsym_c(struct session *s, const char *module,
			    const char *sym, uint64_t off)
{
	int i = modsym_index(s, arena_printf(s->arena, "%s:%s", module, sym));

	return arena_printf(s->arena, "(_stp_modsym_addr(%d) + 0x%llxULL)", i,
			    (unsigned long long)off);
}

const char *kernel_modsite_c(struct session *s, const char *module,
			     const char *func, uint64_t off)
{
	int i = modsym_index(s, arena_printf(s->arena, "%s:%s+%llu", module,
					     func, (unsigned long long)off));

	return arena_printf(s->arena, "_stp_modsym_addr(%d)", i);
}

/* A module static's address (dw_file.h's hook), by the module named
 * after its debug file ('-' read as '_', as the kernel names it). */
static const char *modsym_addr(void *arg, const char *path, const char *sym,
			       uint64_t off)
{
	struct session *s = arg;
	const char *base = strrchr(path, '/');
	char *mod, *p;

	base = base ? base + 1 : path;
	mod = arena_strndup(s->arena, base, strcspn(base, "."));
	for (p = mod; *p; p++)
		if (*p == '-')
			*p = '_';
	return kernel_modsym_c(s, mod, sym, off);
}

static struct dw_index *open_index(struct session *s, const char *path)
{
	const char *cdir = fio_cache_dir(s), *dir = NULL;
	struct opened *o;
	char err[512];

	for (o = opened; o; o = o->next)
		if (o->s == s && !strcmp(o->path, path))
			return o->ix;
	dw_file_set_symaddr(modsym_addr, s);
	o = ARENA_NEW(s->arena, struct opened);
	o->s = s;
	o->path = arena_strdup(s->arena, path);
	if (cdir) {	/* a cache that cannot be written: not saved */
		dir = arena_printf(s->arena, "%s/dwarf", cdir);
		if (fio_mkdirs(dir) || access(dir, W_OK))
			dir = NULL;
	}
	o->ix = dw_index_open(path, dir,
			      isatty(STDERR_FILENO) || s->verbose > 1 ? stderr : NULL,
			      err, sizeof err);
	if (!o->ix)
		diag_fatal(&s->diags, "%s", err);
	o->next = opened;
	opened = o;
	return o->ix;
}

struct dw_index *kernel_dwarf_index(struct session *s, const char **why)
{
	const struct kernel_info *k = kernel_target(s);

	if (!k || !k->vmlinux) {
		if (why)
			*why = k ? arena_printf(s->arena, "no debug vmlinux for kernel %s",
						k->release) : NULL;
		return NULL;
	}
	return open_index(s, k->vmlinux);
}

struct dw_index *kernel_module_dwarf_index(struct session *s,
					   const char *path)
{
	return open_index(s, path);
}

struct dw_index *kernel_module_dwarf_named(struct session *s,
					   const char *name)
{
	const struct kernel_info *k = kernel_target(s);
	struct dw_index *ix;
	char *path;

	if (!k || !k->module_debug_dir ||
	    !(path = modtree_find(k->module_debug_dir, name)))
		return NULL;
	ix = open_index(s, arena_strdup(s->arena, path));
	free(path);
	return ix;
}

struct dw_file *kernel_module_dwarf(struct session *s, const char *name)
{
	struct dw_index *ix = kernel_module_dwarf_named(s, name);

	return ix ? dw_index_file(ix) : NULL;
}

const char *dw_func_decl(struct session *s, const char *func,
			    uint64_t addr)
{
	const struct kernel_info *k = kernel_target(s);
	struct dw_index *ix;
	const struct dw_func *f;
	char name[512];
	size_t first, n, i;

	/* no index is built for pp() alone when the kernel has no vmlinux */
	if (!k || !k->vmlinux || !addr || !(ix = kernel_dwarf_index(s, NULL)))
		return NULL;
	snprintf(name, sizeof name, "%.*s", (int)strcspn(func, "."), func);
	n = dw_index_lookup(ix, name, &first);
	for (i = first; i < first + n; i++) {
		f = dw_index_at(ix, i);
		if (!(f->flags & (DW_FN_INLINE | DW_FN_SYMTAB)) && dw_index_pc(ix, f) == addr)
			return arena_printf(s->arena, "%s@%s:%u", name,
					    dw_index_str(ix, f->file), f->line);
	}
	return NULL;
}
