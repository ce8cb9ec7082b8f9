/* tpcat.c - building the tracepoint catalog; see tpcat.h.
 *
 * Headers: the *.h files in include/trace/events, include/trace,
 * include/ras, arch/x86/include/asm/trace and arch/x86/include/asm of the
 * build tree (or of the source tree it names: Debian splits them).  In each
 * header that defines TRACE_SYSTEM, the names given to TRACE_EVENT*,
 * DECLARE_TRACE* and DEFINE_EVENT* are the tracepoints of that system.
 * The set is stap 4.8's, which compiles each header: a header that would
 * not compile there counts for nothing (tpvisible.c), lines an #if on
 * CONFIG_ options takes out are blanked.  A name is typed from the
 * kernel's BTF (its __traceiter_ function), or from the BTF of the module
 * that defines it (its __tracepoints_strings names it; without BTF, from
 * its TP_PROTO until probes/tracepoint.c reads the module's DWARF); one the kernel
 * was built without is typed from its TP_PROTO (tpproto.c).
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/btf.h"
#include "kernel/ctype_btf.h"
#include "kernel/kconfig.h"
#include "kernel/kimage.h"
#include "kernel/elfsec.h"
#include "kernel/modtree.h"
#include "kernel/tpcat.h"
#include "kernel/tpproto.h"
#include "kernel/tpvisible.h"
#include "util/arena.h"
#include "util/fileio.h"

struct found {
	char *system, *name;
	char *proto;	/* its TP_PROTO text, NULL if a wrapper's */
};

struct scan {
	struct found *v;
	int n, cap;
	struct tpvis *vis;	/* which headers stap can read */
};

/* The text of PATH, malloc'd; NULL if unreadable. */
static char *slurp(const char *path)
{
	struct strbuf sb = { 0 };

	if (fio_read(path, &sb)) {
		sb_free(&sb);
		return NULL;
	}
	return sb.s ? sb.s : xstrdup("");
}

static int ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* The system TRACE_SYSTEM names at P: an identifier, or words joined by
 * '-' ("intel-sst"), which the compile takes as one. */
static char *system_at(const char *p)
{
	const char *s;

	while (*p == ' ' || *p == '\t')
		p++;
	for (s = p; ident_char((unsigned char)*s) ||
		    (*s == '-' && s > p && ident_char((unsigned char)s[1])); s++)
		;
	return s > p ? strndup(p, (size_t)(s - p)) : NULL;
}

/* A macro that declares tracepoints: the kernel's own (body NULL: ARG is
 * the position of the name), an alias of one (#define A DEFINE_EVENT), or
 * a header's wrapper whose body declares them (DEFINE_IRQ_VECTOR_EVENT). */
struct decl_macro {
	char *name;
	int arg;
	int nparams;
	char *params[8];
	char *body;
};

static const struct {
	const char *macro;
	int arg;
} kernel_decls[] = {
	{ "TRACE_EVENT", 0 }, { "TRACE_EVENT_FN", 0 },
	{ "TRACE_EVENT_FN_COND", 0 }, { "TRACE_EVENT_CONDITION", 0 },
	{ "DECLARE_TRACE", 0 }, { "DECLARE_TRACE_CONDITION", 0 },
	{ "DECLARE_TRACE_SYSCALL", 0 }, { "DECLARE_TRACE_EVENT", 0 },
	{ "DECLARE_TRACE_EVENT_CONDITION", 0 },
	{ "DECLARE_TRACE_EVENT_SYSCALL", 0 }, { "TRACE_EVENT_SYSCALL", 0 },
	{ "DEFINE_EVENT", 1 }, { "DEFINE_EVENT_FN", 1 },
	{ "DEFINE_EVENT_PRINT", 1 }, { "DEFINE_EVENT_CONDITION", 1 },
};

#define MAX_MACROS 64

struct macros {
	struct decl_macro v[MAX_MACROS];
	int n;
};

static void add(struct scan *sc, const char *system, char *name,
		const char *proto)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 256;
		sc->v = realloc(sc->v, (size_t)sc->cap * sizeof *sc->v);
	}
	sc->v[sc->n].system = strdup(system);
	sc->v[sc->n].proto = proto ? strdup(proto) : NULL;
	sc->v[sc->n++].name = name;
}

/* The arguments of a call at P (just after its '('), each trimmed, at
 * most MAX; returns how many. */
static int split_args(const char *p, char **out, int max)
{
	int depth = 0, n = 0;
	const char *start = p;

	for (; *p; p++) {
		if (*p == '(') {
			depth++;
		} else if ((*p == ',' && !depth) || (*p == ')' && !depth)) {
			const char *a = start, *b = p;
			while (a < b && strchr(" \t\n\\", *a))
				a++;
			while (b > a && strchr(" \t\n\\", b[-1]))
				b--;
			if (n < max)
				out[n++] = strndup(a, (size_t)(b - a));
			if (*p == ')')
				return n;
			start = p + 1;
		} else if (*p == ')') {
			depth--;
		}
	}
	return n;
}

static void free_args(char **v, int n)
{
	while (n > 0)
		free(v[--n]);
}

static struct decl_macro *find_macro(struct macros *m, const char *p)
{
	int i;
	size_t n;

	for (i = 0; i < m->n; i++) {
		n = strlen(m->v[i].name);
		if (!strncmp(p, m->v[i].name, n) && !ident_char((unsigned char)p[n]))
			return &m->v[i];
	}
	return NULL;
}

/* NAME with the wrapper's parameters replaced by ARGS and ## removed:
 * "name##_entry" with name=call_function gives "call_function_entry". */
static char *substitute(const struct decl_macro *w, const char *name,
			char **args, int nargs)
{
	char out[512];
	size_t o = 0;
	const char *p = name;
	int i;

	while (*p && o < sizeof out - 1) {
		if (ident_char((unsigned char)*p)) {
			const char *e = p;
			while (ident_char((unsigned char)*e))
				e++;
			for (i = 0; i < w->nparams && i < nargs; i++)
				if (strlen(w->params[i]) == (size_t)(e - p) &&
				    !strncmp(w->params[i], p, (size_t)(e - p)))
					break;
			if (i < w->nparams && i < nargs)
				o += (size_t)snprintf(out + o, sizeof out - o, "%s", args[i]);
			else
				o += (size_t)snprintf(out + o, sizeof out - o, "%.*s",
						      (int)(e - p), p);
			p = e;
		} else {
			if (!strchr("# \t\\\n", *p))
				out[o++] = *p;
			p++;
		}
		if (o >= sizeof out)
			o = sizeof out - 1;
	}
	out[o] = '\0';
	return strdup(out);
}

/* ARGS[I] when it names a macro holding a TP_PROTO ("__cpu_migrate_proto",
 * expand_protos reads it); a wrapper's substitution lost the blanks of
 * anything else. */
static const char *proto_name(char **args, int n, int i)
{
	const char *p;

	if (i >= n || !*args[i])
		return NULL;
	for (p = args[i]; *p; p++)
		if (!ident_char((unsigned char)*p))
			return NULL;
	return args[i];
}

/* Tracepoint names declared by the call of M at P (after its '('). */
static void expand_call(struct scan *sc, struct macros *ms, const char *system,
			struct decl_macro *m, const char *p, int depth)
{
	char *args[16];
	int n = split_args(p, args, 16);
	const char *q;

	if (!m->body) {
		if (m->arg < n && *args[m->arg])
			add(sc, system, strdup(args[m->arg]),
			    m->arg + 1 < n ? args[m->arg + 1] : NULL);
	} else if (depth < 4) {
		for (q = m->body; *q; q++) {
			struct decl_macro *inner;
			char *iargs[16];
			int k, ni;
			if (q > m->body && ident_char((unsigned char)q[-1]))
				continue;
			inner = find_macro(ms, q);
			if (!inner || inner == m)
				continue;
			q += strlen(inner->name);
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q != '(')
				continue;
			ni = split_args(q + 1, iargs, 16);
			for (k = 0; k < ni; k++) {	/* the wrapper's args in */
				char *t = substitute(m, iargs[k], args, n);
				free(iargs[k]);
				iargs[k] = t;
			}
			if (!inner->body) {
				if (inner->arg < ni && *iargs[inner->arg])
					add(sc, system, strdup(iargs[inner->arg]),
					    proto_name(iargs, ni, inner->arg + 1));
			}
			free_args(iargs, ni);
		}
	}
	free_args(args, n);
}

/* Read the #define at P into M when it declares tracepoints; returns the
 * end of the definition (continuation lines included). */
static const char *read_define(struct macros *ms, const char *p)
{
	const char *e = p, *name, *q;
	char *body;
	struct decl_macro *m, *target;
	size_t n;

	while (*e && (*e != '\n' || e[-1] == '\\'))
		e++;
	p += strlen("#define");
	while (*p == ' ' || *p == '\t')
		p++;
	for (name = p; ident_char((unsigned char)*p); p++)
		;
	n = (size_t)(p - name);
	if (!n || ms->n == MAX_MACROS)
		return e;
	m = &ms->v[ms->n];
	memset(m, 0, sizeof *m);
	if (*p == '(') {
		char *params[8];
		int k, np = split_args(p + 1, params, 8);
		for (k = 0; k < np; k++)
			m->params[k] = params[k];
		m->nparams = np;
		p = strchr(p, ')');
		if (!p || p > e)
			return e;
		p++;
	}
	body = strndup(p, (size_t)(e - p));
	for (q = body; *q && (*q == ' ' || *q == '\t'); q++)
		;
	target = m->nparams ? NULL : find_macro(ms, q);
	if (target && !target->body) {		/* an alias */
		m->name = strndup(name, n);
		m->arg = target->arg;
		ms->n++;
		free(body);
		return e;
	}
	for (q = body; *q; q++)
		if ((q == body || !ident_char((unsigned char)q[-1])) &&
		    find_macro(ms, q))
			break;
	if (m->nparams && *q) {
		m->name = strndup(name, n);
		m->body = body;
		ms->n++;
		return e;
	}
	free_args(m->params, m->nparams);
	free(body);
	return e;
}

/* A TP_PROTO given by a macro's name ("__cpu_migrate_proto"): the body of
 * that #define in TEXT. */
static void expand_protos(struct scan *sc, int from, const char *text)
{
	char pat[300], *body;
	const char *p, *e;
	int i;

	for (i = from; i < sc->n; i++) {
		p = sc->v[i].proto;
		if (!p || !strncmp(p, "TP_PROTO", 8) || !strncmp(p, "PARAMS", 6) ||
		    strlen(p) > 256)
			continue;
		snprintf(pat, sizeof pat, "#define %s", p);
		p = strstr(text, pat);
		if (!p || ident_char((unsigned char)p[strlen(pat)]))
			continue;
		p += strlen(pat);
		for (e = p; *e && (*e != '\n' || e[-1] == '\\'); e++)
			;
		body = strndup(p, (size_t)(e - p));
		for (p = body; *p == ' ' || *p == '\t' || *p == '\\' || *p == '\n'; p++)
			;
		free(sc->v[i].proto);
		sc->v[i].proto = strdup(p);
		free(body);
	}
}

static void scan_text(struct scan *sc, const char *text)
{
	const char *p = strstr(text, "#define TRACE_SYSTEM"), *q;
	struct macros ms;
	struct decl_macro *m;
	char *system;
	size_t i;
	int k, first = sc->n;

	if (!p || ident_char((unsigned char)p[20]))
		return;
	system = system_at(p + 20);
	if (!system)
		return;
	memset(&ms, 0, sizeof ms);
	for (i = 0; i < sizeof kernel_decls / sizeof kernel_decls[0]; i++) {
		ms.v[ms.n].name = strdup(kernel_decls[i].macro);
		ms.v[ms.n++].arg = kernel_decls[i].arg;
	}
	for (q = text; *q; q++) {
		if (*q == '#' && !strncmp(q, "#define", 7)) {
			q = read_define(&ms, q);
			if (!*q)
				break;
			continue;
		}
		if (!(isupper((unsigned char)*q) || *q == '_') ||
		    (q > text && ident_char((unsigned char)q[-1])))
			continue;
		m = find_macro(&ms, q);
		if (!m)
			continue;
		q += strlen(m->name);
		if (*q == '(')
			expand_call(sc, &ms, system, m, q + 1, 0);
	}
	expand_protos(sc, first, text);
	for (k = 0; k < ms.n; k++) {
		free(ms.v[k].name);
		free(ms.v[k].body);
		free_args(ms.v[k].params, ms.v[k].nparams);
	}
	free(system);
}

static void scan_glob(struct scan *sc, const char *dir, const char *pattern)
{
	char path[8448];
	glob_t g;
	size_t i;

	snprintf(path, sizeof path, "%s/%s", dir, pattern);
	if (glob(path, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		char *text = slurp(g.gl_pathv[i]);
		if (text)
			tpvis_blank_false(sc->vis, text);
		if (text && strstr(text, "TRACE_SYSTEM") &&
		    tpvis_compiles(sc->vis, g.gl_pathv[i], text))
			scan_text(sc, text);
		free(text);
	}
	globfree(&g);
}

/* Debian's per-flavour header directory holds only generated files; its
 * Makefile includes the common tree's ("include /usr/src/DIR/Makefile").
 * A tree unpacked or installed elsewhere (the testbed's kernels: their
 * headers unpacked, or in a root of their release) has that tree beside
 * it: "../DIR" is the answer where the absolute path is not.  A kernel
 * build tree links its sources as "source". */
static void source_dirs(const char *build_dir, char dirs[2][4096])
{
	char path[8192], *text, *p, *e, *name;

	snprintf(dirs[0], 4096, "%s", build_dir);
	dirs[1][0] = '\0';
	snprintf(path, sizeof path, "%s/source/Makefile", build_dir);
	if (access(path, F_OK) == 0) {
		snprintf(dirs[1], 4096, "%s/source", build_dir);
		return;
	}
	snprintf(path, sizeof path, "%s/Makefile", build_dir);
	text = slurp(path);
	if (text && (p = strstr(text, "include ")) && (e = strstr(p, "/Makefile"))) {
		p += 8;
		snprintf(dirs[1], 4096, "%.*s", (int)(e - p), p);
		if (dirs[1][0] != '/' || access(dirs[1], F_OK)) {
			for (name = e; name > p && name[-1] != '/'; name--)
				;
			snprintf(dirs[1], 4096, "%s/../%.*s", build_dir,
				 (int)(e - name), name);
		}
	}
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

/* The modules that define tracepoints, and which names each defines. */
struct tp_module {
	char *path, *name;	/* name: "kyber_iosched" for kyber-iosched.ko */
	struct btf *btf;	/* loaded on first use */
	int no_btf;		/* it has none (5.10's modules) */
	struct ctype_btf *types;
};

struct mod_name {
	const char *tp;		/* in its module's __tracepoints_strings */
	int mod;
};

struct mod_scan {
	struct tp_module *mods;
	int nmods, capmods;
	struct mod_name *names;
	int nnames, capnames;
};

static void add_module(struct mod_scan *ms, const char *path,
		       const char *name, char *strs, size_t len)
{
	struct tp_module *m;
	size_t i;

	if (ms->nmods == ms->capmods) {
		ms->capmods = ms->capmods ? 2 * ms->capmods : 64;
		ms->mods = realloc(ms->mods, (size_t)ms->capmods * sizeof *ms->mods);
	}
	m = &ms->mods[ms->nmods];
	memset(m, 0, sizeof *m);
	m->path = strdup(path);
	m->name = strdup(name);
	for (i = 0; i < len; i += strlen(strs + i) + 1) {
		if (!strs[i])
			continue;
		if (ms->nnames == ms->capnames) {
			ms->capnames = ms->capnames ? 2 * ms->capnames : 1024;
			ms->names = realloc(ms->names,
					    (size_t)ms->capnames * sizeof *ms->names);
		}
		ms->names[ms->nnames].tp = strs + i;
		ms->names[ms->nnames++].mod = ms->nmods;
	}
	ms->nmods++;
}

static int scan_ko(const char *path, const char *name, void *arg)
{
	size_t len;
	char *strs = elfsec_read(path, "__tracepoints_strings", &len, NULL, 0);

	if (strs && len && !strs[len - 1])
		add_module(arg, path, name, strs, len);
	else
		free(strs);
	return 0;
}

static int cmp_mod_name(const void *a, const void *b)
{
	return strcmp(((const struct mod_name *)a)->tp,
		      ((const struct mod_name *)b)->tp);
}

static void scan_modules(struct mod_scan *ms, const char *dir)
{
	modtree_each(dir, scan_ko, ms);
	qsort(ms->names, (size_t)ms->nnames, sizeof *ms->names, cmp_mod_name);
}

/* The module defining tracepoint NAME, its BTF loaded over the kernel's
 * BASE (m->btf stays NULL for a module without BTF); NULL if none. */
static struct tp_module *module_of(struct mod_scan *ms, const struct btf *base,
				   const char *name)
{
	struct mod_name key = { name, 0 }, *found;
	struct tp_module *m;
	char err[256];

	found = bsearch(&key, ms->names, (size_t)ms->nnames, sizeof key,
			cmp_mod_name);
	if (!found)
		return NULL;
	m = &ms->mods[found->mod];
	if (!m->btf && !m->no_btf) {
		m->btf = btf_open_elf_split(m->path, base, err, sizeof err);
		m->no_btf = !m->btf;
		if (m->btf)
			m->types = ctype_btf_new(m->btf);
	}
	return m;
}

/* Tracepoint NAME's arguments into TE (and its module, when a module
 * defines it); -1 if neither the kernel nor a module has it.  A module
 * without BTF (5.10 has no CONFIG_DEBUG_INFO_BTF_MODULES) has it when its
 * __tracepoints_strings names it: TE is left untyped, te->module_dwarf
 * set. */
static int tp_lookup(const struct btf *b, struct ctype_btf *cb,
		     struct mod_scan *ms, const char *name, struct tp_entry *te)
{
	struct tp_module *m;

	if (!btf_args(b, cb, name, te))
		return 0;
	m = module_of(ms, b, name);
	if (!m)
		return -1;
	if (!m->btf)
		te->module_dwarf = 1;
	else if (btf_args(m->btf, m->types, name, te))
		return -1;
	te->module = m->name;
	return 0;
}

/* NAME, or where the kernel has no NAME but has NAME_tp, that: from 6.16
 * on DECLARE_TRACE(NAME) defines the tracepoint NAME_tp (the names of
 * trace events, DECLARE_TRACE_EVENT's, keep no suffix). */
static char *tp_name(const struct btf *b, struct ctype_btf *cb,
		     struct mod_scan *ms, char *name, struct tp_entry *te)
{
	char suffixed[512];

	if (!tp_lookup(b, cb, ms, name, te))
		return name;
	snprintf(suffixed, sizeof suffixed, "%s_tp", name);
	if (tp_lookup(b, cb, ms, suffixed, te))
		return NULL;
	free(name);
	return strdup(suffixed);
}

/* The build tree's .config; NULL if it has none. */
static const struct kconfig *read_config(const char *build_dir)
{
	char path[8192];
	struct strbuf sb = { 0 };
	const struct kconfig *k;

	snprintf(path, sizeof path, "%s/.config", build_dir);
	if (fio_read(path, &sb) || !sb.s) {
		sb_free(&sb);
		return NULL;
	}
	k = kconfig_parse(arena_new(), sb.s, sb.len);	/* it keeps the text */
	return k;
}

static struct tpcat *build(const char *build_dir, const char *types,
			   const char *modules_dir, char *err, size_t errlen)
{
	static const char *const patterns[] = {
		"include/trace/events/*.h", "include/trace/*.h",
		"include/ras/*.h", "arch/x86/include/asm/trace/*.h",
		"arch/x86/include/asm/*.h",
	};
	struct scan sc = {0};
	struct mod_scan ms = {0};
	char dirs[2][4096];
	struct btf *b;
	struct ctype_btf *cb;
	struct tpcat *cat;
	size_t i, j;
	int k;

	b = kimage_types(types, err, errlen);
	if (!b)
		return NULL;
	cb = ctype_btf_new(b);
	source_dirs(build_dir, dirs);
	sc.vis = tpvis_new(dirs, read_config(build_dir));
	for (j = 0; j < 2; j++)
		for (i = 0; dirs[j][0] && i < sizeof patterns / sizeof patterns[0]; i++)
			scan_glob(&sc, dirs[j], patterns[i]);
	qsort(sc.v, (size_t)sc.n, sizeof *sc.v, cmp_found);
	scan_modules(&ms, modules_dir);
	cat = calloc(1, sizeof *cat);
	cat->v = calloc((size_t)sc.n + 1, sizeof *cat->v);
	cat->types = cb;
	cat->btf = b;
	for (k = 0; k < sc.n; k++) {
		struct tp_entry *te = &cat->v[cat->n];
		if (k && !strcmp(sc.v[k].name, sc.v[k - 1].name) &&
		    !strcmp(sc.v[k].system, sc.v[k - 1].system))
			continue;
		te->name = tp_name(b, cb, &ms, sc.v[k].name, te);
		if (te->name && te->module_dwarf && sc.v[k].proto)
			tpproto_args(cb, sc.v[k].proto, te);
		if (!te->name && sc.v[k].proto &&	/* configured out */
		    !tpproto_args(cb, sc.v[k].proto, te)) {
			te->name = sc.v[k].name;
			te->absent = 1;
		}
		if (!te->name)
			continue;
		te->system = sc.v[k].system;
		cat->n++;
	}
	free(sc.v);
	return cat;
}

const struct tpcat *tpcat_load(const char *build_dir, const char *types,
			       const char *modules_dir, char *err,
			       size_t errlen)
{
	static struct tpcat *cached;
	static char cached_key[8192];
	char key[8192];

	snprintf(key, sizeof key, "%s\n%s\n%s", build_dir ? build_dir : "",
		 types ? types : "", modules_dir ? modules_dir : "");
	if (cached && !strcmp(key, cached_key))
		return cached;
	if (!build_dir) {
		snprintf(err, errlen, "no build tree (kernel headers) for the target kernel");
		return NULL;
	}
	cached = build(build_dir, types, modules_dir, err, errlen);
	snprintf(cached_key, sizeof cached_key, "%s", key);
	return cached;
}
