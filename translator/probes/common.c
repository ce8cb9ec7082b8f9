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
