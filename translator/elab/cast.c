/* cast.c - @cast(ptr, "type", "kernel")->member (pass 2).
 *
 * The operand is an address of a kernel type named by the string ("task_struct",
 * "struct task_struct", "union …", a typedef); its components are walked
 * like a target variable's (tvar.c) through the kernel's BTF types, or a
 * module's ("sunrpc": the BTF of its .ko, split from the kernel's).  The
 * module list is stap's: alternatives joined with ':', "kernel" or
 * "kernel<linux/…h>" for the kernel; the first that has the type wins.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "kernel/ctype_btf.h"
#include "kernel/kernel.h"
#include "kernel/modtree.h"
#include "elab/targets.h"
#include "kernel/tpcat.h"
#include "elab/tvar.h"

static const struct tpcat *catalog(struct session *s)
{
	char err[512];

	return kernel_catalog(s, err, sizeof err);
}

/* The types of module NAME (LEN bytes), loaded once; NULL if unknown. */
static struct ctype_btf *module_types(struct session *s, const char *name,
				      size_t len)
{
	static struct {
		char *name;
		struct ctype_btf *types;
	} loaded[16];
	static int nloaded;
	const struct kernel_info *k = kernel_target(s);
	const struct tpcat *cat = catalog(s);
	struct btf *b;
	char err[512], *mod = arena_strndup(s->arena, name, len), *path;
	int i;

	for (i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i].name, mod))
			return loaded[i].types;
	if (!cat || !k->modules_dir || nloaded == 16)
		return NULL;
	path = modtree_find(k->modules_dir, mod);
	b = path ? btf_open_elf_split(path, cat->btf, err, sizeof err) : NULL;
	free(path);
	loaded[nloaded].name = mod;
	loaded[nloaded].types = b ? ctype_btf_new(b) : NULL;
	return loaded[nloaded++].types;
}

/* "struct task_struct" / "task_struct" / "union u" / "pid_t" */
static struct ctype *find_type(struct ctype_btf *cb, const char *spec)
{
	struct ctype *t;

	if (!strncmp(spec, "struct ", 7))
		return ctype_btf_find(cb, spec + 7, CT_STRUCT);
	if (!strncmp(spec, "union ", 6))
		return ctype_btf_find(cb, spec + 6, CT_UNION);
	if (!strncmp(spec, "enum ", 5))
		return ctype_btf_find(cb, spec + 5, CT_ENUM);
	t = ctype_btf_find(cb, spec, CT_STRUCT);
	if (!t)
		t = ctype_btf_find(cb, spec, CT_UNION);
	if (!t)
		t = ctype_btf_find(cb, spec, CT_TYPEDEF);
	if (!t)		/* "unsigned int", "char": the tapsets' casts */
		t = ctype_btf_find(cb, spec, CT_INT);
	return t;
}

/* Type SPEC in the first module of the list MODULE that has it: "kernel"
 * or "kernel<linux/…h>" (stap's type from a kernel header), or a module's
 * name; alternatives joined with ':'. */
static struct ctype *find_in_modules(struct session *s, const char *module,
				     const char *spec)
{
	const struct tpcat *cat;
	struct ctype_btf *cb;
	struct ctype *t;
	const char *p = module;

	while (*p) {
		size_t n = strcspn(p, ":<");

		cb = NULL;
		if (n == 6 && !strncmp(p, "kernel", 6) && (p[6] != '<' ||
		    strchr(p, '>')))
			cb = (cat = catalog(s)) ? cat->types : NULL;
		else if (n && p[n] != '<')
			cb = module_types(s, p, n);
		t = cb ? find_type(cb, spec) : NULL;
		if (t)
			return t;
		p += n;
		if (*p == '<')		/* skip the header, which may hold ':' */
			p += strcspn(p, ">");
		p += strcspn(p, ":");
		if (*p == ':')
			p++;
	}
	return NULL;
}

int cast_resolve(struct session *s, struct exp *e, int quiet)
{
	const char *module = e->u.op.module ? e->u.op.module : "";
	struct ctype *t, *ptr;
	struct tvar *tv;

	t = find_in_modules(s, module, e->u.op.name);
	if (!t) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.cast-type",
				   "type definition '%s' not found in '%s'",
				   e->u.op.name, module);
		return -1;
	}
	if (!e->u.op.comps.n && !e->u.op.addr_of && !quiet) {
		/* the struct itself, not a value (@defined may ask) */
		diag_error(&s->diags, e->loc, "sema.cast-value",
			   "'%s' is being accessed instead of a member", e->u.op.name);
		return -1;
	}
	ptr = ARENA_NEW(s->arena, struct ctype);
	ptr->kind = CT_PTR;
	ptr->name = "";
	ptr->size = 8;
	ptr->target = t;
	tv = tvar_resolve(s, e, &e->u.op.comps, NULL, ptr, "@cast to",
			  e->u.op.name, quiet);
	if (!tv)
		return -1;
	tv->base_exp = e->u.op.operand;
	e->u.op.resolved = tv;
	return 0;
}
