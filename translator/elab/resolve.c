/* resolve.c - declarations and probe derivation (pass 2, first half).
 *
 * Collects every global, function and alias of the user's files and the
 * tapset library, then turns each probe point of the user's probes into
 * derived probes: aliases expand (prologue before, epilogue after the
 * user's body, suffix components carried along), wildcards match alias
 * names, and what remains goes to the probe family named by its first
 * component.  `?` and `!` behave as in SystemTap.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/dump.h"
#include "elab/elab.h"
#include "util/similar.h"

#define MAX_ALIAS_DEPTH 32

/* Declared in the user's script or an -E script (not the library, nor
 * synthesized by the translator, which has no file). */
static int is_script_global(const struct global *g)
{
	return g->file && !g->file->is_tapset;
}

struct sym *elab_find_global(struct elab *el, const char *name,
			     const struct src_file *from)
{
	struct sym *sym, *pub = NULL;
	int i;

	VEC_EACH(el->globals, i, sym) {
		if (strcmp(sym->name, name))
			continue;
		/* a library function never sees the script's globals: a
		 * tapset function's `args` is its own local whatever the
		 * user declares.  An alias's body does: it becomes part of
		 * the script's probe, and as in stap 4.8 its `bytes_read`
		 * is the script's global of that name if there is one.
		 * (el->params is set while a function is bound.) */
		if (from && from->is_tapset && el->params &&
		    is_script_global(sym->decl))
			continue;
		if (sym->decl->is_private) {
			if (sym->decl->file == from)
				return sym;
		} else if (!pub) {
			pub = sym;
		}
	}
	return pub;
}

/* A public global declared again in a later file of the same side (the
 * user's script before -E scripts; library files) is the first one.  The
 * script's and the library's are separate: a script's `global argc` hides
 * argv.stp's from the script, while the library keeps its own (see
 * elab_find_global).  (Twice in one file is a parse error.) */
static void add_global(struct elab *el, struct global *g)
{
	struct sym *prev = NULL, *sym;
	int i;

	VEC_EACH(el->globals, i, prev) {
		if (strcmp(prev->name, g->name))
			continue;
		if (prev->decl->is_private != g->is_private ||
		    (g->is_private && prev->decl->file != g->file) ||
		    is_script_global(prev->decl) != is_script_global(g))
			continue;
		return;
	}
	sym = ARENA_NEW(el->s->arena, struct sym);
	sym->kind = SYM_GLOBAL;
	sym->name = g->name;
	sym->loc = g->loc;
	sym->decl = g;
	sym->arity = g->is_array_decl ? -2 : -1;	/* -2: some array */
	if (g->init) {
		sym->type = g->init->kind == EX_STR ? TY_STRING : TY_LONG;
		sym->type_loc = g->init->loc;
		sym->arity = 0;
		sym->arity_loc = g->loc;
	}
	vec_push(el->s->arena, &el->globals, sym);
}

static void collect_file(struct elab *el, struct file_ast *fa)
{
	int i;
	void *p;

	VEC_EACH(fa->globals, i, p)
		add_global(el, p);
	VEC_EACH(fa->funcs, i, p)
		vec_push(el->s->arena, &el->funcs, p);
	VEC_EACH(fa->aliases, i, p)
		vec_push(el->s->arena, &el->aliases, p);
}

void elab_collect(struct elab *el)
{
	struct file_ast *fa;
	int i;

	VEC_EACH(el->s->user_files, i, fa)
		collect_file(el, fa);
	VEC_EACH(el->s->library_files, i, fa)
		collect_file(el, fa);
}

static int same_arg(const struct pp_comp *a, const struct pp_comp *b)
{
	if (a->has_arg != b->has_arg)
		return 0;
	if (!a->arg || !b->arg)
		return a->arg == b->arg;
	if (a->arg->kind != b->arg->kind)
		return 0;
	if (a->arg->kind == EX_NUM)
		return a->arg->u.num == b->arg->u.num;
	return a->arg->u.str.len == b->arg->u.str.len &&
	       !memcmp(a->arg->u.str.s, b->arg->u.str.s, a->arg->u.str.len);
}

/* Does the alias name NAME match the leading components of POINT?
 * Returns how many components of POINT it consumed, or 0.  A last
 * component "**" of POINT takes all the rest of NAME, one component or
 * more. */
static int alias_match(const struct probe_point *name,
		       const struct probe_point *point)
{
	int i;

	for (i = 0; i < name->comps.n && i < point->comps.n; i++) {
		const struct pp_comp *nc = name->comps.v[i];
		const struct pp_comp *pc = point->comps.v[i];

		if (i == point->comps.n - 1 && !strcmp(pc->name, "**") &&
		    !pc->has_arg)
			return point->comps.n;
		if (fnmatch(pc->name, nc->name, 0))
			return 0;
		if (pc->has_arg && !same_arg(nc, pc))
			return 0;
		if (nc->has_arg && !pc->has_arg)
			return 0;
	}
	return i == name->comps.n ? i : 0;
}

static int has_wildcard(const struct probe_point *point)
{
	const struct pp_comp *c;
	int i;

	VEC_EACH(point->comps, i, c)
		if (strpbrk(c->name, "*?["))
			return 1;
	return 0;
}

/* An alias name a point matched, and how much of the point it took. */
struct alias_hit {
	const struct probe_alias *al;
	const struct probe_point *name;
	int n, order;
};

/* Wildcard matches come in stap's order: shorter names first, then by
 * name, component by component; else in the order of definition. */
static int by_alias_name(const void *a, const void *b)
{
	const struct alias_hit *x = a, *y = b;
	int i, c;

	if (x->name->comps.n != y->name->comps.n)
		return x->name->comps.n - y->name->comps.n;
	for (i = 0; i < x->name->comps.n; i++) {
		c = strcmp(((const struct pp_comp *)x->name->comps.v[i])->name,
			   ((const struct pp_comp *)y->name->comps.v[i])->name);
		if (c)
			return c;
	}
	return x->order - y->order;
}

struct derive {
	struct elab *el;
	const struct probe *probe;	/* the user's probe */
	const struct probe_point *user_point;
	const char *chain;		/* -p2: the aliases expanded so far, as
					   "alias = points <- … <- user points" */
	const char *from;		/* -t: "point from: … from: first user
					   point", the alias expansions so far */
	const char *user_text;		/* the user points, as chain starts */
	int depth;
	const struct probe_alias *expanding[MAX_ALIAS_DEPTH + 1];
	int optional;			/* > 0: under a `?` or `!` point */
	const char *list_pp;		/* -l: the outermost alias's name and
					   the user's suffix, once expanded */
	int list_wild;			/* list_pp's suffix has a wildcard: an
					   inner alias its points match names
					   the probe instead, as in stap */
};

/* Script text of points, as -p2 shows them (conditions and ?/! included). */
static const char *points_text(struct arena *a, const struct vec *points,
			       const char *sep)
{
	char *buf = NULL;
	size_t len = 0;
	const char *out;
	FILE *f = open_memstream(&buf, &len);
	int i;

	for (i = 0; f && i < points->n; i++) {
		if (i)
			fputs(sep, f);
		dump_probe_point(f, points->v[i]);
	}
	if (f)
		fclose(f);
	out = arena_strdup(a, buf ? buf : "");
	free(buf);
	return out;
}

/* One point as the script wrote it. */
static const char *point_text(struct arena *a, const struct probe_point *pt)
{
	struct vec one = {0};

	vec_push(a, &one, (void *)pt);
	return points_text(a, &one, "");
}

/* -p2 shows the chain of aliases a probe went through, the library's
 * (syscall.*, nd_syscall.*) as the script's own, as stap 4.8.  (A family
 * may show something else: perf.sw.*'s perf point, a DWARF probe's
 * resolved point.) */
static const char *alias_chain(struct arena *a, const struct probe_alias *al,
			       const char *inner)
{
	return arena_printf(a, "%s %s %s <- %s",
			    points_text(a, &al->names, " = "),
			    al->kind == ALIAS_EPILOGUE ? "+=" : "=",
			    points_text(a, &al->points, ", "), inner);
}

static struct stmt *wrap_body(struct arena *a, struct loc loc,
			      struct stmt *first, struct stmt *second)
{
	struct stmt *b = ARENA_NEW(a, struct stmt);

	b->kind = ST_BLOCK;
	b->loc = loc;
	if (first)
		vec_push(a, &b->u.block, first);
	if (second)
		vec_push(a, &b->u.block, second);
	return b;
}

static struct exp *and_cond(struct arena *a, struct exp *x, struct exp *y)
{
	struct exp *e;

	if (!x || !y)
		return x ? x : y;
	e = ARENA_NEW(a, struct exp);
	e->kind = EX_LOG_AND;
	e->loc = x->loc;
	e->u.bin.op = OP_LOG_AND;
	e->u.bin.left = x;
	e->u.bin.right = y;
	return e;
}

static int derive_point(struct derive *d, const struct probe_point *point,
			struct stmt *body, struct exp *cond);

/* What -l shows for a probe that went through alias AL, whose name matched
 * the first N components of POINT: the name (its first one, as stap) and
 * the user's suffix components. */
static const char *alias_list_name(struct session *s,
				   const struct probe_alias *al,
				   const struct probe_point *point, int n)
{
	const struct probe_point *name = al->names.v[0];
	struct vec comps = {0};
	int i;

	for (i = 0; i < name->comps.n; i++)
		vec_push(s->arena, &comps, name->comps.v[i]);
	for (i = n; i < point->comps.n; i++)
		vec_push(s->arena, &comps, point->comps.v[i]);
	return pp_format(s, &comps);
}

/* --check-version: a probe or alias whose text depends on systemtap_v */
static void warn_version(struct elab *el, struct loc loc, const char *what,
			 int dependent)
{
	if (dependent && el->s->check_version)
		diag_warning(&el->s->diags, loc, "sema.version-dependent",
			     "This %s uses tapset constructs that are dependent on systemtap version",
			     what);
}

/* Does alias point I (not optional), matching nothing, make the alias
 * POINT went through (matching its first N components) match nothing?  As
 * in stap 4.8: yes, unless a `?` or `!` point is on the way here (the
 * user's or an alias's: optional reaches down through aliases, so
 * `nfs.aop.entries ?` takes the operations there are); -l/-L list the
 * points that match, but an alias given the user's suffix
 * (nfs.aop.entries.return) only when its first point takes it. */
static int alias_point_needed(const struct derive *d,
			      const struct probe_point *point, int n, int i)
{
	if (d->el->s->list_probes || d->el->s->list_probes_vars)
		return i == 0 && n < point->comps.n;
	return d->optional <= 0;
}

/* Expand POINT through ALIAS, which matched its first N components. */
static int expand_alias(struct derive *d, const struct probe_alias *al,
			const struct probe_point *point, int n,
			struct stmt *body, struct exp *cond)
{
	struct arena *a = d->el->s->arena;
	const char *outer = d->chain;
	const char *outer_list = d->list_pp;
	const char *outer_from = d->from;
	int outer_wild = d->list_wild, suffix_wild = 0;
	struct stmt *nb;
	int i, j, found = 0, rc;

	for (i = 0; i < d->depth; i++)
		if (d->expanding[i] == al) {
			diag_error(&d->el->s->diags, point->loc, "sema.alias-recursion",
				   "recursive probe alias: expanding '%s' leads back to it",
				   pp_format(d->el->s, (struct vec *)&((const struct probe_point *)
						al->names.v[0])->comps));
			diag_note(&d->el->s->diags,
				  ((const struct probe_point *)al->names.v[0])->loc,
				  "the alias is defined here");
			return -1;
		}
	d->expanding[d->depth] = al;
	for (j = n; j < point->comps.n; j++)
		suffix_wild |= !!strpbrk(((const struct pp_comp *)
					  point->comps.v[j])->name, "*?[");
	warn_version(d->el, al->loc, "alias", al->version_dependent);
	if (al->kind == ALIAS_EPILOGUE)
		nb = wrap_body(a, body->loc, body, al->body);
	else if (al->kind == ALIAS_BOTH)
		nb = wrap_body(a, body->loc,
			       wrap_body(a, body->loc, al->body, body),
			       al->epilogue);
	else
		nb = wrap_body(a, body->loc, al->body, body);
	for (i = 0; i < al->points.n; i++) {
		const struct probe_point *ap = al->points.v[i];
		struct probe_point *np = ARENA_NEW(a, struct probe_point);

		*np = *ap;
		np->comps = (struct vec){0};
		for (j = 0; j < ap->comps.n; j++)
			vec_push(a, &np->comps, ap->comps.v[j]);
		for (j = n; j < point->comps.n; j++)	/* alias suffixes */
			vec_push(a, &np->comps, point->comps.v[j]);
		d->depth++;
		d->chain = alias_chain(a, al, outer);
		d->from = arena_printf(a, "%s from: %s", point_text(a, point),
				       outer_from);
		if (!outer_list || outer_wild) {
			d->list_pp = alias_list_name(d->el->s, al, point, n);
			d->list_wild = suffix_wild;
		}
		d->optional += ap->optional || ap->sufficient;
		rc = derive_point(d, np, nb, and_cond(a, cond, ap->cond));
		d->optional -= ap->optional || ap->sufficient;
		d->chain = outer;
		d->from = outer_from;
		d->list_pp = outer_list;
		d->list_wild = outer_wild;
		d->depth--;
		if (rc < 0)
			return -1;
		if (rc > 0) {
			found = 1;
			if (ap->sufficient)
				break;
		} else if (!ap->optional && alias_point_needed(d, point, n, i)) {
			return 0;
		}
	}
	return found;
}

/* FAM's resolve of POINT into DP (or with DP NULL its expand into PTS).
 * -l/-L: a point the family rejects is not listed, silently; under a `?`
 * or `!` point (the user's, or an alias's on the way here) the family's
 * errors only make it no match, as stap's optional derivations. */
static int family_call(struct derive *d, const struct probe_family *fam,
		       const struct probe_point *point,
		       struct derived_probe *dp, struct vec *pts)
{
	struct session *s = d->el->s;
	int listing = s->list_probes || s->list_probes_vars;
	int before = s->diags.quieted, rc;

	if (listing)
		s->diags.quiet++;
	else if (d->optional > 0)
		s->diags.quiet_errors++;
	rc = dp ? fam->resolve(s, point, dp) : fam->expand(s, point, pts);
	if (listing)
		s->diags.quiet--;
	else if (d->optional > 0)
		s->diags.quiet_errors--;
	if (s->diags.quieted != before)
		rc = 0;
	return rc;
}

static int derive_one(struct derive *d, const struct probe_family *fam,
		      const struct probe_point *point, struct stmt *body,
		      struct exp *cond)
{
	struct elab *el = d->el;
	struct arena *a = el->s->arena;
	struct derived_probe *dp;
	int i, rc;

	dp = ARENA_NEW(a, struct derived_probe);
	dp->family = fam;
	dp->loc = d->user_point->loc;
	dp->elide_loc = d->depth ? d->user_point->loc : d->probe->loc;
	dp->from_alias = d->depth > 0;
	dp->optional = d->optional > 0;
	for (i = 0; i < point->comps.n; i++)
		vec_push(a, &dp->comps, point->comps.v[i]);
	rc = family_call(d, fam, point, dp, NULL);
	if (rc <= 0)
		return rc;
	if (!dp->pp)
		dp->pp = pp_format(el->s, &dp->comps);
	if (!dp->user_pp) {	/* else the family's own (timer.profile) */
		dp->user_pp = d->chain;
		dp->user_probe = d->probe;
	}
	/* stap names a probe by its probe's first point and the aliases it
	 * went through (its DWARF probes, kernel.function, would also put
	 * the resolved point first; no family here does) */
	dp->timing_from = d->from;
	dp->user_text_len = strlen(d->user_text);
	if (d->list_pp && d->list_wild)	/* stap lists the point itself */
		dp->list_name = arena_printf(a, "%s%s",
					     dp->list_pp ? dp->list_pp : dp->pp,
					     point->sufficient ? "!" :
					     point->optional ? "?" : "");
	if (d->list_pp)
		dp->list_pp = d->list_pp;
	else
		dp->list_mark = d->user_point->optional;
	dp->point = point;
	dp->user_cond = d->user_point->cond;
	for (i = d->depth - 1; i >= 0; i--)
		vec_push(a, &dp->chain, (void *)&d->expanding[i]->points);
	vec_push(a, &dp->chain, (void *)&d->probe->points);
	dp->mark_optional = point->optional;
	dp->mark_sufficient = point->sufficient;
	dp->point_cond = point->cond;
	dp->body = stmt_clone(a, body);
	if (dp->prelude.n) {
		struct vec stmts = {0};
		struct stmt *st;

		VEC_EACH(dp->prelude, i, st)
			vec_push(a, &stmts, st);
		VEC_EACH(dp->body->u.block, i, st)
			vec_push(a, &stmts, st);
		dp->body->u.block = stmts;
	}
	dp->cond = exp_clone(a, cond);
	dp->index = el->prog->probes.n;
	vec_push(a, &el->prog->probes, dp);
	return 1;
}

/* POINT in family FAM, which may expand it (wildcards in its arguments)
 * into concrete points first.  As derive_point. */
static int derive_family(struct derive *d, const struct probe_family *fam,
			 const struct probe_point *point, struct stmt *body,
			 struct exp *cond)
{
	const struct probe_point *pt;
	struct vec pts = {0};
	int i, rc, found = 0;

	if (!fam->expand)
		return derive_one(d, fam, point, body, cond);
	rc = family_call(d, fam, point, NULL, &pts);
	if (rc <= 0)
		return rc;
	VEC_EACH(pts, i, pt) {
		rc = derive_one(d, fam, pt, body, cond);
		if (rc < 0)
			return -1;
		found |= rc;
	}
	return found ? 1 : -2;
}

static int derive_builtin(struct derive *d, const struct probe_point *point,
			  struct stmt *body, struct exp *cond);

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A wildcard in the first component: every family whose name it matches
 * and one of whose shapes the point may be, by name, as stap's tree. */
static int derive_wild_family(struct derive *d,
			      const struct probe_point *point,
			      struct stmt *body, struct exp *cond)
{
	struct arena *a = d->el->s->arena;
	const struct pp_comp *first = point->comps.v[0];
	const char *names[64];
	const char *name;
	size_t n = 0, i, k;
	int rc, found = 0;

	for (i = 0; (name = family_name_at(i)) && n < 64; i++) {
		for (k = 0; k < n && strcmp(names[k], name); k++)
			;
		if (k == n && !fnmatch(first->name, name, 0))
			names[n++] = name;
	}
	qsort(names, n, sizeof *names, by_string);
	for (k = 0; k < n; k++) {
		struct probe_point *np = ARENA_NEW(a, struct probe_point);
		struct pp_comp *nc = ARENA_NEW(a, struct pp_comp);
		const struct probe_family *fam = NULL;
		int fits = 0;

		*np = *point;
		*nc = *first;
		nc->name = names[k];
		np->comps = (struct vec){0};
		vec_push(a, &np->comps, nc);
		for (i = 1; i < (size_t)point->comps.n; i++)
			vec_push(a, &np->comps, point->comps.v[i]);
		while (!fits && (fam = family_lookup_next(names[k], fam)))
			fits = ppwild_fits(fam, np);
		if (!fits)
			continue;
		rc = derive_builtin(d, np, body, cond);
		if (rc < 0)
			return -1;
		found |= rc;
	}
	return found;
}

static int alias_named(struct elab *el, const struct probe_point *point);

/* The families named by the first component, in table order; wildcards
 * in the other components' names take the family's shapes they match. */
static int derive_builtin(struct derive *d, const struct probe_point *point,
			  struct stmt *body, struct exp *cond)
{
	const struct pp_comp *first = point->comps.v[0];
	const struct probe_family *fam = NULL;
	const struct probe_point *pt;
	struct vec pts;
	int i, rc, found;

	if (strpbrk(first->name, "*?["))
		return derive_wild_family(d, point, body, cond);
	while ((fam = family_lookup_next(first->name, fam))) {
		pts = (struct vec){0};
		if (!ppwild_expand(d->el->s, fam, point, &pts)) {
			rc = derive_family(d, fam, point, body, cond);
			if (rc == -2)
				return 0;	/* expanded to nothing */
			if (rc)
				return rc;
			continue;
		}
		/* as stap, each of several shapes a wildcard component
		 * matched is optional (.* takes .call and .return of a
		 * function that has no .inline); with none found, the
		 * first one's error says why */
		found = 0;
		d->optional += pts.n > 1;
		VEC_EACH(pts, i, pt) {
			/* a shape an alias names is the alias's (the
			 * aliases took it: timer.profile) */
			if (alias_named(d->el, pt))
				continue;
			rc = derive_family(d, fam, pt, body, cond);
			if (rc == -1)
				break;
			found |= rc > 0;
		}
		d->optional -= pts.n > 1;
		if (rc == -1)
			return -1;
		if (found)
			return 1;
		if (pts.n > 1 && d->optional <= 0) {
			rc = derive_family(d, fam, pts.v[0], body, cond);
			return rc == -2 ? 0 : rc;
		}
	}
	return 0;
}

/* Is POINT one of the points a family resolves under an alias's name
 * (its below_aliases)? */
static int builtin_fits(struct session *s, const struct probe_point *point)
{
	const struct pp_comp *first = point->comps.v[0];
	const struct probe_family *fam = NULL;
	const char *pp = NULL;
	int i;

	while ((fam = family_lookup_next(first->name, fam)))
		for (i = 0; fam->below_aliases && fam->below_aliases[i]; i++) {
			if (!pp)
				pp = pp_format(s, (struct vec *)&point->comps);
			if (!strcmp(pp, fam->below_aliases[i]))
				return 1;
		}
	return 0;
}

/* Is NAME, matching the first N components of POINT with the rest as a
 * suffix, shadowed by a longer alias that starts with the same components
 * and matches more of POINT?  stap prefers `syscall.open.return` itself
 * to `syscall.open` with a `.return` suffix. */
static int shadowed(struct elab *el, const struct probe_point *name,
		    const struct probe_point *point, int n)
{
	const struct probe_alias *al;
	const struct probe_point *other;
	int i, j, k;

	if (n == point->comps.n)
		return 0;
	if (builtin_fits(el->s, point))	/* timer.profile.tick */
		return 1;
	VEC_EACH(el->aliases, i, al)
		VEC_EACH(al->names, j, other) {
			if (other->comps.n <= n || alias_match(other, point) <= n)
				continue;
			for (k = 0; k < n; k++) {
				const struct pp_comp *a = name->comps.v[k];
				const struct pp_comp *b = other->comps.v[k];
				if (strcmp(a->name, b->name) || !same_arg(a, b))
					break;
			}
			if (k == n)
				return 1;
		}
	return 0;
}

/* An alias a wildcard matched: as in stap, one that does not resolve
 * (its points are not on this kernel; with the user's suffix, a suffix
 * its points do not take: socket.receive's .return on points that are
 * returns already) matches nothing rather than fails. */
static int expand_suffixed(struct derive *d, const struct probe_alias *al,
			   const struct probe_point *point, int n,
			   struct stmt *body, struct exp *cond)
{
	struct diags *dg = &d->el->s->diags;
	int nprobes = d->el->prog->probes.n, rc;

	dg->quiet++;
	rc = expand_alias(d, al, point, n, body, cond);
	dg->quiet--;
	if (rc >= 0)
		return rc;
	d->el->prog->probes.n = nprobes;
	return 0;
}

/* Did POINT's last component "**" take the rest of alias name NAME (N
 * components of POINT matched)?  Then, as in stap 4.8, it goes on past
 * the name too: ipmib.** is ipmib.* and ipmib.*.** both, the second the
 * alias's points given the suffix ** (kernel.function("ip_defrag").call,
 * .return, ...).  Returns the point NAME.** for that, or NULL. */
static const struct probe_point *globstar_past(struct arena *a,
					       const struct probe_point *name,
					       const struct probe_point *point,
					       int n)
{
	const struct pp_comp *last = point->comps.v[point->comps.n - 1];
	struct probe_point *np;
	int i;

	if (strcmp(last->name, "**") || last->has_arg ||
	    n != point->comps.n || name->comps.n < point->comps.n)
		return NULL;
	np = ARENA_NEW(a, struct probe_point);
	*np = *point;
	np->comps = (struct vec){0};
	for (i = 0; i < name->comps.n; i++)
		vec_push(a, &np->comps, name->comps.v[i]);
	vec_push(a, &np->comps, (void *)last);
	return np;
}

/* Derive probes for POINT.  1: something resolved; 0: nothing matched;
 * -1: an error was reported. */
static int derive_point(struct derive *d, const struct probe_point *point,
			struct stmt *body, struct exp *cond)
{
	struct elab *el = d->el;
	const struct probe_alias *al;
	struct alias_hit *hits = NULL;
	size_t nhits = 0, caphits = 0, k;
	int i, j, found = 0, rc;

	if (d->depth >= MAX_ALIAS_DEPTH) {
		diag_error(&el->s->diags, point->loc, "sema.alias-recursion",
			   "probe alias expansion is too deep (recursive alias?)");
		return -1;
	}
	VEC_EACH(el->aliases, i, al) {
		for (j = 0; j < al->names.n; j++) {
			int n = alias_match(al->names.v[j], point);

			if (!n || shadowed(el, al->names.v[j], point, n))
				continue;
			if (nhits == caphits) {
				caphits = caphits ? 2 * caphits : 16;
				hits = xrealloc(hits, caphits * sizeof *hits);
			}
			hits[nhits++] = (struct alias_hit){ al, al->names.v[j], n,
							    (int)nhits };
			break;
		}
	}
	if (nhits > 1 && has_wildcard(point))
		qsort(hits, nhits, sizeof *hits, by_alias_name);
	for (k = 0; k < nhits; k++) {
		const struct probe_point *past =
			globstar_past(el->s->arena, hits[k].name, point,
				      hits[k].n);

		if (has_wildcard(point))
			rc = expand_suffixed(d, hits[k].al, point, hits[k].n,
					     body, cond);
		else
			rc = expand_alias(d, hits[k].al, point, hits[k].n,
					  body, cond);
		if (rc >= 0 && past) {
			int rc2 = expand_suffixed(d, hits[k].al, past,
						  hits[k].name->comps.n,
						  body, cond);

			rc = rc2 < 0 ? rc2 : rc | rc2;
		}
		if (rc < 0) {
			free(hits);
			return -1;
		}
		found |= rc;
	}
	free(hits);
	if (found && !has_wildcard(point))
		return 1;
	/* a wildcard takes the families' shapes it matches as well as the
	 * aliases (timer.** lists timer.profile and timer.profile.freq) */
	rc = derive_builtin(d, point, body, cond);
	return found && rc >= 0 ? 1 : rc;
}

/* " (similar: …)" for a first component nothing matched: the families'
 * names and the first components of the aliases. */
static const char *similar_points(struct elab *el, const char *name)
{
	const struct probe_alias *al;
	const struct probe_point *n;
	struct vec names = {0};
	const char *fam;
	size_t k;
	int i, j;

	for (k = 0; (fam = family_name_at(k)); k++)
		vec_push(el->s->arena, &names, (void *)fam);
	VEC_EACH(el->aliases, i, al)
		VEC_EACH(al->names, j, n)
			vec_push(el->s->arena, &names,
				 (void *)((const struct pp_comp *)n->comps.v[0])->name);
	return similar_names(el->s->arena, name, &names);
}

static const char *first_name(const struct probe_point *pt)
{
	return ((const struct pp_comp *)pt->comps.v[0])->name;
}

/* Does an alias name POINT (in full)?  Then its points, all optional,
 * resolved to nothing. */
static int alias_named(struct elab *el, const struct probe_point *point)
{
	const struct probe_alias *al;
	const struct probe_point *name;
	int i, j;

	VEC_EACH(el->aliases, i, al)
		VEC_EACH(al->names, j, name)
			if (alias_match(name, point) == point->comps.n)
				return 1;
	return 0;
}

/* Why POINT matched nothing, for the error; SystemTap probe types this
 * implementation does not have yet are named as such (*KNOWN set). */
static const char *why_no_match(struct elab *el, const struct probe_point *pt,
				int *known)
{
	const char *c0 = first_name(pt);
	const char *c1 = pt->comps.n > 1 ?
		((const struct pp_comp *)pt->comps.v[1])->name : "";
	int kernel = !strcmp(c0, "kernel");

	*known = 1;
	if (!strcmp(c0, "process") || (kernel && !strcmp(c1, "data")))
		return arena_printf(el->s->arena,
				    "%s probes are not supported by this implementation yet",
				    kernel ? "kernel.data" : "user-space process");
	if (alias_named(el, pt))
		return "the probe points of its alias are all absent from this kernel";
	*known = 0;
	if (family_lookup(c0))
		return arena_printf(el->s->arena,
				    "no probe type '%s' has a component '%s' here",
				    c0, c1);
	return arena_printf(el->s->arena, "no alias or probe type named '%s'", c0);
}

static void derive_probe(struct elab *el, const struct probe *p)
{
	struct derive d = { .el = el, .probe = p };
	const struct probe_point *pt;
	/* -l/-L: each point of the pattern lists what it matches, quietly */
	int listing = p->file == el->s->script &&
		      (el->s->list_probes || el->s->list_probes_vars);
	int i, rc;

	warn_version(el, p->loc, "probe", p->version_dependent);
	d.chain = d.user_text = points_text(el->s->arena, &p->points, ",");
	if (p->points.n)
		d.from = point_text(el->s->arena, p->points.v[0]);
	VEC_EACH(p->points, i, pt) {
		d.user_point = pt;
		d.optional = pt->optional || pt->sufficient || listing;
		rc = derive_point(&d, pt, p->body, pt->cond);
		if (rc < 0)
			continue;
		if (rc == 0 && !pt->optional && !listing) {
			int known;
			const char *why = why_no_match(el, pt, &known);

			diag_error(&el->s->diags, pt->loc, "sema.probe-mismatch",
				   "probe point '%s' matches no probe (%s)%s",
				   pp_format(el->s, (struct vec *)&pt->comps), why,
				   known ? "" : similar_points(el, first_name(pt)));
		}
		if (rc > 0 && pt->sufficient)
			break;
	}
}

static int uses_global_of(const struct vec *globals, const struct file_ast *fa)
{
	const struct sym *sym;
	int i;

	VEC_EACH(*globals, i, sym)
		if (sym->decl && sym->decl->file == fa->file)
			return 1;
	return 0;
}

/* Does the program so far call a function of FA or use one of its
 * globals? */
static int file_in_use(struct elab *el, const struct file_ast *fa)
{
	const struct derived_probe *dp;
	const struct func *f;
	int i;

	VEC_EACH(el->func_work, i, f)
		if (f->file == fa->file ||
		    (f->info && uses_global_of(&f->info->globals_used, fa)))
			return 1;
	VEC_EACH(el->prog->probes, i, dp)
		if (uses_global_of(&dp->globals_used, fa))
			return 1;
	return 0;
}

/* A tapset file's own probes join the program once the program uses the
 * file (calls one of its functions or uses one of its globals), as in
 * stap.  Returns how many probes were added (their bodies may use more
 * files: call again). */
int elab_derive_tapset_probes(struct elab *el)
{
	struct file_ast *fa;
	struct probe *p;
	int i, j, n = el->prog->probes.n, done;

	VEC_EACH(el->s->library_files, i, fa) {
		done = 0;
		VEC_EACH(el->tapset_probes_done, j, p)
			done |= (void *)p == (void *)fa;
		if (!fa->probes.n || done || !file_in_use(el, fa))
			continue;
		vec_push(el->s->arena, &el->tapset_probes_done, fa);
		VEC_EACH(fa->probes, j, p)
			derive_probe(el, p);
	}
	return el->prog->probes.n - n;
}

void elab_derive_probes(struct elab *el)
{
	struct file_ast *fa;
	struct probe *p;
	int i, j;

	VEC_EACH(el->s->user_files, i, fa)
		VEC_EACH(fa->probes, j, p)
			derive_probe(el, p);
}
