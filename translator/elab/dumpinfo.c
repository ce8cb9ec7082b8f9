/* dumpinfo.c - --dump-functions, --dump-probe-types, --dump-probe-aliases.
 *
 * What stap 4.8 prints for them, in its shape, about this translator:
 * every public function of the tapset library with the types inference
 * gives it on its own ("name:type (param:type, …)" and its privilege
 * pragma), the point patterns of the built-in probe families, and the
 * library's public probe aliases ("name = points" or "name += points"),
 * each list sorted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/dump.h"
#include "elab/elab.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void print_sorted(struct vec *lines)
{
	const char *line;
	int i;

	if (lines->n)
		qsort(lines->v, (size_t)lines->n, sizeof(void *), cmp_str);
	VEC_EACH(*lines, i, line)
		puts(line);
}

static const char *func_line(struct arena *a, const struct func *f)
{
	struct strbuf sb = {0};
	const struct sym *p;
	const char *out;
	int i;

	sb_printf(&sb, "%s:%s (", f->name, elab_type_name(f->type));
	VEC_EACH(f->info->params, i, p)
		sb_printf(&sb, "%s%s:%s", i ? ", " : "", p->name, elab_type_name(p->type));
	sb_putc(&sb, ')');
	if (f->unprivileged)
		sb_puts(&sb, " /* unprivileged */");
	else if (f->myproc_unprivileged)
		sb_puts(&sb, " /* myproc-unprivileged */");
	else if (f->guru)
		sb_puts(&sb, " /* guru */");
	out = arena_strdup(a, sb.s);
	sb_free(&sb);
	return out;
}

static void dump_functions(struct elab *el)
{
	struct arena *a = el->s->arena;
	struct vec lines = {0};
	struct file_ast *fa;
	struct func *f;
	int i, j;

	VEC_EACH(el->s->library_files, i, fa)
		VEC_EACH(fa->funcs, j, f) {
			if (f->is_private || f->info)
				continue;
			f->info = ARENA_NEW(a, struct func_info);
			f->info->func = f;
			vec_push(a, &el->func_work, f);
		}
	/* bind them all, as reached; then infer without reporting */
	for (i = 0; i < el->func_work.n; i++) {
		f = el->func_work.v[i];
		f->info->index = el->prog->funcs.n;
		vec_push(a, &el->prog->funcs, f);
		elab_bind_func(el, f);
	}
	elab_infer_types_quietly(el);
	VEC_EACH(el->prog->funcs, i, f)
		if (!f->is_private && f->file && f->file->is_tapset &&
		    f->name[0] != '_')	/* internal, as stap hides them */
			vec_push(a, &lines, (void *)func_line(a, f));
	print_sorted(&lines);
}

/* Probe types compare component by component ("process.end" before
 * "process(number).begin"), as stap walks its tree of them. */
static int cmp_type(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	for (;;) {
		size_t nx = strcspn(x, "."), ny = strcspn(y, ".");
		int c = strncmp(x, y, nx < ny ? nx : ny);

		if (c || nx != ny)
			return c ? c : nx < ny ? -1 : 1;
		if (!x[nx] || !y[ny])	/* the shorter dotted name first */
			return (x[nx] != 0) - (y[ny] != 0);
		x += nx + 1;
		y += ny + 1;
	}
}

static void push_shapes(struct arena *a, struct vec *lines, const char *name,
			const struct probe_family *fam)
{
	size_t k;

	if (!fam->patterns && !fam->shapes)
		vec_push(a, lines, (void *)name);
	for (k = 0; fam->patterns && fam->patterns[k]; k++)
		vec_push(a, lines, (void *)fam->patterns[k]);
	for (k = 0; fam->shapes && fam->shapes[k]; k++)
		vec_push(a, lines, (void *)fam->shapes[k]);
}

/* Every point shape of every family (its patterns and the shapes its
 * wildcards may take), as stap lists them: "kernel.function(string).return". */
static void dump_probe_types(struct arena *a)
{
	struct vec lines = {0};
	const struct probe_family *fam;
	const char *name;
	size_t i, k;

	/* every family of a name, at the name's first row */
	for (i = 0; (name = family_name_at(i)); i++) {
		for (k = 0; k < i && strcmp(family_name_at(k), name); k++)
			;
		if (k < i)
			continue;
		for (fam = NULL; (fam = family_lookup_next(name, fam)); )
			push_shapes(a, &lines, name, fam);
	}
	if (lines.n)
		qsort(lines.v, (size_t)lines.n, sizeof(void *), cmp_type);
	VEC_EACH(lines, i, name)
		if (!i || strcmp(name, lines.v[i - 1]))
			puts(name);
}

static const char *points_line(struct arena *a, const struct vec *names_or_points,
			       int start, const char *sep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *out;
	int i;

	for (i = start; f && i < names_or_points->n; i++) {
		if (i > start)
			fputs(sep, f);
		dump_probe_point(f, names_or_points->v[i]);
	}
	if (f)
		fclose(f);
	out = arena_strdup(a, buf ? buf : "");
	free(buf);
	return out;
}

static void dump_probe_aliases(struct elab *el)
{
	struct arena *a = el->s->arena;
	struct vec lines = {0};
	const struct probe_alias *al;
	const struct probe_point *n;
	int i, j;

	VEC_EACH(el->aliases, i, al) {
		if (!al->file || !al->file->is_tapset)
			continue;
		VEC_EACH(al->names, j, n) {
			const struct pp_comp *c = n->comps.v[0];
			struct vec one = {0};

			if (c->name[0] == '_')
				continue;	/* internal */
			vec_push(a, &one, (void *)n);
			vec_push(a, &lines, arena_printf(a, "%s %s %s",
				points_line(a, &one, 0, ""),
				al->kind == ALIAS_EPILOGUE ? "+=" : "=",
				points_line(a, &al->points, 0, ", ")));
		}
	}
	print_sorted(&lines);
}

/* Returns 1 when one of the dumps was asked for (and printed). */
int elab_dump_info(struct elab *el)
{
	struct session *s = el->s;

	if (!s->dump_functions && !s->dump_probe_types && !s->dump_probe_aliases)
		return 0;
	if (s->dump_functions)
		dump_functions(el);
	else if (s->dump_probe_types)
		dump_probe_types(s->arena);
	else
		dump_probe_aliases(el);
	return 1;
}
