/* dw_vars.c - the variables of a probe site's scopes; see dw_vars.h.
 *
 * Reads the function DIE's children (parameters, variables, lexical
 * blocks holding pc) through libdw; writes plain arrays of names and DIE
 * offsets.  Inline instances name their variables through
 * DW_AT_abstract_origin (dwarf_diename follows it).  Nested inline
 * instances are other functions' scopes and are not entered.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_vars.h"

struct collect {
	struct dw_var *v;
	int n, cap;
	uint64_t pc;		/* DWARF address */
};

static void add(struct collect *c, Dwarf_Die *d, int depth)
{
	const char *name = dwarf_diename(d);

	if (!name)
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = realloc(c->v, (size_t)c->cap * sizeof *c->v);
	}
	c->v[c->n++] = (struct dw_var){ name, dwarf_dieoffset(d),
		dwarf_tag(d) == DW_TAG_formal_parameter, depth };
}

static void walk(struct collect *c, Dwarf_Die *scope, int depth)
{
	Dwarf_Die d;

	if (dwarf_child(scope, &d) != 0)
		return;
	do {
		switch (dwarf_tag(&d)) {
		case DW_TAG_formal_parameter: case DW_TAG_variable:
			add(c, &d, depth);
			break;
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&d, c->pc) == 1)
				walk(c, &d, depth + 1);
			break;
		}
	} while (dwarf_siblingof(&d, &d) == 0);
}

static int func_die(struct dw_file *f, uint64_t off, Dwarf_Die *die)
{
	return dwarf_offdie(dw_file_dwarf(f, NULL), off, die) != NULL;
}

int dw_vars_at(struct dw_file *f, uint64_t func_off, uint64_t pc,
	       struct dw_var **out)
{
	struct collect c = { NULL, 0, 0, 0 };
	uint64_t bias;
	Dwarf_Die die;

	dw_file_dwarf(f, &bias);
	c.pc = pc - bias;
	if (!func_die(f, func_off, &die))
		return -1;
	walk(&c, &die, 0);
	*out = c.v;
	return c.n;
}

int dw_var_find(struct dw_file *f, uint64_t func_off, uint64_t pc,
		const char *name, struct dw_var *out)
{
	struct dw_var *v;
	int n = dw_vars_at(f, func_off, pc, &v), i, best = -1;

	for (i = 0; i < n; i++)	/* the deepest scope wins */
		if (!strcmp(v[i].name, name) && (best < 0 || v[i].depth > v[best].depth))
			best = i;
	if (best >= 0)
		*out = v[best];
	free(v);
	return best >= 0 ? 0 : -1;
}

uint64_t dw_frame_func(struct dw_file *f, uint64_t func_off)
{
	Dwarf_Die die, cu, *scopes = NULL;
	uint64_t r = 0;
	int n, i;

	if (!func_die(f, func_off, &die))
		return 0;
	if (dwarf_tag(&die) == DW_TAG_subprogram)
		return func_off;
	if (!dwarf_diecu(&die, &cu, NULL, NULL))
		return 0;
	n = dwarf_getscopes_die(&die, &scopes);
	for (i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			r = dwarf_dieoffset(&scopes[i]);
			break;
		}
	free(scopes);
	return r;
}

uint64_t dw_return_type(struct dw_file *f, uint64_t func_off)
{
	Dwarf_Attribute a;
	Dwarf_Die die, t;

	if (!func_die(f, func_off, &die) ||
	    !dwarf_attr_integrate(&die, DW_AT_type, &a) ||
	    !dwarf_formref_die(&a, &t))
		return 0;
	return dwarf_dieoffset(&t);
}

const char *dw_func_name(struct dw_file *f, uint64_t func_off)
{
	Dwarf_Die die;
	const char *n;

	if (!func_die(f, func_off, &die) || !(n = dwarf_diename(&die)))
		return "<unknown>";
	return n;
}

const char *dw_cu_name(struct dw_file *f, uint64_t func_off)
{
	Dwarf_Die die, cu;
	const char *n;

	if (!func_die(f, func_off, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
	    !(n = dwarf_diename(&cu)))
		return "<unknown>";
	return n;
}

void dw_func_decl_at(struct dw_file *f, uint64_t func_off, char *buf,
		     int len)
{
	Dwarf_Die die;
	const char *file;
	int line = 0, col = 0;

	buf[0] = '\0';
	if (!func_die(f, func_off, &die) || !(file = dwarf_decl_file(&die)))
		return;
	dwarf_decl_line(&die, &line);
	dwarf_decl_column(&die, &col);
	snprintf(buf, (size_t)len, "%s:%d:%d", file, line, col);
}

void dw_pc_line(struct dw_file *f, uint64_t func_off, uint64_t pc, char *buf,
		int len)
{
	Dwarf_Die die, cu;
	Dwarf_Line *line;
	const char *file;
	uint64_t bias;
	int l = 0, col = 0;

	buf[0] = '\0';
	dw_file_dwarf(f, &bias);
	if (!func_die(f, func_off, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
	    !(line = dwarf_getsrc_die(&cu, pc - bias)) ||
	    !(file = dwarf_linesrc(line, NULL, NULL)))
		return;
	dwarf_lineno(line, &l);
	dwarf_linecol(line, &col);
	snprintf(buf, (size_t)len, "%s:%d:%d", file, l, col);
}
