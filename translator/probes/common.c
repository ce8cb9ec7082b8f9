/* common.c - what several probe families do the same way (family.h).
 *
 * Reporting a point that does not fit a family's shapes, reading a
 * component's string argument, the .call probe that evaluates a return
 * probe's @entry values, and writing the start and stop functions each
 * family gives the module.
 */
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

void family_probed_file(struct session *s, const char *path)
{
	const char *p;
	int i;

	VEC_EACH(s->probed_files, i, p)
		if (!strcmp(p, path))
			return;
	vec_push(s->arena, &s->probed_files, (void *)path);
}

int family_mismatch(struct session *s, const struct probe_point *pt,
		    const struct pp_comp *c, const char *why)
{
	diag_error(&s->diags, c->loc, "sema.probe-mismatch",
		   "probe point '%s': %s", pp_format(s, (struct vec *)&pt->comps),
		   why);
	return -1;
}

const char *family_str_arg(struct session *s, const struct pp_comp *c)
{
	if (!c->arg || c->arg->kind != EX_STR)
		return NULL;
	return arena_strndup(s->arena, c->arg->u.str.s, c->arg->u.str.len);
}

void family_emit_start_stop(struct emit *e, const struct probe_family *fam,
			    const char *start, const char *stop)
{
	emit_line(e, "static int stp_%s_start(void)", fam->name);
	emit_line(e, "{ return %s; }", start);
	emit_line(e, "static void stp_%s_stop(void)", fam->name);
	emit_line(e, "{ %s; }\n", stop);
}

void family_emit_table_start_stop(struct emit *e,
				  const struct probe_family *fam,
				  const char *rt, const char *table, int n)
{
	struct arena *a = e->s->arena;

	family_emit_start_stop(e, fam,
			       arena_printf(a, "%s_start(%s, %d)", rt, table, n),
			       arena_printf(a, "%s_stop(%s, %d)", rt, table, n));
}

struct derived_probe *family_entry_copy(struct session *s,
					const struct derived_probe *ret,
					void *data)
{
	struct derived_probe *cp = ARENA_NEW(s->arena, struct derived_probe);
	const struct pp_comp *c;
	int i;

	cp->family = ret->family;
	cp->loc = ret->loc;
	cp->elide_loc = ret->elide_loc;
	cp->user_pp = ret->user_pp;
	cp->user_probe = ret->user_probe;
	cp->user_text_len = ret->user_text_len;
	cp->timing_from = ret->timing_from;
	cp->list_pp = ret->list_pp;	/* its variables, as the return's */
	cp->kmodule = ret->kmodule;
	cp->data = data;
	VEC_EACH(ret->comps, i, c) {
		if (!strcmp(c->name, "return"))
			break;
		vec_push(s->arena, &cp->comps, (void *)c);
	}
	vec_push(s->arena, &cp->comps,
		 ast_pp_comp(s->arena, ret->loc, "call", NULL, 0));
	cp->pp = pp_format(s, &cp->comps);
	cp->cond = ret->cond ? exp_clone(s->arena, ret->cond) : NULL;
	return cp;
}

/* stap: a '-' in a marker's name stands for "__". */
const char *sdt_mark_pattern(struct session *s, const char *name)
{
	struct strbuf sb = {0};
	const char *r;

	for (; *name; name++)
		if (*name == '-')
			sb_puts(&sb, "__");
		else
			sb_putc(&sb, *name);
	r = arena_strdup(s->arena, sb.s ? sb.s : "");
	sb_free(&sb);
	return r;
}

int sdt_nargs(const char *args)
{
	int n = 0;

	while (*args) {
		args += strspn(args, " ");
		if (!*args)
			break;
		n++;
		args += strcspn(args, " ");
	}
	return n;
}

/* The Nth (1-based) operand of ARGS. */
const char *sdt_arg(struct session *s, const char *args, int n)
{
	while (*args) {
		size_t len;

		args += strspn(args, " ");
		len = strcspn(args, " ");
		if (!--n)
			return arena_strndup(s->arena, args, len);
		args += len;
	}
	return NULL;
}

int sdt_string_var(struct session *s, struct exp *e, const char *value)
{
	struct tvar *tv = ARENA_NEW(s->arena, struct tvar);

	tv->final = TV_PRETTY;
	tv->pretty = arena_printf(s->arena, "\"%s\"", value);
	e->u.target.resolved = tv;
	e->type = TY_STRING;
	return 0;
}

/* $argN of a marker: 0 and N, 0 and 0 when E is not an $argN within
 * NARGS, -1 after reporting a member access. */
static int arg_index(struct session *s, const struct exp *e, int nargs,
		     int quiet, long *n)
{
	const char *name = e->u.target.name;
	char *end;

	*n = 0;
	if (strncmp(name, "arg", 3) || !name[3])
		return 0;
	*n = strtol(name + 3, &end, 10);
	if (*end || *n < 1 || *n > nargs) {
		*n = 0;
		return 0;
	}
	if (e->u.target.comps.n || e->u.target.addr_of) {
		if (!quiet)
			diag_error(&s->diags, e->loc, "sema.target-list-member",
				   "'$%s' has no members or elements", name);
		return -1;
	}
	return 0;
}

int sdt_marker_var(struct session *s, struct derived_probe *dp,
		   struct exp *e, int quiet, const struct sdt_marker *m)
{
	const char *name = e->u.target.name;
	struct tvar *tv;
	long n;
	int i;

	if (e->kind == EX_TARGET_LIST &&
	    (!strcmp(name, "$parms") || !strcmp(name, "$vars"))) {
		tv = ARENA_NEW(s->arena, struct tvar);
		tv->final = TV_PRETTY;
		tv->nparts = m->nargs;
		tv->parts = arena_alloc(s->arena, sizeof(struct tvar *) *
					(size_t)(m->nargs + 1));
		tv->labels = arena_alloc(s->arena, sizeof(char *) *
					 (size_t)(m->nargs + 1));
		for (i = 0; i < m->nargs; i++) {
			tv->labels[i] = arena_printf(s->arena, "$arg%d", i + 1);
			tv->parts[i] = m->arg(s, dp, i + 1);
			if (!tv->parts[i])
				return -2;
		}
		e->u.target.resolved = tv;
		e->type = TY_STRING;
		return 0;
	}
	if (e->kind != EX_TARGET)
		return -2;
	if (!strcmp(name, "$name"))
		return sdt_string_var(s, e, m->name);
	if (!strcmp(name, "$provider"))
		return sdt_string_var(s, e, m->provider);
	if (arg_index(s, e, m->nargs, quiet, &n))
		return -1;
	if (!n)
		return -2;
	e->u.target.resolved = m->arg(s, dp, (int)n);
	if (!e->u.target.resolved)	/* an operand beyond sdt.c */
		return -2;
	e->type = TY_LONG;
	return 0;
}
