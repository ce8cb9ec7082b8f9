/* cast.c - @cast(ptr, "type", "kernel")->member (pass 2).
 *
 * The operand is an address of a kernel type named by the string ("task_struct",
 * "struct task_struct", "union …", a typedef); its components are walked
 * like a target variable's (tvar.c) through the kernel's BTF types.  As in
 * stap 4.8, the module must be given: only "kernel" is known here.
 */
#include <stdio.h>
#include <string.h>

#include "ctype_btf.h"
#include "kernel.h"
#include "targets.h"
#include "tpcat.h"
#include "tvar.h"

static struct ctype_btf *kernel_types(struct session *s)
{
	const struct kernel_info *k = kernel_target(s);
	const struct tpcat *cat;
	char err[512];

	if (!k)
		return NULL;
	cat = tpcat_load(k->build_dir, k->vmlinux, k->modules_dir, err,
			 sizeof err);
	return cat ? cat->types : NULL;
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

/* Does the module list name the kernel?  "kernel", or "kernel<linux/…h>"
 * (stap's type from a kernel header), alternatives joined with ':'. */
static int names_kernel(const char *module)
{
	const char *p = module;

	while (*p) {
		size_t n = strcspn(p, ":<");

		if (n == 6 && !strncmp(p, "kernel", 6) && (p[6] != '<' ||
		    strchr(p, '>')))
			return 1;
		p += n;
		if (*p == '<')		/* skip the header, which may hold ':' */
			p += strcspn(p, ">");
		p += strcspn(p, ":");
		if (*p == ':')
			p++;
	}
	return 0;
}

int cast_resolve(struct session *s, struct exp *e, int quiet)
{
	const char *module = e->u.op.module ? e->u.op.module : "";
	struct ctype_btf *cb;
	struct ctype *t, *ptr;
	struct tvar *tv;

	cb = names_kernel(module) ? kernel_types(s) : NULL;
	t = cb ? find_type(cb, e->u.op.name) : NULL;
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
