/* probes/kprobe.c - the kprobe family: probes that need no debug info.
 *
 *   kprobe.function("f")[.call | .return[.maxactive(N)]]
 *   kprobe.module("m").function("f")[.call | .return[.maxactive(N)]]
 *   kprobe.statement(ADDR).absolute                  (guru mode only)
 *
 * Kernel function names are checked against the target kernel's
 * System.map, where wildcards expand (sorted by name); module names and
 * their functions are taken as written, as stap does: a module that is
 * not loaded leaves its probes silently unregistered.  The runtime
 * (runtime/probes/kprobe.c) registers kprobes and kretprobes by name.
 * A kprobe a tapset alias puts where stap 4.8 has a DWARF probe
 * (vfs.read on vfs_read; such an alias calls __kernel_symbols()) gives
 * the function's parameters as $name ($return on return), typed from the
 * kernel's BTF, as stap's kernel.function would; a kprobe written as such
 * has none, as in stap.
 */
#include <string.h>

#include "probes/family.h"

struct kprobe_data {
	const char *module;	/* NULL: the kernel */
	const char *func;	/* NULL: an absolute address */
	uint64_t addr;
	int is_return;
	int64_t maxactive;	/* 0: the kernel's default */
	int dwarf_like;		/* the @entry probe of a return probe whose
				   alias stands for a DWARF probe */
};

/* Index of the function component, after checking the head of the point;
 * -1 after an error. */
static int function_comp(struct session *s, const struct probe_point *pt)
{
	const struct pp_comp *c = pt->comps.n > 1 ? pt->comps.v[1] : pt->comps.v[0];
	int i = 1;

	if (pt->comps.n > 1 && !strcmp(c->name, "module")) {
		if (!family_str_arg(s, c))
			return family_mismatch(s, pt, c, "module needs a string argument");
		i = 2;
		c = pt->comps.n > 2 ? pt->comps.v[2] : c;
	}
	if (pt->comps.n <= i || strcmp(c->name, "function"))
		return family_mismatch(s, pt, c, i == 2 ?
				"expected .function(\"name\") after .module(\"name\")" :
				"expected .function(\"name\"), .module(\"name\") or .statement(ADDRESS)");
	if (!family_str_arg(s, c))
		return family_mismatch(s, pt, c, "function needs a string argument");
	return i;
}

static int has_wildcard(const char *p)
{
	return strpbrk(p, "*?[") != NULL;
}

static struct probe_point *with_function(struct session *s,
					 const struct probe_point *pt, int fi,
					 const char *name)
{
	struct probe_point *np = ARENA_NEW(s->arena, struct probe_point);
	const struct pp_comp *oc = pt->comps.v[fi];
	struct pp_comp *nc = ARENA_NEW(s->arena, struct pp_comp);
	int i;

	*np = *pt;
	np->comps = (struct vec){0};
	*nc = *oc;
	nc->arg = ast_str(s->arena, oc->arg->loc, name, strlen(name), NULL);
	for (i = 0; i < pt->comps.n; i++)
		vec_push(s->arena, &np->comps, i == fi ? nc : pt->comps.v[i]);
	return np;
}

static int expand_kprobe(struct session *s, const struct probe_point *pt,
			 struct vec *out)
{
	int optional = pt->optional || pt->sufficient;
	const struct pp_comp *c;
	const struct ksyms *k;
	const char *name, *similar;
	struct vec names = {0};
	int fi, i;

	if (pt->comps.n > 1 && !strcmp(((struct pp_comp *)pt->comps.v[1])->name,
				       "statement")) {
		vec_push(s->arena, out, (void *)pt);
		return 1;
	}
	fi = function_comp(s, pt);
	if (fi < 0)
		return -1;
	c = pt->comps.v[fi];
	name = family_str_arg(s, c);
	k = ksyms_kernel(s);
	if (fi == 2 || !k) {		/* modules, or no symbols to check */
		vec_push(s->arena, out, (void *)pt);
		return 1;
	}
	if (has_wildcard(name))
		ksyms_match(s, k, name, &names);
	else if (ksyms_has(k, name))
		vec_push(s->arena, &names, (void *)name);
	if (!names.n) {
		if (optional)
			return 0;
		similar = ksyms_similar(s, k, name);
		diag_error(&s->diags, c->loc, "sema.kprobe-no-function",
			   "no kernel function matches '%s'%s%s%s", name,
			   similar ? " (similar functions: " : "",
			   similar ? similar : "", similar ? ")" : "");
		return -1;
	}
	VEC_EACH(names, i, name)
		vec_push(s->arena, out, with_function(s, pt, fi, name));
	return 1;
}

/* .call, .return, .return.maxactive(N) after component FI. */
static int resolve_suffix(struct session *s, const struct probe_point *pt,
			  int i, struct kprobe_data *kd)
{
	const struct pp_comp *c;

	if (i < pt->comps.n) {
		c = pt->comps.v[i];
		if (!strcmp(c->name, "call") && !c->has_arg)
			i++;
		else if (!strcmp(c->name, "return") && !c->has_arg) {
			kd->is_return = 1;
			i++;
			c = i < pt->comps.n ? pt->comps.v[i] : NULL;
			if (c && !strcmp(c->name, "maxactive")) {
				if (!c->arg || c->arg->kind != EX_NUM)
					return family_mismatch(s, pt, c, "maxactive needs a number");
				kd->maxactive = c->arg->u.num;
				i++;
			}
		}
	}
	if (i < pt->comps.n) {
		c = pt->comps.v[i];
		diag_error(&s->diags, c->loc, "sema.probe-mismatch",
			   "invalid suffix '%s' for probe point '%s' (expected .call, .return or .return.maxactive(N))",
			   c->name, pp_format(s, (struct vec *)&pt->comps));
		return -1;
	}
	return 0;
}

static int resolve_statement(struct session *s, const struct probe_point *pt,
			     struct derived_probe *dp, struct kprobe_data *kd)
{
	const struct pp_comp *c = pt->comps.v[1];
	const struct pp_comp *abs = pt->comps.n > 2 ? pt->comps.v[2] : NULL;

	if (!c->arg || c->arg->kind != EX_NUM)
		return family_mismatch(s, pt, c, "statement needs an address");
	if (!abs || strcmp(abs->name, "absolute") || abs->has_arg ||
	    pt->comps.n > 3)
		return family_mismatch(s, pt, abs ? abs : c,
				"a kprobe statement must be .statement(ADDRESS).absolute");
	if (!s->guru) {
		if (dp->optional)	/* stap: quietly no match */
			return 0;
		diag_error(&s->diags, pt->loc, "sema.kprobe-absolute-guru",
			   "absolute statement probe in unprivileged script; need stap -g");
		return -1;
	}
	kd->addr = (uint64_t)c->arg->u.num;
	dp->pp = arena_printf(s->arena, "kprobe.statement(0x%llx).absolute",
			      (unsigned long long)kd->addr);
	return 1;
}

static int resolve_kprobe(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp)
{
	struct kprobe_data *kd = ARENA_NEW(s->arena, struct kprobe_data);
	int fi;

	dp->data = kd;
	if (pt->comps.n > 1 && !strcmp(((struct pp_comp *)pt->comps.v[1])->name,
				       "statement"))
		return resolve_statement(s, pt, dp, kd);
	fi = function_comp(s, pt);
	if (fi < 0)
		return -1;
	if (fi == 2)
		kd->module = family_str_arg(s, pt->comps.v[1]);
	kd->func = family_str_arg(s, pt->comps.v[fi]);
	if (resolve_suffix(s, pt, fi + 1, kd))
		return -1;
	return 1;
}

/* The prototype of kernel function FUNC in the kernel's BTF, or NULL. */
static const struct btf_type *func_proto(struct session *s, const char *func,
					 const struct tpcat **catp)
{
	const struct btf_type *f;
	char err[512];
	uint32_t id;

	*catp = kernel_catalog(s, err, sizeof err);
	if (!*catp || !(id = btf_find((*catp)->btf, func, BTF_KIND_FUNC)))
		return NULL;
	f = btf_type((*catp)->btf, id);
	f = btf_type((*catp)->btf, f->type);
	return f && btf_kind(f) == BTF_KIND_FUNC_PROTO ? f : NULL;
}

static int is_symbols_call(struct walker *w, struct exp *e)
{
	if (e->kind == EX_CALL && !strcmp(e->u.call.name, "__kernel_symbols"))
		*(int *)w->arg = 1;
	return 0;
}

/* Target variables exist for a kernel function under an alias that
 * stands for one of stap's DWARF probes: it says so by calling
 * __kernel_symbols() (context-symbols.stp); the prototype, or NULL. */
static int stands_for_dwarf(const struct derived_probe *dp)
{
	const struct kprobe_data *kd = dp->data;
	int dwarf_like = kd->dwarf_like;
	struct walker w = { .exp = is_symbols_call, .arg = &dwarf_like };

	if (!dwarf_like && dp->body)
		walk_stmt(&w, dp->body);
	return dwarf_like;
}

static const struct btf_type *alias_proto(struct session *s,
					  const struct derived_probe *dp,
					  const struct tpcat **catp)
{
	const struct kprobe_data *kd = dp->data;

	if (!dp->list_pp || !kd || !kd->func || kd->module ||
	    !stands_for_dwarf(dp))
		return NULL;
	return func_proto(s, kd->func, catp);
}

/* pp() of an alias standing for stap's DWARF probe on a kernel function:
 * kernel.function("NAME@FILE:LINE")[.return], as stap names it, when the
 * kernel's debug info says where NAME is declared. */
static const char *runtime_pp_kprobe(struct session *s,
				     const struct derived_probe *dp)
{
	const struct kprobe_data *kd = dp->data;
	const struct ksyms *k;
	const char *decl;

	if (!dp->list_pp || !kd || !kd->func || kd->module ||
	    !stands_for_dwarf(dp) || !(k = ksyms_kernel(s)))
		return NULL;
	decl = dw_func_decl(s, kd->func, ksyms_addr(k, kd->func));
	if (!decl)
		return NULL;
	return arena_printf(s->arena, "kernel.function(\"%s\")%s", decl,
			    kd->is_return ? ".return" : "");
}

static int target_kprobe(struct session *s, struct derived_probe *dp,
			 struct exp *e, int quiet)
{
	const struct kprobe_data *kd = dp->data;
	const struct tpcat *cat;
	const struct btf_type *proto = alias_proto(s, dp, &cat);
	const struct btf_param *pa;
	const char *name = e->u.target.name;
	int i, n;

	if (!proto || e->kind != EX_TARGET)
		return -2;	/* as a family without target variables */
	if (kd->is_return) {
		if (strcmp(name, "return") || !proto->type)
			return -2;
		e->u.target.resolved = tvar_resolve(s, e, &e->u.target.comps,
			"_stp_kprobe_retval(c)",
			ctype_btf_get(cat->types, proto->type),
			"kernel function variable", "$return", quiet);
		return e->u.target.resolved ? 0 : -1;
	}
	pa = btf_extra(proto);
	n = btf_vlen(proto);
	for (i = 0; i < n && i < 6; i++) {
		if (strcmp(btf_str(cat->btf, pa[i].name_off), name))
			continue;
		e->u.target.resolved = tvar_resolve(s, e, &e->u.target.comps,
			arena_printf(s->arena, "_stp_kprobe_arg(c, %d)", i),
			ctype_btf_get(cat->types, pa[i].type),
			"kernel function variable",
			arena_printf(s->arena, "$%s", name), quiet);
		return e->u.target.resolved ? 0 : -1;
	}
	return -2;
}

/* A parameter named in a return probe is read at the function's entry. */
static int entry_target_kprobe(struct session *s,
			       const struct derived_probe *ret,
			       const char *name)
{
	const struct kprobe_data *kd = ret->data;
	const struct tpcat *cat;
	const struct btf_type *proto = alias_proto(s, ret, &cat);
	const struct btf_param *pa;
	int i;

	if (!proto || !kd->is_return)
		return 0;
	pa = btf_extra(proto);
	for (i = 0; i < btf_vlen(proto) && i < 6; i++)
		if (!strcmp(btf_str(cat->btf, pa[i].name_off), name))
			return 1;
	return 0;
}

/* -L: the parameters (entry) a probe through an alias gives. */
static void list_kprobe(struct session *s, struct derived_probe *dp,
			struct strbuf *out)
{
	const struct kprobe_data *kd = dp->data;
	const struct tpcat *cat;
	const struct btf_type *proto = alias_proto(s, dp, &cat);
	const struct btf_param *pa;
	char buf[512];
	int i;

	if (!proto || kd->is_return)
		return;
	pa = btf_extra(proto);
	for (i = 0; i < btf_vlen(proto) && i < 6; i++)
		sb_printf(out, " $%s:%s", btf_str(cat->btf, pa[i].name_off),
			  ctype_name(ctype_btf_get(cat->types, pa[i].type),
				     buf, sizeof buf));
}

/* @entry: a kprobe on the function a return probe watches. */
static struct derived_probe *entry_kprobe(struct session *s,
					  const struct derived_probe *ret)
{
	const struct kprobe_data *kd = ret->data;
	struct kprobe_data *ck;

	if (!kd || !kd->is_return)
		return NULL;
	ck = ARENA_NEW(s->arena, struct kprobe_data);
	*ck = *kd;
	ck->is_return = 0;
	ck->maxactive = 0;
	ck->dwarf_like = stands_for_dwarf(ret);
	/* list_pp is copied: its parameters, as the return's */
	return family_entry_clone(s, ret, ck);
}

/* A syscall alias (syscall.*, nd_syscall.*) on a syscall's entry point:
 * there, as in stap, int_arg(N) and the like read the syscall's own
 * arguments, from the user registers the __x64_sys_* wrapper receives. */
static int syscall_regs(const struct derived_probe *dp)
{
	const struct kprobe_data *kd = dp->data;

	return dp->from_alias && !kd->is_return && kd->func && !kd->module &&
	       !strncmp(kd->func, "__x64_sys_", 10);
}

static void emit_kprobe(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	int i;

	emit_line(e, "#include \"probes/kprobe.c\"");
	emit_line(e, "static struct stp_kprobe stp_kprobes[] = {");
	VEC_EACH(*probes, i, dp) {
		struct kprobe_data *kd = dp->data;
		const char *sym = kd->func ? (kd->module ?
			arena_printf(e->s->arena, "%s:%s", kd->module, kd->func) :
			kd->func) : NULL;
		emit_line(e, "\t{ .probe = &stp_probes[%d], .symbol = %s, .addr = 0x%llxUL,",
			  dp->index, sym ? emit_cstr(e, sym, strlen(sym)) : "NULL",
			  (unsigned long long)kd->addr);
		emit_line(e, "\t  .is_return = %d, .maxactive = %lld, .in_module = %d, .optional = %d,",
			  kd->is_return, (long long)kd->maxactive,
			  kd->module != NULL, dp->optional);
		emit_line(e, "\t  .syscall_regs = %d },", syscall_regs(dp));
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_kprobe, "_stp_kprobes",
				     "stp_kprobes", probes->n);
}

static const char *note_kprobe(struct session *s, const struct derived_probe *dp)
{
	const struct kprobe_data *kd = dp->data;

	if (!kd->func)
		return "  name = ";
	return arena_printf(s->arena, "  name = %s%s%s", kd->module ? kd->module : "",
			    kd->module ? ":" : "", kd->func);
}

static const char *const kprobe_shapes[] = {
	"kprobe.function(string)", "kprobe.function(string).return",
	"kprobe.function(string).return.maxactive(number)",
	"kprobe.module(string).function(string)",
	"kprobe.module(string).function(string).return",
	"kprobe.module(string).function(string).return.maxactive(number)",
	"kprobe.statement(number).absolute", NULL,
};

static const char *type_kprobe(const struct derived_probe *dp)
{
	return ((const struct kprobe_data *)dp->data)->is_return ? "kretprobe" : "kprobe";
}

const struct probe_family family_kprobe = {
	.probe_type = type_kprobe,
	.entry_probe = entry_kprobe,
	.shapes = kprobe_shapes,
	.name = "kprobe", .resolve = resolve_kprobe, .emit = emit_kprobe,
	.expand = expand_kprobe, .listing_note = note_kprobe, .kind = "kprobe",
	.target_var = target_kprobe, .list_vars = list_kprobe,
	.entry_target = entry_target_kprobe, .runtime_pp = runtime_pp_kprobe,
};
