/* listing.c - the -p2 listing of the resolved program, and -l/-L.
 *
 * The shape and order follow stap 4.8's: "# globals" in the order the
 * program first mentions them, with each global's type (and index types
 * for arrays); "# functions" sorted by name, with signatures and locals;
 * "# probes" with each derived probe, the alias chain it came through, and
 * its locals, then one `end` probe per global that is written but never
 * read (stap synthesizes those to display such globals at the end).
 * -l lists the derived probes' points, sorted and unique; -L adds each
 * one's target variables with their C types, as its family names them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/ast_walk.h"
#include "ast/dump.h"
#include "elab/elab.h"
#include "elab/listing_body.h"
#include "elab/tvar.h"

static void print_type_and_indexes(FILE *f, const struct sym *sym)
{
	int i;

	fprintf(f, ":%s", elab_type_name(sym->type));
	if (sym->arity > 0) {
		fputs(" [", f);
		for (i = 0; i < sym->arity; i++)
			fprintf(f, "%s%s", i ? ", " : "",
				elab_type_name(sym->index_types[i]));
		fputc(']', f);
	}
}

static void print_sym_head(FILE *f, const char *indent, const struct sym *sym)
{
	fprintf(f, "%s%s", indent, sym->name);
	if (sym->decl && sym->decl->wrap)
		fputc('%', f);
	if (sym->decl && sym->decl->is_array_decl && sym->decl->max_entries)
		fprintf(f, "[%lld]", (long long)sym->decl->max_entries);
	print_type_and_indexes(f, sym);
}

static void print_sym(FILE *f, const char *indent, const struct sym *sym)
{
	print_sym_head(f, indent, sym);
	fputc('\n', f);
}

/* A global; with -v stap shows its initial value too. */
static void print_global(FILE *f, const struct sym *sym, int verbose)
{
	const struct exp *init = sym->decl ? sym->decl->init : NULL;
	int64_t v;

	print_sym_head(f, "", sym);
	if (verbose && init && exp_int_literal(init, &v))
		fprintf(f, " = %lld", (long long)v);
	else if (verbose && init) {
		fputs(" = ", f);
		dump_exp(f, init);
	}
	fputc('\n', f);
}

/* FAMILY_LOCALS: " name:type" each, the family's own (or NULL). */
static void print_locals(FILE *f, const struct vec *locals,
			 const char *family_locals)
{
	const struct sym *sym;
	const char *p, *end;
	int i;

	if (!locals->n && !(family_locals && *family_locals))
		return;
	fputs("  # locals\n", f);
	for (p = family_locals; p && *p; p = end) {
		end = strchr(p + 1, ' ');
		end = end ? end : p + strlen(p);
		fprintf(f, "  %.*s\n", (int)(end - p - 1), p + 1);
	}
	VEC_EACH(*locals, i, sym)
		print_sym(f, "  ", sym);
}

static void print_probe_locals(FILE *f, struct session *s,
			       const struct derived_probe *dp)
{
	struct strbuf sb = {0};

	if (dp->family && dp->family->listing_locals)
		dp->family->listing_locals(s, (struct derived_probe *)dp, &sb);
	print_locals(f, &dp->locals, sb.s);
	sb_free(&sb);
}

/* By name in byte order, private ones after the others (stap sorts by
 * its internal names, which set private ones apart); ties (overloads)
 * keep declaration order. */
static int cmp_func(const void *a, const void *b)
{
	const struct func *x = *(const struct func *const *)a;
	const struct func *y = *(const struct func *const *)b;
	int c = x->is_private - y->is_private;

	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : x->info->index - y->info->index;
}

/* One of stap's functions for DWARF accesses (tvarfns.c). */
static void print_tvar_fn(FILE *f, struct session *s,
			  const struct tvar_fn *fn, int bodies)
{
	fprintf(f, "%s:long (%s)\n", elab_tvar_fn_name(s->arena, fn),
		fn->params);
	if (fn->locals)
		fprintf(f, "  # locals\n  %s:long\n", fn->locals);
	if (bodies)
		elab_print_tvar_fn_body(f, fn);
}

static void print_functions(FILE *f, struct session *s, struct program *p,
			    int bodies)
{
	const struct func **sorted;
	const struct func *fn;
	const struct sym *sym;
	int i, j, a;

	if (!p->funcs.n && !p->accessors.n)
		return;
	fputs("# functions\n", f);
	sorted = arena_alloc(s->arena, sizeof *sorted * (size_t)(p->funcs.n + 1));
	memcpy(sorted, p->funcs.v, sizeof *sorted * (size_t)p->funcs.n);
	qsort(sorted, (size_t)p->funcs.n, sizeof *sorted, cmp_func);
	for (i = 0, a = 0; i < p->funcs.n || a < p->accessors.n; i++) {
		fn = i < p->funcs.n ? sorted[i] : NULL;
		/* stap's functions for DWARF accesses: private, by name */
		if (a < p->accessors.n && (!fn || (fn->is_private &&
		    strcmp(((const struct tvar_fn *)p->accessors.v[a])->name,
			   fn->name) < 0))) {
			print_tvar_fn(f, s, p->accessors.v[a++], bodies);
			i--;
			continue;
		}
		fprintf(f, "%s:%s (", fn->name, elab_type_name(fn->type));
		VEC_EACH(fn->info->params, j, sym)
			fprintf(f, "%s%s:%s", j ? ", " : "", sym->name,
				elab_type_name(sym->type));
		fputs(")\n", f);
		print_locals(f, &fn->info->locals, NULL);
		if (bodies)
			listing_func_body(f, fn);
	}
}

/* stap's end probe that displays a written-only global: its locals are
 * the index variables and the value (none for an aggregate). */
static void print_display_probe(FILE *f, const struct sym *sym, int bodies)
{
	int i;

	fputs("end /* <- end */\n", f);
	if (sym->arity > 0) {
		fputs("  # locals\n", f);
		for (i = 0; i < sym->arity; i++)
			fprintf(f, "  __idx%d:%s\n", i,
				elab_type_name(sym->index_types[i]));
		if (sym->type != TY_STATS)
			fprintf(f, "  __val:%s\n", elab_type_name(sym->type));
	}
	if (bodies)
		listing_display_body(f, sym);
}

static int sym_seen(struct walker *w, struct exp *e)
{
	if (e->kind == EX_SYM)
		*(int *)w->arg = 1;
	return 0;
}

/* Does condition E read any variable (a global, then)? */
int elab_cond_reads_globals(struct exp *e)
{
	int seen = 0;
	struct walker w = { .exp = sym_seen, .arg = &seen };

	walk_exp(&w, e);
	return seen;
}

/* Does stap add a begin probe to P, arming the conditions that read
 * globals? */
int elab_needs_arming_probe(const struct program *p)
{
	const struct derived_probe *dp;
	int i;

	VEC_EACH(p->probes, i, dp)
		if (dp->cond && elab_cond_reads_globals(dp->cond))
			return 1;
	return 0;
}

/* Does stap add an end probe displaying global SYM (written, never read)? */
int elab_displayed_at_end(const struct session *s, const struct sym *sym)
{
	return !s->no_global_display && sym->written && !sym->read;
}

/* How many probes stap adds to P: the arming probe and the displays. */
int elab_synthesized_probes(struct session *s, struct program *p)
{
	const struct sym *sym;
	int i, n = elab_needs_arming_probe(p);

	VEC_EACH(p->globals, i, sym)
		n += elab_displayed_at_end(s, sym);
	return n;
}

/* " <- …" of a probe: the aliases it went through, then the user's points
 * printed again, their conditions folded as the probe's own. */
static void print_user_pp(FILE *f, const struct derived_probe *dp)
{
	const struct probe_point *pt;
	size_t len = strlen(dp->user_pp);
	int i, conds = 0;

	if (!dp->user_probe) {
		fputs(dp->user_pp, f);
		if (dp->cond) {
			fputs(" if (", f);
			dump_exp(f, dp->cond);
			fputc(')', f);
		}
		return;
	}
	if (dp->user_probe)
		VEC_EACH(dp->user_probe->points, i, pt)
			conds |= pt->cond != NULL;
	if (!conds || dp->user_text_len > len) {
		fputs(dp->user_pp, f);
		return;
	}
	fwrite(dp->user_pp, 1, len - dp->user_text_len, f);
	/* after an alias chain stap shows the user's names as written */
	listing_body_mangle(len == dp->user_text_len);
	VEC_EACH(dp->user_probe->points, i, pt) {
		if (i)
			fputc(',', f);
		dump_probe_point(f, pt);
	}
	listing_body_mangle(1);
}

/* The user's top-level embedded C (stap lists its tapsets' too, which
 * are not ours to match: ours keep their own helpers there). */
static void print_user_embeds(FILE *f, const struct program *p)
{
	const struct embedded_code *ec;
	int i, n = 0;

	VEC_EACH(p->embeds, i, ec) {
		if (ec->file && ec->file->is_tapset)
			continue;
		if (!n++)
			fputs("# global embedded code\n", f);
		fprintf(f, "%%{%s%%}\n", ec->code);
	}
}

/* With -v stap shows every body too. */
void elab_print_program(struct elab *el)
{
	struct session *s = el->s;
	struct program *p = el->prog;
	FILE *f = stdout;
	const struct sym *sym;
	const struct derived_probe *dp;
	int i, bodies = s->verbose > 0 || s->pass_verbose[2] > 0;

	print_user_embeds(f, p);
	if (p->globals.n)
		fputs("# globals\n", f);
	VEC_EACH(p->globals, i, sym)
		print_global(f, sym, bodies);
	/* stap names globals and functions as in C, in conditions too */
	listing_body_begin(s->arena, &el->funcs, &el->globals, !s->unoptimized);
	print_functions(f, s, p, bodies);
	fputs("# probes\n", f);
	VEC_EACH(p->probes, i, dp) {
		fputs(dp->pp, f);
		if (dp->mark_sufficient)
			fputc('!', f);
		else if (dp->mark_optional)
			fputc('?', f);
		if (dp->cond) {
			fputs(" if (", f);
			dump_exp(f, dp->cond);
			fputc(')', f);
		}
		if (dp->family && dp->family->listing_note)
			fprintf(f, " /*%s*/", dp->family->listing_note(s, dp));
		fputs(" /* <- ", f);
		print_user_pp(f, dp);
		fputs(" */\n", f);
		print_probe_locals(f, s, dp);
		if (bodies)
			listing_probe_body(f, dp);
	}
	if (elab_needs_arming_probe(p)) {
		fputs("begin /* <- begin */\n", f);
		if (bodies)
			listing_arming_body(f);
	}
	VEC_EACH(p->globals, i, sym)
		if (elab_displayed_at_end(s, sym))
			print_display_probe(f, sym, bodies);
	listing_body_end();
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -L: a probe that came through aliases shows the locals their bodies
 * set, in the order they first appear, with their types ("unknown": set
 * from a target variable this kernel does not have). */
static void list_alias_locals(const struct derived_probe *dp, struct strbuf *sb)
{
	const struct sym *sym;
	int i;

	VEC_EACH(dp->locals, i, sym)
		sb_printf(sb, " %s:%s", sym->name, elab_type_name(sym->type));
}

/* -L: an alias's .return probe that takes values at the function's entry
 * is listed, as stap lists it, as the .call probe it synthesizes for them:
 * no alias locals but the thread id an @entry is kept by, and the call's
 * variables.  Returns whether *DP became that probe. */
static int list_entry_call(struct session *s, struct derived_probe **dp,
			   struct strbuf *sb)
{
	enum elab_entry_use use;
	struct derived_probe *cp;

	if (!(*dp)->list_pp)
		return 0;
	use = elab_entry_use(s, *dp);
	if (use == ENTRY_NONE || !(cp = (*dp)->family->entry_probe(s, *dp)))
		return 0;
	if (use == ENTRY_EXPLICIT)
		sb_puts(sb, " _entry_tvar_tid:long");
	*dp = cp;
	return 1;
}

/* The length of the first " $name:type" of VARS (its variables). */
static size_t var_len(const char *vars)
{
	const char *next = strstr(vars + 1, " $");

	return next ? (size_t)(next - vars) : strlen(vars);
}

/* The length of the first " name:type" of LOCALS (an alias's locals). */
static size_t local_len(const char *locals)
{
	const char *next = strchr(locals + 1, ' ');

	return next ? (size_t)(next - locals) : strlen(locals);
}

/* Keep in *VARS (" $a:T $b:U", or locals: LEN says how) only the parts
 * OTHER lists too. */
static void keep_common(struct session *s, const char **vars, const char *other,
			size_t (*len)(const char *))
{
	struct strbuf sb = {0};
	const char *p, *o;
	size_t n, on;
	int found;

	for (p = *vars; *p; p += n) {
		n = len(p);
		for (found = 0, o = other; *o && !found; o += on) {
			on = len(o);
			found = on == n && !strncmp(o, p, n);
		}
		if (found)
			sb_put(&sb, p, n);
	}
	*vars = arena_strdup(s->arena, sb.s ? sb.s : "");
	sb_free(&sb);
}

struct listed {
	const char *head;	/* the point */
	const char *locals;	/* its alias locals */
	const char *vars;	/* the family's variables */
	const char *note;	/* -L -v: the DWARF note (pc=…), or "" */
	int order;
};

static int cmp_listed(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	int c = strcmp(x->head, y->head);

	return c ? c : x->order - y->order;
}

/* -l / -L: returns how many points were listed.  Points listed more than
 * once (the inline instances of one function, an alias on several) show,
 * as in stap, only the locals and variables common to all of them; with
 * -L -v a DWARF probe's instances each get their line, with their pc. */
int elab_list_probes(struct session *s, struct program *p)
{
	struct listed *l = arena_alloc(s->arena, sizeof *l * (size_t)(p->probes.n + 1));
	const char **lines = arena_alloc(s->arena, sizeof(char *) * (size_t)(p->probes.n + 1));
	struct derived_probe *dp;
	int i, j, n = 0, m = 0, per_instance = 0;

	VEC_EACH(p->probes, i, dp) {
		struct strbuf sb = {0}, lb = {0}, vb = {0};
		sb_puts(&sb, dp->list_name ? dp->list_name :
			     dp->list_pp ? dp->list_pp : dp->pp);
		if (dp->list_mark)
			sb_putc(&sb, dp->mark_sufficient ? '!' : '?');
		if (s->list_probes_vars && list_entry_call(s, &dp, &lb))
			;
		else if (s->list_probes_vars && dp->list_pp) {
			if (dp->family->list_alias_vars)
				dp->family->list_alias_vars(s, dp, &lb);
			list_alias_locals(dp, &lb);
		}
		if (s->list_probes_vars && dp->family->list_vars)
			dp->family->list_vars(s, dp, &vb);
		l[n].note = "";
		if (s->list_probes_vars && s->verbose > 0 &&
		    !strcmp(dp->family->name, "dwarf") && dp->family->listing_note) {
			per_instance = 1;
			l[n].note = arena_printf(s->arena, " /*%s*/",
				dp->family->listing_note(s, dp));
		}
		l[n].head = arena_strdup(s->arena, sb.s);
		l[n].locals = arena_strdup(s->arena, lb.s ? lb.s : "");
		l[n].vars = arena_strdup(s->arena, vb.s ? vb.s : "");
		l[n].order = n;
		n++;
		sb_free(&sb);
		sb_free(&lb);
		sb_free(&vb);
	}
	qsort(l, (size_t)n, sizeof *l, cmp_listed);
	if (per_instance) {	/* -L -v: each instance, in order, with its pc */
		for (i = 0; i < n; i++)
			printf("%s%s%s%s\n", l[i].head, l[i].note, l[i].locals,
			       l[i].vars);
		return n;
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(l[j].head, l[i].head); j++) {
			keep_common(s, &l[i].locals, l[j].locals, local_len);
			keep_common(s, &l[i].vars, l[j].vars, var_len);
		}
		lines[m++] = arena_printf(s->arena, "%s%s%s", l[i].head,
					  l[i].locals, l[i].vars);
	}
	qsort(lines, (size_t)m, sizeof *lines, cmp_str);
	for (i = 0; i < m; i++)
		if (!i || strcmp(lines[i], lines[i - 1]))
			printf("%s\n", lines[i]);
	return n;
}
