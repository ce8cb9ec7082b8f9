/* emit_array.c - C for arrays, aggregates and regular expressions (pass 3).
 *
 * Arrays and aggregates use the runtime's map and statistics modules.
 */
#include "emit_int.h"

const char *emit_array_get(struct emit *e, struct exp *x)
{
	emit_unsupported(e, x->loc, "array indexing");
	return "0";
}

const char *emit_array_in(struct emit *e, struct exp *x)
{
	emit_unsupported(e, x->loc, "the 'in' operator");
	return "0";
}

const char *emit_array_assign(struct emit *e, struct exp *x)
{
	emit_unsupported(e, x->loc, "assignment to an array element");
	return "0";
}

const char *emit_array_incdec(struct emit *e, struct exp *x, int post)
{
	emit_unsupported(e, x->loc, "increment of an array element");
	return "0";
}

const char *emit_stat_op(struct emit *e, struct exp *x)
{
	emit_unsupported(e, x->loc, "statistics");
	return "0";
}

const char *emit_regex(struct emit *e, struct exp *x)
{
	emit_unsupported(e, x->loc, "regular expression matching");
	return "0";
}

void emit_foreach(struct emit *e, struct stmt *st)
{
	emit_unsupported(e, st->loc, "foreach");
}

void emit_delete(struct emit *e, struct stmt *st)
{
	struct exp *x = st->u.exp;
	const struct sym *sym;

	if (x->kind != EX_SYM || x->u.sym.sym->arity > 0 ||
	    x->u.sym.sym->type == TY_STATS) {
		emit_unsupported(e, st->loc, "delete of arrays and aggregates");
		return;
	}
	sym = x->u.sym.sym;
	if (sym->type == TY_STRING)
		emit_line(e, "%s[0] = '\\0';", emit_sym_ref(e, sym));
	else
		emit_line(e, "%s = 0;", emit_sym_ref(e, sym));
}
