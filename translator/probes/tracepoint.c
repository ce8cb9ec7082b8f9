/* probes/tracepoint.c - the kernel.trace("[system:]name") probe family.
 *
 * Points name tracepoints of the target kernel, with wildcards in both the
 * system and the name; the catalog (tpcat.c) knows them and their typed
 * arguments, which are the probes' target variables ($prev, $$parms).
 * At run time each probe registers a callback on its tracepoint
 * (runtime/probes/tracepoint.c) that hands the arguments to the handler
 * in the context (c->args).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

static const struct tpcat *catalog(struct session *s)
{
	static const struct tpcat *cat;
	static int failed;
	char err[512];

	if (cat || failed)
		return cat;
	if (!kernel_target(s)) {	/* it has said why */
		failed = 1;
		return NULL;
	}
	cat = kernel_catalog(s, err, sizeof err);
	if (!cat) {
		diag_fatal(&s->diags, "cannot list the kernel's tracepoints: %s", err);
		failed = 1;
	}
	return cat;
}

/* kernel.trace("PATTERN"): the pattern, or NULL when POINT is another
 * kernel.* family's. */
static const char *trace_pattern(const struct probe_point *point)
{
	const struct pp_comp *c;

	if (point->comps.n != 2)
		return NULL;
	c = point->comps.v[1];
	if (strcmp(c->name, "trace") || !c->arg || c->arg->kind != EX_STR)
		return NULL;
	return c->arg->u.str.s;
}

static int matches(const struct tp_entry *te, const char *pattern)
{
	const char *colon = strchr(pattern, ':');
	char sys[256];

	if (!colon)
		return !fnmatch(pattern, te->name, 0);
	snprintf(sys, sizeof sys, "%.*s", (int)(colon - pattern), pattern);
	return !fnmatch(sys, te->system, 0) && !fnmatch(colon + 1, te->name, 0);
}

static struct probe_point *concrete_point(struct session *s,
					  const struct probe_point *point,
					  const struct tp_entry *te)
{
	struct arena *a = s->arena;
	struct probe_point *np = ARENA_NEW(a, struct probe_point);
	const struct pp_comp *c = point->comps.v[1];
	struct pp_comp *nc = ARENA_NEW(a, struct pp_comp);
	struct exp *arg = ARENA_NEW(a, struct exp);

	*np = *point;
	np->comps = (struct vec){0};
	vec_push(a, &np->comps, point->comps.v[0]);
	*nc = *c;
	*arg = *c->arg;
	arg->u.str.s = arena_printf(a, "%s:%s", te->system, te->name);
	arg->u.str.len = strlen(arg->u.str.s);
	arg->u.str.raw = arg->u.str.s;
	nc->arg = arg;
	vec_push(a, &np->comps, nc);
	return np;
}

static int expand_trace(struct session *s, const struct probe_point *point,
			struct vec *out)
{
	const char *pattern = trace_pattern(point);
	const struct tpcat *cat;
	int i;

	if (!pattern)
		return 0;
	cat = catalog(s);
	if (!cat)
		return -1;
	for (i = 0; i < cat->n; i++)
		if (matches(&cat->v[i], pattern))
			vec_push(s->arena, out, concrete_point(s, point, &cat->v[i]));
	if (out->n)
		return 1;
	if (point->optional)
		return 0;
	diag_error(&s->diags, point->loc, "sema.tracepoint-mismatch",
		   "no tracepoint of the kernel matches '%s'", pattern);
	return -1;
}

/* TE's arguments from its module's DWARF (the parameters of its
 * __traceiter_ function but the leading void *__data), where the module
 * has no BTF: the catalog typed them from the TP_PROTO over the kernel's
 * types, in which the module's own structs are only declared.  Once per
 * tracepoint; without the module's debug file they stay as they are. */
static void type_from_dwarf(struct session *s, struct tp_entry *te)
{
	struct dw_index *ix;
	struct dw_file *f;
	struct dw_var *v = NULL;
	char fn[512];
	size_t first, n, i;
	int nv = -1, j, k = 0;

	if (!te->module_dwarf)
		return;
	te->module_dwarf = 0;
	ix = kernel_module_dwarf_named(s, te->module);
	if (!ix || !(f = dw_index_file(ix)))
		return;
	snprintf(fn, sizeof fn, "__traceiter_%s", te->name);
	n = dw_index_lookup(ix, fn, &first);
	for (i = first; i < first + n && nv < 0; i++) {
		const struct dw_func *df = dw_index_at(ix, i);
		if (!(df->flags & (DW_FN_INLINE | DW_FN_SYMTAB)))
			nv = dw_vars_at(f, df->die_off, dw_index_pc(ix, df), 0,
					&v);
	}
	if (nv < 1)
		return;
	te->args = arena_alloc(s->arena, sizeof *te->args * (size_t)nv);
	for (j = 1; j < nv; j++)
		if (v[j].is_param)
			te->args[k++] = (struct tp_arg){ v[j].name,
				dw_type_of(f, v[j].die_off) };
	te->nargs = k;
	free(v);
}

static int resolve_trace(struct session *s, const struct probe_point *point,
			 struct derived_probe *dp)
{
	const char *pattern = trace_pattern(point);
	const struct tpcat *cat = catalog(s);
	int i;

	if (!pattern || !cat)
		return 0;
	for (i = 0; i < cat->n; i++) {
		struct tp_entry *te = &cat->v[i];
		if (!strchr(pattern, ':') || !matches(te, pattern))
			continue;
		type_from_dwarf(s, te);
		dp->data = (void *)te;
		dp->kmodule = te->module;
		dp->pp = arena_printf(s->arena, "kernel.trace(\"%s:%s\")",
				      te->system, te->name);
		return 1;
	}
	return 0;
}

/* $$parms and $$vars (the same for a tracepoint): every argument as
 * "name=0x…", the way stap prints them; with a trailing $ or $$, each as
 * $name$ or $name$$ would show it. */
static int list_vars_value(struct session *s, struct derived_probe *dp,
			   struct exp *e, int quiet)
{
	const struct tp_entry *te = dp->data;
	struct vec *comps = &e->u.target.comps;
	struct target_comp *c = comps->n ? comps->v[0] : NULL;
	struct tvar *tv;
	int i;

	if (comps->n > 1 || (c && c->kind != TC_PRETTY)) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.target-list-member",
				   "tracepoint variable '$%s' may not be used as a structure",
				   e->u.target.name);
		return -1;
	}
	tv = ARENA_NEW(s->arena, struct tvar);
	tv->final = TV_PRETTY;
	tv->pretty_kind = c ? (char)('0' + c->num) : 0;
	tv->nparts = te->nargs;
	tv->parts = arena_alloc(s->arena, sizeof(struct tvar *) * (size_t)(te->nargs + 1));
	tv->labels = arena_alloc(s->arena, sizeof(char *) * (size_t)(te->nargs + 1));
	for (i = 0; i < te->nargs; i++) {
		struct exp *arg = ARENA_NEW(s->arena, struct exp);
		arg->kind = EX_TARGET;
		arg->loc = e->loc;
		arg->u.target.name = te->args[i].name;
		if (c)
			vec_push(s->arena, &arg->u.target.comps, c);
		tv->labels[i] = te->args[i].name;
		tv->parts[i] = tvar_resolve(s, arg, &arg->u.target.comps,
			arena_printf(s->arena, "c->args[%d]", i),
			te->args[i].type, "tracepoint variable", "", 1);
		if (!tv->parts[i]) {	/* a struct passed by value: skip it */
			tv->parts[i] = ARENA_NEW(s->arena, struct tvar);
			tv->parts[i]->base = arena_printf(s->arena, "c->args[%d]", i);
			tv->parts[i]->size = 8;
			if (c)
				tv->parts[i]->pretty_kind = 'x';
		}
	}
	e->u.target.resolved = tv;
	e->type = TY_STRING;
	return 0;
}

static int target_trace(struct session *s, struct derived_probe *dp,
			struct exp *e, int quiet)
{
	const struct tp_entry *te = dp->data;
	const char *name = e->u.target.name;
	int i;

	if (e->kind == EX_TARGET && !strcmp(name, "$name") &&
	    !e->u.target.comps.n) {
		struct tvar *tv = ARENA_NEW(s->arena, struct tvar);
		tv->final = TV_PRETTY;
		tv->pretty = arena_printf(s->arena, "\"%s\"", te->name);
		e->u.target.resolved = tv;
		e->type = TY_STRING;
		return 0;
	}
	if (e->kind == EX_TARGET_LIST &&
	    (!strcmp(name, "$parms") || !strcmp(name, "$vars")))
		return list_vars_value(s, dp, e, quiet);
	if (e->kind == EX_TARGET)
		for (i = 0; i < te->nargs; i++) {
			if (strcmp(te->args[i].name, name))
				continue;
			if (e->u.target.addr_of) {	/* a copy, not memory */
				if (!quiet)
					diag_error(&s->diags, e->loc,
						   "sema.target-addr-of",
						   "cannot take address of tracepoint variable");
				return -1;
			}
			e->u.target.resolved = tvar_resolve(s, e,
				&e->u.target.comps,
				arena_printf(s->arena, "c->args[%d]", i),
				te->args[i].type, "tracepoint variable",
				arena_printf(s->arena, "$%s", name), quiet);
			return e->u.target.resolved ? 0 : -1;
		}
	if (!quiet) {
		struct strbuf sb = {0};
		for (i = 0; i < te->nargs; i++)
			sb_printf(&sb, "$%s, ", te->args[i].name);
		sb_puts(&sb, "$$name, $$parms, $$vars");
		diag_error(&s->diags, e->loc, "sema.target-unknown",
			   "unable to find tracepoint variable '$%s' (alternatives: %s)",
			   name, sb.s);
		sb_free(&sb);
	}
	return -1;
}

static void list_trace(struct session *s, struct derived_probe *dp,
		       struct strbuf *out)
{
	const struct tp_entry *te = dp->data;
	char buf[512];
	int i;

	for (i = 0; i < te->nargs; i++)
		sb_printf(out, " $%s:%s", te->args[i].name,
			  ctype_name(te->args[i].type, buf, sizeof buf));
}

struct args_read {
	const struct tp_entry *te;
	char *read;		/* read[i]: the body reads argument i */
};

static int mark_arg_read(struct walker *w, struct exp *e)
{
	struct args_read *ar = w->arg;
	int i;

	if (e->kind == EX_TARGET)
		for (i = 0; i < ar->te->nargs; i++)
			if (!strcmp(ar->te->args[i].name, e->u.target.name))
				ar->read[i] = 1;
	return 0;
}

/* stap turns each argument an alias body reads into a local
 * __tracepoint_arg_NAME, listed by -L in the tracepoint's order. */
static void list_trace_alias_args(struct session *s, struct derived_probe *dp,
				  struct strbuf *out)
{
	struct args_read ar = { dp->data, NULL };
	struct walker w = { .exp = mark_arg_read, .arg = &ar };
	int i;

	ar.read = arena_alloc(s->arena, (size_t)ar.te->nargs + 1);
	walk_stmt(&w, dp->body);
	for (i = 0; i < ar.te->nargs; i++)
		if (ar.read[i])
			sb_printf(out, " __tracepoint_arg_%s:long",
				  ar.te->args[i].name);
}

static void emit_trace(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	int i;

	emit_line(e, "#include \"probes/tracepoint.c\"");
	emit_line(e, "static struct stp_tracepoint stp_tracepoints[] = {");
	VEC_EACH(*probes, i, dp) {
		const struct tp_entry *te = dp->data;
		if (te->module)
			emit_line(e, "\t{ .probe = &stp_probes[%d], .name = \"%s\", .module = \"%s\", .fn = (void *)_stp_tp_fn%d },",
				  dp->index, te->name, te->module, te->nargs);
		else if (te->absent)	/* as stap's: it never fires */
			emit_line(e, "\t{ .probe = &stp_probes[%d], .name = \"%s\", .absent = 1, .fn = (void *)_stp_tp_fn%d },",
				  dp->index, te->name, te->nargs);
		else
			emit_line(e, "\t{ .probe = &stp_probes[%d], .name = \"%s\", .fn = (void *)_stp_tp_fn%d },",
				  dp->index, te->name, te->nargs);
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_tracepoint, "_stp_tracepoints",
				     "stp_tracepoints", probes->n);
}

static const char *const trace_shapes[] = { "kernel.trace(string)", NULL };

static const char *type_trace(const struct derived_probe *dp)
{
	(void)dp;
	return "kernel_tracepoint";
}

const struct probe_family family_tracepoint = {
	.probe_type = type_trace,
	.shapes = trace_shapes,
	.name = "tracepoint", .resolve = resolve_trace, .emit = emit_trace,
	.kind = "kernel.trace", .expand = expand_trace,
	.target_var = target_trace, .list_vars = list_trace,
	.list_alias_vars = list_trace_alias_args,
};
