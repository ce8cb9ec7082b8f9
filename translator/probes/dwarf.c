/* probes/dwarf.c - the DWARF probe family: kernel and module functions
 * and statements found in the debug info, as stap 4.8's.
 *
 *   kernel.function("PAT[@FILE[:LINE|:A-B|:*|+OFF]]")
 *       [.call | .exported | .inline | .return[.maxactive(N)]]
 *   kernel.statement("FUNC@FILE:LINE" | "*@FILE:LINE" | :A-B | :*)
 *   kernel.statement(ADDR).absolute                      (guru mode)
 *   kernel.function(...).callee("PAT") | .callees[(DEPTH)]
 *   module("M").function(...), module("M").statement(...)
 *
 * Points are matched against the function index of the debug file
 * (kernel/dwarfdecl.h, dwarf/dw_index.h), so the DWARF itself is read only
 * for line tables.  expand turns a point into one concrete point per
 * probe site (each carrying its site: struct dwarf_point); resolve makes
 * the derived probe, whose data starts with the site (struct dw_site, for
 * target variables).  The runtime is runtime/probes/kprobe.c: kernel
 * sites by link address, relocated at start by the distance of a known
 * symbol; module sites by symbol+offset, which the kernel resolves.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

struct dwarf_data {
	struct dw_site site;	/* first: (struct dw_site *)dp->data */
	const struct dw_index *ix;
	const char *symbol;	/* modules: the symbol holding pc */
	uint64_t offset;	/* pc's offset from it */
	uint64_t stext;		/* kernel: _stext's link address (-p2) */
	int64_t maxactive;	/* 0: the kernel's default */
	unsigned absolute : 1;	/* kernel.statement(ADDR).absolute */
};

/* A concrete point expand hands to resolve: the site travels with it. */
struct dwarf_point {
	struct probe_point pt;	/* first */
	struct dwarf_data *dd;
	const char *name;	/* the canonical point, without suffixes */
	const char *from;	/* a callee's: its caller's point and
				   .callee("NAME@FILE:LINE"), as stap
				   derives it; else NULL */
	const uint64_t *calls;	/* a callee reached through calls out of
				   line: their return addresses, the
				   outermost first, that the stack must
				   show (stap's _caller_match checks) */
	int ncalls;
};

/* A set of entry pcs (open addressing; 0 is never a pc). */
struct pcset {
	uint64_t *v;
	size_t cap, n;
};

/* Adds PC; 0 if it was there already. */
static int pcset_add(struct session *s, struct pcset *set, uint64_t pc)
{
	size_t i;

	if (2 * (set->n + 1) > set->cap) {
		struct pcset bigger = { .cap = set->cap ? 2 * set->cap : 1024 };

		bigger.v = arena_alloc(s->arena, bigger.cap * sizeof *bigger.v);
		memset(bigger.v, 0, bigger.cap * sizeof *bigger.v);
		for (i = 0; i < set->cap; i++)
			if (set->v[i])
				pcset_add(s, &bigger, set->v[i]);
		*set = bigger;
	}
	for (i = (pc * 0x9e3779b97f4a7c15ull >> 20) & (set->cap - 1); set->v[i];
	     i = (i + 1) & (set->cap - 1))
		if (set->v[i] == pc)
			return 0;
	set->v[i] = pc;
	set->n++;
	return 1;
}

enum line_kind { LN_NONE, LN_ONE, LN_RANGE, LN_ALL, LN_OFFSET };

struct query {
	struct session *s;
	const struct probe_point *pt;
	int fi;			/* index of the function/statement comp */
	const char *module;	/* NULL: the kernel; else its pattern */
	int is_stmt;
	const char *func, *file;
	enum line_kind lk;
	long l1, l2;
	unsigned call : 1, inl : 1, exported : 1, ret : 1;
	int64_t maxactive;
	const char *callee;	/* .callee("PAT"): the callees' pattern */
	int64_t callees;	/* .callee, .callees(N): the depth; 0: none */
	const char *suffix;	/* the point's components after fi, as
				   written (".call", ".return" …) */
	struct vec *out;
	struct vec inline_ret;	/* names of inline functions under .return */
	struct vec seen;	/* struct dw_index *: the modules searched */
	uint32_t memo_name;	/* the last name the blocklist checked */
	int memo_name_blocked;
	struct pcset dwarf_pcs;	/* entry pcs (low_pc) of the out-of-line
				   functions the name pattern matched,
				   whatever the suffixes: symbols there
				   are not listed on their own */
	unsigned char *memo_files;	/* by decl file's string offset: 0
					   unknown, 1 accepted, 2 refused */
	const struct dw_index *memo_ix;
};

/* ---- the point ------------------------------------------------------- */

/* FUNC[@FILE[:LINE|:A-B|:*|+OFF]] into Q. */
static int parse_spec(struct query *q, const char *spec)
{
	struct arena *a = q->s->arena;
	const char *at = strchr(spec, '@'), *sep;
	char *end;

	q->func = at ? arena_strndup(a, spec, at - spec) : spec;
	if (!at)
		return 0;
	sep = at + 1 + strcspn(at + 1, ":+");
	q->file = arena_strndup(a, at + 1, sep - at - 1);
	if (!*sep)
		return 0;
	if (*sep == '+') {
		q->lk = LN_OFFSET;
		q->l1 = strtol(sep + 1, &end, 10);
		return *end || end == sep + 1 ? -1 : 0;
	}
	if (!strcmp(sep + 1, "*")) {
		q->lk = LN_ALL;
		return 0;
	}
	q->l1 = strtol(sep + 1, &end, 10);
	if (end == sep + 1)
		return -1;
	q->lk = LN_ONE;
	if (*end == '-') {
		q->lk = LN_RANGE;
		sep = end;
		q->l2 = strtol(sep + 1, &end, 10);
		if (end == sep + 1)
			return -1;
	}
	return *end ? -1 : 0;
}

/* The suffixes after the function: .call, .exported, .inline, .return,
 * .maxactive(N); 0, or -1 after reporting. */
static int parse_suffixes(struct query *q)
{
	const struct probe_point *pt = q->pt;
	struct strbuf sb = {0};
	const struct pp_comp *c;
	int i;

	for (i = q->fi + 1; i < pt->comps.n; i++) {
		c = pt->comps.v[i];
		if (!strcmp(c->name, "maxactive") && q->ret && c->arg &&
		    c->arg->kind == EX_NUM) {
			q->maxactive = c->arg->u.num;
			sb_printf(&sb, ".maxactive(%lld)", (long long)q->maxactive);
			continue;
		}
		if (!strcmp(c->name, "callee") && i == q->fi + 1 &&
		    i == pt->comps.n - 1 && !q->is_stmt &&
		    (q->callee = family_str_arg(q->s, c))) {
			q->callees = 1;
			continue;
		}
		if (!strcmp(c->name, "callees") && i == q->fi + 1 &&
		    i == pt->comps.n - 1 && !q->is_stmt &&
		    (!c->has_arg || (c->arg && c->arg->kind == EX_NUM &&
				     c->arg->u.num > 0))) {
			q->callees = c->has_arg ? c->arg->u.num : 1;
			q->callee = "*";
			continue;
		}
		if (c->has_arg || q->is_stmt)
			goto bad;
		if (!strcmp(c->name, "call") && !q->call && !q->inl && !q->ret)
			q->call = 1;
		else if (!strcmp(c->name, "exported") && !q->exported && !q->inl)
			q->exported = 1;
		else if (!strcmp(c->name, "inline") && !q->call && !q->ret &&
			 !q->exported)
			q->inl = 1;
		else if (!strcmp(c->name, "return") && !q->ret && !q->inl)
			q->ret = 1;
		else
			goto bad;
		sb_printf(&sb, ".%s", c->name);
	}
	q->suffix = arena_strdup(q->s->arena, sb.s ? sb.s : "");
	sb_free(&sb);
	return 0;
bad:
	sb_free(&sb);
	return family_mismatch(q->s, pt, c, arena_printf(q->s->arena,
			       "unexpected .%s here", c->name));
}

/* Is POINT this family's?  Fills Q's head: 1, 0 (another family's), or
 * -1 after reporting. */
static int parse_point(struct session *s, const struct probe_point *pt,
		       struct query *q)
{
	const struct pp_comp *c0 = pt->comps.v[0], *c;
	const char *spec;

	memset(q, 0, sizeof *q);
	q->s = s;
	q->pt = pt;
	q->fi = 1;
	if (!strcmp(c0->name, "module")) {
		q->module = family_str_arg(s, c0);
		if (!q->module)
			return 0;
	} else if (strcmp(c0->name, "kernel") || c0->has_arg) {
		return 0;
	}
	if (pt->comps.n < 2)
		return 0;
	c = pt->comps.v[1];
	if (!strcmp(c->name, "statement"))
		q->is_stmt = 1;
	else if (strcmp(c->name, "function"))
		return 0;
	if (q->is_stmt && c->arg && c->arg->kind == EX_NUM && !q->module) {
		q->suffix = "";	/* statement(ADDR)[.absolute] */
		return 1;
	}
	spec = family_str_arg(s, c);
	if (!spec)
		return family_mismatch(s, pt, c, arena_printf(s->arena,
				       "%s needs a string argument", c->name));
	if (parse_spec(q, spec))
		return family_mismatch(s, pt, c, arena_printf(s->arena,
				       "malformed specification '%s'", spec));
	return parse_suffixes(q) ? -1 : 1;
}

/* ---- stap's blocklist ------------------------------------------------ */

/* Function names stap never probes in the kernel (globs, whole names). */
static const char *const blocked_names[] = {
	"atomic_notifier_call_chain", "default_do_nmi", "__die", "die_nmi",
	"do_debug", "do_general_protection", "do_int3", "do_IRQ",
	"do_page_fault", "do_sparc64_fault", "do_trap", "dummy_nmi_callback",
	"flush_icache_range", "ia64_bad_break", "ia64_do_page_fault",
	"ia64_fault", "io_check_error", "mem_parity_error",
	"nmi_watchdog_tick", "notifier_call_chain", "oops_begin", "oops_end",
	"program_check_exception", "single_step_exception", "sync_regs",
	"unhandled_fault", "unknown_nmi_error", "xen_[gs]et_debugreg",
	"xen_irq_*", "xen_*_fl_direct*", "check_events",
	"xen_adjust_exception_frame", "xen_iret*", "xen_sysret64*",
	"test_ti_thread_flag*", "inat_get_opcode_attribute",
	"system_call_after_swapgs", "HYPERVISOR_[gs]et_debugreg",
	"HYPERVISOR_event_channel_op", "hash_64", "hash_ptr",
	"native_set_pte", "*raw_*_lock*", "*raw_*_unlock*",
	"*raw_*_trylock*", "*read_lock*", "*read_unlock*", "*read_trylock*",
	"*write_lock*", "*write_unlock*", "*write_trylock*",
	"*write_seqlock*", "*write_sequnlock*", "*spin_lock*",
	"*spin_unlock*", "*spin_trylock*", "*spin_is_locked*",
	"rwsem_*lock*", "*mutex_*lock*", "atomic_*", "atomic64_*", "get_bh",
	"put_bh", "*apic*", "*APIC*", "*softirq*", "*IRQ*", "*_intr*",
	"__delay", "*kernel_text*", "get_current", "current_*",
	"*exception_tables*", "*setup_rt_frame*", "*preempt_count*",
	"preempt_schedule", "__switch_to",
	/* seen refused by stap 4.8 on 6.1 */
	"*_pte_*", "special_mapping_*",
};

static const char *const blocked_returns[] = {
	"do_exit", "sys_exit", "sys_exit_group",
};

static const char *const blocked_files[] = {
	"kernel/kprobes.c", "arch/*/kernel/kprobes.c", "*/include/asm/io.h",
	"*/include/asm/io-defs.h", "*/include/asm/io_64.h",
	"*/include/asm/bitops.h",
	"drivers/ide/ide-iops.c", "arch/*/kernel/paravirt.c",
	"*/include/asm/paravirt.h",
	"fs/seq_file.c",	/* seen refused by stap 4.8 on 6.1 */
};

static int in_list(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!fnmatch(list[i], s, 0))
			return 1;
	return 0;
}

#define IN_LIST(list, s) in_list(list, sizeof list / sizeof *list, s)

/* Is F's name on the list?  Records of one name come together: the
 * answer is kept for the next. */
static int name_blocked(struct query *q, const struct dw_index *ix,
			const struct dw_func *f)
{
	if (f->name != q->memo_name || !q->memo_name) {
		q->memo_name = f->name;
		q->memo_name_blocked = IN_LIST(blocked_names,
					       dw_index_str(ix, f->name));
	}
	return q->memo_name_blocked;
}
static int file_blocked(struct query *q, const struct dw_index *ix,
			const struct dw_func *f)
{
	size_t n = dw_index_strsize(ix);

	if (q->memo_ix != ix) {
		q->memo_ix = ix;
		q->memo_files = arena_alloc(q->s->arena, n + 1);
		memset(q->memo_files, 0, n + 1);
	}
	if (f->file > n)
		return 0;
	if (!q->memo_files[f->file])
		q->memo_files[f->file] = 1 +
			IN_LIST(blocked_files, dw_index_str(ix, f->file));
	return q->memo_files[f->file] == 2;
}

/* Does stap refuse F (its init sections in the kernel; its lists of
 * names and files in the kernel and in modules; all of it lifted by -g)?
 * Warns as stap (not under -l/-L). */
static int blocked(struct query *q, const struct dw_index *ix,
		   const struct dw_func *f)
{
	const char *why = NULL;

	if (!q->module && (f->flags & DW_FN_BAD_SECTION))
		why = "function %s is in blocklisted section";
	else if (name_blocked(q, ix, f))
		why = "function %s is blocklisted";
	else if (q->ret && IN_LIST(blocked_returns, dw_index_str(ix, f->name)))
		why = "function %s return probe is blocklisted";
	else if (file_blocked(q, ix, f))
		why = "function %s is in blocklisted file";
	if (!why || q->s->guru)
		return 0;
	if (!q->s->list_probes && !q->s->list_probes_vars)
		diag_warning(&q->s->diags, q->pt->loc, "sema.dwarf-blocklisted",
			     why, dw_index_str(ix, f->name));
	return 1;
}
/* ---- sites ----------------------------------------------------------- */

static struct dwarf_point *push_site(struct query *q,
				     const struct dw_index *ix,
				     const char *module, const char *name,
				     uint64_t pc, const struct dw_func *f,
				     int is_inline)
{
	struct arena *a = q->s->arena;
	struct dwarf_point *dpt = ARENA_NEW(a, struct dwarf_point);
	struct dwarf_data *dd = ARENA_NEW(a, struct dwarf_data);

	dpt->pt = *q->pt;
	dpt->dd = dd;
	dpt->name = name;
	dd->ix = ix;
	dd->site.file = dw_index_file(ix);
	dd->site.module = module;
	dd->site.cu_off = f ? f->cu_off : 0;
	dd->site.die_off = f ? f->die_off : 0;
	dd->site.pc = pc;
	dd->site.is_return = q->ret;
	dd->site.is_inline = is_inline;
	dd->site.is_statement = q->is_stmt;
	dd->maxactive = q->maxactive;
	vec_push(a, q->out, &dpt->pt);
	return dpt;
}

static const char *point_head(struct query *q, const char *module)
{
	return module ? arena_printf(q->s->arena, "module(\"%s\").", module) :
			"kernel.";
}

/* stap's order for one name: the functions it finds by their DIE
 * (abstract origins for inline instances), last CU first, each with its
 * instances in DWARF order. */
static int by_stap_order(const void *a, const void *b)
{
	const struct dw_func *x = *(const struct dw_func *const *)a;
	const struct dw_func *y = *(const struct dw_func *const *)b;

	if ((x->flags ^ y->flags) & DW_FN_SYMTAB)
		return x->flags & DW_FN_SYMTAB ? 1 : -1;
	if (x->origin != y->origin)
		return x->origin > y->origin ? -1 : 1;
	return x->die_off < y->die_off ? -1 : x->die_off > y->die_off;
}

/* stap's order for a wildcard's matches: CU by CU in the debug file's
 * order, in each the out-of-line functions, then the inline instances,
 * both in the order of the CU's table of functions (dw_func.rank), an
 * inline function's instances in DWARF order; the functions only the
 * symbol table has after them all, by address. */
static int by_stap_wild_order(const void *a, const void *b)
{
	const struct dw_func *x = *(const struct dw_func *const *)a;
	const struct dw_func *y = *(const struct dw_func *const *)b;
	int xi = !!(x->flags & DW_FN_INLINE), yi = !!(y->flags & DW_FN_INLINE);

	if ((x->flags ^ y->flags) & DW_FN_SYMTAB)
		return x->flags & DW_FN_SYMTAB ? 1 : -1;
	if (x->flags & DW_FN_SYMTAB) {
		if (x->pc_off != y->pc_off)
			return x->pc_off < y->pc_off ? -1 : 1;
		return x < y ? -1 : x > y;	/* the index's: by name */
	}
	if (x->cu_off != y->cu_off)
		return x->cu_off < y->cu_off ? -1 : 1;
	if (xi != yi)
		return xi - yi;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->die_off < y->die_off ? -1 : x->die_off > y->die_off;
}

/* Does function record F fit Q's file and suffixes? */
static int fits(struct query *q, const struct dw_index *ix,
		const struct dw_func *f)
{
	int inl = f->flags & DW_FN_INLINE;

	if (f->flags & DW_FN_SYMTAB)
		return !q->file && !q->is_stmt;	/* whatever the suffix */
	if (q->file && !dw_file_matches(q->file, dw_index_str(ix, f->file)))
		return 0;
	if (inl && q->ret) {
		vec_push(q->s->arena, &q->inline_ret,
			 (void *)dw_index_str(ix, f->name));
		return 0;
	}
	if (inl)
		return !q->call && !q->exported;
	if (q->inl)
		return 0;
	if (q->exported && !(f->flags & DW_FN_EXPORTED))
		return 0;
	return !(f->flags & DW_FN_PART);
}

/* Another name of a DWARF function (DW_FN_ALIAS): stap finds that
 * function by it, in the alias's place of its CU's table (a copy with the
 * alias's rank); NULL if it does not fit Q. */
static const struct dw_func *alias_of(struct query *q,
				      const struct dw_index *ix,
				      const struct dw_func *f)
{
	const struct dw_func *g = dw_index_at(ix, f->origin);
	struct dw_func *copy;

	if (!fits(q, ix, g))
		return NULL;
	copy = arena_alloc(q->s->arena, sizeof *copy);
	*copy = *g;
	copy->rank = f->rank;
	return copy;
}

/* The records of IX whose names match Q's pattern and fit, in stap's
 * order: a name's (names sorted), or a wildcard's. */
static void matching(struct query *q, const struct dw_index *ix,
		     struct vec *out)
{
	size_t n = dw_index_count(ix), first, cnt, i, run;
	const struct dw_func *f;
	int glob = strpbrk(q->func, "*?[") != NULL;
	const char *name, *prev = NULL;
	int ok = 0;

	if (glob) {
		first = 0;
		cnt = n;
	} else {
		cnt = dw_index_lookup(ix, q->func, &first);
	}
	for (i = first, run = out->n; i < first + cnt; i++) {
		f = dw_index_at(ix, i);
		name = dw_index_str(ix, f->name);
		if (name != prev) {
			if (out->n > (int)run + 1)
				qsort(out->v + run, out->n - run,
				      sizeof *out->v, by_stap_order);
			run = out->n;
			prev = name;
			ok = !glob || !fnmatch(q->func, name, 0);
		}
		if (ok && (f->flags & DW_FN_ALIAS) && !q->is_stmt)
			f = alias_of(q, ix, f);
		if (ok && f && !(f->flags & (DW_FN_INLINE | DW_FN_SYMTAB |
					       DW_FN_RANGES)))
			pcset_add(q->s, &q->dwarf_pcs, dw_index_pc(ix, f));
		if (ok && f && fits(q, ix, f))
			vec_push(q->s->arena, out, (void *)f);
	}
	if (out->n > (int)run + 1)
		qsort(out->v + run, out->n - run, sizeof *out->v, by_stap_order);
	if (glob && out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, by_stap_wild_order);
}

/* ---- function probes ------------------------------------------------- */

static const char *func_name(struct query *q, const struct dw_index *ix,
			     const struct dw_func *f, const char *module)
{
	const char *name = dw_index_str(ix, f->name);

	if (f->flags & DW_FN_SYMTAB)
		return arena_printf(q->s->arena, "%sfunction(\"%s\")",
				    point_head(q, module), name);
	if (!f->file)
		return arena_printf(q->s->arena, "%sfunction(\"%s@<unknown source>\")",
				    point_head(q, module), name);
	return arena_printf(q->s->arena, "%sfunction(\"%s@%s:%u\")",
			    point_head(q, module), name,
			    dw_index_str(ix, f->file), f->line);
}

/* -l lists a name once: the first site of each NAME@FILE:LINE is enough
 * (and 69,000 names are far fewer probes than 350,000 sites).  A set of
 * (name, file, line) as one key each. */
struct nameset {
	uint32_t (*v)[3];
	size_t cap, n;
};

static int nameset_add(struct session *s, struct nameset *set,
		       const struct dw_func *f)
{
	uint32_t key[3] = { f->name, f->file, f->line };
	size_t i;
	uint64_t h;

	if (2 * (set->n + 1) > set->cap) {
		struct nameset bigger = { .cap = set->cap ? 2 * set->cap : 4096 };
		struct dw_func g = {0};

		bigger.v = arena_alloc(s->arena, bigger.cap * sizeof *bigger.v);
		memset(bigger.v, 0, bigger.cap * sizeof *bigger.v);
		for (i = 0; i < set->cap; i++)
			if (set->v[i][0]) {
				g.name = set->v[i][0];
				g.file = set->v[i][1];
				g.line = set->v[i][2];
				nameset_add(s, &bigger, &g);
			}
		*set = bigger;
	}
	h = ((uint64_t)key[0] * 0x9e3779b97f4a7c15ull) ^
	    ((uint64_t)key[1] * 0xc2b2ae3d27d4eb4full) ^ key[2];
	for (i = (h >> 17) & (set->cap - 1); set->v[i][0];
	     i = (i + 1) & (set->cap - 1))
		if (!memcmp(set->v[i], key, sizeof key))
			return 0;
	memcpy(set->v[i], key, sizeof key);
	set->n++;
	return 1;
}

static int pcset_has(const struct pcset *set, uint64_t pc)
{
	size_t i;

	if (!set->cap)
		return 0;
	for (i = (pc * 0x9e3779b97f4a7c15ull >> 20) & (set->cap - 1); set->v[i];
	     i = (i + 1) & (set->cap - 1))
		if (set->v[i] == pc)
			return 1;
	return 0;
}

/* ---- callees ---------------------------------------------------------- */

struct callee_ctx {
	struct query *q;
	const struct dw_index *ix;
	const char *module;
	const char *caller;	/* the caller's point */
	int64_t depth;		/* levels still to go below this one */
	const uint64_t *calls;	/* as dwarf_point's */
	int ncalls;
};

/* The index's record of the inline instance DIE_OFF of NAME. */
static const struct dw_func *instance(const struct dw_index *ix,
				      const char *name, uint64_t die_off)
{
	size_t first, n = dw_index_lookup(ix, name, &first), i;
	const struct dw_func *f;

	for (i = first; i < first + n; i++) {
		f = dw_index_at(ix, i);
		if (f->die_off == die_off && (f->flags & DW_FN_INLINE))
			return f;
	}
	return NULL;
}

/* The function a call site calls, ORIGIN its DIE (the definition, or a
 * declaration of one in another unit): its out-of-line body. */
static const struct dw_func *called(const struct dw_index *ix,
				    const char *name, uint64_t origin)
{
	size_t first, n = dw_index_lookup(ix, name, &first), i;
	const struct dw_func *f, *any = NULL;

	for (i = first; i < first + n; i++) {
		f = dw_index_at(ix, i);
		if (f->flags & (DW_FN_INLINE | DW_FN_SYMTAB | DW_FN_PART))
			continue;
		if (f->die_off == origin)
			return f;
		if (!any || ((f->flags & DW_FN_EXTERNAL) &&
			     !(any->flags & DW_FN_EXTERNAL)))
			any = f;
	}
	return any;
}

/* A callee: probed at its instance (an inline one) or at its function's
 * entry (one called out of line, RET_PC the call's return address), and
 * derived as stap derives it, from its caller's point and
 * .callee("NAME@FILE:LINE"); then its own callees (depth first, as stap
 * orders them). */
static void callee_site(void *arg, const char *name, uint64_t die_off,
			uint64_t ret_pc)
{
	struct callee_ctx *c = arg, sub;
	struct query *q = c->q;
	const char *pat = arena_strndup(q->s->arena, q->callee,
					strcspn(q->callee, "@"));
	size_t skip = strlen(point_head(q, c->module)) + strlen("function(\"");
	const struct dw_func *f;
	const char *fn;
	struct dwarf_point *dpt;
	uint64_t *calls;

	if (ret_pc && c->module)	/* a module's calls: not checked yet */
		return;
	f = ret_pc ? called(c->ix, name, die_off) : instance(c->ix, name, die_off);
	if (!f || (ret_pc && !dw_index_one_range(c->ix, f)))
		return;
	sub = *c;
	if (ret_pc) {	/* the stack must show this call too */
		calls = arena_alloc(q->s->arena,
				    (size_t)(c->ncalls + 1) * sizeof *calls);
		if (c->ncalls)
			memcpy(calls, c->calls, (size_t)c->ncalls * sizeof *calls);
		calls[c->ncalls] = ret_pc;
		sub.calls = calls;
		sub.ncalls = c->ncalls + 1;
	}
	if (fnmatch(pat, name, 0) || blocked(q, c->ix, f))
		return;
	fn = func_name(q, c->ix, f, c->module);
	dpt = push_site(q, c->ix, c->module, fn, dw_index_pc(c->ix, f), f,
			!ret_pc);
	dpt->from = arena_printf(q->s->arena, "%s.callee(\"%.*s\")", c->caller,
				 (int)(strlen(fn) - skip - 2), fn + skip);
	dpt->calls = sub.calls;
	dpt->ncalls = sub.ncalls;
	if (c->depth > 0) {
		sub.caller = fn;
		sub.depth--;
		dw_index_callees(c->ix, f, callee_site, &sub);
	}
}

/* CALLER's callees, and theirs down to the query's depth. */
static void callee_sites(struct query *q, const struct dw_index *ix,
			 const char *module, const struct dw_func *caller)
{
	struct callee_ctx c = { .q = q, .ix = ix, .module = module,
				.caller = func_name(q, ix, caller, module),
				.depth = q->callees - 1 };

	dw_index_callees(ix, caller, callee_site, &c);
}

static void function_sites(struct query *q, const struct dw_index *ix,
			   const char *module)
{
	struct vec funcs = {0};
	struct pcset pcs = {0};
	struct nameset names = {0}, inl_sites = {0};
	int list_only = q->s->list_probes && !q->s->list_probes_vars;
	const struct dw_func *f;
	int i;

	matching(q, ix, &funcs);
	VEC_EACH(funcs, i, f) {
		if ((f->flags & DW_FN_SYMTAB) && pcset_has(&q->dwarf_pcs, dw_index_pc(ix, f)))
			continue;
		if (blocked(q, ix, f))
			continue;
		/* aliases (one body, several names): one probe */
		if (!(f->flags & (DW_FN_INLINE | DW_FN_SYMTAB)) &&
		    !pcset_add(q->s, &pcs, dw_index_pc(ix, f)))
			continue;
		/* an inline function's instances: one per entry pc (one
		 * nested in another at the same pc is the same site) */
		if (f->flags & DW_FN_INLINE) {
			struct dw_func key = { .name = f->name,
					       .file = f->pc_off, .line = 1 };

			if (!nameset_add(q->s, &inl_sites, &key))
				continue;
		}
		if (list_only && !nameset_add(q->s, &names, f))
			continue;
		if (q->callees) {
			if (!(f->flags & DW_FN_SYMTAB))
				callee_sites(q, ix, module, f);
			continue;
		}
		push_site(q, ix, module, func_name(q, ix, f, module),
			  dw_index_pc(ix, f),
			  f, f->flags & DW_FN_INLINE);
	}
}

/* ---- statement probes ------------------------------------------------ */

/* Statement sites of one CU's functions: stap names a site after every
 * matched function that holds its address. */
struct stmt_ctx {
	struct query *q;
	const struct dw_index *ix;
	const char *module;
	const struct dw_func **recs;	/* the CU's matched functions */
};

static void stmt_site(void *arg, size_t i, int line, uint64_t addr)
{
	struct stmt_ctx *c = arg;
	const struct dw_func *f = c->recs[i];
	struct query *q = c->q;

	if (blocked(q, c->ix, f))
		return;
	push_site(q, c->ix, c->module, arena_printf(q->s->arena,
		  "%sstatement(\"%s@%s:%d\")", point_head(q, c->module),
		  dw_index_str(c->ix, f->name), dw_index_str(c->ix, f->file),
		  line), addr, f, f->flags & DW_FN_INLINE);
}

/* Within a CU, stap searches the out-of-line bodies first, then the
 * inline instances, each in DWARF order. */
static int by_cu_then_kind(const void *a, const void *b)
{
	const struct dw_func *x = *(const struct dw_func *const *)a;
	const struct dw_func *y = *(const struct dw_func *const *)b;
	int xi = !!(x->flags & DW_FN_INLINE), yi = !!(y->flags & DW_FN_INLINE);

	if (x->cu_off != y->cu_off)
		return x->cu_off < y->cu_off ? -1 : 1;
	if (xi != yi)
		return xi - yi;
	return x->die_off < y->die_off ? -1 : x->die_off > y->die_off;
}

static const enum dw_lines line_kinds[] = {
	[LN_ALL] = DW_LINES_ALL, [LN_ONE] = DW_LINES_ONE,
	[LN_OFFSET] = DW_LINES_RELATIVE, [LN_RANGE] = DW_LINES_RANGE,
};

/* The lines of SRCFILE in the CU whose matched functions are RECS[0, N). */
static int stmt_file(struct stmt_ctx *c, size_t n, uint32_t srcfile)
{
	struct query *q = c->q;
	struct dw_stmt_func *fs = arena_alloc(q->s->arena, (n + 1) * sizeof *fs);
	const char *file = dw_index_str(c->ix, srcfile);
	struct strbuf sb = {0};
	int below, above, rc, first = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		fs[i].die_off = c->recs[i]->die_off;
		fs[i].pc = dw_index_pc(c->ix, c->recs[i]);
		fs[i].decl_line = (int)c->recs[i]->line;
		fs[i].in_file = c->recs[i]->file == srcfile;
		if (fs[i].in_file && first < 0)
			first = (int)i;
	}
	rc = dw_index_stmt_lines(c->ix, c->recs[0]->cu_off, file, fs, n,
				 line_kinds[q->lk], (int)q->l1, (int)q->l2,
				 stmt_site, c, &below, &above);
	if (rc || (q->lk != LN_ONE && q->lk != LN_OFFSET))
		return 0;
	if (below && above)
		sb_printf(&sb, " (try :%d or :%d)", below, above);
	else if (below || above)
		sb_printf(&sb, " (try :%d)", below ? below : above);
	diag_error(&q->s->diags, q->pt->loc, "sema.dwarf-no-line-records",
		   "no line records for %s:%ld [man error::dwarf]%s", file,
		   q->l1 + (q->lk == LN_OFFSET ? fs[first].decl_line : 0),
		   sb.s ? sb.s : "");
	sb_free(&sb);
	return -1;
}

static int statement_sites(struct query *q, const struct dw_index *ix,
			   const char *module)
{
	struct vec funcs = {0};
	struct stmt_ctx c = { .q = q, .ix = ix, .module = module };
	size_t first, end, i, j;

	if (!q->file || q->lk == LN_NONE)
		return 0;
	matching(q, ix, &funcs);	/* bodies and inline instances */
	for (i = 0; i < (size_t)funcs.n; i++)	/* symbols have no lines */
		if (((const struct dw_func *)funcs.v[i])->flags & DW_FN_SYMTAB)
			funcs.v[i--] = funcs.v[--funcs.n];
	qsort(funcs.v, funcs.n, sizeof *funcs.v, by_cu_then_kind);
	for (first = 0; first < (size_t)funcs.n; first = end) {
		c.recs = (const struct dw_func **)funcs.v + first;
		for (end = first; end < (size_t)funcs.n &&
		     c.recs[end - first]->cu_off == c.recs[0]->cu_off; end++)
			;
		/* each decl file of the CU's functions, once */
		for (i = 0; i < end - first; i++) {
			for (j = 0; j < i && c.recs[j]->file != c.recs[i]->file; j++)
				;
			if (j == i && stmt_file(&c, end - first, c.recs[i]->file))
				return -1;
		}
	}
	return 0;
}

/* ---- expanding a point ----------------------------------------------- */

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "(similar functions: a, b …)": the five function names of the indexes
 * IXS (struct dw_index *) nearest to NAME, as stap ranks them. */
static const char *similar(struct session *s, const struct vec *ixs,
			   const char *name)
{
	struct similar_top t;
	struct vec names = {0};
	const struct dw_index *ix;
	const char *cand, *list;
	size_t i;
	int k;

	VEC_EACH(*ixs, k, ix) {	/* with code, or without (as stap) */
		for (i = 0; i < dw_index_count(ix); i++) {
			cand = dw_index_str(ix, dw_index_at(ix, i)->name);
			if (!names.n || strcmp(names.v[names.n - 1], cand))
				vec_push(s->arena, &names, (void *)cand);
		}
		for (i = 0; i < dw_index_nocode_count(ix); i++)
			vec_push(s->arena, &names,
				 (void *)dw_index_nocode_name(ix, i));
	}
	qsort(names.v, names.n, sizeof *names.v, by_str);	/* each once */
	similar_top_init_stap(&t, name);
	for (k = 0; k < names.n; k++)
		if (!k || strcmp(names.v[k], names.v[k - 1]))
			similar_top_add(&t, names.v[k]);
	list = similar_top_list(s->arena, &t);
	return list ? arena_printf(s->arena, " (similar functions: %s)", list) : "";
}

struct modscan {
	struct query *q;
	int rc;
};

static int scan_module(const char *path, const char *name, void *arg)
{
	struct modscan *m = arg;
	struct query *q = m->q;
	struct dw_index *ix;
	char base[256];

	snprintf(base, sizeof base, "%.*s", (int)strcspn(name, "."), name);
	if (fnmatch(q->module, base, 0) && !modtree_same_name(q->module, base))
		return 0;
	ix = kernel_module_dwarf_index(q->s, path);
	if (!ix)
		return 0;
	q->dwarf_pcs = (struct pcset){0};	/* each module's own addresses */
	vec_push(q->s->arena, &q->seen, ix);
	if (q->is_stmt)
		m->rc |= statement_sites(q, ix, arena_strdup(q->s->arena, base));
	else
		function_sites(q, ix, arena_strdup(q->s->arena, base));
	return 0;
}

static int no_match(struct query *q, const struct dw_index *ix)
{
	const char *names;
	int i;

	if (q->inline_ret.n && !q->s->list_probes && !q->s->list_probes_vars) {
		struct strbuf sb = {0};
		int n = 0;

		VEC_EACH(q->inline_ret, i, names)
			if (!i || strcmp(names, q->inline_ret.v[i - 1])) {
				sb_printf(&sb, " %s", names);
				n++;
			}
		diag_warning(&q->s->diags, q->pt->loc, "sema.dwarf-inline-return",
			     "cannot probe .return of %d inlined functions %s",
			     n, sb.s);
		sb_free(&sb);
	}
	if (q->pt->optional || q->pt->sufficient)
		return 0;
	if (ix)
		vec_push(q->s->arena, &q->seen, (void *)ix);
	diag_error(&q->s->diags, q->pt->loc, "sema.dwarf-no-match", "no match%s",
		   q->func ? similar(q->s, &q->seen, q->func) : "");
	return -1;
}

/* kernel.statement(ADDR): an address in the kernel's DWARF that begins a
 * line-table row (guru mode: anywhere, with a warning); .absolute is
 * resolve_absolute's. */
static int address_site(struct query *q, struct vec *out)
{
	struct session *s = q->s;
	const struct probe_point *pt = q->pt;
	uint64_t addr = (uint64_t)((struct pp_comp *)pt->comps.v[1])->arg->u.num;
	struct dw_index *ix;
	struct dw_func f = {0};
	uint64_t cu, die, prev;
	int rc;

	if (pt->comps.n > 2) {
		vec_push(s->arena, out, (void *)pt);
		return 1;
	}
	if (!(ix = kernel_dwarf_index(s, NULL)))
		return -1;
	rc = dw_index_addr_site(ix, addr, &cu, &die, &prev);
	if (rc == 0 && !s->list_probes && !s->list_probes_vars) {
		char try[64] = "";

		if (prev)
			snprintf(try, sizeof try, " (try 0x%llx)", (unsigned long long)prev);
		if (s->guru)
			diag_warning(&s->diags, pt->loc, "sema.dwarf-statement-address",
				     "address 0x%llx does not match the beginning of a statement%s",
				     (unsigned long long)addr, try);
		else
			diag_error(&s->diags, pt->loc, "sema.dwarf-statement-address",
				   "address 0x%llx does not match the beginning of a statement%s",
				   (unsigned long long)addr, try);
	}
	if (rc < 0 || (rc == 0 && !s->guru))
		return no_match(q, NULL);
	f.cu_off = cu;
	f.die_off = die;
	push_site(q, ix, NULL, arena_printf(s->arena, "kernel.statement(0x%llx)",
					    (unsigned long long)addr), addr, &f, 0);
	return 1;
}

static int expand_dwarf(struct session *s, const struct probe_point *pt,
			struct vec *out)
{
	struct query q;
	struct dw_index *ix = NULL;
	const struct kernel_info *k;
	const char *why = NULL;
	int rc = parse_point(s, pt, &q);

	if (rc <= 0)
		return rc;
	q.out = out;
	if (q.is_stmt && !q.func)	/* statement(ADDR)[.absolute] */
		return address_site(&q, out);
	if (q.lk != LN_NONE && !q.is_stmt && !s->list_probes &&
	    !s->list_probes_vars)
		diag_warning(&s->diags, pt->loc, "sema.dwarf-function-line",
			     "For probing a particular line, use a .statement() probe, not .function()");
	if (q.module) {
		struct modscan m = { .q = &q };

		k = kernel_target(s);
		if (k && k->module_debug_dir)
			modtree_each(k->module_debug_dir, scan_module, &m);
		if (m.rc)
			return -1;
	} else {
		ix = kernel_dwarf_index(s, &why);
		if (!ix) {
			if (why)
				diag_fatal(&s->diags, "missing kernel debuginfo (%s): install the kernel's -dbg package, or run 'stap-testbed setup'",
					   why);
			return -1;
		}
		if (q.is_stmt ? statement_sites(&q, ix, NULL) :
				(function_sites(&q, ix, NULL), 0))
			return -1;
	}
	if (out->n)
		return 1;
	return no_match(&q, ix);
}

/* ---- resolving and emitting ------------------------------------------ */

static int resolve_absolute(struct session *s, const struct probe_point *pt,
			    struct derived_probe *dp)
{
	const struct pp_comp *c = pt->comps.v[1];
	const struct pp_comp *abs = pt->comps.n > 2 ? pt->comps.v[2] : NULL;
	struct dwarf_data *dd = ARENA_NEW(s->arena, struct dwarf_data);

	if (!abs || strcmp(abs->name, "absolute") || abs->has_arg ||
	    pt->comps.n > 3)
		return family_mismatch(s, pt, abs ? abs : c,
				"a kernel statement by address must be .statement(ADDRESS).absolute");
	if (!s->guru) {
		if (dp->optional)
			return 0;
		diag_error(&s->diags, pt->loc, "sema.dwarf-absolute-guru",
			   "absolute statement probe in unprivileged script; need stap -g");
		return -1;
	}
	dd->absolute = 1;
	dd->site.pc = (uint64_t)c->arg->u.num;
	dd->site.is_statement = 1;
	dp->data = dd;
	dp->pp = arena_printf(s->arena, "kernel.statement(0x%llx).absolute",
			      (unsigned long long)dd->site.pc);
	dp->user_pp = pp_format(s, (struct vec *)&pt->comps);
	return 1;
}

/* A callee reached through calls out of line runs only when the stack
 * shows them, as stap checks: "if (!_caller_match(0, LEVEL, "kernel",
 * "_stext", RETURN)) next" for each, the outermost (the highest LEVEL)
 * first, RETURN the call's return address from _stext. */
static void caller_checks(struct session *s, const struct dwarf_point *dpt,
			  struct derived_probe *dp)
{
	const struct ksyms *k = ksyms_kernel(s);
	uint64_t stext = k ? ksyms_addr(k, "_stext") : 0;
	struct loc at = dp->loc;
	int i;

	for (i = 0; i < dpt->ncalls; i++) {
		struct vec args = {0};
		struct exp *call, *addr;

		vec_push(s->arena, &args, ast_num(s->arena, at, 0));
		vec_push(s->arena, &args,
			 ast_num(s->arena, at, dpt->ncalls - i));
		vec_push(s->arena, &args,
			 ast_str(s->arena, at, "kernel", 6, NULL));
		vec_push(s->arena, &args,
			 ast_str(s->arena, at, "_stext", 6, NULL));
		addr = ast_num(s->arena, at, (int64_t)(dpt->calls[i] - stext));
		addr->hex = 1;
		vec_push(s->arena, &args, addr);
		call = ast_call(s->arena, at, "_caller_match", args);
		vec_push(s->arena, &dp->prelude,
			 ast_if(s->arena, at,
				ast_unary(s->arena, EX_UNARY, at, OP_NOT, call),
				ast_stmt(s->arena, ST_NEXT, at), NULL));
	}
}

static int resolve_dwarf(struct session *s, const struct probe_point *pt,
			 struct derived_probe *dp)
{
	const struct dwarf_point *dpt = (const struct dwarf_point *)pt;
	const struct ksyms *k;
	struct dwarf_data *dd;
	struct query q;
	int i;

	if (pt->comps.n == 3 &&
	    !strcmp(((struct pp_comp *)pt->comps.v[1])->name, "statement") &&
	    ((struct pp_comp *)pt->comps.v[1])->arg &&
	    ((struct pp_comp *)pt->comps.v[1])->arg->kind == EX_NUM)
		return resolve_absolute(s, pt, dp);
	/* every other point comes from expand_dwarf */
	dd = dpt->dd;
	if (parse_point(s, pt, &q) <= 0)
		return -1;
	dp->data = dd;
	dp->kmodule = dd->site.module;	/* the testbed guest loads it */
	dp->kernel_symbols = !dd->site.module;
	dp->pp = arena_printf(s->arena, "%s%s", dpt->name, q.suffix);
	/* stap shows the resolved point, with the point's ? or ! */
	dp->user_pp = arena_printf(s->arena, "%s%s",
				   dpt->from ? dpt->from : dp->pp,
				   pt->sufficient ? "!" : pt->optional ? "?" : "");
	if (dpt->from)	/* -l: the callee as its caller's */
		dp->list_pp = dpt->from;
	caller_checks(s, dpt, dp);
	dp->comps = (struct vec){0};
	for (i = 0; i < pt->comps.n; i++)
		vec_push(s->arena, &dp->comps, pt->comps.v[i]);
	if (dd->site.module) {
		dd->symbol = dw_index_addr_symbol(dd->ix, dd->site.pc, &dd->offset);
		if (!dd->symbol)
			return family_mismatch(s, pt, pt->comps.v[q.fi],
					       "no symbol holds this address");
	} else if ((k = ksyms_kernel(s))) {
		dd->stext = ksyms_addr(k, "_stext");
	}
	return 1;
}

static void emit_dwarf(struct emit *e, struct vec *probes)
{
	const struct ksyms *k = ksyms_kernel(e->s);
	uint64_t anchor = k ? ksyms_addr(k, "sprint_symbol") : 0;
	struct derived_probe *dp;
	int i;

	emit_line(e, "#include \"probes/kprobe.c\"");
	emit_line(e, "static struct stp_kprobe stp_dwarf_probes[] = {");
	VEC_EACH(*probes, i, dp) {
		struct dwarf_data *dd = dp->data;
		const char *sym = dd->symbol ? arena_printf(e->s->arena, "%s:%s",
					dd->site.module, dd->symbol) : NULL;

		emit_line(e, "\t{ .probe = &stp_probes[%d], .symbol = %s, .offset = %llu, .addr = 0x%llxUL,",
			  dp->index, sym ? emit_cstr(e, sym, strlen(sym)) : "NULL",
			  (unsigned long long)dd->offset,
			  (unsigned long long)(sym ? 0 : dd->site.pc));
		emit_line(e, "\t  .anchor = 0x%llxUL, .is_return = %d, .maxactive = %lld, .in_module = %d, .optional = %d, .by_address = 1 },",
			  (unsigned long long)(sym || dd->absolute ? 0 : anchor),
			  dd->site.is_return, (long long)dd->maxactive,
			  dd->site.module != NULL, dp->optional);
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_dwarf, "_stp_kprobes",
				     "stp_dwarf_probes", probes->n);
}

/* -p2: where the probe goes, as stap shows it. */
static const char *note_dwarf(struct session *s, const struct derived_probe *dp)
{
	const struct dwarf_data *dd = dp->data;

	if (dd->symbol)
		return arena_printf(s->arena, " pc=<%s:%s+%llu> ",
				    dd->site.module, dd->symbol,
				    (unsigned long long)dd->offset);
	if (dd->stext && !dd->absolute)
		return arena_printf(s->arena, " pc=_stext+0x%llx ",
				    (unsigned long long)(dd->site.pc - dd->stext));
	return arena_printf(s->arena, " pc=+0x%llx ",	/* stap: no symbol */
			    (unsigned long long)dd->site.pc);
}

static const char *type_dwarf(const struct derived_probe *dp)
{
	return ((const struct dwarf_data *)dp->data)->site.is_return ?
		"kretprobe" : "kprobe";
}

/* @entry and a .return probe's parameters: the same site at the entry. */
static struct derived_probe *entry_dwarf(struct session *s,
					 const struct derived_probe *ret)
{
	return dwarf_vars_entry_probe(s, ret, sizeof(struct dwarf_data));
}

static const char *const dwarf_shapes[] = {
	"kernel.function(string)", "kernel.function(string).call",
	"kernel.function(string).exported", "kernel.function(string).inline",
	"kernel.function(string).return",
	"kernel.function(string).return.maxactive(number)",
	"kernel.function(string).callee(string)",
	"kernel.function(string).callees",
	"kernel.function(string).callees(number)",
	"kernel.statement(string)", "kernel.statement(number).absolute",
	"module(string).function(string)",
	"module(string).function(string).call",
	"module(string).function(string).exported",
	"module(string).function(string).inline",
	"module(string).function(string).return",
	"module(string).function(string).return.maxactive(number)",
	"module(string).function(string).callee(string)",
	"module(string).function(string).callees",
	"module(string).function(string).callees(number)",
	"module(string).statement(string)", NULL,
};

const struct probe_family family_dwarf = {
	.name = "dwarf", .kind = "kernel.function",
	.resolve = resolve_dwarf, .expand = expand_dwarf, .emit = emit_dwarf,
	.listing_note = note_dwarf, .probe_type = type_dwarf,
	.shapes = dwarf_shapes, .keeps_stable_calls = 1,
	/* target variables: dwarf_vars.c */
	.target_var = dwarf_vars_target, .list_vars = dwarf_vars_list,
	.entry_target = dwarf_vars_entry_target, .entry_probe = entry_dwarf,
	.emit_decls = dwarf_vars_emit_decls, .target_assign = dwarf_vars_assign,
	.atvar = dwarf_vars_atvar,
};
