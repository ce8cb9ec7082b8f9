/* dw_vars.c - the variables of a probe site's scopes; see dw_vars.h.
 *
 * Reads the function DIE's children (parameters, variables, lexical
 * blocks holding pc) through libdw; writes plain arrays of names and DIE
 * offsets.  Inline instances name their variables through
 * DW_AT_abstract_origin (dwarf_diename follows it).  Nested inline
 * instances are other functions' scopes and are not entered.
 */
#include <dwarf.h>
#include <fnmatch.h>
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
	int nested;		/* enter lexical blocks holding pc */
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
			if (c->nested && dwarf_haspc(&d, c->pc) == 1)
				walk(c, &d, depth + 1);
			break;
		}
	} while (dwarf_siblingof(&d, &d) == 0);
}

static int func_die(struct dw_file *f, uint64_t off, Dwarf_Die *die)
{
	return dwarf_offdie(dw_file_dwarf(f, NULL), off, die) != NULL;
}

/* Innermost scope first, DIE order within a scope (stap walks the
 * scopes holding pc from the innermost outwards). */
static void innermost_first(struct dw_var *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		struct dw_var x = v[i];
		for (j = i; j > 0 && v[j - 1].depth < x.depth; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int dw_vars_at(struct dw_file *f, uint64_t func_off, uint64_t pc,
	       int nested, struct dw_var **out)
{
	struct collect c = { NULL, 0, 0, 0, nested };
	uint64_t bias;
	Dwarf_Die die;

	dw_file_dwarf(f, &bias);
	c.pc = pc - bias;
	if (!func_die(f, func_off, &die))
		return -1;
	walk(&c, &die, 0);
	innermost_first(c.v, c.n);
	*out = c.v;
	return c.n;
}

int dw_var_find(struct dw_file *f, uint64_t func_off, uint64_t pc,
		int nested, const char *name, struct dw_var *out)
{
	struct dw_var *v;
	int n = dw_vars_at(f, func_off, pc, nested, &v), i, best = -1;

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

/* The top-level variable NAME of unit CU with a location (DEF) or any
 * (a declaration too): its offset, or 0. */
static uint64_t unit_var(Dwarf_Die *cu, const char *name, int def)
{
	Dwarf_Die d;
	const char *n;

	if (dwarf_child(cu, &d) != 0)
		return 0;
	do {
		if (dwarf_tag(&d) != DW_TAG_variable || !(n = dwarf_diename(&d)) ||
		    strcmp(n, name))
			continue;
		if (!def || (!dwarf_hasattr(&d, DW_AT_declaration) &&
			     (dwarf_hasattr(&d, DW_AT_location) ||
			      dwarf_hasattr(&d, DW_AT_const_value))))
			return dwarf_dieoffset(&d);
	} while (dwarf_siblingof(&d, &d) == 0);
	return 0;
}

/* Does unit name NAME match PAT (stap's implicit leading "*\/")? */
static int unit_matches(const char *name, const char *pat)
{
	char buf[1024];

	if (!fnmatch(pat, name, 0))
		return 1;
	snprintf(buf, sizeof buf, "*/%s", pat);
	return !fnmatch(buf, name, 0);
}

/* Each unit of F in turn: FN(CU, ARG) until it returns nonzero. */
static uint64_t each_unit(struct dw_file *f,
			  uint64_t (*fn)(Dwarf_Die *cu, const void *arg),
			  const void *arg)
{
	Dwarf *dbg = dw_file_dwarf(f, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu;
	uint64_t r;

	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg, off + hsize, &cu) && (r = fn(&cu, arg)))
			return r;
		off = next;
	}
	return 0;
}

struct global_query {
	const char *name, *cu;
	int def;
};

static uint64_t in_unit(Dwarf_Die *cu, const void *arg)
{
	const struct global_query *q = arg;
	const char *n = dwarf_diename(cu);

	if (q->cu && (!n || !unit_matches(n, q->cu)))
		return 0;
	return unit_var(cu, q->name, q->def);
}

int dw_global_var(struct dw_file *f, const char *name, const char *cu,
		  uint64_t cu_off, uint64_t *var_off)
{
	struct global_query q = { name, cu, 0 };
	Dwarf_Die unit, var;
	uint64_t off;

	if (cu || !cu_off)	/* in the units CU names, or in any */
		off = each_unit(f, in_unit, &q);
	else if (dwarf_offdie(dw_file_dwarf(f, NULL), cu_off, &unit))
		off = unit_var(&unit, name, 0);
	else
		off = 0;
	if (!off || !dwarf_offdie(dw_file_dwarf(f, NULL), off, &var))
		return -1;
	if (dwarf_hasattr(&var, DW_AT_declaration)) {	/* defined elsewhere */
		uint64_t def;

		q.cu = NULL;
		q.def = 1;
		/* or by the linker (jiffies): the declaration, whose
		   location is its symbol's (dw_loc_var) */
		if ((def = each_unit(f, in_unit, &q)))
			off = def;
	}
	*var_off = off;
	return 0;
}

/* Did the producer optimize FUNC_OFF's unit (an -O other than -O0 in
 * its DW_AT_producer)? */
static int unit_optimized(Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	const char *p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &a));

	for (; p && (p = strstr(p, " -O")); p += 3)
		if (p[3] != '0')
			return 1;
	return 0;
}

uint64_t dw_prologue_end(struct dw_file *f, uint64_t func_off, uint64_t pc)
{
	Dwarf_Die die, cu;
	Dwarf_Lines *lines;
	Dwarf_Addr low, high, a, best = 0;
	uint64_t bias;
	size_t n, i;

	dw_file_dwarf(f, &bias);
	if (!func_die(f, func_off, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
	    unit_optimized(&cu) || dwarf_lowpc(&die, &low) ||
	    dwarf_highpc(&die, &high) || low + bias != pc ||
	    dwarf_getsrclines(&cu, &lines, &n))
		return pc;
	for (i = 0; i < n; i++)
		if (!dwarf_lineaddr(dwarf_onesrcline(lines, i), &a) &&
		    a > low && a < high && (!best || a < best))
			best = a;
	return best ? best + bias : pc;
}
