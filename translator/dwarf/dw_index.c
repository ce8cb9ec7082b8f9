/* dw_index.c - the function index of a debug file (dw_index.h).
 *
 * Reads: a debug ELF through libdw (one Dwarf per thread for a linked
 * file, whose compilation units the threads share out; the relocated
 * Dwarf of dw_file alone for a module's ET_REL file) and its symbol
 * table through libdwfl.  Writes DIR/BUILDID.idx (a header, the records
 * sorted by name, the strings), by a temporary file renamed into place,
 * and maps it.  Knows nothing of the session: paths in, plain data out.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_index.h"
#include "util/cxxhash.h"

#define IX_MAGIC "CTAPDWI"
#define IX_VERSION 14
#define MAX_THREADS 8
#define MAX_HELD 256	/* indexes whose use is locked (one fd each):
			   module("*") maps thousands */

struct ix_header {
	char magic[8];
	uint32_t version;
	uint32_t nfuncs;
	uint32_t strsize;
	uint32_t nnocode;	/* names of functions without code, after
				   the records (uint32_t string offsets) */
	uint64_t pc_base;	/* the records' pcs are offsets from it */
	char build_id[48];	/* hex, NUL-terminated */
};

struct dw_index {
	char *path;
	void *map;
	size_t size;
	const struct ix_header *h;
	const struct dw_func *funcs;
	const uint32_t *nocode;
	const char *str;
	struct dw_file *file;	/* opened for lazy reads */
};

/* ---- a record while building: strings are pointers ------------------ */

struct rec {
	const char *name, *file;
	uint32_t line, flags;
	uint64_t pc;
	uint32_t cu_off, die_off, origin, rank;
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static int recs_push(struct recs *r, const struct rec *x)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct rec *v = realloc(r->v, cap * sizeof *v);

		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = *x;
	return 0;
}

/* ---- the DWARF walk -------------------------------------------------- */

struct job {
	Elf *elf;		/* the debug file, mapped once for all */
	Dwarf *shared;		/* ET_REL: the one relocated Dwarf */
	uint64_t bias;
	uint64_t *cus;		/* CU DIE offsets */
	size_t ncus;
	size_t next;		/* the next CU to take (atomic) */
	int failed;
};

/* A CU as stap 4.8 tables its functions (rank_unit): the names
 * dwarf_getfuncs gives, in its order, and the records walked there. */
struct unit {
	uint32_t cu_off;
	const char **names;
	size_t nnames;
	size_t first, end;	/* its records in the worker's out */
};

struct worker {
	struct job *job;
	Dwarf *dbg;		/* its own (libdw's caches are not shared
				   between threads) over job->elf */
	struct recs out;
	struct recs codeless;	/* functions defined without code: merged
				   into another, or abstract ones
				   (DW_FN_DECL_INLINE) without an instance;
				   only their names */
	struct unit *units;	/* the CUs it walked */
	size_t nunits, capunits;
};

/* D's entry pc; 0, 1 when it is its first range's, -1 if none. */
static int entry_pc(Dwarf_Die *d, Dwarf_Addr *pc)
{
	Dwarf_Addr base, lo, hi;

	if (dwarf_entrypc(d, pc) == 0)
		return 0;
	if (dwarf_ranges(d, 0, &base, &lo, &hi) > 0) {
		*pc = lo;
		return 1;
	}
	return -1;
}

static void line_at(Dwarf_Die *cu, Dwarf_Addr pc, struct rec *r)
{
	Dwarf_Line *l = dwarf_getsrc_die(cu, pc);
	int line;

	if (!l || dwarf_lineno(l, &line))
		return;
	r->file = dwarf_linesrc(l, NULL, NULL);
	r->line = line;
}

static void add_func(struct worker *w, Dwarf_Die *d, Dwarf_Die *cu,
		     int is_inline)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin;
	Dwarf_Addr pc;
	struct rec r = {0};
	int line = 0, how;

	if (!is_inline && dwarf_hasattr(d, DW_AT_declaration))
		return;
	how = entry_pc(d, &pc);
	if (how < 0 || !pc) {	/* abstract, or discarded */
		r.name = is_inline ? NULL : dwarf_diename(d);
		r.flags = dwarf_hasattr(d, DW_AT_inline) ? DW_FN_DECL_INLINE : 0;
		if (r.name && recs_push(&w->codeless, &r))
			w->job->failed = 1;
		return;
	}
	r.name = dwarf_diename(d);
	if (!r.name)
		return;
	r.file = dwarf_decl_file(d);
	if (dwarf_decl_line(d, &line) == 0)
		r.line = line;
	if (!r.file || !r.line)	/* asm: where the line table puts it */
		line_at(cu, pc, &r);
	r.pc = pc + w->job->bias;
	r.cu_off = dwarf_dieoffset(cu);
	r.die_off = dwarf_dieoffset(d);
	r.origin = r.die_off;
	if (is_inline && dwarf_attr(d, DW_AT_abstract_origin, &attr) &&
	    dwarf_formref_die(&attr, &origin))
		r.origin = dwarf_dieoffset(&origin);
	r.flags = (is_inline ? DW_FN_INLINE : 0) | (how ? DW_FN_RANGES : 0);
	if (dwarf_attr_integrate(d, DW_AT_inline, &attr))
		r.flags |= DW_FN_DECL_INLINE;
	if (dwarf_hasattr_integrate(d, DW_AT_external))
		r.flags |= DW_FN_EXTERNAL;
	if (recs_push(&w->out, &r))
		w->job->failed = 1;
}

/* Functions and inline instances anywhere under D (a subprogram's body
 * holds its inline instances, nested in blocks and in each other). */
static void walk(struct worker *w, Dwarf_Die *d, Dwarf_Die *cu)
{
	Dwarf_Die c;
	int tag;

	if (dwarf_child(d, &c))
		return;
	do {
		tag = dwarf_tag(&c);
		if (tag == DW_TAG_subprogram)
			add_func(w, &c, cu, 0);
		else if (tag == DW_TAG_inlined_subroutine)
			add_func(w, &c, cu, 1);
		else if (tag != DW_TAG_lexical_block)
			continue;
		if (dwarf_haschildren(&c))
			walk(w, &c, cu);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* ---- stap's order within a CU ---------------------------------------- */

/* The names dwarf_getfuncs gives, in its order. */
struct names {
	const char **v;
	size_t n, cap;
};

static int add_name(Dwarf_Die *d, void *arg)
{
	struct names *ns = arg;
	const char *name = dwarf_diename(d);
	const char **v;

	if (!name)
		return DWARF_CB_OK;
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? 2 * ns->cap : 256;
		v = realloc(ns->v, ns->cap * sizeof *v);
		if (!v)
			return DWARF_CB_ABORT;
		ns->v = v;
	}
	ns->v[ns->n++] = name;
	return DWARF_CB_OK;
}

/* Record CU's function names and the records just walked there. */
static int add_unit(struct worker *w, Dwarf_Die *cu, size_t first)
{
	struct names ns = {0};
	struct unit *v;

	if (w->nunits == w->capunits) {
		w->capunits = w->capunits ? 2 * w->capunits : 256;
		v = realloc(w->units, w->capunits * sizeof *v);
		if (!v)
			return -1;
		w->units = v;
	}
	if (dwarf_getfuncs(cu, add_name, &ns, 0) < 0 && ns.n == 0) {
		free(ns.v);
		ns.v = NULL;
	}
	w->units[w->nunits++] = (struct unit){
		.cu_off = dwarf_dieoffset(cu), .names = ns.v, .nnames = ns.n,
		.first = first, .end = w->out.n,
	};
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct job *job = w->job;
	Dwarf_Die cu;
	size_t i, first;

	for (;;) {
		i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		if (i >= job->ncus)
			break;
		if (!dwarf_offdie(w->dbg, job->cus[i], &cu))
			continue;
		first = w->out.n;
		walk(w, &cu, &cu);
		if (add_unit(w, &cu, first))
			job->failed = 1;
	}
	return NULL;
}

static int list_cus(Dwarf *dbg, struct job *job)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	uint64_t *v;

	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (job->ncus == cap) {
			cap = cap ? 2 * cap : 1024;
			v = realloc(job->cus, cap * sizeof *v);
			if (!v)
				return -1;
			job->cus = v;
		}
		job->cus[job->ncus++] = off + hsize;
		off = next;
	}
	return 0;
}

/* Walk every CU; the workers' Dwarf handles stay open (their strings are
 * the records') until close_workers. */
static int walk_all(struct job *job, struct worker *ws, int *nw)
{
	pthread_t tid[MAX_THREADS];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int n = job->shared ? 1 : ncpu < 1 ? 1 : ncpu > MAX_THREADS ? MAX_THREADS : (int)ncpu;
	int i, started = 0;

	for (i = 0; i < n; i++) {
		ws[i].job = job;
		if (job->shared) {
			ws[i].dbg = job->shared;
			continue;
		}
		/* One mapping of the file's sections for every handle (a
		 * mapping each would count its pages in the RSS once each):
		 * libdw takes the sections' data here, before the threads. */
		ws[i].dbg = job->elf ? dwarf_begin_elf(job->elf, DWARF_C_READ, NULL) : NULL;
		if (!ws[i].dbg)
			return *nw = i, -1;
	}
	*nw = n;
	for (i = 1; i < n; i++)
		started += pthread_create(&tid[i], NULL, work, &ws[i]) == 0;
	work(&ws[0]);
	for (i = 1; i <= started; i++)
		pthread_join(tid[i], NULL);
	return job->failed ? -1 : 0;
}

static void close_workers(struct worker *ws, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (ws[i].dbg && ws[i].dbg != ws[i].job->shared)
			dwarf_end(ws[i].dbg);
		free(ws[i].out.v);
		free(ws[i].codeless.v);
		for (size_t u = 0; u < ws[i].nunits; u++)
			free(ws[i].units[u].names);
		free(ws[i].units);
	}
}

/* ---- the symbol table ------------------------------------------------ */

struct sym {
	uint64_t addr, size;
	const char *name;
	int global, bad_section;
	uint32_t idx;		/* its place in the symbol table */
	uint32_t cu_off;	/* the CU holding addr; 0: none */
	uint32_t rank;		/* in that CU's table (rank_unit), if not
				   a DWARF name there; else UINT32_MAX */
};

static const char *const bad_sections[] = {
	".init.", ".exit.", ".devinit.", ".devexit.", ".cpuinit.",
	".cpuexit.", ".meminit.", ".memexit.",
};

static int section_is_bad(Elf *elf, GElf_Word shndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, shndx);
	size_t shstr, i;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstr))
		return 0;
	name = elf_strptr(elf, shstr, sh.sh_name);
	for (i = 0; name && i < sizeof bad_sections / sizeof *bad_sections; i++)
		if (!strncmp(name, bad_sections[i], strlen(bad_sections[i])))
			return 1;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The offset of the CU holding ADDR; 0 if none. */
static uint32_t symbol_cu(Dwfl_Module *mod, GElf_Addr addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);

	return cu ? (uint32_t)dwarf_dieoffset(cu) : 0;
}

static struct sym *read_symbols(Dwfl_Module *mod, size_t *np)
{
	int i, n = dwfl_module_getsymtab(mod);
	struct sym *v = n > 0 ? calloc(n, sizeof *v) : NULL;
	GElf_Sym s;
	GElf_Addr addr, bias;
	GElf_Word shndx;
	Elf *elf;
	const char *name;
	size_t k = 0;

	for (i = 1; v && i < n; i++) {
		name = dwfl_module_getsym_info(mod, i, &s, &addr, &shndx, &elf,
					       &bias);
		if (!name || !*name || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    !addr || s.st_shndx == SHN_UNDEF)
			continue;
		v[k].addr = addr;
		v[k].size = s.st_size;
		v[k].name = name;
		v[k].global = GELF_ST_BIND(s.st_info) == STB_GLOBAL ||
			      GELF_ST_BIND(s.st_info) == STB_WEAK;
		v[k].bad_section = section_is_bad(elf, shndx);
		v[k].idx = i;
		v[k].cu_off = symbol_cu(mod, addr);
		v[k].rank = UINT32_MAX;
		k++;
	}
	if (v)
		qsort(v, k, sizeof *v, by_addr);
	*np = k;
	return v;
}

/* The first of the N elements of SIZE bytes at V (sorted by CMP) that is
 * not below KEY; N if none. */
static size_t lower_bound(const void *v, size_t n, size_t size,
			  const void *key,
			  int (*cmp)(const void *elem, const void *key))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cmp((const char *)v + mid * size, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int sym_addr_cmp(const void *elem, const void *key)
{
	uint64_t a = ((const struct sym *)elem)->addr, b = *(const uint64_t *)key;

	return a < b ? -1 : a > b;
}

/* The first symbol at ADDR or, if none, the last one below it. */
static const struct sym *sym_at(const struct sym *v, size_t n, uint64_t addr)
{
	size_t lo = lower_bound(v, n, sizeof *v, &addr, sym_addr_cmp);

	if (lo < n && v[lo].addr == addr)
		return &v[lo];
	return lo ? &v[lo - 1] : NULL;
}

/* ---- strings --------------------------------------------------------- */

struct strtab {
	char *buf;
	size_t len, cap;
	uint32_t *slots;	/* offsets; 0: empty */
	size_t nslots, used;
};

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int strtab_grow(struct strtab *t)
{
	size_t n = t->nslots ? 2 * t->nslots : 1 << 16, i, j;
	uint32_t *slots = calloc(n, sizeof *slots);

	if (!slots)
		return -1;
	for (i = 0; i < t->nslots; i++) {
		if (!t->slots[i])
			continue;
		for (j = hash_str(t->buf + t->slots[i]) & (n - 1); slots[j];
		     j = (j + 1) & (n - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

/* S's offset in T, added on first use; (uint32_t)-1 when out of memory. */
static uint32_t strtab_add(struct strtab *t, const char *s)
{
	size_t j, n;

	if (!s || !*s)
		return 0;
	n = strlen(s) + 1;
	if (2 * (t->used + 1) > t->nslots && strtab_grow(t))
		return (uint32_t)-1;
	for (j = hash_str(s) & (t->nslots - 1); t->slots[j];
	     j = (j + 1) & (t->nslots - 1))
		if (!strcmp(t->buf + t->slots[j], s))
			return t->slots[j];
	while (t->len + n > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1 << 20;
		char *b = realloc(t->buf, cap);

		if (!b)
			return (uint32_t)-1;
		if (!t->len)
			b[t->len++] = 0;
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->slots[j] = t->len;
	t->used++;
	t->len += n;
	return t->slots[j];
}

static void strtab_free(struct strtab *t)
{
	free(t->buf);
	free(t->slots);
}

/* Does T hold S? */
static int strtab_has(const struct strtab *t, const char *s)
{
	size_t j;

	if (!t->nslots)
		return 0;
	for (j = hash_str(s) & (t->nslots - 1); t->slots[j];
	     j = (j + 1) & (t->nslots - 1))
		if (!strcmp(t->buf + t->slots[j], s))
			return 1;
	return 0;
}

/* ---- building -------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->die_off != y->die_off)
		return x->die_off < y->die_off ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* ---- stap's tables of a CU's functions -------------------------------- */

/* A name and its place in the table's order. */
struct ranked {
	const char *name;
	uint32_t rank;
};

static int by_ranked_name(const void *a, const void *b)
{
	return strcmp(((const struct ranked *)a)->name,
		      ((const struct ranked *)b)->name);
}

static int by_cu_then_idx(const void *a, const void *b)
{
	const struct sym *x = *(const struct sym *const *)a;
	const struct sym *y = *(const struct sym *const *)b;

	if (x->cu_off != y->cu_off)
		return x->cu_off < y->cu_off ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The symbols of BYCU[0..N) (by CU) in CU_OFF: *FIRST, returns how many. */
static int sym_cu_cmp(const void *elem, const void *key)
{
	uint32_t a = (*(struct sym *const *)elem)->cu_off;
	uint32_t b = *(const uint32_t *)key;

	return a < b ? -1 : a > b;
}

static size_t unit_symbols(struct sym **bycu, size_t n, uint32_t cu_off,
			   size_t *first)
{
	size_t lo = lower_bound(bycu, n, sizeof *bycu, &cu_off, sym_cu_cmp), end;

	for (end = lo; end < n && bycu[end]->cu_off == cu_off; end++)
		;
	*first = lo;
	return end - lo;
}

static struct ranked *find_ranked(struct ranked *v, size_t n, const char *name)
{
	struct ranked key = { .name = name };

	return name ? bsearch(&key, v, n, sizeof *v, by_ranked_name) : NULL;
}

/* Does symbol S join its CU's table: a name without a '.' (not a clone
 * or a part) that is not one of the CU's DWARF functions (DW, N)? */
static int joins_table(const struct sym *s, struct ranked *dw, size_t n)
{
	return !strchr(s->name, '.') && !find_ranked(dw, n, s->name);
}

/* Rank CU U's records R as stap 4.8 visits its functions: it keeps them
 * in a std::unordered_multimap by name, filled in dwarf_getfuncs' order,
 * then with the symbol table's functions in the CU that join it
 * (joins_table: aliases above all), in the table's order; a wildcard's
 * matches come in that map's order.  A record's rank is its name's first
 * place there (none: UINT32_MAX), and so is such a symbol's (SYMS, the
 * CU's, by table order).  Checked against stap 4.8's -p2 on 6.1, 5.10,
 * 6.12 and 7.2; which symbols join is what those listings show (a
 * unit's .cold parts do not). */
static int rank_unit(const struct unit *u, struct rec *r, struct sym **syms,
		     size_t nsyms)
{
	size_t n = u->nnames + nsyms, i, k = 0, nd;
	const char **names = malloc((n ? n : 1) * sizeof *names);
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	struct ranked *dw = malloc((u->nnames + 1) * sizeof *dw), *v = NULL, *hit;
	int rc = -1;

	if (!names || !order || !dw)
		goto out;
	for (i = 0; i < u->nnames; i++)
		dw[i] = (struct ranked){ .name = u->names[i] };
	qsort(dw, u->nnames, sizeof *dw, by_ranked_name);
	memcpy(names, u->names, u->nnames * sizeof *names);
	for (i = 0, nd = u->nnames; i < nsyms; i++)
		if (joins_table(syms[i], dw, u->nnames))
			names[nd++] = syms[i]->name;
	v = malloc((nd ? nd : 1) * sizeof *v);
	if (!v || cxxhash_multimap_order(names, nd, order))
		goto out;
	for (i = 0; i < nd; i++)	/* a name's entries are adjacent */
		if (!k || strcmp(v[k - 1].name, names[order[i]]))
			v[k++] = (struct ranked){ names[order[i]], (uint32_t)i };
	qsort(v, k, sizeof *v, by_ranked_name);
	for (i = u->first; i < u->end; i++)
		r[i].rank = (hit = find_ranked(v, k, r[i].name)) ? hit->rank : UINT32_MAX;
	for (i = 0; i < nsyms; i++)
		if (joins_table(syms[i], dw, u->nnames) &&
		    (hit = find_ranked(v, k, syms[i]->name)))
			syms[i]->rank = hit->rank;
	rc = 0;
out:
	free(names);
	free(order);
	free(dw);
	free(v);
	return rc;
}

/* Rank every worker's records, and the symbols that join their CUs'
 * tables (SYMS by address). */
static int rank_units(struct worker *ws, int nw, struct sym *syms, size_t nsyms)
{
	struct sym **bycu = malloc((nsyms ? nsyms : 1) * sizeof *bycu);
	size_t i, first, n;
	int k, rc = 0;

	if (!bycu)
		return -1;
	for (i = 0; i < nsyms; i++)
		bycu[i] = &syms[i];
	qsort(bycu, nsyms, sizeof *bycu, by_cu_then_idx);
	for (k = 0; k < nw && !rc; k++)
		for (i = 0; i < ws[k].nunits && !rc; i++) {
			n = unit_symbols(bycu, nsyms, ws[k].units[i].cu_off, &first);
			rc = rank_unit(&ws[k].units[i], ws[k].out.v, bycu + first, n);
		}
	free(bycu);
	return rc;
}

/* The flags the symbol table gives REC; EXPORTED names the global ones. */
static void mark_symbols(struct rec *r, const struct sym *syms, size_t nsyms,
			 struct strtab *exported)
{
	const struct sym *s = sym_at(syms, nsyms, r->pc);
	for (; s && s < syms + nsyms && s->addr == r->pc; s++) {
		if (strstr(s->name, ".part."))
			r->flags |= DW_FN_PART;
		if (strstr(s->name, ".cold"))
			r->flags |= DW_FN_COLD;
	}
	s = sym_at(syms, nsyms, r->pc);
	if (s && s->bad_section)
		r->flags |= DW_FN_BAD_SECTION;
	if (strtab_has(exported, r->name))
		r->flags |= DW_FN_EXPORTED;
}

/* DWARF records by entry pc (the out-of-line ones), for aliases. */
struct by_pc {
	uint64_t pc;
	uint32_t cu_off, die_off;
};

static int by_pc_cmp(const void *a, const void *b)
{
	const struct by_pc *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->die_off < y->die_off ? -1 : x->die_off > y->die_off;
}

/* The out-of-line DWARF function of CU_OFF whose entry is PC; NULL if
 * none. */
static int by_pc_key(const void *elem, const void *key)
{
	uint64_t a = ((const struct by_pc *)elem)->pc, b = *(const uint64_t *)key;

	return a < b ? -1 : a > b;
}

static const struct by_pc *entry_at(const struct by_pc *v, size_t n,
				    uint64_t pc, uint32_t cu_off)
{
	size_t lo = lower_bound(v, n, sizeof *v, &pc, by_pc_key);

	for (; lo < n && v[lo].pc == pc; lo++)
		if (v[lo].cu_off == cu_off)
			return &v[lo];
	return NULL;
}

/* The function symbols DWARF does not name: code without DWARF (asm,
 * .cold parts, clones such as NAME.isra.0), and other names of a DWARF
 * function (DW_FN_ALIAS: a name without a '.' at its entry, as the
 * kernel's __x64_sys_NAME of a system call without arguments, which
 * stap 4.8 lists and probes as that function).  A symbol named as an
 * out-of-line function, or as a function defined without code here
 * (CODELESS) and not an alias (sys_ni.c's discarded weak definitions of
 * the __x64_sys_ names), is left out; one at the entry of a function that
 * a query matches by name is left out by the query (dwarf.c), as stap
 * does.  An alias's origin is its function's DIE until fix_aliases. */
static int add_symtab_only(struct recs *all, const struct sym *syms,
			   size_t nsyms, struct strtab *codeless)
{
	struct rec r = {0};
	struct strtab outofline = {0};
	struct by_pc *pcs = malloc((all->n ? all->n : 1) * sizeof *pcs);
	const struct by_pc *fn;
	size_t i, n = 0;
	int rc = pcs ? 0 : -1;

	if (strtab_grow(&outofline))
		rc = -1;
	for (i = 0; i < all->n && !rc; i++) {
		if (all->v[i].flags & DW_FN_INLINE)
			continue;
		pcs[n++] = (struct by_pc){ all->v[i].pc, all->v[i].cu_off,
					   all->v[i].die_off };
		if (strtab_add(codeless, all->v[i].name) == (uint32_t)-1 ||
		    strtab_add(&outofline, all->v[i].name) == (uint32_t)-1)
			rc = -1;
	}
	if (pcs)
		qsort(pcs, n, sizeof *pcs, by_pc_cmp);
	for (i = 0; i < nsyms && !rc; i++) {
		fn = strchr(syms[i].name, '.') ? NULL :
		     entry_at(pcs, n, syms[i].addr, syms[i].cu_off);
		if (strtab_has(codeless, syms[i].name) &&
		    (!fn || strtab_has(&outofline, syms[i].name)))
			continue;
		r.name = syms[i].name;
		r.pc = syms[i].addr;
		r.rank = syms[i].rank;
		r.flags = DW_FN_SYMTAB | (syms[i].global ? DW_FN_EXPORTED : 0) |
			  (syms[i].bad_section ? DW_FN_BAD_SECTION : 0);
		r.origin = fn ? fn->die_off : 0;
		if (fn)
			r.flags |= DW_FN_ALIAS;
		rc = recs_push(all, &r);
	}
	free(pcs);
	strtab_free(&outofline);
	return rc;
}

static int by_die(const void *a, const void *b)
{
	const struct by_pc *x = a, *y = b;

	return x->die_off < y->die_off ? -1 : x->die_off > y->die_off;
}

/* Each alias's origin: its function's place in ALL (sorted). */
static int fix_aliases(struct recs *all)
{
	struct by_pc *v = malloc((all->n ? all->n : 1) * sizeof *v), key, *hit;
	size_t i, n = 0;

	if (!v)
		return -1;
	for (i = 0; i < all->n; i++)	/* pc: the place */
		if (!(all->v[i].flags & (DW_FN_INLINE | DW_FN_SYMTAB)))
			v[n++] = (struct by_pc){ i, 0, all->v[i].die_off };
	qsort(v, n, sizeof *v, by_die);
	for (i = 0; i < all->n; i++) {
		if (!(all->v[i].flags & DW_FN_ALIAS))
			continue;
		key.die_off = all->v[i].origin;
		hit = bsearch(&key, v, n, sizeof *v, by_die);
		if (hit)
			all->v[i].origin = (uint32_t)hit->pc;
		else
			all->v[i].flags &= ~DW_FN_ALIAS;
	}
	free(v);
	return 0;
}

/* The index file OUT: the records ALL, then the names of NOCODE (a set).
 * *FD: OUT opened, with a shared lock taken before it had its name, so
 * that no cache cleaner removes it before it is mapped. */
static int write_index(const char *out, const char *build_id,
		       struct recs *all, const struct strtab *nocode,
		       int *fd, char *err, size_t errlen)
{
	struct strtab st = {0};
	struct ix_header h = {0};
	struct dw_func *fv = calloc(all->n ? all->n : 1, sizeof *fv);
	uint32_t *nv = calloc(nocode->used + 1, sizeof *nv);
	char tmp[4200];
	size_t i, off;
	FILE *f;
	int rc = -1;

	h.pc_base = all->n ? all->v[0].pc : 0;
	for (i = 1; i < all->n; i++)
		if (all->v[i].pc < h.pc_base)
			h.pc_base = all->v[i].pc;
	for (i = 0; fv && i < all->n; i++) {
		if (all->v[i].pc - h.pc_base > UINT32_MAX) {
			snprintf(err, errlen, "code spread over more than 4 GB");
			goto out;
		}
		fv[i].name = strtab_add(&st, all->v[i].name);
		fv[i].file = all->v[i].file ? strtab_add(&st, all->v[i].file) : 0;
		if (fv[i].name == (uint32_t)-1 || fv[i].file == (uint32_t)-1)
			break;
		fv[i].line = all->v[i].line;
		fv[i].flags = all->v[i].flags;
		fv[i].pc_off = (uint32_t)(all->v[i].pc - h.pc_base);
		fv[i].cu_off = all->v[i].cu_off;
		fv[i].die_off = all->v[i].die_off;
		fv[i].origin = all->v[i].origin;
		fv[i].rank = all->v[i].rank;
	}
	for (off = 1; nv && off < nocode->len; off += strlen(nocode->buf + off) + 1)
		if ((nv[h.nnocode++] = strtab_add(&st, nocode->buf + off)) ==
		    (uint32_t)-1)
			break;
	if (!fv || i < all->n || !nv || off < nocode->len) {
		snprintf(err, errlen, "out of memory indexing the debug info");
		goto out;
	}
	memcpy(h.magic, IX_MAGIC, sizeof IX_MAGIC);	/* h.pc_base: above */
	h.version = IX_VERSION;
	h.nfuncs = all->n;
	h.strsize = st.len;
	snprintf(h.build_id, sizeof h.build_id, "%s", build_id);
	snprintf(tmp, sizeof tmp, "%s.%d.tmp", out, (int)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fwrite(&h, sizeof h, 1, f) != 1 ||
	    fwrite(fv, sizeof *fv, all->n, f) != all->n ||
	    fwrite(nv, sizeof *nv, h.nnocode, f) != h.nnocode ||
	    fwrite(st.buf, 1, st.len, f) != st.len) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) || (*fd = open(tmp, O_RDONLY | O_CLOEXEC)) < 0 ||
	    flock(*fd, LOCK_SH) || rename(tmp, out)) {
		snprintf(err, errlen, "cannot write %s: %s", out, strerror(errno));
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(fv);
	free(nv);
	strtab_free(&st);
	return rc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The global function names of SYMS, as a string set. */
static int exported_names(struct strtab *set, const struct sym *syms,
			  size_t n)
{
	size_t i;

	if (strtab_grow(set))
		return -1;
	for (i = 0; i < n; i++)
		if (syms[i].global && strtab_add(set, syms[i].name) == (uint32_t)-1)
			return -1;
	return 0;
}

/* Merge the workers' records with the symbol table's facts into ALL, and
 * the names of the functions without code into the set NOCODE. */
static int collect(struct recs *all, struct strtab *nocode, struct worker *ws,
		   int nw, struct dw_file *df)
{
	struct strtab exported = {0}, codeless = {0};
	struct sym *syms;
	size_t nsyms = 0, i;
	int k, rc = -1;

	syms = read_symbols(dw_file_module(df), &nsyms);
	if (exported_names(&exported, syms, nsyms) || strtab_grow(&codeless) ||
	    rank_units(ws, nw, syms, nsyms))
		goto out;
	for (k = 0; k < nw; k++)
		for (i = 0; i < ws[k].out.n; i++) {
			mark_symbols(&ws[k].out.v[i], syms, nsyms, &exported);
			if (recs_push(all, &ws[k].out.v[i]))
				goto out;
		}
	for (k = 0; k < nw; k++)
		for (i = 0; i < ws[k].codeless.n; i++)
			if (strtab_add(nocode, ws[k].codeless.v[i].name) ==
			    (uint32_t)-1 ||
			    (!(ws[k].codeless.v[i].flags & DW_FN_DECL_INLINE) &&
			     strtab_add(&codeless, ws[k].codeless.v[i].name) ==
			     (uint32_t)-1))
				goto out;
	if (add_symtab_only(all, syms, nsyms, &codeless))
		goto out;
	qsort(all->v, all->n, sizeof *all->v, by_name);
	if (fix_aliases(all))
		goto out;
	rc = 0;
out:
	free(syms);
	strtab_free(&exported);
	strtab_free(&codeless);
	return rc;
}

static int build(const char *path, const char *out, const char *build_id,
		 FILE *progress, int *fd, char *err, size_t errlen)
{
	struct dw_file *df = dw_file_open(path, err, errlen);
	struct worker ws[MAX_THREADS];
	struct job job = { 0 };
	struct recs all = {0};
	struct strtab nocode = {0};
	GElf_Ehdr eh;
	Elf *elf;
	Dwarf *dbg;
	double t0 = now();
	int nw = 0, rc = -1;

	if (!df)
		return -1;
	memset(ws, 0, sizeof ws);
	dbg = dw_file_dwarf(df, &job.bias);
	elf = job.elf = dwarf_getelf(dbg);
	if (elf && gelf_getehdr(elf, &eh) && eh.e_type == ET_REL)
		job.shared = dbg;
	if (progress)
		fprintf(progress, "Indexing the functions of %s (once for its build-id %s)...\n",
			path, build_id);
	if (list_cus(dbg, &job) || walk_all(&job, ws, &nw) ||
	    strtab_grow(&nocode) || collect(&all, &nocode, ws, nw, df)) {
		snprintf(err, errlen, "cannot index the debug info of %s: %s",
			 path, dwarf_errmsg(-1));
		goto out;
	}
	rc = write_index(out, build_id, &all, &nocode, fd, err, errlen);
	if (progress && !rc)
		fprintf(progress, "Indexed %zu functions of %zu units in %.1f s\n",
			all.n, job.ncus, now() - t0);
out:
	close_workers(ws, nw);
	strtab_free(&nocode);
	free(all.v);
	free(job.cus);
	return rc;
}

/* ---- loading --------------------------------------------------------- */

/* PATH's NT_GNU_BUILD_ID as hex into BUF (at least 48 bytes); "" if none. */
static void elf_build_id(const char *path, char *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	size_t off, no, dof, i;

	buf[0] = 0;
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)) && !buf[0]) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (off = 0; (off = gelf_getnote(d, off, &nh, &no, &dof));) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + no, "GNU", 4))
				continue;
			for (i = 0; i < nh.n_descsz && i < 23; i++)
				sprintf(buf + 2 * i, "%02x",
					((unsigned char *)d->d_buf)[dof + i]);
			break;
		}
	}
	elf_end(elf);
	close(fd);
}

/* Mark a saved index used by this process (dw_index.h): its modification
 * time made now, for a cleaner that removes the least recently used
 * first, and a shared lock held on FD until the process exits, for one
 * that must not remove an index in use.  Returns whether FD was kept. */
static int hold_index(int fd)
{
	static int held;

	futimens(fd, NULL);
	if (held >= MAX_HELD || flock(fd, LOCK_SH | LOCK_NB))
		return 0;
	held++;
	return 1;
}

/* The index open as FD (closed here unless SAVED and held). */
static struct dw_index *map_fd(int fd, const char *build_id, int saved)
{
	struct dw_index *ix;
	struct stat st;
	void *map;
	const struct ix_header *h;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof *h) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	h = map;
	if (memcmp(h->magic, IX_MAGIC, sizeof IX_MAGIC) ||
	    h->version != IX_VERSION || strcmp(h->build_id, build_id) ||
	    sizeof *h + (size_t)h->nfuncs * sizeof(struct dw_func) +
	    (size_t)h->nnocode * sizeof(uint32_t) +
	    h->strsize != (size_t)st.st_size ||
	    !(ix = calloc(1, sizeof *ix))) {
		munmap(map, st.st_size);
		close(fd);
		return NULL;
	}
	if (!saved || !hold_index(fd))
		close(fd);
	ix->map = map;
	ix->size = st.st_size;
	ix->h = h;
	ix->funcs = (const struct dw_func *)(h + 1);
	ix->nocode = (const uint32_t *)(ix->funcs + h->nfuncs);
	ix->str = (const char *)(ix->nocode + h->nnocode);
	return ix;
}

struct dw_index *dw_index_open(const char *path, const char *dir,
			       FILE *progress, char *err, size_t errlen)
{
	char build_id[48], file[4096];
	struct dw_index *ix;
	const char *tmp = getenv("TMPDIR");

	elf_build_id(path, build_id);
	if (!build_id[0]) {
		snprintf(err, errlen, "%s has no build-id", path);
		return NULL;
	}
	if (!dir)	/* not saved: built into a file that is removed */
		snprintf(file, sizeof file, "%s/ctap-dwidx-%d-%s.idx",
			 tmp && *tmp ? tmp : "/tmp", (int)getpid(), build_id);
	else
		snprintf(file, sizeof file, "%s/%s.idx", dir, build_id);
	ix = dir ? map_fd(open(file, O_RDONLY | O_CLOEXEC), build_id, 1) : NULL;
	if (!ix) {
		int fd = -1;

		if (build(path, file, build_id, progress, &fd, err, errlen))
			return NULL;
		ix = map_fd(fd, build_id, dir != NULL);
		if (!dir)
			unlink(file);
		if (!ix) {
			snprintf(err, errlen, "cannot read the index %s", file);
			return NULL;
		}
	}
	ix->path = strdup(path);
	return ix;
}

/* ---- queries --------------------------------------------------------- */

const char *dw_index_build_id(const struct dw_index *ix)
{
	return ix->h->build_id;
}

const char *dw_index_path(const struct dw_index *ix)
{
	return ix->path;
}

size_t dw_index_count(const struct dw_index *ix)
{
	return ix->h->nfuncs;
}

const struct dw_func *dw_index_at(const struct dw_index *ix, size_t i)
{
	return &ix->funcs[i];
}

const char *dw_index_str(const struct dw_index *ix, uint32_t off)
{
	return off < ix->h->strsize ? ix->str + off : "";
}

uint64_t dw_index_pc(const struct dw_index *ix, const struct dw_func *f)
{
	return ix->h->pc_base + f->pc_off;
}

size_t dw_index_nocode_count(const struct dw_index *ix)
{
	return ix->h->nnocode;
}

const char *dw_index_nocode_name(const struct dw_index *ix, size_t i)
{
	return dw_index_str(ix, ix->nocode[i]);
}

size_t dw_index_strsize(const struct dw_index *ix)
{
	return ix->h->strsize;
}

size_t dw_index_lookup(const struct dw_index *ix, const char *name,
		       size_t *first)
{
	size_t lo = 0, hi = ix->h->nfuncs, end;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(ix->str + ix->funcs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < ix->h->nfuncs &&
	     !strcmp(ix->str + ix->funcs[end].name, name); end++)
		;
	*first = lo;
	return end - lo;
}

int dw_file_matches(const char *pat, const char *file)
{
	const char *p;

	if (!fnmatch(pat, file, 0))
		return 1;
	for (p = file; (p = strchr(p, '/')); p++)
		if (!fnmatch(pat, p + 1, 0))
			return 1;
	return 0;
}

static Dwarf *lazy_dwarf(const struct dw_index *ix, uint64_t *bias)
{
	struct dw_index *w = (struct dw_index *)ix;
	char err[256];

	if (!w->file)
		w->file = dw_file_open(ix->path, err, sizeof err);
	return w->file ? dw_file_dwarf(w->file, bias) : NULL;
}

struct dw_file *dw_index_file(const struct dw_index *ix)
{
	uint64_t bias;

	return lazy_dwarf(ix, &bias) ? ix->file : NULL;
}

struct line_row {
	int line;
	Dwarf_Addr addr;	/* DWARF address */
};

static int by_row_line(const void *a, const void *b)
{
	const struct line_row *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The search state of dw_index_stmt_lines. */
struct stmt {
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nlines;
	struct line_row *rows;	/* SRCFILE's rows by line, then address */
	size_t nrows;
	Dwarf_Die *dies;
	const struct dw_stmt_func *funcs;
	size_t n;
	uint64_t bias;
	struct line_row *hits;	/* the lines found, in search order */
	size_t nhits, caphits;
};

/* The first row of LINE (nrows if none). */
static size_t first_row(const struct stmt *st, int line)
{
	size_t lo = 0, hi = st->nrows;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (st->rows[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* LINE's lowest row in function I, added to the hits; 0 if none. */
static int hit_line(struct stmt *st, size_t i, int line)
{
	size_t r;

	for (r = first_row(st, line); r < st->nrows && st->rows[r].line == line;
	     r++)
		if (dwarf_haspc(&st->dies[i], st->rows[r].addr) == 1) {
			if (st->nhits == st->caphits) {
				size_t cap = 2 * st->caphits + 64;
				struct line_row *v = realloc(st->hits, cap * sizeof *v);

				if (!v)
					return 0;
				st->hits = v;
				st->caphits = cap;
			}
			st->hits[st->nhits++] = st->rows[r];
			return 1;
		}
	return 0;
}

/* :* in function I: from the line at its entry pc (the last row there,
 * else its first row in table order), line after line while each has a
 * row in the function. */
static void all_lines(struct stmt *st, size_t i)
{
	Dwarf_Addr pc = st->funcs[i].pc - st->bias, a;
	Dwarf_Line *l = dwarf_getsrc_die(&st->cu, pc);
	size_t k, r;
	int line = -1;

	if (l && !dwarf_lineaddr(l, &a) && a == pc)
		dwarf_lineno(l, &line);
	for (k = 0; line < 0 && k < st->nlines; k++) {
		l = dwarf_onesrcline(st->lines, k);
		if (l && !dwarf_lineaddr(l, &a) &&
		    dwarf_haspc(&st->dies[i], a) == 1)
			dwarf_lineno(l, &line);
	}
	while (line >= 0 && hit_line(st, i, line)) {
		for (r = first_row(st, line); r < st->nrows &&
		     st->rows[r].line == line; r++)
			;
		line = r < st->nrows ? st->rows[r].line : -1;
	}
}

/* Does some function in the file have a row of LINE? */
static int has_line(struct stmt *st, int line)
{
	size_t i, save = st->nhits;
	int found = 0;

	for (i = 0; i < st->n && !found; i++)
		if (st->funcs[i].in_file)
			found = hit_line(st, i, line);
	st->nhits = save;
	return found;
}

static int stmt_setup(struct stmt *st, const struct dw_index *ix,
		      uint64_t cu_off, const char *srcfile)
{
	Dwarf *dbg = lazy_dwarf(ix, &st->bias);
	const char *src;
	Dwarf_Line *l;
	size_t k;
	int line;

	if (!dbg || !dwarf_offdie(dbg, cu_off, &st->cu) ||
	    dwarf_getsrclines(&st->cu, &st->lines, &st->nlines))
		return -1;
	st->rows = malloc((st->nlines + 1) * sizeof *st->rows);
	st->dies = calloc(st->n + 1, sizeof *st->dies);
	if (!st->rows || !st->dies)
		return -1;
	for (k = 0; k < st->nlines; k++) {
		l = dwarf_onesrcline(st->lines, k);
		src = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
		if (!src || strcmp(src, srcfile) || dwarf_lineno(l, &line) ||
		    dwarf_lineaddr(l, &st->rows[st->nrows].addr))
			continue;
		st->rows[st->nrows++].line = line;
	}
	qsort(st->rows, st->nrows, sizeof *st->rows, by_row_line);
	for (k = 0; k < st->n; k++)
		if (!dwarf_offdie(dbg, st->funcs[k].die_off, &st->dies[k]))
			return -1;
	return 0;
}

int dw_index_stmt_lines(const struct dw_index *ix, uint64_t cu_off,
			const char *srcfile, const struct dw_stmt_func *funcs,
			size_t n, enum dw_lines kind, int l1, int l2,
			void (*fn)(void *arg, size_t i, int line,
				   uint64_t addr),
			void *arg, int *below, int *above)
{
	struct stmt st = { .funcs = funcs, .n = n };
	size_t i, h, k, naddr = 0;
	int line, rc = -1, first = -1;

	*below = *above = 0;
	if (stmt_setup(&st, ix, cu_off, srcfile))
		goto out;
	for (line = kind == DW_LINES_RANGE ? l1 : 0;; line++) {
		for (i = 0; i < n; i++) {
			if (!funcs[i].in_file)
				continue;
			if (first < 0)
				first = (int)i;
			if (kind == DW_LINES_ALL)
				all_lines(&st, i);
			else if (kind == DW_LINES_RELATIVE)
				hit_line(&st, i, l1 + funcs[i].decl_line);
			else
				hit_line(&st, i, kind == DW_LINES_ONE ? l1 : line);
		}
		if (kind != DW_LINES_RANGE || line >= l2)
			break;
	}
	for (h = 0; h < st.nhits; h++) {	/* an address once */
		for (k = 0; k < h && st.hits[k].addr != st.hits[h].addr; k++)
			;
		if (k < h)
			continue;
		naddr++;
		for (i = 0; i < n; i++)
			if (dwarf_haspc(&st.dies[i], st.hits[h].addr) == 1)
				fn(arg, i, st.hits[h].line, st.hits[h].addr + st.bias);
	}
	if (!naddr && first >= 0 &&
	    (kind == DW_LINES_ONE || kind == DW_LINES_RELATIVE)) {
		line = l1 + (kind == DW_LINES_RELATIVE ? funcs[first].decl_line : 0);
		for (k = 1; k < 6; k++) {
			if (!*below && has_line(&st, line - (int)k))
				*below = line - (int)k;
			if (!*above && has_line(&st, line + (int)k))
				*above = line + (int)k;
		}
	}
	rc = (int)naddr;
out:
	free(st.rows);
	free(st.hits);
	free(st.dies);
	return rc;
}

int dw_index_addr_site(const struct dw_index *ix, uint64_t pc,
		       uint64_t *cu_off, uint64_t *die_off, uint64_t *prev)
{
	uint64_t bias;
	Dwarf *dbg = lazy_dwarf(ix, &bias);
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Lines *lines;
	Dwarf_Addr a, addr = pc - bias;
	size_t n, i;
	int k, ns, exact = 0;

	*cu_off = *die_off = *prev = 0;
	if (!dbg || !dwarf_addrdie(dbg, addr, &cu))
		return -1;
	*cu_off = dwarf_dieoffset(&cu);
	ns = dwarf_getscopes(&cu, addr, &scopes);
	for (k = 0; k < ns; k++)
		if (dwarf_tag(&scopes[k]) == DW_TAG_subprogram ||
		    dwarf_tag(&scopes[k]) == DW_TAG_inlined_subroutine) {
			*die_off = dwarf_dieoffset(&scopes[k]);
			break;
		}
	free(scopes);
	if (dwarf_getsrclines(&cu, &lines, &n))
		return 0;
	for (i = 0; i < n; i++) {
		if (dwarf_lineaddr(dwarf_onesrcline(lines, i), &a))
			continue;
		if (a == addr)
			exact = 1;
		else if (a < addr && a + bias > *prev)
			*prev = a + bias;
	}
	return exact;
}

const char *dw_index_addr_symbol(const struct dw_index *ix, uint64_t pc,
				 uint64_t *off)
{
	uint64_t bias;
	GElf_Sym sym;
	GElf_Off o = 0;
	const char *name;

	if (!lazy_dwarf(ix, &bias))
		return NULL;
	name = dwfl_module_addrinfo(dw_file_module(ix->file), pc, &o, &sym,
				    NULL, NULL, NULL);
	*off = o;
	return name;
}

/* A GNU call site's callee (DW_AT_abstract_origin, the function called
 * directly) and its return address (DW_AT_low_pc): 0, or -1 for an
 * indirect call. */
static int gnu_call_site(Dwarf_Die *d, Dwarf_Die *callee, Dwarf_Addr *ret)
{
	Dwarf_Attribute a;

	if (!dwarf_attr(d, DW_AT_abstract_origin, &a) ||
	    !dwarf_formref_die(&a, callee) || dwarf_lowpc(d, ret))
		return -1;
	return 0;
}

static void callees_in(Dwarf_Die *parent, uint64_t bias,
		       dw_callee_fn *fn, void *arg)
{
	Dwarf_Die d, callee;
	Dwarf_Addr ret;
	const char *name;

	if (dwarf_child(parent, &d))
		return;
	do {
		int tag = dwarf_tag(&d);

		if (tag == DW_TAG_lexical_block)
			callees_in(&d, bias, fn, arg);
		else if (tag == DW_TAG_inlined_subroutine &&
			 dwarf_hasattr(&d, DW_AT_low_pc) &&
			 (name = dwarf_diename(&d)))
			fn(arg, name, dwarf_dieoffset(&d), 0);
		else if (tag == DW_TAG_GNU_call_site &&
			 !gnu_call_site(&d, &callee, &ret) &&
			 (name = dwarf_diename(&callee)))
			fn(arg, name, dwarf_dieoffset(&callee), ret + bias);
	} while (dwarf_siblingof(&d, &d) == 0);
}

int dw_index_callees(const struct dw_index *ix, const struct dw_func *f,
		     dw_callee_fn *fn, void *arg)
{
	uint64_t bias;
	Dwarf *dbg = lazy_dwarf(ix, &bias);
	Dwarf_Die d;

	if (!dbg || !dwarf_offdie(dbg, f->die_off, &d))
		return -1;
	callees_in(&d, bias, fn, arg);
	return 0;
}

int dw_index_one_range(const struct dw_index *ix, const struct dw_func *f)
{
	uint64_t bias;
	Dwarf *dbg = lazy_dwarf(ix, &bias);
	Dwarf_Die d;

	return dbg && dwarf_offdie(dbg, f->die_off, &d) &&
	       dwarf_hasattr(&d, DW_AT_low_pc);
}
