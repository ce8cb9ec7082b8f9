/* ppwild.c - wildcards in the component names of a family's probe points.
 *
 * `timer.*`, `procfs("f").*` or `kernel.*("sched_switch")` name keywords
 * with a wildcard: stap matches them against its tree of probe-point
 * shapes.  Here a family's shapes are its --dump-probe-types patterns
 * (plus any it lists as shapes only), such as "procfs(string).read"; a
 * point matches a shape with as many components whose names match and
 * whose arguments are present where the shape has one.  Also names a
 * point as stap prints it (pp_format), for resolve.c and the families.
 */
#include <fnmatch.h>
#include <string.h>

#include "elab/elab.h"

const char *pp_format(struct session *s, struct vec *comps)
{
	struct strbuf sb = {0};
	struct pp_comp *c;
	const char *out;
	int i;

	VEC_EACH(*comps, i, c) {
		if (i)
			sb_putc(&sb, '.');
		sb_puts(&sb, c->name);
		if (!c->has_arg)
			continue;
		if (!c->arg)
			sb_puts(&sb, "()");
		else if (c->arg->kind == EX_NUM)
			sb_printf(&sb, "(%lld)", (long long)c->arg->u.num);
		else
			sb_printf(&sb, "(\"%.*s\")", (int)c->arg->u.str.len,
				  c->arg->u.str.s);
	}
	out = arena_strdup(s->arena, sb.s ? sb.s : "");
	sb_free(&sb);
	return out;
}

static int wild(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

/* Does component I of the shape "a.b(number).c" match C?  Copies its
 * name into NAME. */
static int comp_matches(const char *shape, int i, const struct pp_comp *c,
			char *name, size_t len)
{
	const char *p = shape, *end;
	int has_arg;

	while (i-- > 0) {
		p = strchr(p, '.');
		if (!p)
			return 0;
		p++;
	}
	end = p + strcspn(p, ".(");
	has_arg = *end == '(';
	if ((size_t)(end - p) >= len || has_arg != c->has_arg)
		return 0;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = '\0';
	return !fnmatch(c->name, name, 0);
}

static int shape_comps(const char *shape)
{
	int n = 1;

	for (; *shape; shape++)
		n += *shape == '.';
	return n;
}

/* Is POINT's last component a bare "**" (any components, one or more)? */
static int ends_in_globstar(const struct probe_point *pt)
{
	const struct pp_comp *c = pt->comps.v[pt->comps.n - 1];

	return pt->comps.n > 1 && !c->has_arg && !strcmp(c->name, "**");
}

static void try_shape(struct session *s, const struct probe_point *pt,
		      const char *shape, struct vec *out)
{
	struct probe_point *np;
	char name[64];
	int i, n = shape_comps(shape), star = ends_in_globstar(pt);

	if (star ? n < pt->comps.n : n != pt->comps.n)
		return;
	np = ARENA_NEW(s->arena, struct probe_point);
	*np = *pt;
	np->comps = (struct vec){0};
	vec_push(s->arena, &np->comps, pt->comps.v[0]);
	for (i = 1; i < n; i++) {
		const struct pp_comp *c = pt->comps.v[i < pt->comps.n ? i : pt->comps.n - 1];
		struct pp_comp *nc;

		/* "**" takes the shape's last components, which need no
		 * argument then */
		if (!comp_matches(shape, i, c, name, sizeof name))
			return;
		nc = ARENA_NEW(s->arena, struct pp_comp);
		*nc = *c;
		nc->name = arena_strdup(s->arena, name);
		vec_push(s->arena, &np->comps, nc);
	}
	for (i = 0; i < out->n; i++)
		if (!strcmp(pp_format(s, &((struct probe_point *)out->v[i])->comps),
			    pp_format(s, &np->comps)))
			return;
	vec_push(s->arena, out, np);
}

int ppwild_expand(struct session *s, const struct probe_family *fam,
		  const struct probe_point *pt, struct vec *out)
{
	const char *const *lists[2] = { fam->patterns, fam->shapes };
	int i, k;

	for (i = 1; i < pt->comps.n; i++)
		if (wild(((const struct pp_comp *)pt->comps.v[i])->name))
			break;
	if (i == pt->comps.n)
		return 0;
	for (k = 0; k < 2; k++)
		for (i = 0; lists[k] && lists[k][i]; i++)
			try_shape(s, pt, lists[k][i], out);
	return 1;
}

/* Could POINT (its first component already a family name) be one of
 * FAM's shapes?  Families without a list of shapes answer no. */
int ppwild_fits(const struct probe_family *fam, const struct probe_point *pt)
{
	const char *const *lists[2] = { fam->patterns, fam->shapes };
	char name[64];
	int i, k, c;

	for (k = 0; k < 2; k++)
		for (i = 0; lists[k] && lists[k][i]; i++) {
			if (shape_comps(lists[k][i]) != pt->comps.n)
				continue;
			for (c = 0; c < pt->comps.n; c++)
				if (!comp_matches(lists[k][i], c, pt->comps.v[c],
						  name, sizeof name))
					break;
			if (c == pt->comps.n)
				return 1;
		}
	return 0;
}
