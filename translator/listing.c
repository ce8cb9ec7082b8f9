/* listing.c - the -p2 listing of the resolved program, and -l/-L.
 *
 * The shape follows stap's: "# globals" with each global's type (and index
 * types for arrays), "# functions" with signatures and locals, "# probes"
 * with each derived probe, the point it came from, and its locals.  -l
 * lists the derived probes' points, sorted and unique; -L adds each one's
 * target variables with their C types, as its family names them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elab.h"

static void print_sym(FILE *f, const char *indent, const struct sym *sym)
{
	int i;

	fprintf(f, "%s%s:%s", indent, sym->name, type_name(sym->type));
	if (sym->arity > 0) {
		fputs(" [", f);
		for (i = 0; i < sym->arity; i++)
			fprintf(f, "%s%s", i ? ", " : "",
				type_name(sym->index_types[i]));
		fputc(']', f);
	}
	fputc('\n', f);
}

static void print_locals(FILE *f, const struct vec *locals)
{
	const struct sym *sym;
	int i;

	if (!locals->n)
		return;
	fputs("  # locals\n", f);
	VEC_EACH(*locals, i, sym)
		print_sym(f, "  ", sym);
}

void elab_print_program(struct session *s, struct program *p)
{
	FILE *f = stdout;
	const struct sym *sym;
	const struct func *fn;
	const struct derived_probe *dp;
	int i, j;

	if (p->globals.n)
		fputs("# globals\n", f);
	VEC_EACH(p->globals, i, sym)
		print_sym(f, "", sym);
	if (p->funcs.n)
		fputs("# functions\n", f);
	VEC_EACH(p->funcs, i, fn) {
		fprintf(f, "%s:%s (", fn->name, type_name(fn->type));
		VEC_EACH(fn->info->params, j, sym)
			fprintf(f, "%s%s:%s", j ? ", " : "", sym->name,
				type_name(sym->type));
		fputs(")\n", f);
		print_locals(f, &fn->info->locals);
	}
	fputs("# probes\n", f);
	VEC_EACH(p->probes, i, dp) {
		if (dp->family && dp->family->listing_note)
			fprintf(f, "%s /*%s*/ /* <- %s */\n", dp->pp,
				dp->family->listing_note(s, dp), dp->user_pp);
		else
			fprintf(f, "%s /* <- %s */\n", dp->pp, dp->user_pp);
		print_locals(f, &dp->locals);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -l / -L: returns how many points were listed. */
int elab_list_probes(struct session *s, struct program *p)
{
	const char **lines = arena_alloc(s->arena, sizeof(char *) * (size_t)(p->probes.n + 1));
	struct derived_probe *dp;
	int i, n = 0;

	VEC_EACH(p->probes, i, dp) {
		struct strbuf sb = {0};
		sb_puts(&sb, dp->pp);
		if (s->list_probes_vars && dp->family->list_vars)
			dp->family->list_vars(s, dp, &sb);
		lines[n++] = arena_strdup(s->arena, sb.s);
		sb_free(&sb);
	}
	qsort(lines, (size_t)n, sizeof *lines, cmp_str);
	for (i = 0; i < n; i++)
		if (!i || strcmp(lines[i], lines[i - 1]))
			printf("%s\n", lines[i]);
	return n;
}
