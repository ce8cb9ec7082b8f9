/* probes/uprobe.c - probes in user-space programs and libraries, by uprobe.
 *
 *   process("PATH")[.library("LIB")].function("NAME")
 *		[.call | .return | .exported | .inline]
 *   process("PATH")[.library("LIB")][.provider("P")].mark("NAME")
 *
 * Functions come from the file's symbol table, markers from its
 * .note.stapsdt (dwarf/elf_user.c reads both); wildcards expand sorted by
 * name.  A function the file's DWARF has (dwarf/dw_index) is named
 * NAME@FILE:LINE as stap names it, probed past its prologue in code
 * built without optimization, and has its target variables
 * (dwarf_vars.c, over the site at the start of its data).  Each site becomes a uprobe (uretprobe for .return) on the file's
 * inode at the site's file offset, a marker's semaphore given to the
 * kernel to count (runtime/probes/uprobe.c).  A marker's $argN comes from
 * its operand string (sdt.c), $$name and $$provider from the note.  The
 * rest of process(...) (begin, end, syscall) is another family's, which
 * shares the first component.
 */
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/family.h"

struct usite {
	uint64_t addr;		/* link-time address of the probed insn */
	uint64_t offset;	/* its file offset */
	uint64_t sem_offset;	/* the semaphore's file offset, or 0 */
	const char *args;	/* the marker's operands, or NULL */
};

struct uprobe_data {
	struct dw_site site;	/* first (dw_site.h): the function's DWARF;
				   file NULL without */
	const char *proc;	/* the process's program */
	const char *file;	/* the file probed: the program or the library */
	const char *func;	/* NULL for a marker */
	const char *plt;	/* .plt("NAME"): the function its slot calls */
	const char *provider, *mark;	/* provider: NULL for any */
	const char *site_provider;	/* $$provider: the first site's */
	int is_return;
	struct vec sites;	/* struct usite * */
};

/* The parts of a point, by component index (-1: absent). */
struct shape {
	int lib, func, provider, mark, suffix, stmt, plt;
};

static const char *comp_name(const struct probe_point *pt, int i)
{
	return i < pt->comps.n ? ((const struct pp_comp *)pt->comps.v[i])->name
			       : NULL;
}

static int is(const struct probe_point *pt, int i, const char *name)
{
	const char *n = comp_name(pt, i);

	return n && !strcmp(n, name);
}

/* Is PT one of this family's shapes?  0: not ours (process.begin and the
 * like belong to the process family). */
static int shape_of(const struct probe_point *pt, struct shape *sh)
{
	const struct pp_comp *c0 = pt->comps.v[0];
	int i = 1;

	*sh = (struct shape){ -1, -1, -1, -1, -1, -1, -1 };
	if (!c0->arg || (c0->arg->kind != EX_STR && c0->arg->kind != EX_NUM))
		return 0;
	if (is(pt, i, "library") && c0->arg->kind == EX_STR)
		sh->lib = i++;
	if (is(pt, i, "function")) {
		sh->func = i++;
		/* without DWARF, stap 4.8 takes .exported and .inline
		 * as no restriction */
		if (is(pt, i, "call") || is(pt, i, "return") ||
		    is(pt, i, "exported") || is(pt, i, "inline"))
			sh->suffix = i++;
	} else if (is(pt, i, "statement") && sh->lib < 0) {
		sh->stmt = i++;
	} else if (is(pt, i, "plt") && sh->lib < 0) {
		sh->plt = i++;
		if (is(pt, i, "return"))
			sh->suffix = i++;
	} else {
		if (is(pt, i, "provider"))
			sh->provider = i++;
		if (!is(pt, i, "mark"))
			return 0;
		sh->mark = i++;
	}
	return i == pt->comps.n;
}

static int wild(const char *p)
{
	return p && strpbrk(p, "*?[") != NULL;
}

static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL,
};

/* LIB (a file name) in DIRS (a colon-separated list, $ORIGIN the
 * program's directory ORIGIN), then where the dynamic loader looks by
 * default; its real path, or NULL. */
static const char *find_lib(struct session *s, const char *lib,
			    const char *dirs, const char *origin)
{
	const char *d, *f;
	int i;

	for (d = dirs ? dirs : ""; *d; d += strcspn(d, ":"), d += *d == ':') {
		size_t n = strcspn(d, ":");
		const char *dir = arena_strndup(s->arena, d, n);
		if (!strncmp(dir, "$ORIGIN", 7))
			dir = arena_printf(s->arena, "%s%s", origin, dir + 7);
		if ((f = fio_target_realpath(s, arena_printf(s->arena, "%s/%s", dir, lib))))
			return f;
	}
	for (i = 0; lib_dirs[i]; i++)
		if ((f = fio_target_realpath(s, arena_printf(s->arena, "%s/%s", lib_dirs[i], lib))))
			return f;
	return NULL;
}

/* The libraries PATTERN names for program PROC (read as EU): a path
 * itself; else those of its DT_NEEDED whose file name it matches, or the
 * library of that name in $LD_LIBRARY_PATH or where the loader looks (one
 * it may dlopen; stap then shows the name as written: *AS_WRITTEN). */
static void match_libs(struct session *s, const char *pattern,
		       const char *proc, const struct elf_user *eu,
		       struct vec *out, int *as_written)
{
	const char *slash = strrchr(proc, '/');
	const char *origin = arena_strndup(s->arena, proc, (size_t)(slash - proc));
	const char *f;
	size_t i;

	if (strchr(pattern, '/')) {
		if ((f = fio_target_realpath(s, pattern)))
			vec_push(s->arena, out, (void *)f);
		return;
	}
	for (i = 0; i < eu->nneeded; i++) {
		f = find_lib(s, eu->needed[i], eu->runpath, origin);
		if (f && (!fnmatch(pattern, eu->needed[i], 0) ||
			  !fnmatch(pattern, strrchr(f, '/') + 1, 0)))
			vec_push(s->arena, out, (void *)f);
	}
	if (!out->n && !wild(pattern) &&
	    (f = find_lib(s, pattern, getenv("LD_LIBRARY_PATH"), origin))) {
		vec_push(s->arena, out, (void *)f);
		*as_written = 1;
	}
}

static int no_match(struct session *s, const struct probe_point *pt,
		    int optional, const char *why)
{
	if (optional)
		return 0;
	diag_error(&s->diags, pt->loc, "sema.uprobe-no-match",
		   "probe point '%s' matches no probe (no match%s)",
		   pp_format(s, (struct vec *)&pt->comps), why);
	return -1;
}

/* The program process(PATH) or process(PID) names (the executable PID
 * runs now, as stap 4.8 takes it at translation), or NULL: none (with
 * PID, reported). */
static const char *program_of(struct session *s, const struct probe_point *pt)
{
	const struct pp_comp *c0 = pt->comps.v[0];
	char buf[PATH_MAX];
	ssize_t n;

	if (c0->arg->kind == EX_STR)
		return fio_which(s, family_str_arg(s, c0));
	n = readlink(arena_printf(s->arena, "/proc/%lld/exe",
				  (long long)c0->arg->u.num), buf, sizeof buf - 1);
	if (n > 0) {
		buf[n] = 0;
		return arena_strdup(s->arena, buf);
	}
	diag_error(&s->diags, c0->loc, "sema.uprobe-pid",
		   "cannot probe pid %lld: No such process",
		   (long long)c0->arg->u.num);
	return NULL;
}

/* The ELF file the point probes (the library's, if any), or NULL after
 * reporting why not. */
static const struct elf_user *point_file(struct session *s,
					 const struct probe_point *pt,
					 const struct shape *sh,
					 const char **proc, const char **file,
					 int optional)
{
	const struct elf_user *eu;
	const char *lib;
	char err[256];
	int errors = s->diags.errors;

	*proc = program_of(s, pt);
	if (!*proc) {
		if (s->diags.errors == errors)
			no_match(s, pt, optional, "");
		return NULL;
	}
	*file = *proc;
	eu = elf_user_open(*proc, err, sizeof err);
	if (eu && sh->lib >= 0) {
		struct vec libs = {0};
		int as_written = 0;
		lib = family_str_arg(s, pt->comps.v[sh->lib]);
		if (lib)
			match_libs(s, lib, *proc, eu, &libs, &as_written);
		if (libs.n != 1) {	/* expand_uprobe made it one */
			no_match(s, pt, optional, "");
			return NULL;
		}
		*file = libs.v[0];
		eu = elf_user_open(*file, err, sizeof err);
	}
	if (!eu)
		no_match(s, pt, optional, "");
	return eu;
}

/* A copy of PT with component I's argument ARG and the process named by
 * its resolved path, as stap shows it. */
static struct probe_point *with_arg(struct session *s,
				    const struct probe_point *pt, int i,
				    const char *arg, const char *proc)
{
	struct probe_point *np = ARENA_NEW(s->arena, struct probe_point);
	int k;

	*np = *pt;
	np->comps = (struct vec){0};
	for (k = 0; k < pt->comps.n; k++) {
		const struct pp_comp *oc = pt->comps.v[k];
		struct pp_comp *nc = ARENA_NEW(s->arena, struct pp_comp);
		const char *v = k == i ? arg : k == 0 ? proc : NULL;

		*nc = *oc;
		if (v) {	/* (a bare .plt gains its argument) */
			nc->arg = ast_str(s->arena, oc->arg ? oc->arg->loc : oc->loc,
					  v, strlen(v), NULL);
			nc->has_arg = 1;
		}
		vec_push(s->arena, &np->comps, nc);
	}
	return np;
}

struct near {
	const char *name;
	int dist;
};

static int by_distance(const void *a, const void *b)
{
	const struct near *x = a, *y = b;

	return x->dist != y->dist ? x->dist - y->dist : strcmp(x->name, y->name);
}

/* stap's suggestion for a name that matches nothing: the five nearest of
 * NAMES (N of them) by edit distance, however far, as " (similar WHAT:
 * a, b)"; "" when there are none. */
static const char *similar_by(struct session *s, const char *what,
			      const char *const *names, size_t n,
			      const char *name,
			      int (*distance)(const char *, const char *, int))
{
	struct near *v = arena_alloc(s->arena, sizeof *v * (n + 1));
	struct strbuf sb = {0};
	const char *r;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (struct near){ names[i],
			distance(name, names[i], 1 << 20) };
	qsort(v, n, sizeof *v, by_distance);
	for (i = 0; i < n && i < 5; i++) {
		if (i && !strcmp(v[i].name, v[i - 1].name))
			continue;
		sb_printf(&sb, "%s%s", i ? ", " : " (similar ", i ? "" : what);
		sb_printf(&sb, "%s%s", i ? "" : ": ", v[i].name);
	}
	if (n)
		sb_putc(&sb, ')');
	r = arena_strdup(s->arena, sb.s ? sb.s : "");
	sb_free(&sb);
	return r;
}

static const char *similar(struct session *s, const char *what,
			   const char *const *names, size_t n, const char *name)
{
	return similar_by(s, what, names, n, name, similar_distance);
}

static const char *similar_funcs(struct session *s, const struct elf_user *eu,
				 const char *name)
{
	const char **names = arena_alloc(s->arena, sizeof *names * (eu->nfuncs + 1));
	size_t i;

	for (i = 0; i < eu->nfuncs; i++)
		names[i] = eu->funcs[i].name;
	return similar(s, "functions", names, eu->nfuncs, name);
}

static const char *similar_marks(struct session *s, const struct elf_user *eu,
				 const char *name)
{
	const char **names = arena_alloc(s->arena, sizeof *names * (eu->nnotes + 1));
	size_t i, n = 0, k;

	for (i = 0; i < eu->nnotes; i++) {
		for (k = 0; k < n && strcmp(names[k], eu->notes[i].name); k++)
			;
		if (k == n)
			names[n++] = eu->notes[i].name;
	}
	return similar(s, "marks", names, n, name);
}

/* "NAME@FILE:LINE" split: *FILE and *LINE (0: any) from after the '@';
 * the name. */
static const char *split_func(struct session *s, const char *spec,
			      const char **file, unsigned *line)
{
	const char *at = strchr(spec, '@'), *colon;

	*file = NULL;
	*line = 0;
	if (!at)
		return spec;
	colon = strrchr(at, ':');
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		*line = (unsigned)strtoul(colon + 1, NULL, 10);
		*file = arena_strndup(s->arena, at + 1, (size_t)(colon - at - 1));
	} else {
		*file = at + 1;
	}
	return arena_strndup(s->arena, spec, (size_t)(at - spec));
}

/* A marker used at several places, or a function with inline instances,
 * is one probe per place, as in stap (each with its pp() and its own
 * variables): the expanders record which note or DWARF record each point
 * they make stands for, and resolve_uprobe takes that one (a point they
 * did not make stands for every site, or the function's first record).
 * A set keyed by the point's address. */
struct stmt_hit;

struct site_point {
	const struct probe_point *point;
	size_t note;		/* index in the file's notes */
	const struct dw_func *func;	/* or the DWARF record (note unused) */
	const struct stmt_hit *hit;	/* or the statement's place */
};

static struct {
	struct site_point **v;
	size_t cap, n;
} site_points;

static size_t point_slot(const struct probe_point *pt)
{
	return (size_t)(((uintptr_t)pt >> 4) * 0x9e3779b97f4a7c15ull >> 20);
}

static struct site_point *site_of(const struct probe_point *pt)
{
	size_t i, m = site_points.cap - 1;

	if (!site_points.cap)
		return NULL;
	for (i = point_slot(pt) & m; site_points.v[i]; i = (i + 1) & m)
		if (site_points.v[i]->point == pt)
			return site_points.v[i];
	return NULL;
}

static struct site_point *add_site_point(struct session *s,
					 const struct probe_point *pt)
{
	struct site_point *sp = ARENA_NEW(s->arena, struct site_point), **old;
	size_t i, ocap = site_points.cap;

	if (2 * (site_points.n + 1) > site_points.cap) {
		old = site_points.v;
		site_points.cap = ocap ? 2 * ocap : 256;
		site_points.v = arena_alloc(s->arena, site_points.cap * sizeof *old);
		memset(site_points.v, 0, site_points.cap * sizeof *old);
		site_points.n = 0;
		for (i = 0; i < ocap; i++)
			if (old[i])
				add_site_point(s, old[i]->point)[0] = *old[i];
	}
	for (i = point_slot(pt) & (site_points.cap - 1); site_points.v[i];
	     i = (i + 1) & (site_points.cap - 1))
		;
	sp->point = pt;
	site_points.v[i] = sp;
	site_points.n++;
	return sp;
}

/* The function index of FILE when it has DWARF, else NULL. */
static struct dw_index *user_index(struct session *s, const struct elf_user *eu)
{
	return eu->has_dwarf && eu->build_id[0] ?
		kernel_module_dwarf_index(s, fio_host_path(s, eu->path)) : NULL;
}

/* Which DWARF records a point's suffix takes, as stap 4.8 (probes/dwarf.c's
 * rule): .inline only inline instances, .call, .return and .exported no
 * inline instance, .exported only exported functions, none any. */
static int fits_suffix(const struct dw_func *f, const char *suffix)
{
	int inl = f->flags & DW_FN_INLINE;

	if (f->flags & (DW_FN_SYMTAB | DW_FN_PART) || !f->file)
		return 0;
	if (!suffix)
		return 1;
	if (!strcmp(suffix, "inline"))
		return inl;
	if (inl)
		return 0;
	return strcmp(suffix, "exported") || (f->flags & DW_FN_EXPORTED);
}

/* The DWARF function NAME of FILE that a point with SUFFIX takes
 * (declared in a file matching SRC and at LINE, when given; an
 * out-of-line body before an inline instance), or NULL (none, or no
 * DWARF). */
static const struct dw_func *dwarf_func(struct session *s,
					const struct elf_user *eu,
					const char *name, const char *src,
					unsigned line, const char *suffix,
					struct dw_index **ixp)
{
	struct dw_index *ix = user_index(s, eu);
	const struct dw_func *f, *found = NULL;
	size_t first, n, i;

	if (!ix)
		return NULL;
	n = dw_index_lookup(ix, name, &first);
	for (i = first; i < first + n; i++) {
		f = dw_index_at(ix, i);
		if (!fits_suffix(f, suffix) ||
		    (src && !dw_file_matches(src, dw_index_str(ix, f->file))) ||
		    (line && f->line != line))
			continue;
		if (!found || ((found->flags & DW_FN_INLINE) &&
			       !(f->flags & DW_FN_INLINE)))
			found = f;
	}
	*ixp = ix;
	return found;
}

/* Does FILE's DWARF have a function NAME (then stap names it so)? */
static int in_dwarf(const struct dw_index *ix, const char *name)
{
	size_t first, n = ix ? dw_index_lookup(ix, name, &first) : 0, i;

	for (i = first; i < first + n; i++)
		if (fits_suffix(dw_index_at(ix, i), NULL))
			return 1;
	return 0;
}

/* One probe place of a DWARF function: its label NAME@FILE:LINE and the
 * record (an out-of-line body or an inline instance). */
struct dwarf_place {
	const char *label;
	const struct dw_func *f;
	size_t order;		/* its label's first appearance */
};

/* stap's order: labels as first found, then each label's body before its
 * inline instances, these in DWARF order. */
static int by_place(const void *a, const void *b)
{
	const struct dwarf_place *x = *(const struct dwarf_place *const *)a;
	const struct dwarf_place *y = *(const struct dwarf_place *const *)b;
	int xi = !!(x->f->flags & DW_FN_INLINE), yi = !!(y->f->flags & DW_FN_INLINE);

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (xi != yi)
		return xi - yi;
	return x->f->die_off < y->f->die_off ? -1 : x->f->die_off > y->f->die_off;
}

/* The DWARF functions matching PAT[@SRC[:LINE]] that SUFFIX takes, one
 * struct dwarf_place per entry pc of each NAME@FILE:LINE (an inline
 * instance nested in another at the same pc is the same place), into
 * OUT.  The index holds a name's records together: labels and places are
 * looked up among the current name's only. */
static void dwarf_places(struct session *s, const struct dw_index *ix,
			 const char *pat, const char *src, unsigned line,
			 const char *suffix, struct vec *out)
{
	size_t i, n = ix ? dw_index_count(ix) : 0, nlabels = 0;
	struct dwarf_place *p;
	uint32_t cur = 0;
	int k, run = 0, dup;

	for (i = 0; i < n; i++) {
		const struct dw_func *f = dw_index_at(ix, i);
		const char *name = dw_index_str(ix, f->name), *label;

		if (!fits_suffix(f, suffix) || fnmatch(pat, name, 0) ||
		    (src && !dw_file_matches(src, dw_index_str(ix, f->file))) ||
		    (line && f->line != line))
			continue;
		if (f->name != cur) {	/* a new name: sort the last one's */
			if (out->n - run > 1)
				qsort(out->v + run, (size_t)(out->n - run),
				      sizeof *out->v, by_place);
			run = out->n;
			cur = f->name;
		}
		label = arena_printf(s->arena, "%s@%s:%u", name,
				     dw_index_str(ix, f->file), f->line);
		p = NULL;
		dup = 0;
		for (k = run; k < out->n && !dup; k++) {
			struct dwarf_place *q = out->v[k];

			if (strcmp(q->label, label))
				continue;
			p = q;
			if (dw_index_pc(ix, q->f) != dw_index_pc(ix, f))
				continue;
			dup = 1;
			if ((q->f->flags & DW_FN_INLINE) &&
			    !(f->flags & DW_FN_INLINE))
				q->f = f;	/* the body's */
		}
		if (dup)
			continue;
		if (p)
			label = p->label;
		p = ARENA_NEW(s->arena, struct dwarf_place);
		p->label = label;
		p->f = f;
		p->order = nlabels++;
		for (k = run; k < out->n; k++)
			if (((struct dwarf_place *)out->v[k])->label == label) {
				p->order = ((struct dwarf_place *)out->v[k])->order;
				break;
			}
		vec_push(s->arena, out, p);
	}
	if (out->n - run > 1)
		qsort(out->v + run, (size_t)(out->n - run), sizeof *out->v,
		      by_place);
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The link-time entry pcs of IX's out-of-line functions (clones and
 * parts too), sorted, into *PCS: a symbol at one of them is DWARF's
 * (stap names it so, not by the symbol: foo.isra.0 is foo@FILE:LINE). */
static size_t dwarf_pcs(struct session *s, const struct dw_index *ix,
			uint64_t **pcs)
{
	size_t i, n = ix ? dw_index_count(ix) : 0, k = 0;
	uint64_t bias = 0;

	if (!n || !dw_index_file(ix))
		return 0;
	dw_file_dwarf(dw_index_file(ix), &bias);
	*pcs = arena_alloc(s->arena, n * sizeof **pcs);
	for (i = 0; i < n; i++) {
		const struct dw_func *f = dw_index_at(ix, i);

		if (!(f->flags & (DW_FN_INLINE | DW_FN_SYMTAB)))
			(*pcs)[k++] = dw_index_pc(ix, f) - bias;
	}
	qsort(*pcs, k, sizeof **pcs, by_u64);
	return k;
}

static int expand_functions(struct session *s, const struct probe_point *pt,
			    const struct shape *sh, const struct elf_user *eu,
			    const char *proc, const char *file,
			    struct vec *out, int optional)
{
	const struct pp_comp *c = pt->comps.v[sh->func];
	const char *spec = family_str_arg(s, c), *pat, *src, *f;
	const char *suffix = sh->suffix >= 0 ? comp_name(pt, sh->suffix) : NULL;
	int is_return = suffix && !strcmp(suffix, "return");
	int list_only = s->list_probes || s->list_probes_vars;
	struct dw_index *ix = user_index(s, eu);
	struct vec places = {0};
	const struct dwarf_place *p;
	uint64_t *pcs = NULL;
	unsigned line;
	size_t i, npcs;
	int k, found = 0;

	if (!spec)
		return family_mismatch(s, pt, c, "function needs a string argument");
	pat = split_func(s, spec, &src, &line);
	dwarf_places(s, ix, pat, src, line, suffix, &places);
	VEC_EACH(places, k, p) {
		struct probe_point *np;

		if (list_only && k && p->label == ((const struct dwarf_place *)
						  places.v[k - 1])->label)
			continue;	/* -l and -L: a name once */
		np = with_arg(s, pt, sh->func, p->label, proc);
		add_site_point(s, np)->func = p->f;
		vec_push(s->arena, out, np);
	}
	npcs = src ? 0 : dwarf_pcs(s, ix, &pcs);
	for (i = 0; !src && i < eu->nfuncs; i++) {	/* without DWARF */
		f = eu->funcs[i].name;
		if (!fnmatch(pat, f, 0) && !(is_return && !strcmp(f, "_start")) &&
		    !in_dwarf(ix, f) &&
		    !(npcs && bsearch(&eu->funcs[i].addr, pcs, npcs,
				      sizeof *pcs, by_u64))) {
			vec_push(s->arena, out, with_arg(s, pt, sh->func, f, proc));
			found = 1;
		}
	}
	if (places.n || found)
		return 1;
	return no_match(s, pt, optional,
			wild(pat) ? "" : similar_funcs(s, eu, pat));
}

static int expand_marks(struct session *s, const struct probe_point *pt,
			const struct shape *sh, const struct elf_user *eu,
			const char *proc, const char *file, struct vec *out,
			int optional)
{
	const char *pat = family_str_arg(s, pt->comps.v[sh->mark]);
	const char *prov = sh->provider >= 0 ?
		family_str_arg(s, pt->comps.v[sh->provider]) : "*";
	struct vec seen = {0};
	size_t i, j;

	if (!pat || !prov)
		return family_mismatch(s, pt, pt->comps.v[sh->mark],
				       "mark needs a string argument");
	pat = sdt_mark_pattern(s, pat);
	for (i = 0; i < eu->nnotes; i++) {
		const struct elf_user_note *n = &eu->notes[i];
		const char *key = arena_printf(s->arena, "%s\n%s", n->provider, n->name);

		if (fnmatch(prov, n->provider, 0) || fnmatch(pat, n->name, 0) ||
		    vec_has_str(&seen, key))
			continue;
		vec_push(s->arena, &seen, (void *)key);
		for (j = i; j < eu->nnotes; j++) {	/* its sites */
			const struct elf_user_note *m = &eu->notes[j];
			struct site_point *sp;
			struct probe_point *np;
			struct pp_comp *pc;

			if (strcmp(m->provider, n->provider) ||
			    strcmp(m->name, n->name))
				continue;
			np = with_arg(s, pt, sh->mark, n->name, proc);
			if (sh->provider >= 0) {
				pc = np->comps.v[sh->provider];
				pc->arg = ast_str(s->arena, pc->loc, n->provider,
						  strlen(n->provider), NULL);
			}
			sp = add_site_point(s, np);
			sp->note = j;
			vec_push(s->arena, out, np);
		}
	}
	return seen.n ? 1 : no_match(s, pt, optional,
				     wild(pat) ? "" : similar_marks(s, eu, pat));
}

/* LIB (a file name) as the loader finds it for a file in directory ORIGIN
 * with DT_RUNPATH DIRS: the path it looks at, not resolved (stap names
 * /lib/x86_64-linux-gnu/libc.so.6 so); NULL when absent. */
static const char *lib_path(struct session *s, const char *lib,
			    const char *dirs, const char *origin)
{
	const char *d, *f;
	int i;

	for (d = dirs ? dirs : ""; *d; d += strcspn(d, ":"), d += *d == ':') {
		const char *dir = arena_strndup(s->arena, d, strcspn(d, ":"));

		if (!strncmp(dir, "$ORIGIN", 7))
			dir = arena_printf(s->arena, "%s%s", origin, dir + 7);
		f = arena_printf(s->arena, "%s/%s", dir, lib);
		if (!access(f, F_OK))
			return f;
	}
	for (i = 0; lib_dirs[i]; i++) {
		f = arena_printf(s->arena, "%s/%s", lib_dirs[i], lib);
		if (!access(f, F_OK))
			return f;
	}
	return NULL;
}

/* " (similar libraries: …)" for a library LIB that program PROC (read
 * as EU) does not load: the nearest of the files it loads at start (its
 * DT_NEEDED closure and its interpreter), as stap names them. */
static const char *similar_libs(struct session *s, const char *proc,
				const struct elf_user *eu, const char *lib)
{
	static const struct elf_user none;	/* a file named, not read */
	struct vec paths = {0}, files = {0}, reals = {0};
	const struct elf_user *cur, *lu;
	const char *dir, *f, *real;
	char err[256];
	size_t i;
	int k;

	vec_push(s->arena, &files, (void *)eu);
	vec_push(s->arena, &paths, (void *)proc);
	vec_push(s->arena, &reals, (void *)proc);
	if (eu->interp && (real = fio_target_realpath(s, eu->interp))) {
		vec_push(s->arena, &files, (void *)&none);	/* ldd's name */
		vec_push(s->arena, &paths, (void *)eu->interp);
		vec_push(s->arena, &reals, (void *)real);
	}
	for (k = 0; k < files.n; k++) {
		cur = files.v[k];
		f = paths.v[k];
		dir = arena_strndup(s->arena, f, (size_t)(strrchr(f, '/') - f));
		for (i = 0; i < cur->nneeded; i++) {
			f = lib_path(s, cur->needed[i], cur->runpath, dir);
			if (!f || !(real = fio_target_realpath(s, f)) ||
			    vec_has_str(&reals, real))
				continue;
			vec_push(s->arena, &paths, (void *)f);
			vec_push(s->arena, &reals, (void *)real);
			lu = elf_user_open(f, err, sizeof err);
			vec_push(s->arena, &files, (void *)(lu ? lu : &none));
		}
	}
	return similar_by(s, "libraries", (const char *const *)paths.v + 1,
			  (size_t)paths.n - 1, lib, similar_stap);
}

/* process(P).library(PATTERN)...: each library PATTERN names, by path. */
static int expand_libs(struct session *s, const struct probe_point *pt,
		       const struct shape *sh, struct vec *out, int optional)
{
	const char *proc = fio_which(s, family_str_arg(s, pt->comps.v[0]));
	const char *lib = family_str_arg(s, pt->comps.v[sh->lib]), *f;
	const struct elf_user *eu = NULL;
	struct vec libs = {0};
	char err[256];
	int i, rc, found = 0, as_written = 0;

	if (proc && lib && (eu = elf_user_open(proc, err, sizeof err)))
		match_libs(s, lib, proc, eu, &libs, &as_written);
	if (!libs.n)
		return no_match(s, pt, optional, eu && !wild(lib) ?
				similar_libs(s, proc, eu, lib) : "");
	VEC_EACH(libs, i, f) {
		struct probe_point *np = with_arg(s, pt, sh->lib,
						  as_written ? lib : f, proc);
		const struct elf_user *lu = elf_user_open(f, err, sizeof err);
		if (!lu)
			continue;
		if (sh->func >= 0)
			rc = expand_functions(s, np, sh, lu, proc, f, out, 1);
		else
			rc = expand_marks(s, np, sh, lu, proc, f, out, 1);
		if (rc < 0)
			return -1;
		found |= rc;
	}
	return found ? 1 : no_match(s, pt, optional, "");
}

static int expand_statements(struct session *s, const struct probe_point *pt,
			     const struct shape *sh, const struct elf_user *eu,
			     const char *proc, struct vec *out, int optional);
static int expand_plts(struct session *s, const struct probe_point *pt,
		       const struct shape *sh, const struct elf_user *eu,
		       const char *proc, struct vec *out, int optional);

static int expand_uprobe(struct session *s, const struct probe_point *pt,
			 struct vec *out);

/* process("PATH") with wildcards in PATH (the python.* aliases have
 * "/usr/lib" "*" "/libpython" "*" ".so" "*") stands for each file glob(3) finds, as with stap 4.8,
 * whose words say when there is none ("glob PATTERN error (3)":
 * GLOB_NOMATCH).  A file without the point is passed over. */
static int expand_glob(struct session *s, const struct probe_point *pt,
		       struct vec *out, int optional)
{
	const char *pat = family_str_arg(s, pt->comps.v[0]);
	const char *host = fio_host_path(s, pat);
	size_t skip = strlen(host) - strlen(pat), i;
	int rc, found = 0, err;
	glob_t g;

	err = glob(host, 0, NULL, &g);
	if (err) {
		if (optional)
			return 0;
		diag_error(&s->diags, pt->loc, "sema.uprobe-glob",
			   "glob %s error (%d)", pat, err);
		return -1;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		const char *f = arena_strdup(s->arena, g.gl_pathv[i] + skip);
		struct probe_point *np = with_arg(s, pt, 0, f, f);

		np->optional = 1;
		np->sufficient = 0;
		rc = expand_uprobe(s, np, out);
		if (rc < 0) {
			globfree(&g);
			return -1;
		}
		found |= rc > 0;
	}
	globfree(&g);
	return found ? 1 : no_match(s, pt, optional, "");
}

static int expand_uprobe(struct session *s, const struct probe_point *pt,
			 struct vec *out)
{
	int optional = pt->optional || pt->sufficient;
	const struct pp_comp *c0 = pt->comps.v[0];
	const struct elf_user *eu;
	const char *proc, *file;
	struct shape sh;

	if (!shape_of(pt, &sh))
		return 0;
	if (c0->arg && c0->arg->kind == EX_STR &&
	    strchr(family_str_arg(s, c0), '/') && wild(family_str_arg(s, c0)))
		return expand_glob(s, pt, out, optional);
	if (sh.lib >= 0)
		return expand_libs(s, pt, &sh, out, optional);
	eu = point_file(s, pt, &sh, &proc, &file, optional);
	if (!eu)
		return optional ? 0 : -1;
	if (sh.stmt >= 0)
		return expand_statements(s, pt, &sh, eu, proc, out, optional);
	if (sh.plt >= 0)
		return expand_plts(s, pt, &sh, eu, proc, out, optional);
	if (sh.func >= 0)
		return expand_functions(s, pt, &sh, eu, proc, file, out, optional);
	return expand_marks(s, pt, &sh, eu, proc, file, out, optional);
}

static struct usite *new_site(struct session *s, const struct elf_user *eu,
			      uint64_t addr)
{
	struct usite *u = ARENA_NEW(s->arena, struct usite);

	u->addr = addr;
	if (elf_user_offset(eu, addr, &u->offset))
		return NULL;
	return u;
}

/* stap 4.8 warns, once per file, that a function probe's file has no
 * DWARF (its markers need none); not while listing (-l, -L). */
static void warn_no_dwarf(struct session *s, const struct probe_point *pt,
			  const char *file, const struct elf_user *eu)
{
	static struct vec warned;
	const char *f;
	int i;

	if (eu->has_dwarf || s->list_probes || s->list_probes_vars)
		return;
	VEC_EACH(warned, i, f)
		if (!strcmp(f, file))
			return;
	vec_push(s->arena, &warned, (void *)file);
	diag_warning(&s->diags, pt->loc, "sema.uprobe-no-debuginfo",
		     "cannot find module %s debuginfo: No DWARF information found [man warning::debuginfo]",
		     fio_host_path(s, file));	/* as stap: under --sysroot */
}

/* The ELF address of site ST (libdwfl lays a PIE or library out at a
 * bias of its own). */
static uint64_t site_addr(const struct dw_site *st)
{
	uint64_t bias;

	dw_file_dwarf(st->file, &bias);
	return st->pc - bias;
}

/* UD's function's DWARF site for a point with SUFFIX (left without a
 * file when it has none): the record ONLY when the point stands for one;
 * returns the function's name. */
static const char *dwarf_site(struct session *s, struct uprobe_data *ud,
			      const struct elf_user *eu, const char *suffix,
			      const struct dw_func *only)
{
	struct dw_site *st = &ud->site;
	const struct dw_func *f;
	struct dw_index *ix;
	const char *src, *name;
	unsigned line;

	name = split_func(s, ud->func, &src, &line);
	st->module = ud->file;
	st->is_user = 1;
	st->is_return = (unsigned)ud->is_return;
	f = dwarf_func(s, eu, name, src, line, suffix, &ix);
	if (f && only)
		f = only;
	if (!f || !(st->file = dw_index_file(ix)))
		return name;
	st->cu_off = f->cu_off;
	st->die_off = f->die_off;
	st->pc = dw_index_pc(ix, f);
	st->is_inline = !!(f->flags & DW_FN_INLINE);
	/* -P (always) places as auto does: stap 4.8 -P moves no probe of
	 * the -O2 programs of testsuite/tools/uprog either */
	if (!ud->is_return && !st->is_inline &&
	    s->prologue_searching != PROLOGUE_NEVER)
		st->pc = dw_prologue_end(st->file, st->die_off, st->pc);
	return name;
}

/* ---- .plt("NAME"): the PLT slot of each imported function ---- */

static int expand_plts(struct session *s, const struct probe_point *pt,
		       const struct shape *sh, const struct elf_user *eu,
		       const char *proc, struct vec *out, int optional)
{
	const struct pp_comp *c = pt->comps.v[sh->plt];
	/* a bare .plt is every slot, as .plt("*") */
	const char *pat = c->arg ? family_str_arg(s, c) : "*";
	struct vec names = {0};
	size_t i;

	if (!pat)
		return family_mismatch(s, pt, c, "plt needs a string argument");
	for (i = 0; i < eu->nplts; i++)
		if (!fnmatch(pat, eu->plts[i].name, 0) &&
		    !vec_has_str(&names, eu->plts[i].name)) {
			vec_push(s->arena, &names, (void *)eu->plts[i].name);
			vec_push(s->arena, out, with_arg(s, pt, sh->plt,
							 eu->plts[i].name, proc));
		}
	return names.n ? 1 : no_match(s, pt, optional, "");
}

/* stap probes the slot as the statement at its address. */
static int resolve_plt(struct session *s, const struct probe_point *pt,
		       const struct shape *sh, const struct elf_user *eu,
		       struct derived_probe *dp, struct uprobe_data *ud)
{
	const char *name = family_str_arg(s, pt->comps.v[sh->plt]);
	struct usite *u;
	size_t i;

	for (i = 0; name && i < eu->nplts; i++)
		if (!strcmp(eu->plts[i].name, name))
			break;
	if (!name || i == eu->nplts || !(u = new_site(s, eu, eu->plts[i].addr)))
		return no_match(s, pt, dp->optional, "");
	ud->plt = name;
	ud->is_return = sh->suffix >= 0;
	dp->pp = arena_printf(s->arena, "process(\"%s\").statement(0x%llx)%s",
			      ud->proc, (unsigned long long)u->addr,
			      ud->is_return ? ".return" : "");
	dp->user_pp = dp->pp;
	dp->list_pp = pp_format(s, &dp->comps);	/* -l: the plt point */
	vec_push(s->arena, &ud->sites, u);
	return 1;
}

/* ---- statements: process("PATH").statement("FUNC@FILE:LINE") ---- */

/* The lines a statement point asks for: "N", "N-M" or "*" after the
 * file's ':'. */
struct stmt_spec {
	const char *name, *src;
	enum dw_lines kind;
	int l1, l2;
};

static int parse_stmt(struct session *s, const char *spec,
		      struct stmt_spec *st)
{
	const char *at = strchr(spec, '@'), *colon = at ? strrchr(at, ':') : NULL;
	char *end;

	if (!colon)
		return -1;
	st->name = arena_strndup(s->arena, spec, (size_t)(at - spec));
	st->src = arena_strndup(s->arena, at + 1, (size_t)(colon - at - 1));
	if (!strcmp(colon + 1, "*")) {
		st->kind = DW_LINES_ALL;
		return 0;
	}
	st->l1 = st->l2 = (int)strtol(colon + 1, &end, 10);
	st->kind = DW_LINES_ONE;
	if (*end == '-') {
		st->l2 = (int)strtol(end + 1, &end, 10);
		st->kind = DW_LINES_RANGE;
	}
	return end == colon + 1 || *end ? -1 : 0;
}

struct stmt_hit {
	const char *label;	/* NAME@FILE:LINE */
	uint64_t cu, func, pc;	/* its function's CU and DIE, the address
				   (libdwfl's) */
	int inl;		/* in an inline instance */
};

struct stmt_walk {
	struct session *s;
	const struct dw_index *ix;
	const struct dw_func **recs;
	struct vec *hits;	/* struct stmt_hit * */
};

static void stmt_hit(void *arg, size_t i, int line, uint64_t addr)
{
	struct stmt_walk *w = arg;
	struct stmt_hit *h = ARENA_NEW(w->s->arena, struct stmt_hit);

	h->label = arena_printf(w->s->arena, "%s@%s:%d",
				dw_index_str(w->ix, w->recs[i]->name),
				dw_index_str(w->ix, w->recs[i]->file), line);
	h->cu = w->recs[i]->cu_off;
	h->func = w->recs[i]->die_off;
	h->inl = !!(w->recs[i]->flags & DW_FN_INLINE);
	h->pc = addr;
	vec_push(w->s->arena, w->hits, h);
}

/* The statements of SP in IX: for the functions matching it, one CU and
 * one decl file at a time, the lines' addresses (dw_index_stmt_lines). */
static void stmt_sites(struct session *s, const struct dw_index *ix,
		       const struct stmt_spec *sp, struct vec *hits)
{
	size_t i, j, n = dw_index_count(ix), k;
	struct vec recs = {0};
	int below, above;

	for (i = 0; i < n; i++) {
		const struct dw_func *f = dw_index_at(ix, i);
		if (f->file && !(f->flags & (DW_FN_SYMTAB | DW_FN_PART)) &&
		    !fnmatch(sp->name, dw_index_str(ix, f->name), 0) &&
		    dw_file_matches(sp->src, dw_index_str(ix, f->file)))
			vec_push(s->arena, &recs, (void *)f);
	}
	for (i = 0; i < (size_t)recs.n; i++) {	/* each CU and file once */
		const struct dw_func *f = recs.v[i];
		struct dw_stmt_func *fs;
		struct stmt_walk w = { s, ix, NULL, hits };

		for (j = 0; j < i; j++)
			if (((const struct dw_func *)recs.v[j])->cu_off == f->cu_off &&
			    ((const struct dw_func *)recs.v[j])->file == f->file)
				break;
		if (j < i)
			continue;
		fs = arena_alloc(s->arena, sizeof *fs * (size_t)recs.n);
		w.recs = arena_alloc(s->arena, sizeof *w.recs * (size_t)recs.n);
		for (j = i, k = 0; j < (size_t)recs.n; j++) {
			const struct dw_func *g = recs.v[j];
			if (g->cu_off != f->cu_off)
				continue;
			w.recs[k] = g;
			fs[k++] = (struct dw_stmt_func){ g->die_off,
				dw_index_pc(ix, g), (int)g->line, g->file == f->file };
		}
		dw_index_stmt_lines(ix, f->cu_off, dw_index_str(ix, f->file), fs,
				    k, sp->kind, sp->l1, sp->l2, stmt_hit, &w,
				    &below, &above);
	}
}

/* Is a statement already placed at PC (among PLACED, struct stmt_hit *)? */
static int has_pc(const struct vec *placed, uint64_t pc)
{
	const struct stmt_hit *h;
	int i;

	VEC_EACH(*placed, i, h)
		if (h->pc == pc)
			return 1;
	return 0;
}

static int by_label_pc(const void *a, const void *b)
{
	const struct stmt_hit *x = *(const struct stmt_hit *const *)a;
	const struct stmt_hit *y = *(const struct stmt_hit *const *)b;
	int c = strcmp(x->label, y->label);

	if (c)
		return c;
	if (x->inl != y->inl)
		return x->inl - y->inl;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int expand_statements(struct session *s, const struct probe_point *pt,
			     const struct shape *sh, const struct elf_user *eu,
			     const char *proc, struct vec *out, int optional)
{
	const struct pp_comp *c = pt->comps.v[sh->stmt];
	const char *spec = family_str_arg(s, c);
	struct dw_index *ix = user_index(s, eu);
	struct vec hits = {0}, names = {0}, placed = {0};
	const struct stmt_hit *h, *prev = NULL;
	const char *label;
	struct stmt_spec sp;
	int i, j;

	if (!spec)
		return family_mismatch(s, pt, c, "statement needs a string argument");
	if (ix && !parse_stmt(s, spec, &sp))
		stmt_sites(s, ix, &sp, &hits);
	VEC_EACH(hits, i, h)
		if (!vec_has_str(&names, h->label))
			vec_push(s->arena, &names, (void *)h->label);
	if (hits.n > 1)	/* each label's places: bodies, then inline instances */
		qsort(hits.v, hits.n, sizeof *hits.v, by_label_pc);
	VEC_EACH(names, i, label) {
		placed.n = 0;	/* this label's addresses */
		VEC_EACH(hits, j, h) {
			struct probe_point *np;

			if (strcmp(h->label, label) ||
			    (prev && !strcmp(prev->label, label) &&
			     (s->list_probes || has_pc(&placed, h->pc))))
				continue;	/* -l: a label once (-L: every
						 * place, whose variables the
						 * listing intersects) */
			np = with_arg(s, pt, sh->stmt, h->label, proc);
			add_site_point(s, np)->hit = h;
			vec_push(s->arena, out, np);
			vec_push(s->arena, &placed, (void *)h);
			prev = h;
		}
	}
	return names.n ? 1 : no_match(s, pt, optional, "");
}

/* A statement point's site: its line's first address in its function. */
static int resolve_statement(struct session *s, const struct probe_point *pt,
			     const struct shape *sh, const struct elf_user *eu,
			     struct derived_probe *dp, struct uprobe_data *ud)
{
	const char *spec = family_str_arg(s, pt->comps.v[sh->stmt]);
	struct dw_index *ix = user_index(s, eu);
	const struct site_point *only;
	struct vec hits = {0};
	const struct stmt_hit *h;
	struct stmt_spec sp;
	struct usite *u;

	if (!spec || !ix || parse_stmt(s, spec, &sp))
		return no_match(s, pt, dp->optional, "");
	only = site_of(pt);
	if (only && only->hit) {
		h = only->hit;
	} else {
		stmt_sites(s, ix, &sp, &hits);
		if (!hits.n)
			return no_match(s, pt, dp->optional, "");
		h = hits.v[0];
	}
	ud->func = spec;
	ud->site = (struct dw_site){ .file = dw_index_file(ix),
		.module = ud->file, .cu_off = h->cu, .die_off = h->func, .pc = h->pc,
		.is_statement = 1, .is_user = 1 };
	if (!ud->site.file || !(u = new_site(s, eu, site_addr(&ud->site))))
		return no_match(s, pt, dp->optional, "");
	dp->user_pp = pp_format(s, &dp->comps);
	vec_push(s->arena, &ud->sites, u);
	return 1;
}

static const char *runtime_pp_uprobe(struct session *s,
				     const struct derived_probe *dp);

/* stap 4.8's names of a resolved marker or library function: the probe
 * is its pp() (-p2's head: the statement at the marker's site, in the
 * file that holds it; the library's function); -p2 shows a marker as the
 * point written with that statement for its .mark (SH: the marker's
 * shape); -l and pn() keep the point as written. */
static void stap_names(struct session *s, struct derived_probe *dp,
		       const struct shape *sh)
{
	const struct uprobe_data *ud = dp->data;
	const char *rp = runtime_pp_uprobe(s, dp);
	struct vec head = {0};
	int i, end;

	if (!rp)
		return;
	dp->list_pp = pp_format(s, &dp->comps);
	dp->pp = rp;
	if (!sh)
		return;
	end = sh->provider >= 0 ? sh->provider : sh->mark;
	for (i = 0; i < end; i++)
		vec_push(s->arena, &head, dp->comps.v[i]);
	dp->user_pp = arena_printf(s->arena, "%s.statement(0x%llx)",
				   pp_format(s, &head), (unsigned long long)
				   ((const struct usite *)ud->sites.v[0])->addr);
}

static int resolve_uprobe(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp)
{
	struct uprobe_data *ud = ARENA_NEW(s->arena, struct uprobe_data);
	const struct site_point *only;
	const struct elf_user_sym *f;
	const struct elf_user *eu;
	const char *name;
	struct usite *u;
	struct shape sh;
	size_t i;

	if (!shape_of(pt, &sh))
		return 0;
	eu = point_file(s, pt, &sh, &ud->proc, &ud->file, dp->optional);
	if (!eu)
		return dp->optional ? 0 : -1;
	dp->data = ud;
	family_probed_file(s, ud->file);
	if (sh.stmt >= 0)
		return resolve_statement(s, pt, &sh, eu, dp, ud);
	if (sh.plt >= 0)
		return resolve_plt(s, pt, &sh, eu, dp, ud);
	if (sh.func >= 0) {
		warn_no_dwarf(s, pt, ud->file, eu);
		ud->is_return = sh.suffix >= 0 && is(pt, sh.suffix, "return");
		ud->func = family_str_arg(s, pt->comps.v[sh.func]);
		only = site_of(pt);
		name = ud->func ? dwarf_site(s, ud, eu, sh.suffix >= 0 ?
					     comp_name(pt, sh.suffix) : NULL,
					     only ? only->func : NULL) : NULL;
		f = name && !ud->site.file ? elf_user_func(eu, name) : NULL;
		if (!(u = ud->site.file ? new_site(s, eu, site_addr(&ud->site)) :
			  f ? new_site(s, eu, f->addr) : NULL))
			return no_match(s, pt, dp->optional, "");
		dp->user_pp = pp_format(s, &dp->comps);	/* -p2: as resolved */
		vec_push(s->arena, &ud->sites, u);
		stap_names(s, dp, NULL);
		return 1;
	}
	ud->provider = sh.provider >= 0 ?
		family_str_arg(s, pt->comps.v[sh.provider]) : NULL;
	ud->mark = family_str_arg(s, pt->comps.v[sh.mark]);
	only = site_of(pt);
	for (i = 0; i < eu->nnotes; i++) {
		const struct elf_user_note *n = &eu->notes[i];

		if ((only && i != only->note) ||
		    (ud->provider && strcmp(n->provider, ud->provider)) ||
		    strcmp(n->name, ud->mark) ||
		    !(u = new_site(s, eu, n->pc)))
			continue;
		if (n->sem && elf_user_offset(eu, n->sem, &u->sem_offset))
			u->sem_offset = 0;
		u->args = n->args;
		if (!ud->site_provider)
			ud->site_provider = n->provider;
		vec_push(s->arena, &ud->sites, u);
	}
	if (!ud->sites.n)
		return no_match(s, pt, dp->optional, "");
	stap_names(s, dp, &sh);
	return 1;
}

/* ---- target variables of markers ---- */

/* $argN at every site of DP: the C of its raw value (one expression per
 * site, chosen at run time by the site's index, c->args[0]), its size and
 * sign; NULL when a site's operand is beyond this implementation. */
static const char *arg_c(struct session *s, struct derived_probe *dp, int n,
			 int *size, int *is_signed)
{
	const struct uprobe_data *ud = dp->data;
	const struct elf_user *eu;
	const struct usite *u;
	struct strbuf sb = {0};
	const char *c, *r;
	char err[256];
	int i, sz;

	eu = elf_user_open(ud->file, err, sizeof err);
	VEC_EACH(ud->sites, i, u) {
		const char *op = sdt_arg(s, u->args, n);
		c = eu && op ? sdt_operand_c(s, eu, op, &sz) : NULL;
		if (!c) {
			sb_free(&sb);
			return NULL;
		}
		if (i + 1 < ud->sites.n)
			sb_printf(&sb, "c->args[0] == %d ? (uint64_t)(%s) : ", i, c);
		else
			sb_printf(&sb, "(uint64_t)(%s)", c);
		*size = sz < 0 ? -sz : sz;
		*is_signed = sz < 0;
	}
	r = arena_strdup(s->arena, sb.s);
	sb_free(&sb);
	return r;
}

static int min_nargs(const struct uprobe_data *ud)
{
	const struct usite *u;
	int i, n = INT_MAX;

	VEC_EACH(ud->sites, i, u)
		if (sdt_nargs(u->args) < n)
			n = sdt_nargs(u->args);
	return n;
}

static struct tvar *arg_tvar(struct session *s, struct derived_probe *dp,
			     int n)
{
	struct tvar *tv = ARENA_NEW(s->arena, struct tvar);
	int size = 8, is_signed = 1;

	tv->final = TV_VALUE;
	tv->base = arg_c(s, dp, n, &size, &is_signed);
	tv->size = size;
	tv->is_signed = is_signed;
	return tv->base ? tv : NULL;
}

/* A variable this implementation cannot give: stap's words for a file
 * without DWARF (what it says of $argN beyond a marker's arguments). */
static int no_target(struct session *s, struct derived_probe *dp,
		     struct exp *e, int quiet)
{
	const struct uprobe_data *ud = dp->data;

	if (!quiet)
		diag_error(&s->diags, e->loc, "sema.uprobe-target",
			   "debuginfo scope not found for module '%s', cannot resolve context variable [man error::dwarf]",
			   ud->file);
	return -1;
}

static int target_uprobe(struct session *s, struct derived_probe *dp,
			 struct exp *e, int quiet)
{
	const struct uprobe_data *ud = dp->data;
	const char *name = e->u.target.name;
	struct sdt_marker m;
	int rc;

	if (ud->plt && e->kind == EX_TARGET && !strcmp(name, "$name"))
		return sdt_string_var(s, e, ud->plt);
	if (!ud->mark) {
		rc = ud->site.file ? dwarf_vars_target(s, dp, e, quiet) : -2;
		return rc == -2 ? no_target(s, dp, e, quiet) : rc;
	}
	m.name = ud->mark;
	m.provider = ud->site_provider;
	m.nargs = min_nargs(ud);
	m.arg = arg_tvar;
	rc = sdt_marker_var(s, dp, e, quiet, &m);
	return rc == -2 ? no_target(s, dp, e, quiet) : rc;
}

static void list_uprobe(struct session *s, struct derived_probe *dp,
			struct strbuf *out)
{
	const struct uprobe_data *ud = dp->data;
	int i, n;

	if (!ud->mark) {
		dwarf_vars_list(s, dp, out);
		return;
	}
	n = min_nargs(ud);
	for (i = 1; i <= n; i++)
		sb_printf(out, " $arg%d:long", i);
}

/* ---- pass 3 ---- */

static void emit_uprobe(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	const struct usite *u;
	int i, j, n = 0;

	emit_line(e, "static struct stp_uprobe stp_uprobes[] = {");
	VEC_EACH(*probes, i, dp) {
		const struct uprobe_data *ud = dp->data;
		VEC_EACH(ud->sites, j, u) {
			emit_line(e, "\t{ .probe = &stp_probes[%d], .path = %s, .proc = %s,",
				  dp->index, emit_cstr(e, ud->file, strlen(ud->file)),
				  emit_cstr(e, ud->proc, strlen(ud->proc)));
			emit_line(e, "\t  .offset = 0x%llxULL, .sem_offset = 0x%llxULL, .is_return = %d,",
				  (unsigned long long)u->offset,
				  (unsigned long long)u->sem_offset, ud->is_return);
			emit_line(e, "\t  .site = { %d, 0x%llxULL }, .optional = %d },", j,
				  (unsigned long long)u->addr, dp->optional);
			n++;
		}
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_uprobe, "_stp_uprobes",
				     "stp_uprobes", n);
}

static void emit_decls_uprobe(struct emit *e, struct vec *probes)
{
	emit_line(e, "#include \"probes/uprobe.c\"");
	dwarf_vars_emit_decls(e, probes);
}

/* @var in a function of a file with DWARF. */
static int atvar_uprobe(struct session *s, struct derived_probe *dp,
			struct exp *e, int quiet)
{
	const struct uprobe_data *ud = dp->data;

	if (!ud->site.file) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.uprobe-target",
				   "debuginfo scope not found for module '%s', cannot resolve context variable [man error::dwarf]",
				   ud->file);
		return -1;
	}
	return dwarf_vars_atvar(s, dp, e, quiet);
}

/* A guru write to a DWARF variable (markers' and symbol-table probes'
 * variables cannot be written). */
static int assign_uprobe(struct session *s, struct derived_probe *dp,
			 struct exp *e, enum op op)
{
	const struct uprobe_data *ud = dp->data;

	if (ud->site.file && !ud->mark)
		return dwarf_vars_assign(s, dp, e, op);
	diag_error(&s->diags, e->loc, "sema.target-write",
		   "target variable '$%s' cannot be written to",
		   e->u.target.name);
	return -1;
}

static int entry_target_uprobe(struct session *s,
			       const struct derived_probe *ret,
			       const char *name)
{
	const struct uprobe_data *ud = ret->data;

	return ud->site.file ? dwarf_vars_entry_target(s, ret, name) : 0;
}

static const char *const uprobe_shapes[] = {
	"process(string).function(string)",
	"process(string).function(string).call",
	"process(string).function(string).return",
	"process(string).function(string).exported",
	"process(string).function(string).inline",
	"process(string).library(string).function(string)",
	"process(string).library(string).function(string).call",
	"process(string).library(string).function(string).return",
	"process(string).library(string).function(string).exported",
	"process(string).library(string).function(string).inline",
	"process(string).mark(string)",
	"process(string).provider(string).mark(string)",
	"process(string).library(string).mark(string)",
	"process(string).library(string).provider(string).mark(string)",
	"process(string).statement(string)",
	"process(string).plt",
	"process(string).plt.return",
	"process(string).plt(string)",
	"process(string).plt(string).return",
	"process(number).statement(string)",
	"process(number).function(string)",
	"process(number).function(string).call",
	"process(number).function(string).return",
	"process(number).function(string).exported",
	"process(number).function(string).inline",
	"process(number).mark(string)",
	"process(number).provider(string).mark(string)",
	NULL,
};

/* pp() as stap 4.8 has it at run time: a marker is the statement at its
 * (first) site, in the file that holds it; a library's function names
 * the library as the process. */
static const char *runtime_pp_uprobe(struct session *s,
				     const struct derived_probe *dp)
{
	const struct uprobe_data *ud = dp->data;
	const struct usite *u = ud->sites.n ? ud->sites.v[0] : NULL;

	if (ud->mark && u)
		return arena_printf(s->arena, "process(\"%s\").statement(0x%llx)",
				    ud->file, (unsigned long long)u->addr);
	if (ud->func && strcmp(ud->file, ud->proc))
		return arena_printf(s->arena, "process(\"%s\").function(\"%s\")%s",
				    ud->file, ud->func,
				    ud->is_return ? ".return" : "");
	return NULL;
}

/* @entry: a uprobe on the entry of the function a .return watches. */
static struct derived_probe *entry_uprobe(struct session *s,
					  const struct derived_probe *ret)
{
	const struct uprobe_data *ud = ret->data;
	struct uprobe_data *cd;

	if (!ud || !ud->is_return)
		return NULL;
	cd = ARENA_NEW(s->arena, struct uprobe_data);
	*cd = *ud;
	struct derived_probe *cp;
	const char *rp;

	cd->is_return = 0;
	cd->site.is_return = 0;
	cp = family_entry_copy(s, ret, cd);
	if ((rp = runtime_pp_uprobe(s, cp)))	/* a library's function */
		cp->pp = arena_printf(s->arena, "%s.call", rp);
	return cp;
}

/* -p2: the probed address as stap notes it. */
static const char *note_uprobe(struct session *s, const struct derived_probe *dp)
{
	const struct uprobe_data *ud = dp->data;
	const struct usite *u = ud->sites.n ? ud->sites.v[0] : NULL;
	const struct elf_user *eu;
	char err[256];

	eu = elf_user_open(ud->file, err, sizeof err);
	if (!u || !eu)
		return "";
	/* an ET_EXEC's address from its first segment */
	return arena_printf(s->arena, " pc=%s+0x%llx ",
			    eu->is_dyn ? ".dynamic" : ".absolute",
			    (unsigned long long)(u->addr - (eu->is_dyn || !eu->nloads ?
							   0 : eu->loads[0].vaddr)));
}

static const char *type_uprobe(const struct derived_probe *dp)
{
	return ((const struct uprobe_data *)dp->data)->is_return ? "uretprobe"
								 : "uprobe";
}

const struct probe_family family_uprobe = {
	.name = "uprobe", .resolve = resolve_uprobe, .emit = emit_uprobe,
	.expand = expand_uprobe, .kind = "uprobe", .probe_type = type_uprobe,
	.shapes = uprobe_shapes, .target_var = target_uprobe,
	.list_vars = list_uprobe, .emit_decls = emit_decls_uprobe,
	.runtime_pp = runtime_pp_uprobe, .listing_note = note_uprobe,
	.entry_probe = entry_uprobe, .entry_target = entry_target_uprobe,
	.atvar = atvar_uprobe, .target_assign = assign_uprobe,
	.keeps_stable_calls = 1,	/* as in stap's DWARF probes */
};
