/* probes/kmark.c - SDT markers in kernel modules:
 *   module("M").mark("NAME"), module("M").provider("P").mark("NAME")
 *
 * A module built with sys/sdt.h's STAP_PROBEn/DTRACE_PROBEn keeps each
 * marker in its .note.stapsdt, as a program does; in the .ko (ET_REL)
 * the note's pc fields are 0 and a relocation (.rela.note.stapsdt) says
 * where the nop is: a section symbol or a function plus an addend.  The
 * site is the function symbol of that section holding it, plus an
 * offset, which the kernel resolves as "M:function+offset" when the
 * probe registers (runtime/probes/kmark.c: at the start or when the
 * module loads later; unregistered when it unloads).  M is a module name
 * (its file in the target kernel's modules' debug tree, else in its
 * modules' tree) or a path to a .ko, either with wildcards.  $argN comes
 * from the note's operands (sdt.c, reading pt_regs and kernel memory; a
 * symbol relative to %rip looked up in the loaded module), the site that
 * fired telling which when the sites' operands differ; $$name,
 * $$provider, $$parms as for user-space markers.  stap 4.8 has
 * no kernel markers: the family is ours, its words stap's for markers.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/family.h"

struct ksite {
	const char *provider, *name, *args;
	const char *func;	/* the function symbol holding the nop */
	uint64_t off;		/* from it */
};

struct kmark_data {
	const char *module;	/* its name, as the kernel knows it */
	const char *provider, *mark, *args;
	struct vec sites;	/* struct ksite *: the marker's sites */
};

/* ---- the module file ---------------------------------------------------- */

struct kosym {
	const char *name;
	size_t shndx;
	uint64_t value, size;
	int is_func;
};

/* The function symbol of section SHNDX holding OFF. */
static const struct kosym *holder(const struct kosym *syms, size_t n,
				size_t shndx, uint64_t off)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (syms[i].is_func && syms[i].shndx == shndx &&
		    off >= syms[i].value && off < syms[i].value + syms[i].size)
			return &syms[i];
	return NULL;
}

/* The markers of the .ko at PATH (struct ksite *, in note order) into
 * OUT; -1 when it cannot be read as ELF. */
static int read_sites(struct session *s, const char *path, struct vec *out)
{
	Elf *elf;
	Elf_Scn *scn = NULL, *notes = NULL, *rela = NULL, *symtab = NULL;
	GElf_Shdr sh, symsh = {0};
	size_t shstrndx, nsyms = 0, i, off = 0, next, name_off, desc_off;
	struct kosym *syms = NULL;
	Elf_Data *d;
	GElf_Nhdr nh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			symsh = sh;
		} else if (name && !strcmp(name, ".note.stapsdt")) {
			notes = scn;
		} else if (name && !strcmp(name, ".rela.note.stapsdt")) {
			rela = scn;
		}
	}
	if (symtab && (d = elf_getdata(symtab, NULL)) && symsh.sh_entsize) {
		GElf_Sym sym;

		nsyms = symsh.sh_size / symsh.sh_entsize;
		syms = arena_alloc(s->arena, sizeof *syms * (nsyms + 1));
		for (i = 0; i < nsyms && gelf_getsym(d, (int)i, &sym); i++) {
			const char *n = elf_strptr(elf, symsh.sh_link, sym.st_name);

			syms[i].name = arena_strdup(s->arena, n ? n : "");
			syms[i].shndx = sym.st_shndx;
			syms[i].value = sym.st_value;
			syms[i].size = sym.st_size;
			syms[i].is_func = GELF_ST_TYPE(sym.st_info) == STT_FUNC;
		}
	}
	d = notes ? elf_getdata(notes, NULL) : NULL;
	while (d && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
		const char *desc = (const char *)d->d_buf + desc_off, *p;
		const char *end = desc + nh.n_descsz;
		struct ksite *k;
		Elf_Data *rd;
		GElf_Shdr rsh;
		GElf_Rela r;
		size_t j, nr;

		off = next;
		if (nh.n_type != 3 || nh.n_namesz != 8 ||
		    memcmp((const char *)d->d_buf + name_off, "stapsdt", 8) ||
		    nh.n_descsz < 27 || end[-1])
			continue;
		k = ARENA_NEW(s->arena, struct ksite);
		p = desc + 24;
		k->provider = arena_strdup(s->arena, p);
		p += strlen(p) + 1;
		k->name = arena_strdup(s->arena, p < end ? p : "");
		p += strlen(p) + 1;
		k->args = arena_strdup(s->arena, p < end ? p : "");
		/* the relocation of the pc field: a symbol plus an addend */
		rd = rela ? elf_getdata(rela, NULL) : NULL;
		nr = rela && gelf_getshdr(rela, &rsh) && rsh.sh_entsize ?
			rsh.sh_size / rsh.sh_entsize : 0;
		for (j = 0; rd && j < nr && gelf_getrela(rd, (int)j, &r); j++) {
			size_t si = GELF_R_SYM(r.r_info);
			const struct kosym *f;
			uint64_t at;

			if (r.r_offset != desc_off || si >= nsyms)
				continue;
			at = syms[si].value + (uint64_t)r.r_addend;
			f = holder(syms, nsyms, syms[si].shndx, at);
			if (f) {
				k->func = f->name;
				k->off = at - f->value;
			}
			break;
		}
		vec_push(s->arena, out, k);
	}
	elf_end(elf);
	close(fd);
	return 0;
}

/* The module's name from its file: the base name without ".ko", '-'
 * made '_' as the kernel has it. */
static const char *module_name(struct session *s, const char *path)
{
	const char *b = strrchr(path, '/');
	char *n = arena_strdup(s->arena, b ? b + 1 : path), *p;

	if ((p = strstr(n, ".ko")))
		*p = '\0';
	for (p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

/* ---- points ------------------------------------------------------------- */

struct shape {
	int provider, mark;	/* component indexes; provider -1: none */
};

static int shape_of(const struct probe_point *pt, struct shape *sh)
{
	const struct pp_comp *c;

	if (pt->comps.n < 2 || pt->comps.n > 3)
		return 0;
	c = pt->comps.v[0];
	if (strcmp(c->name, "module") || !c->arg || c->arg->kind != EX_STR)
		return 0;
	sh->provider = -1;
	if (pt->comps.n == 3) {
		c = pt->comps.v[1];
		if (strcmp(c->name, "provider") || !c->arg)
			return 0;
		sh->provider = 1;
	}
	c = pt->comps.v[pt->comps.n - 1];
	sh->mark = pt->comps.n - 1;
	return !strcmp(c->name, "mark") && c->arg;
}

/* The .ko module("M") names (a path, or a module of the target kernel:
 * its debug file, else the module itself), or NULL. */
static const char *module_file(struct session *s, const char *m)
{
	const struct kernel_info *k;
	char *p = NULL;
	const char *r;

	if (strchr(m, '/'))
		return access(m, R_OK) ? NULL : m;
	k = kernel_target(s);
	if (k && k->module_debug_dir)
		p = modtree_find(k->module_debug_dir, m);
	if (!p && k && k->modules_dir)
		p = modtree_find(k->modules_dir, m);
	if (!p)
		return NULL;
	r = arena_strdup(s->arena, p);
	free(p);
	return r;
}

/* module("PATTERN"): the modules whose names match, each once (as
 * module() names them, struct kv: name and file). */
struct modglob {
	struct session *s;
	const char *pat;
	struct vec *out;
};

static void add_module(struct session *s, struct vec *out, const char *name,
		       const char *path)
{
	const struct kv *kv;
	struct kv *n;
	int i;

	VEC_EACH(*out, i, kv)
		if (!strcmp(kv->name, name))
			return;
	n = ARENA_NEW(s->arena, struct kv);
	n->name = arena_strdup(s->arena, name);
	n->value = arena_strdup(s->arena, path);
	vec_push(s->arena, out, n);
}

static int glob_one(const char *path, const char *name, void *arg)
{
	struct modglob *g = arg;

	if (!fnmatch(g->pat, name, 0))
		add_module(g->s, g->out, name, path);
	return 0;
}

/* The modules module("M") names: M itself, or those a wildcard matches
 * (in the modules' debug tree and the modules' tree; a wildcard in a
 * path: the files it matches). */
static void modules_of(struct session *s, const char *m, struct vec *out)
{
	const struct kernel_info *k = kernel_target(s);
	struct modglob g = { s, m, out };
	const char *file;
	glob_t gl;
	size_t i;

	if (!strpbrk(m, "*?[")) {
		if ((file = module_file(s, m)))
			add_module(s, out, m, file);
		return;
	}
	if (strchr(m, '/')) {
		if (glob(m, 0, NULL, &gl) == 0)
			for (i = 0; i < gl.gl_pathc; i++)
				add_module(s, out, gl.gl_pathv[i],
					   gl.gl_pathv[i]);
		globfree(&gl);
		return;
	}
	if (k && k->module_debug_dir)
		modtree_each(k->module_debug_dir, glob_one, &g);
	if (k && k->modules_dir)
		modtree_each(k->modules_dir, glob_one, &g);
}

static int no_match(struct session *s, const struct probe_point *pt)
{
	diag_error(&s->diags, pt->loc, "sema.kmark-no-match",
		   "probe point '%s' matches no probe (no match)",
		   pp_format(s, (struct vec *)&pt->comps));
	return -1;
}

static const char *str_of(struct session *s, const struct probe_point *pt,
			  int i, const char *dflt)
{
	return i < 0 ? dflt : family_str_arg(s, pt->comps.v[i]);
}

/* A copy of PT with component I's argument ARG. */
static void set_arg(struct session *s, struct probe_point *np, int i,
		    const char *arg)
{
	struct pp_comp *nc = ARENA_NEW(s->arena, struct pp_comp);

	*nc = *(const struct pp_comp *)np->comps.v[i];
	nc->arg = ast_str(s->arena, nc->loc, arg, strlen(arg), NULL);
	np->comps.v[i] = nc;
}

/* The points of module MOD's markers that match PAT and PROV into OUT;
 * how many. */
static int module_points(struct session *s, const struct probe_point *pt,
			 const struct shape *sh, const struct kv *mod,
			 const char *pat, const char *prov, struct vec *out)
{
	struct vec sites = {0}, seen = {0};
	const struct ksite *k, *o;
	int i, j;

	if (read_sites(s, mod->value, &sites))
		return 0;
	VEC_EACH(sites, i, k) {
		struct probe_point *np;

		if (fnmatch(prov, k->provider, 0) || fnmatch(pat, k->name, 0))
			continue;
		VEC_EACH(seen, j, o)
			if (!strcmp(o->provider, k->provider) &&
			    !strcmp(o->name, k->name))
				break;
		if (j < seen.n)
			continue;
		vec_push(s->arena, &seen, (void *)k);
		np = ARENA_NEW(s->arena, struct probe_point);
		*np = *pt;
		np->comps = (struct vec){0};
		VEC_EACH(pt->comps, j, o)
			vec_push(s->arena, &np->comps, (void *)o);
		set_arg(s, np, 0, mod->name);
		set_arg(s, np, sh->mark, k->name);
		if (sh->provider >= 0)
			set_arg(s, np, sh->provider, k->provider);
		vec_push(s->arena, out, np);
	}
	return seen.n;
}

/* One point per module and marker (provider and name) the point
 * matches. */
static int expand_kmark(struct session *s, const struct probe_point *pt,
			struct vec *out)
{
	const char *m, *pat, *prov;
	struct shape sh;
	struct vec mods = {0};
	const struct kv *mod;
	int i, n = 0, optional = pt->optional;

	if (!shape_of(pt, &sh))
		return 0;
	m = family_str_arg(s, pt->comps.v[0]);
	pat = str_of(s, pt, sh.mark, NULL);
	prov = str_of(s, pt, sh.provider, "*");
	if (!m || !pat || !prov)
		return family_mismatch(s, pt, pt->comps.v[sh.mark],
				       "mark needs a string argument");
	pat = sdt_mark_pattern(s, pat);
	modules_of(s, m, &mods);
	VEC_EACH(mods, i, mod)
		n += module_points(s, pt, &sh, mod, pat, prov, out);
	if (n)
		return 1;
	return optional ? 0 : no_match(s, pt);
}

static int resolve_kmark(struct session *s, const struct probe_point *pt,
			 struct derived_probe *dp)
{
	struct kmark_data *kd;
	struct shape sh;
	struct vec sites = {0};
	const char *m, *file, *prov;
	const struct ksite *k;
	int i;

	if (!shape_of(pt, &sh))
		return 0;
	m = family_str_arg(s, pt->comps.v[0]);
	file = m ? module_file(s, m) : NULL;
	if (!file || read_sites(s, file, &sites))
		return no_match(s, pt);
	kd = ARENA_NEW(s->arena, struct kmark_data);
	kd->module = strchr(m, '/') ? module_name(s, m) : m;
	kd->mark = str_of(s, pt, sh.mark, NULL);
	prov = str_of(s, pt, sh.provider, NULL);
	VEC_EACH(sites, i, k) {
		if (strcmp(k->name, kd->mark) || (prov && strcmp(k->provider, prov)))
			continue;
		if (!k->func)
			return family_mismatch(s, pt, pt->comps.v[sh.mark],
					       "no symbol holds this address");
		if (!kd->provider) {
			kd->provider = k->provider;
			kd->args = k->args;
		}
		vec_push(s->arena, &kd->sites, (void *)k);
	}
	if (!kd->sites.n)
		return no_match(s, pt);
	dp->data = kd;
	if (!strchr(m, '/'))
		dp->kmodule = m;	/* the testbed guest loads it */
	return 1;
}

/* ---- target variables --------------------------------------------------- */

/* One site's operand OP as a signed 64-bit value; NULL if unreadable. */
static const char *site_operand(struct session *s, const char *module,
				const char *op)
{
	int sz;
	const char *c = op ? sdt_kernel_operand_c(s, module, op, &sz) : NULL;

	if (!c)
		return NULL;
	if (sz == 8 || sz == -8)
		return arena_printf(s->arena, "(int64_t)(%s)", c);
	return arena_printf(s->arena, "(int64_t)(%sint%d_t)(%s)",
			    sz < 0 ? "" : "u", (sz < 0 ? -sz : sz) * 8, c);
}

/* $argN's value.  The same operand at every site: read as it is.  Else
 * the site is told by the probed address (the handler's ip), the
 * address of each site in the loaded module.  NULL when an operand
 * cannot be read. */
static struct tvar *arg_tvar(struct session *s, struct derived_probe *dp,
			     int n)
{
	const struct kmark_data *kd = dp->data;
	const struct ksite *k;
	struct tvar *tv = ARENA_NEW(s->arena, struct tvar);
	const char *op = sdt_arg(s, kd->args, n), *c;
	struct strbuf sb = {0};
	int i, sz, same = 1;

	VEC_EACH(kd->sites, i, k) {
		const char *o = sdt_arg(s, k->args, n);
		if (!o || !op)
			return NULL;
		same &= !strcmp(o, op);
	}
	tv->final = TV_VALUE;
	if (same) {
		tv->base = sdt_kernel_operand_c(s, kd->module, op, &sz);
		tv->size = sz < 0 ? -sz : sz;
		tv->is_signed = sz < 0;
		return tv->base ? tv : NULL;
	}
	VEC_EACH(kd->sites, i, k) {
		if (!(c = site_operand(s, kd->module, sdt_arg(s, k->args, n)))) {
			sb_free(&sb);
			return NULL;
		}
		sb_printf(&sb, "c->regs->ip == %s ? %s : ",
			  kernel_modsite_c(s, kd->module, k->func, k->off), c);
	}
	tv->base = arena_printf(s->arena, "(%s0)", sb.s);
	tv->size = 8;
	tv->is_signed = 1;
	sb_free(&sb);
	return tv;
}

static int no_target(struct session *s, struct derived_probe *dp,
		     struct exp *e, int quiet)
{
	const struct kmark_data *kd = dp->data;

	if (!quiet)
		diag_error(&s->diags, e->loc, "sema.kmark-target",
			   "debuginfo scope not found for module '%s', cannot resolve context variable [man error::dwarf]",
			   kd->module);
	return -1;
}

static int target_kmark(struct session *s, struct derived_probe *dp,
			struct exp *e, int quiet)
{
	const struct kmark_data *kd = dp->data;
	struct sdt_marker m = { kd->mark, kd->provider, sdt_nargs(kd->args),
				arg_tvar };
	int rc = sdt_marker_var(s, dp, e, quiet, &m);

	return rc == -2 ? no_target(s, dp, e, quiet) : rc;
}

static void list_kmark(struct session *s, struct derived_probe *dp,
		       struct strbuf *out)
{
	const struct kmark_data *kd = dp->data;
	int i, n = sdt_nargs(kd->args);

	(void)s;
	for (i = 1; i <= n; i++)
		sb_printf(out, " $arg%d:long", i);
}

/* ---- pass 3 ------------------------------------------------------------- */

/* Each site a kprobe at "M:function+offset", registered by the kernel's
 * lookup when the module is loaded: at the start, or when it loads later
 * (runtime/probes/kmark.c). */
static void emit_kmark(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	const struct ksite *k;
	int i, j, n = 0;

	emit_line(e, "static struct stp_kprobe stp_kmark_probes[] = {");
	VEC_EACH(*probes, i, dp) {
		const struct kmark_data *kd = dp->data;

		VEC_EACH(kd->sites, j, k) {
			const char *sym = arena_printf(e->s->arena, "%s:%s",
						       kd->module, k->func);

			emit_line(e, "\t{ .probe = &stp_probes[%d], .symbol = %s, .offset = %llu, .in_module = 1, .optional = %d },",
				  dp->index, emit_cstr(e, sym, strlen(sym)),
				  (unsigned long long)k->off, dp->optional);
			n++;
		}
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_kmark, "_stp_kmarks",
				     "stp_kmark_probes", n);
}

static void emit_decls_kmark(struct emit *e, struct vec *probes)
{
	(void)probes;
	emit_line(e, "#include \"probes/kmark.c\"");
}

/* -p2: where the probe goes. */
static const char *note_kmark(struct session *s, const struct derived_probe *dp)
{
	const struct kmark_data *kd = dp->data;
	const struct ksite *k = kd->sites.v[0];

	return arena_printf(s->arena, " pc=<%s:%s+%llu> ", kd->module, k->func,
			    (unsigned long long)k->off);
}

static const char *type_kmark(const struct derived_probe *dp)
{
	(void)dp;
	return "kprobe";
}

static const char *const kmark_shapes[] = {
	"module(string).mark(string)",
	"module(string).provider(string).mark(string)", NULL,
};

const struct probe_family family_kmark = {
	.name = "kmark",
	.resolve = resolve_kmark,
	.emit = emit_kmark,
	.emit_decls = emit_decls_kmark,
	.listing_note = note_kmark,
	.kind = "kernel.function",
	.probe_type = type_kmark,
	.keeps_stable_calls = 1,
	.expand = expand_kmark,
	.target_var = target_kmark,
	.list_vars = list_kmark,
	.patterns = kmark_shapes,
	.shapes = kmark_shapes,
};
