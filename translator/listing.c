/* listing.c - the -p2 listing of the resolved program.
 *
 * The shape follows stap's: "# globals" with each global's type (and index
 * types for arrays), "# functions" with signatures and locals, "# probes"
 * with each derived probe, the point it came from, and its locals.
 */
#include <stdio.h>

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
