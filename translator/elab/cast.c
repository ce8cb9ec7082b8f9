/* cast.c - @cast(ptr, "type", "kernel")->member (pass 2).
 *
 * The operand is an address of a kernel type named by the string ("task_struct",
 * "struct task_struct", "union …", a typedef); its components are walked
 * like a target variable's (tvar.c) through the kernel's BTF types, or a
 * module's ("sunrpc": the BTF of its .ko, split from the kernel's, or the
 * DWARF of its debug file when it has no BTF, as 5.10's modules).  The
 * module list is stap's: alternatives joined with ':', "kernel" or
 * "kernel<linux/…h>" for the kernel; the first that defines the type wins
 * (one that only declares it, a forward, wins only if none defines it).
 * User space: a program or library by path ("/usr/bin/x") gives the types
 * of its DWARF, user headers ("<sys/un.h>") those of a unit compiled with
 * them (gcc -g, in the run's temporary directory); their memory is the
 * probed process's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdlib.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_types.h"
#include "util/fileio.h"
#include "util/tmpdir.h"

#include "kernel/ctype_btf.h"
#include "kernel/dwarfdecl.h"
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

/* Where a type is looked up: BTF types, or a debug file's DWARF (a user
 * file's, whose memory is the process's, or a kernel module's). */
struct types {
	struct ctype_btf *btf;
	struct dw_file *dwarf;
};

static struct ctype *find_kind(const struct types *ts, const char *name,
			       enum ctype_kind kind)
{
	return ts->btf ? ctype_btf_find(ts->btf, name, kind) :
			 dw_type_find(ts->dwarf, name, kind);
}

/* "struct task_struct" / "task_struct" / "union u" / "pid_t" */
static struct ctype *find_type(const struct types *ts, const char *spec)
{
	struct ctype *t;

	if (!strncmp(spec, "struct ", 7))
		return find_kind(ts, spec + 7, CT_STRUCT);
	if (!strncmp(spec, "union ", 6))
		return find_kind(ts, spec + 6, CT_UNION);
	if (!strncmp(spec, "enum ", 5))
		return find_kind(ts, spec + 5, CT_ENUM);
	t = find_kind(ts, spec, CT_STRUCT);
	if (!t)
		t = find_kind(ts, spec, CT_UNION);
	if (!t)
		t = find_kind(ts, spec, CT_TYPEDEF);
	if (!t)		/* "unsigned int", "char": the tapsets' casts */
		t = find_kind(ts, spec, CT_INT);
	return t;
}

/* gcc -g on C with every type of the headers kept: 0 or -1. */
static int compile_types(const char *c, const char *o)
{
	const char *argv[] = { "gcc", "-g", "-fno-eliminate-unused-debug-types",
			       "-c", "-o", o, c, NULL };
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* staprun -P: may the user have the header H (LEN bytes) compiled?  A
 * path must be one they may read; a system header, one without "..". */
static int user_header(struct session *s, const char *h, size_t len)
{
	const char *name = arena_strndup(s->arena, h, len);

	if (!fio_for_user())
		return 1;
	return *name == '/' ? fio_user_may_read(name) : !strstr(name, "..");
}

/* The DWARF of user-space module MOD (LEN bytes): a file by path, or
 * "<a.h><b.h>" compiled; NULL when it has none. */
static struct dw_file *user_types(struct session *s, const char *mod,
				  size_t len)
{
	static struct vec names, files;	/* char *, struct dw_file * */
	static int ncompiled;
	const char *name = arena_strndup(s->arena, mod, len), *p;
	struct dw_file *f = NULL;
	struct strbuf src = {0};
	char err[512];
	int i;

	VEC_EACH(names, i, p)
		if (!strcmp(p, name))
			return files.v[i];
	if (*name == '/') {
		if (fio_user_may_read(name))	/* staprun -P: else missing */
			f = dw_file_open(name, err, sizeof err);
	} else {
		const char *dir = session_tmpdir(s);
		const char *c = arena_printf(s->arena, "%s/cast%d.c", dir, ncompiled);
		const char *o = arena_printf(s->arena, "%s/cast%d.o", dir, ncompiled++);

		for (p = name; *p == '<'; p += strcspn(p, ">") + (p[strcspn(p, ">")] == '>')) {
			if (!user_header(s, p + 1, strcspn(p, ">") - 1))
				break;	/* as a header that is not there */
			sb_printf(&src, "#include %.*s>\n", (int)strcspn(p, ">"), p);
		}
		if (dir && !*p && src.s && !fio_write(c, src.s, src.len) &&
		    !compile_types(c, o))
			f = dw_file_open(o, err, sizeof err);
		sb_free(&src);
	}
	vec_push(s->arena, &names, (void *)name);
	vec_push(s->arena, &files, f);
	return f;
}

/* Type SPEC in module P (N bytes: a name, "kernel" or "kernel<…h>", a
 * path, "<a.h>…"): from its BTF, else (a module without BTF, as 5.10's)
 * its debug file's DWARF; NULL if it has none.  *USER: user memory. */
static struct ctype *find_in_module(struct session *s, const char *p, size_t n,
				    const char *spec, int *user)
{
	const struct tpcat *cat;
	struct types ts = {0};
	struct ctype *t = NULL, *d;
	int module = 0;

	*user = 0;
	if (n == 6 && !strncmp(p, "kernel", 6) && (p[6] != '<' ||
	    strchr(p, '>')))
		ts.btf = (cat = catalog(s)) ? cat->types : NULL;
	else if ((!n && *p == '<') || *p == '/')	/* to the ':' */
		*user = !!(ts.dwarf = user_types(s, p, strcspn(p, ":")));
	else if (n && p[n] != '<' && (module = 1))
		ts.btf = module_types(s, p, n);
	if (ts.btf || ts.dwarf)
		t = find_type(&ts, spec);
	if (module && (!t || t->is_decl)) {
		ts = (struct types){
			.dwarf = kernel_module_dwarf(s, arena_strndup(s->arena, p, n)) };
		d = ts.dwarf ? find_type(&ts, spec) : NULL;
		t = d ? d : t;
	}
	return t;
}

/* Type SPEC in the first module of the list MODULE that defines it:
 * "kernel" or "kernel<linux/…h>" (stap's type from a kernel header), or a
 * module's name; alternatives joined with ':'.  A declaration only (a
 * struct the kernel names but a module defines) is taken when no module
 * of the list has the definition. */
static struct ctype *find_in_modules(struct session *s, const char *module,
				     const char *spec, int *user)
{
	struct ctype *t, *decl = NULL;
	const char *p = module;
	int u, decl_user = 0;

	while (*p) {
		size_t n = strcspn(p, ":<");

		t = find_in_module(s, p, n, spec, &u);
		if (t && !t->is_decl) {
			*user = u;
			return t;
		}
		if (t && !decl) {
			decl = t;
			decl_user = u;
		}
		p += n;
		if (*p == '<')		/* skip the header, which may hold ':' */
			p += strcspn(p, ">");
		p += strcspn(p, ":");
		if (*p == ':')
			p++;
	}
	*user = decl_user;
	return decl;
}

int cast_resolve(struct session *s, struct exp *e, int quiet)
{
	const char *module = e->u.op.module ? e->u.op.module : "";
	struct ctype *t, *ptr;
	struct tvar *tv;
	int user = 0;

	t = find_in_modules(s, module, e->u.op.name, &user);
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
	tv->user = user;
	e->u.op.resolved = tv;
	return 0;
}
