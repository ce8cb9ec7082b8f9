/* tpcat.c - building the tracepoint catalog; see tpcat.h.
 *
 * Headers: the *.h files in include/trace/events, include/trace,
 * include/ras, arch/x86/include/asm/trace and arch/x86/include/asm of the
 * build tree (or of the source tree it names: Debian splits them).  In each
 * header that defines TRACE_SYSTEM, the names given to TRACE_EVENT*,
 * DECLARE_TRACE* and DEFINE_EVENT* are the tracepoints of that system.
 * A name counts only when the kernel's BTF has its __traceiter_ function:
 * that filters out macro parameters and configured-out tracepoints.
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "ctype_btf.h"
#include "tpcat.h"

struct found {
	char *system, *name;
};

struct scan {
	struct found *v;
	int n, cap;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	n = (long)fread(buf, 1, (size_t)n, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* The identifier at P (after blanks), copied; NULL if none. */
static char *ident_at(const char *p)
{
	const char *s;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
		p++;
	for (s = p; ident_char((unsigned char)*s); s++)
		;
	return s > p ? strndup(p, (size_t)(s - p)) : NULL;
}

/* The macros that declare tracepoints, and which argument is the name. */
static const struct {
	const char *macro;
	int arg;
} decls[] = {
	{ "TRACE_EVENT", 0 }, { "TRACE_EVENT_FN", 0 },
	{ "TRACE_EVENT_FN_COND", 0 }, { "TRACE_EVENT_CONDITION", 0 },
	{ "DECLARE_TRACE", 0 }, { "DECLARE_TRACE_CONDITION", 0 },
	{ "DEFINE_EVENT", 1 }, { "DEFINE_EVENT_FN", 1 },
	{ "DEFINE_EVENT_PRINT", 1 }, { "DEFINE_EVENT_CONDITION", 1 },
};

static void add(struct scan *sc, const char *system, char *name)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 256;
		sc->v = realloc(sc->v, (size_t)sc->cap * sizeof *sc->v);
	}
	sc->v[sc->n].system = strdup(system);
	sc->v[sc->n++].name = name;
}

/* Name of the declaration at P (just after "MACRO("), or NULL. */
static char *decl_name(const char *p, int arg)
{
	if (arg) {
		int depth = 0;
		for (; *p; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')' && depth-- == 0)
				return NULL;
			else if (*p == ',' && depth == 0)
				break;
		}
		if (!*p)
			return NULL;
		p++;
	}
	return ident_at(p);
}

static void scan_text(struct scan *sc, const char *text)
{
	const char *p = strstr(text, "#define TRACE_SYSTEM"), *q;
	char *system;
	size_t i, n;

	if (!p || ident_char((unsigned char)p[20]))
		return;
	system = ident_at(p + 20);
	if (!system)
		return;
	for (q = text; *q; q++) {
		if (!isupper((unsigned char)*q) ||
		    (q > text && ident_char((unsigned char)q[-1])))
			continue;
		for (i = 0; i < sizeof decls / sizeof decls[0]; i++) {
			n = strlen(decls[i].macro);
			if (!strncmp(q, decls[i].macro, n) && q[n] == '(') {
				char *name = decl_name(q + n + 1, decls[i].arg);
				if (name)
					add(sc, system, name);
				break;
			}
		}
	}
	free(system);
}

static void scan_glob(struct scan *sc, const char *dir, const char *pattern)
{
	char path[8192];
	glob_t g;
	size_t i;

	snprintf(path, sizeof path, "%s/%s", dir, pattern);
	if (glob(path, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		char *text = slurp(g.gl_pathv[i]);
		if (text && strstr(text, "TRACE_SYSTEM"))
			scan_text(sc, text);
		free(text);
	}
	globfree(&g);
}

/* Debian's per-flavour header directory holds only generated files; its
 * Makefile includes the common tree's.  A kernel build tree links its
 * sources as "source". */
static void source_dirs(const char *build_dir, char dirs[2][4096])
{
	char path[8192], *text, *p, *e;

	snprintf(dirs[0], 4096, "%s", build_dir);
	dirs[1][0] = '\0';
	snprintf(path, sizeof path, "%s/source/Makefile", build_dir);
	if (access(path, F_OK) == 0) {
		snprintf(dirs[1], 4096, "%s/source", build_dir);
		return;
	}
	snprintf(path, sizeof path, "%s/Makefile", build_dir);
	text = slurp(path);
	if (text && (p = strstr(text, "include /")) && (e = strstr(p, "/Makefile")))
		snprintf(dirs[1], 4096, "%.*s", (int)(e - p - 8), p + 8);
	free(text);
}

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

/* The arguments of tracepoint NAME from its __traceiter_ prototype; -1 if
 * the kernel has no such tracepoint. */
static int btf_args(const struct btf *b, struct ctype_btf *cb,
		    const char *name, struct tp_entry *te)
{
	char fn[512];
	uint32_t id;
	const struct btf_type *f, *proto;
	const struct btf_param *pa;
	int i, n;

	snprintf(fn, sizeof fn, "__traceiter_%s", name);
	id = btf_find(b, fn, BTF_KIND_FUNC);
	if (!id)
		return -1;
	f = btf_type(b, id);
	proto = btf_type(b, f->type);
	if (!proto || btf_kind(proto) != BTF_KIND_FUNC_PROTO)
		return -1;
	pa = btf_extra(proto);
	n = btf_vlen(proto);
	te->nargs = n > 0 ? n - 1 : 0;	/* the first is void *__data */
	te->args = calloc((size_t)te->nargs + 1, sizeof *te->args);
	for (i = 1; i < n; i++) {
		te->args[i - 1].name = btf_str(b, pa[i].name_off);
		te->args[i - 1].type = ctype_btf_get(cb, pa[i].type);
	}
	return 0;
}

static struct tpcat *build(const char *build_dir, const char *vmlinux,
			   char *err, size_t errlen)
{
	static const char *const patterns[] = {
		"include/trace/events/*.h", "include/trace/*.h",
		"include/ras/*.h", "arch/x86/include/asm/trace/*.h",
		"arch/x86/include/asm/*.h",
	};
	struct scan sc = {0};
	char dirs[2][4096];
	struct btf *b;
	struct ctype_btf *cb;
	struct tpcat *cat;
	size_t i, j;
	int k;

	b = btf_open_elf(vmlinux, err, errlen);
	if (!b)
		return NULL;
	cb = ctype_btf_new(b);
	source_dirs(build_dir, dirs);
	for (j = 0; j < 2; j++)
		for (i = 0; dirs[j][0] && i < sizeof patterns / sizeof patterns[0]; i++)
			scan_glob(&sc, dirs[j], patterns[i]);
	qsort(sc.v, (size_t)sc.n, sizeof *sc.v, cmp_found);
	cat = calloc(1, sizeof *cat);
	cat->v = calloc((size_t)sc.n + 1, sizeof *cat->v);
	for (k = 0; k < sc.n; k++) {
		struct tp_entry *te = &cat->v[cat->n];
		if (k && !strcmp(sc.v[k].name, sc.v[k - 1].name) &&
		    !strcmp(sc.v[k].system, sc.v[k - 1].system))
			continue;
		if (btf_args(b, cb, sc.v[k].name, te))
			continue;
		te->system = sc.v[k].system;
		te->name = sc.v[k].name;
		cat->n++;
	}
	free(sc.v);
	return cat;
}

const struct tpcat *tpcat_load(const char *build_dir, const char *vmlinux,
			       char *err, size_t errlen)
{
	static struct tpcat *cached;
	static char cached_key[8192];
	char key[8192];

	snprintf(key, sizeof key, "%s\n%s", build_dir ? build_dir : "", vmlinux ? vmlinux : "");
	if (cached && !strcmp(key, cached_key))
		return cached;
	if (!vmlinux) {
		snprintf(err, errlen, "no kernel image with type data (vmlinux) for the target kernel");
		return NULL;
	}
	if (!build_dir) {
		snprintf(err, errlen, "no build tree (kernel headers) for the target kernel");
		return NULL;
	}
	cached = build(build_dir, vmlinux, err, errlen);
	snprintf(cached_key, sizeof cached_key, "%s", key);
	return cached;
}
