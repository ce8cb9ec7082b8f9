/* target.c - C for target variables (pass 3).
 *
 * Pass 2 (tvar.c) recorded each target expression as a base value and a
 * list of address steps; here they become one GNU statement expression
 * over a uint64_t address.  Every memory read goes through the runtime's
 * fault-safe _stp_kread, which records stap's "read fault" error; the
 * expression then jumps to the handler's error label, as any failing
 * operation does.  Each access first says which memory its reads are in
 * (c->tv_user: a user-space probe's DWARF variables are the process's),
 * again after each script expression it evaluates (an index may be
 * another kind of access).
 */
#include "emit/emit_int.h"
#include "elab/tvar.h"

/* The conversion of a raw value of SIZE bytes to a long. */
static const char *convert(struct emit *e, const char *v, int size,
			   int is_signed)
{
	static const char *const ctypes[2][9] = {
		{ [1] = "uint8_t", [2] = "uint16_t", [4] = "uint32_t", [8] = "uint64_t" },
		{ [1] = "int8_t", [2] = "int16_t", [4] = "int32_t", [8] = "int64_t" },
	};
	const char *ct = size > 0 && size <= 8 ? ctypes[!!is_signed][size] : NULL;

	if (!ct)
		return arena_printf(e->s->arena, "(int64_t)(%s)", v);
	return arena_printf(e->s->arena, "(int64_t)(%s)(%s)", ct, v);
}

/* Into SB: "({ uint64_t _a = BASE; " and the steps of TV to the address
 * (or value) its final read takes. */
static void emit_steps(struct emit *e, struct strbuf *sb, const struct tvar *tv,
		       const char *where)
{
	const char *check = emit_check(e);
	int i;

	if (tv->base_reads)	/* a DWARF location that reads memory */
		sb_printf(sb, "({ const char *_stp_w = %s; uint64_t _a; c->tv_user = %d; _a = (uint64_t)(%s); %s ",
			  where, tv->user, tv->base, check);
	else if (tv->base_exp)
		sb_printf(sb, "({ uint64_t _a = (uint64_t)(%s); c->tv_user = %d; ",
			  emit_exp(e, tv->base_exp), tv->user);
	else	/* a DWARF register read needs the flag too */
		sb_printf(sb, "({ uint64_t _a; c->tv_user = %d; _a = (uint64_t)(%s); ",
			  tv->user, tv->base);
	for (i = 0; i < tv->nops; i++) {
		const struct tvar_op *op = &tv->ops[i];
		switch (op->kind) {
		case TV_ADDR:
			break;
		case TV_LOAD_PTR:
			sb_printf(sb, "_a = (uint64_t)_stp_kread(c, _a, 8, %s); %s ",
				  where, check);
			break;
		case TV_ADD:
			sb_printf(sb, "_a += (uint64_t)%lldLL; ", (long long)op->off);
			break;
		case TV_ADD_INDEX:
			sb_printf(sb, "_a += (uint64_t)(%s) * %lldULL; c->tv_user = %d; ",
				  emit_exp(e, op->index), (long long)op->off,
				  tv->user);
			break;
		}
	}
}

static const char *emit_access(struct emit *e, struct tvar *tv,
			       const char *where)
{
	struct strbuf sb = {0};
	const char *r, *check = emit_check(e);
	int nbytes;

	emit_steps(e, &sb, tv, where);
	if (tv->final == TV_VALUE) {
		sb_printf(&sb, "%s; })", convert(e, "_a", tv->size, tv->is_signed));
	} else if (!tv->size) {
		sb_puts(&sb, "(int64_t)_a; })");
	} else if (tv->bit_size) {
		nbytes = (tv->bit_offset + tv->bit_size + 7) / 8;
		sb_printf(&sb, "_a = (uint64_t)_stp_kread(c, _a, %d, %s); %s ",
			  nbytes, where, check);
		sb_printf(&sb, "_stp_bitfield(_a, %d, %d, %d); })", tv->bit_offset,
			  tv->bit_size, tv->is_signed);
	} else {
		sb_printf(&sb, "_a = (uint64_t)_stp_kread(c, _a, %d, %s); %s %s; })",
			  tv->size, where, check,
			  convert(e, "_a", tv->size, tv->is_signed));
	}
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&sb);
	return r;
}

static const char *emit_pretty(struct emit *e, struct tvar *tv,
			       const char *where);

/* A part shown as fixed text (a C string in pretty): a DWARF variable
 * without a value at the probe's pc ("?"), a struct by value ("{...}"). */
static int is_fixed(const struct tvar *part)
{
	return part->final == TV_PRETTY && part->pretty;
}

/* $$parms, $$vars: "name=0x…" for each part, space-separated; with $ or
 * $$, "name=" and the part as $name$ shows it. */
static const char *emit_parts(struct emit *e, struct tvar *tv,
			      const char *where)
{
	const char *t = emit_temp(e, TY_STRING), *r;
	struct strbuf fmt = {0}, sb = {0};
	int i;

	for (i = 0; i < tv->nparts; i++)
		sb_printf(&fmt, "%s%s=%s", i ? " " : "", tv->labels[i],
			  tv->pretty_kind || is_fixed(tv->parts[i]) ? "%s" : "0x%llx");
	sb_printf(&sb, "({ snprintf(%s, MAXSTRINGLEN, \"%s\"", t,
		  fmt.s ? fmt.s : "");
	for (i = 0; i < tv->nparts; i++)
		if (is_fixed(tv->parts[i]))
			sb_printf(&sb, ", %s", tv->parts[i]->pretty);
		else if (tv->pretty_kind)
			sb_printf(&sb, ", %s", emit_pretty(e, tv->parts[i], where));
		else
			sb_printf(&sb, ", (unsigned long long)%s",
				  emit_access(e, tv->parts[i], where));
	sb_printf(&sb, "); (const char *)%s; })", t);
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&fmt);
	sb_free(&sb);
	return r;
}

/* $var$: the value formatted into a string temporary. */
static const char *emit_pretty(struct emit *e, struct tvar *tv,
			       const char *where)
{
	const char *t, *v = emit_access(e, tv, where);

	if (tv->pretty_kind == '{')
		return emit_pretty_agg(e, tv, v, where);
	t = emit_temp(e, TY_STRING);
	if (tv->pretty_kind == 's')
		return arena_printf(e->s->arena, "({ _stp_kread_quoted(c, %s, %s, %d, %s); %s (const char *)%s; })",
				    t, v, tv->str_len, where, emit_check(e), t);
	return arena_printf(e->s->arena, "({ snprintf(%s, MAXSTRINGLEN, \"%s\", (%s long long)%s); (const char *)%s; })",
			    t, tv->pretty_kind == 'x' ? "0x%llx" : "%lld",
			    tv->pretty_kind == 'x' ? "unsigned" : "", v, t);
}

/* An autocast's operator in run-time errors, as stap names it: its first
 * component's, '->' or '['. */
static const char *autocast_op(const struct exp *x)
{
	const struct target_comp *c = x->u.op.comps.n ?
				      x->u.op.comps.v[0] : NULL;

	return c && (c->kind == TC_INDEX_NUM || c->kind == TC_INDEX_EXP) ?
	       "operator '['" : "operator '->'";
}

const char *emit_target(struct emit *e, struct exp *x)
{
	int op = x->kind == EX_CAST || x->kind == EX_ATVAR ||
		 x->kind == EX_AUTOCAST;
	struct tvar *tv = op ? x->u.op.resolved : x->u.target.resolved;
	const char *where;

	if (!tv) {
		emit_unsupported(e, x->loc, "this target variable");
		return "0";
	}
	if (tv->final == TV_PRETTY && tv->pretty)
		return tv->pretty;
	if (op) {
		where = emit_where(e, x->kind == EX_CAST ? "operator '@cast'" :
				   x->kind == EX_AUTOCAST ? autocast_op(x) :
				   "operator '@var'", x->loc);
		return tv->pretty_kind ? emit_pretty(e, tv, where) :
					 emit_access(e, tv, where);
	}
	where = emit_where(e, arena_printf(e->s->arena, "identifier '$%s'",
					   x->u.target.name), x->loc);
	if (tv->final == TV_PRETTY)
		return emit_parts(e, tv, where);
	if (tv->pretty_kind)
		return emit_pretty(e, tv, where);
	return emit_access(e, tv, where);
}

/* A guru write to a DWARF variable: VALUE into the register that holds
 * it, or into its bytes in memory (fault-safe); the expression's value is
 * VALUE. */
const char *emit_target_write(struct emit *e, struct exp *target,
			      const struct tvar *tv, const char *value)
{
	struct strbuf sb = {0};
	const char *where = emit_where(e, target->kind == EX_AUTOCAST ?
				autocast_op(target) : arena_printf(e->s->arena,
				"identifier '$%s'", target->u.target.name),
				target->loc), *r;

	if (tv->final == TV_VALUE && tv->write_reg && !tv->nops)
		return arena_printf(e->s->arena, "({ int64_t _v = %s; c->tv_user = %d; _stp_dwarf_set_reg(c, %d, (uint64_t)_v); _v; })",
				    value, tv->user, tv->write_reg - 1);
	if (tv->final != TV_LOAD_INT || !tv->size || tv->bit_size) {
		emit_unsupported(e, target->loc, "this assignment to a target variable");
		return "0";
	}
	sb_printf(&sb, "({ int64_t _v = %s; ", value);
	emit_steps(e, &sb, tv, where);
	sb_printf(&sb, "_stp_dwarf_write(c, _a, %d, (uint64_t)_v, %s); %s _v; }); })",
		  tv->size, where, emit_check(e));
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&sb);
	return r;
}
