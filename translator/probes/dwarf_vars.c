/* dwarf_vars.c - target variables of DWARF probes (kernel.function,
 * kernel.statement, module().function, and process().function in a
 * program with DWARF: a site with is_user, whose reads are the process's
 * registers and memory): $param, $local, $return, $$vars and the like,
 * -L's variable lists, and which names a .return probe takes at entry.
 *
 * Reads the probe's site (struct dw_site, first in dp->data) and, through
 * dwarf/, the variables in scope at its pc, their C types and their
 * locations at that pc; writes tvar accesses (elab/tvar.h) whose base is
 * the location's straight-line C over runtime/stp_dwarf.h.  Errors are
 * stap 4.8's texts.  The probe family (probes/dwarf.c) owns the sites and
 * calls these from its record.
 */
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

#define WHAT "dwarf variable"

/* DP's site, its debug file opened on first use when the family left it
 * to us (the kernel's debug vmlinux). */
static const struct dw_site *site_of(struct session *s,
				     const struct derived_probe *dp)
{
	struct dw_site *st = dp->data;
	const struct kernel_info *k;
	char err[512];

	if (!st->file && !st->module && (k = kernel_target(s)) && k->vmlinux)
		st->file = dw_file_open(k->vmlinux, err, sizeof err);
	return st;
}

/* stap retries a function's entry pc after its 5-byte __fentry__ call
 * when a location does not cover the entry itself. */
static uint64_t retry_pc(const struct dw_site *st)
{
	return st->is_statement || st->is_inline || st->is_user ? 0 : st->pc + 5;
}

/* sprint_symbol's link-time address: kernel addresses are relocated by
 * its distance (stp_kread.h's _stp_kaddr_at). */
static uint64_t kernel_anchor(struct session *s)
{
	const struct ksyms *k = ksyms_kernel(s);

	return k ? ksyms_addr(k, "sprint_symbol") : 0;
}

/* PC as errors show it: a user-space file's ELF address (libdwfl lays a
 * PIE or a library out at a bias of its own). */
static unsigned long long shown_pc(const struct dw_site *st, uint64_t pc)
{
	uint64_t bias = 0;

	if (st->is_user)
		dw_file_dwarf(st->file, &bias);
	return (unsigned long long)(pc - bias);
}

static const char *module_name(const struct dw_site *st)
{
	return st->module ? st->module : "kernel";
}

/* Does a $var look in the lexical blocks holding the site's pc?  Not at
 * an inline instance's function probe: stap 4.8 takes its scopes from
 * the instance's DIE, whose blocks are not among them ($ret in 6.1's
 * inlined vfs_fsconfig_locked() is "unable to find local"). */
static int find_nested(const struct dw_site *st)
{
	return st->is_statement || !st->is_inline;
}

/* The variables in the site's scopes (PARMS: 1 parameters only, 0
 * locals only, -1 both), one per name; LIVE: only those with a value at
 * its pc (a const_value or a location covering it, or covering stap's
 * retry pc after a function's __fentry__ call), as -L lists them. */
static int scope_vars(const struct dw_site *st, int parms, int live,
		      struct dw_var **out)
{
	struct dw_var *v;
	int n = dw_vars_at(st->file, st->die_off, st->pc, st->is_statement, &v);
	int i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (parms >= 0 && v[i].is_param != parms)
			continue;
		if (live && !dw_loc_covers(st->file, v[i].die_off, st->pc) &&
		    (!retry_pc(st) ||
		     !dw_loc_covers(st->file, v[i].die_off, retry_pc(st))))
			continue;
		if (dw_type_of(st->file, v[i].die_off)->kind == CT_VOID)
			continue;	/* no type stap could name */
		for (j = 0; j < k && strcmp(v[j].name, v[i].name); j++)
			;
		if (j < k)
			continue;
		v[k++] = v[i];
	}
	*out = v;
	return n < 0 ? 0 : k;
}

/* ---- errors ---- */

struct cand {
	const char *name;
	int dist;
};

static int cmp_cand(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	size_t la = strlen(a->name), lb = strlen(b->name);

	if (a->dist != b->dist)
		return a->dist - b->dist;
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* "alternatives: $a, $b, …)": the site's variable names nearest NAME
 * first; "<no alternatives>" without any. */
static const char *alternatives(struct session *s, const struct dw_site *st,
				const char *name)
{
	struct dw_var *v;
	int n = dw_vars_at(st->file, st->die_off, st->pc, find_nested(st), &v), i, k = 0, j;
	struct cand *c = calloc((size_t)(n > 0 ? n : 1), sizeof *c);
	struct strbuf sb = {0};
	const char *r;

	for (i = 0; i < n; i++) {
		for (j = 0; j < k && strcmp(c[j].name, v[i].name); j++)
			;
		if (j == k) {
			c[k].name = v[i].name;
			c[k++].dist = similar_distance(name, v[i].name, 1 << 20);
		}
	}
	qsort(c, (size_t)k, sizeof *c, cmp_cand);
	for (i = 0; i < k; i++)
		sb_printf(&sb, "%s$%s", i ? ", " : "", c[i].name);
	/* stap closes the parenthesis twice after a list, once without */
	r = sb.s ? arena_printf(s->arena, "alternatives: %s)", sb.s) :
		   "<no alternatives>";
	sb_free(&sb);
	free(c);
	free(v);
	return r;
}

static int no_local(struct session *s, const struct dw_site *st,
		    struct exp *e, const char *name)
{
	diag_error(&s->diags, e->loc, "sema.dwarf-local",
		   "unable to find local '%s', [man error::dwarf] dieoffset 0x%llx in %s, near pc 0x%llx in %s %s (%s)",
		   name, (unsigned long long)st->die_off, module_name(st),
		   shown_pc(st, st->pc), dw_func_name(st->file, st->die_off),
		   dw_cu_name(st->file, st->die_off),
		   alternatives(s, st, name));
	return -1;
}

static int not_accessible(struct session *s, const struct dw_site *st,
			  struct exp *e, const struct dw_var *v,
			  const struct dw_loc *l)
{
	char line[512], ranges[2048];

	diag_error(&s->diags, e->loc, "sema.dwarf-not-accessible",
		   "not accessible at this address (pc: 0x%llx) [man error::dwarf]",
		   shown_pc(st, l->pc));
	dw_pc_line(st->file, st->die_off, l->pc, line, sizeof line);
	dw_loc_ranges(st->file, v->die_off, ranges, sizeof ranges);
	diag_note(&s->diags, (struct loc){0},
		  "dieoffset: 0x%llx from %s, function: %s at %s, alternative locations: %s",
		  (unsigned long long)v->die_off, dw_file_path(st->file),
		  dw_func_name(st->file, st->die_off), line, ranges);
	return -1;
}

/* ---- one variable ---- */

/* $NAME's access: its location at the site's pc as the tvar's base
 * (LVALUE: for a guru write). */
static int resolve_var(struct session *s, struct derived_probe *dp,
		       struct exp *e, const struct dw_var *v,
		       struct vec *comps, int quiet, int lvalue)
{
	const struct dw_site *st = site_of(s, dp);
	struct ctype *type = dw_type_of(st->file, v->die_off);
	const char *label = arena_printf(s->arena, "$%s", v->name);
	enum dw_loc_status rc;
	struct dw_loc l;
	struct tvar *tv;

	rc = dw_loc_var(st->file, v->die_off, dw_frame_func(st->file, st->die_off),
			st->pc, retry_pc(st), kernel_anchor(s), st->is_user, &l);
	if (rc == DW_LOC_NOT_AT_PC && s->skip_badvars) {
		tv = tvar_resolve(s, e, comps, "0ULL", type, WHAT, label, quiet);
	} else if (rc == DW_LOC_NOT_AT_PC) {
		return quiet ? -1 : not_accessible(s, st, e, v, &l);
	} else if (rc == DW_LOC_UNSUPPORTED) {
		if (!quiet) {
			diag_error(&s->diags, e->loc, "sema.dwarf-location",
				   "%s", l.msg);
			diag_note(&s->diags, (struct loc){0}, "dieoffset: 0x%llx from %s",
				  (unsigned long long)v->die_off,
				  dw_file_path(st->file));
		}
		return -1;
	} else {
		const char *base = arena_strdup(s->arena, l.c);
		tv = l.kind == DW_LOC_ADDR ?
			tvar_resolve_at(s, e, comps, base, type, WHAT, label, quiet) :
			tvar_resolve(s, e, comps, base, type, WHAT, label, quiet);
		if (tv) {
			tv->base_reads = l.reads;
			tv->write_reg = l.reg + 1;
			tvar_name_fn(s, e, tv, v->name, lvalue, comps);
			if (l.fb)
				tvar_fn_frame_base(s, tv);
		}
	}
	if (!tv)
		return -1;
	tv->user = st->is_user;
	if (e->kind == EX_TARGET)
		e->u.target.resolved = tv;
	return 0;
}

static int resolve_return(struct session *s, struct derived_probe *dp,
			  struct exp *e, int quiet, int lvalue)
{
	const struct dw_site *st = site_of(s, dp);
	uint64_t t = dw_return_type(st->file, st->die_off);
	struct tvar *tv;

	if (!t) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.dwarf-return",
				   "function %s (%s) has no return value",
				   dw_func_name(st->file, st->die_off),
				   dw_cu_name(st->file, st->die_off));
		return -1;
	}
	tv = tvar_resolve(s, e, &e->u.target.comps,
			  st->is_user ? "_stp_uprobe_retval(c)" : "_stp_kprobe_retval(c)",
			  dw_type_at(st->file, t), WHAT, "$return", quiet);
	if (tv) {
		tv->user = st->is_user;
		tv->write_reg = 0 + 1;	/* a guru write sets ax, the value
					   the caller sees (x86-64) */
		tvar_name_fn(s, e, tv, "return", lvalue, &e->u.target.comps);
	}
	e->u.target.resolved = tv;
	return tv ? 0 : -1;
}

/* ---- $$vars, $$parms, $$locals, $$return ---- */

static struct tvar *fixed(struct session *s, const char *text)
{
	struct tvar *tv = ARENA_NEW(s->arena, struct tvar);

	tv->final = TV_PRETTY;
	tv->pretty = text;
	return tv;
}

/* One part of a list: $NAME as $$vars shows it ("name=0x…", or with the
 * list's $ or $$, as $NAME$ / $NAME$$ would); without a value at the pc
 * "?", a struct or array by value (without $) "{...}" or "[...]". */
static struct tvar *list_part(struct session *s, struct derived_probe *dp,
			      struct exp *e, const char *name,
			      struct target_comp *pretty)
{
	struct exp *x = ARENA_NEW(s->arena, struct exp);
	const struct dw_site *st = site_of(s, dp);
	struct ctype *t;
	struct dw_var v;
	int rc;

	x->kind = EX_TARGET;
	x->loc = e->loc;
	x->u.target.name = name;
	if (pretty)
		vec_push(s->arena, &x->u.target.comps, pretty);
	if (!strcmp(name, "return"))
		return resolve_return(s, dp, x, 1, 0) ? fixed(s, "\"?\"") :
						     x->u.target.resolved;
	if (dw_var_find(st->file, st->die_off, st->pc, find_nested(st), name, &v))
		return fixed(s, "\"?\"");
	/* as stap, by its type first, whether or not it has a value here */
	t = ctype_strip(dw_type_of(st->file, v.die_off));
	if (!pretty && (t->kind == CT_STRUCT || t->kind == CT_UNION))
		return fixed(s, "\"{...}\"");
	if (!pretty && t->kind == CT_ARRAY)
		return fixed(s, "\"[...]\"");
	if (!dw_loc_covers(st->file, v.die_off, st->pc))
		return fixed(s, "\"?\"");
	rc = resolve_var(s, dp, x, &v, &x->u.target.comps, 1, 0);
	return rc ? fixed(s, "\"?\"") : x->u.target.resolved;
}

static int list_value(struct session *s, struct derived_probe *dp,
		      struct exp *e, int quiet)
{
	const struct dw_site *st = site_of(s, dp);
	const char *which = e->u.target.name;
	struct vec *comps = &e->u.target.comps;
	struct target_comp *c = comps->n ? comps->v[0] : NULL;
	struct dw_var *v = NULL;
	struct tvar *tv;
	int n = 0, i, k = 0, with_ret;

	if (comps->n > 1 || (c && c->kind != TC_PRETTY)) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.target-list-member",
				   "'$%s' has no members or elements", which);
		return -1;
	}
	with_ret = st->is_return && (!strcmp(which, "$return") ||
				     !strcmp(which, "$vars"));
	if (strcmp(which, "$return"))
		n = scope_vars(st, !strcmp(which, "$parms") ? 1 :
			       !strcmp(which, "$locals") ? 0 : -1, 0, &v);
	tv = ARENA_NEW(s->arena, struct tvar);
	tv->final = TV_PRETTY;
	tv->pretty_kind = c ? (char)('0' + c->num) : 0;
	tv->parts = arena_alloc(s->arena, sizeof(struct tvar *) * (size_t)(n + 2));
	tv->labels = arena_alloc(s->arena, sizeof(char *) * (size_t)(n + 2));
	if (with_ret && dw_return_type(st->file, st->die_off)) {
		tv->labels[k] = "return";
		tv->parts[k++] = list_part(s, dp, e, "return", c);
	}
	for (i = 0; i < n; i++) {
		tv->labels[k] = arena_strdup(s->arena, v[i].name);
		tv->parts[k] = list_part(s, dp, e, tv->labels[k], c);
		k++;
	}
	tv->nparts = k;
	free(v);
	e->u.target.resolved = tv;
	e->type = TY_STRING;
	return 0;
}

/* $NAME that no scope of the function has: as in stap, a variable of
 * its unit (a static or a global it declares: tcp_memory_pressure in
 * tcp_enter_memory_pressure).  0 and *V, or -1. */
static int unit_global(const struct dw_site *st, const char *name,
		       struct dw_var *v)
{
	uint64_t off;

	if (!st->cu_off || dw_global_var(st->file, name, NULL, st->cu_off, &off))
		return -1;
	memset(v, 0, sizeof *v);
	v->name = name;
	v->die_off = off;
	return 0;
}

/* ---- the family's callbacks ---- */

/* $$vars, $$parms, $$locals, and $$return in a .return probe. */
static int is_list_name(const struct dw_site *st, const char *name)
{
	return !strcmp(name, "$vars") || !strcmp(name, "$parms") ||
	       !strcmp(name, "$locals") ||
	       (!strcmp(name, "$return") && st->is_return);
}

static int target(struct session *s, struct derived_probe *dp,
		  struct exp *e, int quiet, int lvalue)
{
	const struct dw_site *st = site_of(s, dp);
	const char *name = e->u.target.name;
	struct dw_var v;

	if (e->kind == EX_TARGET_LIST && !is_list_name(st, name))
		return -2;
	if (!st->file || !st->die_off) {
		/* a function the symbol table alone knows (vfs_get_tree.cold,
		   5.10's clear_page_rep): stap 4.8 makes its lists "", and
		   has no scope for its other variables */
		if (e->kind != EX_TARGET_LIST) {
			if (!quiet)
				diag_error(&s->diags, e->loc, "sema.dwarf-no-scope",
					   "debuginfo scope not found for module '%s', cannot resolve context variable [man error::dwarf]",
					   module_name(st));
			return -1;
		}
		e->u.target.resolved = fixed(s, "\"\"");
		e->type = TY_STRING;
		return 0;
	}
	if (e->kind == EX_TARGET_LIST)
		return list_value(s, dp, e, quiet);
	if (!strcmp(name, "return") && st->is_return)
		return resolve_return(s, dp, e, quiet, lvalue);
	if (dw_var_find(st->file, st->die_off, st->pc, find_nested(st), name, &v) &&
	    unit_global(st, name, &v))
		return quiet ? -1 : no_local(s, st, e, name);
	return resolve_var(s, dp, e, &v, &e->u.target.comps, quiet, lvalue);
}

int dwarf_vars_target(struct session *s, struct derived_probe *dp,
		      struct exp *e, int quiet)
{
	return target(s, dp, e, quiet, 0);
}

int dwarf_vars_atvar(struct session *s, struct derived_probe *dp,
		     struct exp *e, int quiet)
{
	const struct dw_site *st = site_of(s, dp);

	return atvar_resolve(s, e, st->file, st->cu_off, module_name(st),
			     st->is_user, quiet);
}

int dwarf_vars_assign(struct session *s, struct derived_probe *dp,
		      struct exp *e, enum op op)
{
	(void)op;
	if (!s->guru) {
		diag_error(&s->diags, e->loc, "sema.dwarf-write",
			   "write to target variable not permitted; need stap -g");
		return -1;
	}
	if (target(s, dp, e, 0, 1))
		return -1;
	e->type = TY_LONG;
	return 0;
}

int dwarf_vars_entry_target(struct session *s, const struct derived_probe *ret,
			    const char *name)
{
	const struct dw_site *st = site_of(s, ret);
	struct dw_var v;

	if (!st->file || !st->die_off || !st->is_return || !strcmp(name, "return"))
		return 0;
	if (*name == '$')	/* $$parms, $$vars, $$locals: not $$return */
		return strcmp(name, "$return") != 0;
	return !dw_var_find(st->file, st->die_off, st->pc, find_nested(st), name, &v);
}

void dwarf_vars_list(struct session *s, struct derived_probe *dp,
		     struct strbuf *out)
{
	const struct dw_site *st = site_of(s, dp);
	struct dw_var *v;
	char buf[1024];
	uint64_t t;
	int n, i;

	if (!st->file || !st->die_off)
		return;
	if (st->is_return && (t = dw_return_type(st->file, st->die_off)))
		sb_printf(out, " $return:%s",
			  ctype_name(dw_type_at(st->file, t), buf, sizeof buf));
	n = scope_vars(st, -1, 1, &v);
	for (i = 0; i < n; i++)
		sb_printf(out, " $%s:%s", v[i].name,
			  ctype_name(dw_type_of(st->file, v[i].die_off), buf,
				     sizeof buf));
	free(v);
}

void dwarf_vars_emit_decls(struct emit *e, struct vec *probes)
{
	const struct ksyms *k = ksyms_kernel(e->s);

	(void)probes;
	emit_line(e, "#include \"stp_dwarf.h\"");
	/* _caller_match's (context-caller.stp) link-time addresses */
	if (k && ksyms_addr(k, "_stext") && ksyms_addr(k, "sprint_symbol")) {
		emit_line(e, "#define STP_CALLER_STEXT 0x%llxULL",
			  (unsigned long long)ksyms_addr(k, "_stext"));
		emit_line(e, "#define STP_CALLER_ANCHOR 0x%llxULL",
			  (unsigned long long)ksyms_addr(k, "sprint_symbol"));
	}
}

struct derived_probe *dwarf_vars_entry_probe(struct session *s,
					     const struct derived_probe *ret,
					     size_t data_size)
{
	const struct dw_site *st = ret->data;
	struct dw_site *cs;
	const char *r;
	struct derived_probe *cp;

	if (!st || !st->is_return)
		return NULL;

	cs = arena_alloc(s->arena, data_size);
	memcpy(cs, st, data_size);
	cs->is_return = 0;
	cp = family_entry_copy(s, ret, cs);
	/* stap names it by the resolved function, with the point's ? or ! */
	if ((r = strstr(ret->pp, ").return")))
		cp->pp = arena_printf(s->arena, "%.*s).call",
				      (int)(r - ret->pp), ret->pp);
	cp->mark_optional = ret->mark_optional;
	cp->mark_sufficient = ret->mark_sufficient;
	return cp;
}
