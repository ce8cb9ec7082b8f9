/* regex.c - `s =~ "re"` and `s !~ "re"`: the translator's side.
 *
 * Pass 2 compiles each regex once to report a bad one at its literal, as
 * stap does (elab/regexcheck.c).  Pass 3 emits each distinct regex's program as
 * static const data (gathered in e->decls, written before the bodies) and
 * the expression as a call to _stp_regex_match (runtime/regex_match.h),
 * which also records the match for matched() and ngroups().  The largest
 * program fixes the per-CPU workspace, STP_REGEX_CTX_SIZE.
 */
#include <stdio.h>
#include <string.h>

#include "elab/regexcheck.h"
#include "emit/emit_int.h"

/* What pass 3 emitted so far: the regexes by stored form. */
struct regex_emitted {
	struct vec raws;	/* const char *, index = table number */
	int max_inst, max_slots;
};

static void emit_table(struct strbuf *sb, int n, const struct regex_prog *p,
		       const char *raw)
{
	int i, k;

	sb_printf(sb, "/* regex %d: ", n);
	for (; *raw; raw++)	/* no comment terminator in the comment */
		sb_putc(sb, *raw == '/' && raw[1] == '*' ? '?' :
			*raw == '*' && raw[1] == '/' ? '?' : *raw);
	sb_printf(sb, " */\nstatic const struct stp_regex_inst stp_re%d_inst[] = {\n", n);
	for (i = 0; i < p->ninst; i++)
		sb_printf(sb, "\t{ %d, %d, %d, %d },\n", p->inst[i].op,
			  p->inst[i].c, p->inst[i].x, p->inst[i].y);
	sb_printf(sb, "};\n");
	if (p->nsets) {
		sb_printf(sb, "static const unsigned char stp_re%d_sets[][32] = {\n", n);
		for (i = 0; i < p->nsets; i++) {
			sb_printf(sb, "\t{");
			for (k = 0; k < 32; k++)
				sb_printf(sb, "%s%d", k ? "," : " ", p->sets[i][k]);
			sb_printf(sb, " },\n");
		}
		sb_printf(sb, "};\n");
	}
	sb_printf(sb, "static const struct stp_regex stp_re%d = { stp_re%d_inst, ",
		  n, n);
	if (p->nsets)
		sb_printf(sb, "stp_re%d_sets", n);
	else
		sb_puts(sb, "NULL");
	sb_printf(sb, ", %d, %d };\n\n", p->ninst, 2 * p->ngroups);
}

const char *emit_regex(struct emit *e, struct exp *x)
{
	struct regex_emitted *rx = e->regex;
	struct exp *lit = x->u.bin.right;
	const char *raw = lit->u.str.raw ? lit->u.str.raw : lit->u.str.s;
	struct regex_prog p;
	int n;

	if (!rx)
		rx = e->regex = arena_alloc(e->s->arena, sizeof *rx);
	for (n = 0; n < rx->raws.n; n++)
		if (!strcmp(rx->raws.v[n], raw))
			break;
	if (n == rx->raws.n) {
		if (regex_check_literal(&e->s->diags, lit, &p))
			return "0";
		if (!n)
			sb_puts(&e->decls, "#include \"regex_match.h\"\n\n");
		emit_table(&e->decls, n, &p, raw);
		if (p.ninst > rx->max_inst)
			rx->max_inst = p.ninst;
		if (2 * p.ngroups > rx->max_slots)
			rx->max_slots = 2 * p.ngroups;
		vec_push(e->s->arena, &rx->raws, (void *)raw);
		regex_prog_free(&p);
	}
	return arena_printf(e->s->arena, "((int64_t)(%s_stp_regex_match(c, &stp_re%d, %s)))",
			    x->u.bin.op == OP_NOMATCH ? "!" : "", n,
			    emit_exp(e, x->u.bin.left));
}

/* The tables and the workspace size, before the bodies that use them. */
void emit_regex_decls(struct emit *e)
{
	struct regex_emitted *rx = e->regex;

	if (!rx || !rx->raws.n)
		return;
	sb_printf(&e->out, "#define STP_REGEX_CTX_SIZE STP_REGEX_CTX_BYTES(%d, %d)\n\n",
		  rx->max_inst, rx->max_slots);
}
