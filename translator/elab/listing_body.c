/* listing_body.c - the bodies the -p2 listing shows with -v.
 *
 * After each function's and probe's header, stap 4.8 prints its body as
 * elaborated: wrapped in "{ " … " }", globals and functions by the names
 * it gives them in C (__global_x, __global_f__overload_0, __private_…),
 * a probe's condition as a leading `if (!(cond)) next`, the bodies it
 * synthesizes (the begin probe arming conditions, the end probes that
 * display written-only globals) in their own words.  The statement and
 * expression forms are the -p1 printer's (dump.c) in its elaborated style.
 * Reads the resolved program; writes nothing but stdout.
 */
#include <stdio.h>
#include <string.h>

#include "ast/dump.h"
#include "elab/cnames.h"
#include "elab/elab.h"
#include "elab/listing_body.h"

static struct arena *name_arena;
static const struct vec *all_funcs;	/* struct func *: every declared one */
static const struct vec *all_globals;	/* struct sym *: every declared one */

static const char *sym_name(const struct exp *e)
{
	const struct sym *sym = e->u.sym.sym;

	/* unbound: a point's condition as written, where every name is a
	 * global (bind.c allows no other) */
	if (!sym)
		return cname_cond_global(name_arena, all_globals,
					 e->u.sym.name, e->loc);
	if (sym->kind != SYM_GLOBAL)
		return e->u.sym.name;
	return cname_global(name_arena, sym);
}

static const char *call_name(const struct exp *e)
{
	const struct func *fn = e->u.call.func;

	return fn ? cname_func(name_arena, all_funcs, fn) : e->u.call.name;
}

static struct dump_style elaborated = {
	.sym_name = sym_name,
	.call_name = call_name,
	.exp = elab_tvar_fn_exp,
	.elaborated = 1,
};

void listing_body_begin(struct arena *a, const struct vec *funcs,
			const struct vec *globals, int optimized)
{
	name_arena = a;
	all_funcs = funcs;
	all_globals = globals;
	elaborated.optimized = optimized;
	dump_set_style(&elaborated);
}

void listing_body_end(void)
{
	dump_set_style(NULL);
}

void listing_body_mangle(int on)
{
	dump_set_style(on ? &elaborated : NULL);
}

void listing_func_body(FILE *f, const struct func *fn)
{
	fputs("{ ", f);
	if (fn->body->kind == ST_EMBEDDED)
		fprintf(f, "%%{%s%%}", fn->body->u.embedded.code);
	else
		dump_stmt(f, fn->body);
	fputs(" }\n", f);
}

/* A probe's condition becomes the first statement of its body. */
void listing_probe_body(FILE *f, const struct derived_probe *dp)
{
	int i;

	if (!dp->cond) {
		fputs("{ ", f);
		dump_stmt(f, dp->body);
		fputs(" }\n", f);
		return;
	}
	fputs("{ {\n", f);
	for (i = 0; i < dp->nstable; i++)
		dump_stmt_flat(f, dp->body->u.block.v[i]);
	fputs("if (!(", f);
	dump_exp(f, dp->cond);
	fputs(")) next\n;\n", f);
	if (!elaborated.optimized) {	/* the body as one block after it */
		dump_stmt(f, dp->body);
		fputs(";\n", f);
	}
	for (; elaborated.optimized && i < dp->body->u.block.n; i++)
		dump_stmt_flat(f, dp->body->u.block.v[i]);
	fputs("} }\n", f);
}

void listing_arming_body(FILE *f)
{
	fputs(elaborated.optimized ? "{ ; }\n" : "{ {\n} }\n", f);
}

/* The printf directive stap's display uses for a value of type T: KEY
 * for an index, else for the value. */
static const char *display_fmt(enum type t, int key)
{
	if (t == TY_STRING)
		return "\\\"%#s\\\"";
	return key ? "%#d" : "%d";
}

static void stat_args(FILE *f, const char *g, const char *idx)
{
	static const char *const ops[] = { "count", "min", "max", "sum", "avg" };
	size_t i;

	for (i = 0; i < sizeof ops / sizeof *ops; i++)
		fprintf(f, ", @%s(%s%s)", ops[i], g, idx);
}

#define STAT_FMT "@count=%#d @min=%#d @max=%#d @sum=%#d @avg=%#d\\\\n"

static void display_scalar(FILE *f, const struct sym *sym, const char *g)
{
	if (sym->type == TY_STATS) {
		fprintf(f, "if ((@count(%s)) == (0)) printf(\"%s @count=0x0\\\\n\")\n",
			g, sym->name);
		fprintf(f, "else printf(\"%s ", sym->name);
		fputs(STAT_FMT "\"", f);
		stat_args(f, g, "");
		fputs(")\n;\n", f);
		return;
	}
	fprintf(f, "printf(\"%s=%s\\\\n\", %s);\n", sym->name,
		display_fmt(sym->type, 0), g);
}

static void display_array(FILE *f, const struct sym *sym, const char *g)
{
	struct strbuf idx = {0};
	int i;

	for (i = 0; i < sym->arity; i++)
		sb_printf(&idx, "%s__idx%d", i ? ", " : "", i);
	fputs("foreach (", f);
	if (sym->type != TY_STATS)
		fputs("__val = ", f);
	fprintf(f, "[%s] in %s-) printf(\"%s[", idx.s, g, sym->name);
	for (i = 0; i < sym->arity; i++)
		fprintf(f, "%s%s", i ? "," : "",
			display_fmt(sym->index_types[i], 1));
	if (sym->type == TY_STATS)
		fputs("] " STAT_FMT "\"", f);
	else
		fprintf(f, "]=%s\\\\n\"", display_fmt(sym->type, 0));
	for (i = 0; i < sym->arity; i++)
		fprintf(f, ", __idx%d", i);
	if (sym->type == TY_STATS)
		stat_args(f, g, arena_printf(name_arena, "[%s]", idx.s));
	else
		fputs(", __val", f);
	fputs(");\n", f);
	sb_free(&idx);
}

/* The end probe stap adds to display written-only global SYM. */
void listing_display_body(FILE *f, const struct sym *sym)
{
	struct exp e = { .kind = EX_SYM };
	const char *g;

	e.u.sym.name = sym->name;
	e.u.sym.sym = (struct sym *)sym;
	g = sym_name(&e);
	fputs("{ {\n", f);
	if (sym->arity > 0)
		display_array(f, sym, g);
	else
		display_scalar(f, sym, g);
	fputs("} }\n", f);
}
