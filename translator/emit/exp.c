/* exp.c - C for expressions (pass 3).
 *
 * Each script expression becomes one C expression: int64_t for longs,
 * `const char *` for strings (pointing at a literal, a variable, or a
 * temporary in the frame that lives until the body ends).  Anything that
 * can fail is a GNU statement expression that records the error in the
 * context and jumps to the current error label.  Evaluation order is left
 * to right, as in stap: operands with side effects are first stored in
 * temporaries.
 */
#include <inttypes.h>
#include <string.h>

#include "emit/emit_int.h"
#include "elab/tvar.h"

#define A emit_sprintf

const char *emit_temp(struct emit *e, enum type t)
{
	int n = e->ntemps++;

	if (t == TY_STRING)
		sb_printf(&e->temps, "\tchar t%d[MAXSTRINGLEN];\n", n);
	else
		sb_printf(&e->temps, "\tint64_t t%d;\n", n);
	return A(e, "l->t%d", n);
}

/* Jump to the error label when the last operation failed. */
const char *emit_check(struct emit *e)
{
	return A(e, "if (unlikely(c->last_error)) goto %s;", e->err_label);
}

static const char *num_lit(struct emit *e, int64_t v)
{
	if (v == INT64_MIN)
		return "((int64_t)S64_MIN)";
	return A(e, "((int64_t)%" PRId64 "LL)", v);
}

/* A long operand kept in a temporary, so that later operands cannot
 * change it (x + x++) and it is evaluated exactly once. */
static const char *long_operand(struct emit *e, struct exp *x, const char **pre)
{
	const char *v = emit_exp(e, x), *t;

	if (x->kind == EX_NUM)
		return v;
	t = emit_temp(e, TY_LONG);
	*pre = A(e, "%s%s = %s; ", *pre, t, v);
	return t;
}

/* "if (…) goto ERR; ": divisor B of OP (at LOC) must not be zero. */
const char *emit_div_check(struct emit *e, const char *b, enum op op,
			   struct loc loc)
{
	return A(e, "if (_stp_check_div(c, %s, %s)) goto %s; ", b,
		 emit_where(e, A(e, "operator '%s'", op_name(op)), loc),
		 e->err_label);
}

static const char *binary(struct emit *e, struct exp *x)
{
	enum op op = x->u.bin.op;
	const char *pre = "";
	const char *a = long_operand(e, x->u.bin.left, &pre);
	const char *b = long_operand(e, x->u.bin.right, &pre);

	if (op_has(op, OPF_DIVIDES))
		return A(e, "({ %s%s%s(%s, %s); })", pre,
			 emit_div_check(e, b, op, x->loc),
			 op == OP_DIV ? "_stp_div64" : "_stp_mod64", a, b);
	if (op == OP_SHL)
		return A(e, "({ %s(int64_t)((uint64_t)%s << (%s & 63)); })", pre, a, b);
	if (op == OP_SHR)
		return A(e, "({ %s(int64_t)(%s >> (%s & 63)); })", pre, a, b);
	if (op == OP_USHR)
		return A(e, "({ %s(int64_t)((uint64_t)%s >> (%s & 63)); })", pre, a, b);
	if (op_has(op, OPF_WRAPS))
		return A(e, "({ %s(int64_t)((uint64_t)%s %s (uint64_t)%s); })", pre, a, op_c(op), b);
	return A(e, "({ %s(int64_t)(%s %s %s); })", pre, a, op_c(op), b);
}

static const char *unary(struct emit *e, struct exp *x)
{
	const char *v = emit_exp(e, x->u.un.operand);
	enum op op = x->u.un.op;

	if (op == OP_NEG)
		return A(e, "((int64_t)(0 - (uint64_t)%s))", v);
	if (op == OP_POS)
		return A(e, "(%s)", v);
	return A(e, "((int64_t)(%s%s))", op_c(op), v);
}

static const char *compare(struct emit *e, struct exp *x)
{
	const char *pre = "";
	struct exp *l = x->u.bin.left;

	if (l->type == TY_STRING) {
		const char *a = emit_exp(e, l), *b = emit_exp(e, x->u.bin.right);
		const char *t = A(e, "l->t%d", e->ntemps);
		sb_printf(&e->temps, "\tconst char *t%d;\n", e->ntemps++);
		return A(e, "({ %s = %s; (int64_t)(strcmp(%s, %s) %s 0); })", t, a,
			 t, b, op_c(x->u.bin.op));
	}
	{
		const char *a = long_operand(e, l, &pre);
		const char *b = long_operand(e, x->u.bin.right, &pre);
		return A(e, "({ %s(int64_t)(%s %s %s); })", pre, a, op_c(x->u.bin.op), b);
	}
}

static const char *concat(struct emit *e, struct exp *x)
{
	const char *t = emit_temp(e, TY_STRING);
	const char *a = emit_exp(e, x->u.bin.left);
	const char *b = emit_exp(e, x->u.bin.right);

	return A(e, "({ _stp_strlcpy(%s, %s, MAXSTRINGLEN); _stp_strlcat(%s, %s, MAXSTRINGLEN); (const char *)%s; })",
		 t, a, t, b, t);
}

static const char *call_into(struct emit *e, struct exp *x, const char *into);

/* Is X the call of a stable string function that elab/stable.c hoisted
 * into the local LHS holds its value in?  Its value can be written
 * straight into that local rather than through a temporary and a copy:
 * the local is assigned once, first in its scope, and read only after. */
static int stable_string_call(const struct exp *x, const struct exp *lhs)
{
	const struct func *f;

	return x->kind == EX_CALL && (f = x->u.call.func) && f->stable &&
	       f->type == TY_STRING && lhs->kind == EX_SYM && lhs->u.sym.sym &&
	       lhs->u.sym.sym->kind == SYM_LOCAL && lhs->u.sym.sym->name &&
	       !strncmp(lhs->u.sym.sym->name, "__stable_", 9);
}

static const char *assign_scalar(struct emit *e, struct exp *x,
				 const char *lv, enum type t)
{
	enum op op = x->u.bin.op, base = op_base(op);
	const char *r, *tmp;

	if (t == TY_STRING && op == OP_ASSIGN &&
	    stable_string_call(x->u.bin.right, x->u.bin.left))
		return call_into(e, x->u.bin.right, lv);
	if (t == TY_STRING) {
		r = emit_exp(e, x->u.bin.right);
		if (op == OP_CAT_ASSIGN)
			return A(e, "({ _stp_strlcat(%s, %s, MAXSTRINGLEN); (const char *)%s; })",
				 lv, r, lv);
		return A(e, "({ _stp_strassign(%s, %s); (const char *)%s; })", lv, r, lv);
	}
	r = emit_exp(e, x->u.bin.right);
	if (op == OP_ASSIGN)
		return A(e, "(%s = %s)", lv, r);
	/* the right side first: in `a += a++` it sees a incremented, as stap */
	tmp = emit_temp(e, TY_LONG);
	if (op_has(base, OPF_DIVIDES))
		return A(e, "({ %s = %s; %s%s = %s(%s, %s); })", tmp, r,
			 emit_div_check(e, tmp, op, x->loc), lv,
			 base == OP_DIV ? "_stp_div64" : "_stp_mod64", lv, tmp);
	if (base == OP_SHL)
		return A(e, "({ %s = %s; %s = (int64_t)((uint64_t)%s << (%s & 63)); })",
			 tmp, r, lv, lv, tmp);
	if (base == OP_SHR)
		return A(e, "({ %s = %s; %s = %s >> (%s & 63); })", tmp, r, lv, lv, tmp);
	if (op_has(base, OPF_WRAPS))
		return A(e, "({ %s = %s; %s = (int64_t)((uint64_t)%s %s (uint64_t)%s); })",
			 tmp, r, lv, lv, op_c(base), tmp);
	return A(e, "({ %s = %s; %s %s %s; })", tmp, r, lv, op_c(op), tmp);
}

/* A family's variable written through its functions (procfs's $value). */
static const char *assign_target(struct emit *e, struct exp *x,
				 const struct tvar *tv)
{
	enum op op = x->u.bin.op;
	const char *fn = NULL, *t;

	if (op == OP_ASSIGN)
		fn = tv->assign_fn;
	else if (op == OP_CAT_ASSIGN)
		fn = tv->append_fn;
	if (fn && x->type == TY_LONG && fn == tv->assign_fn) {	/* $verdict */
		t = A(e, "l->t%d", e->ntemps);
		sb_printf(&e->temps, "\tint64_t t%d;\n", e->ntemps++);
		return A(e, "({ %s = %s; %s(c, %s); %s; })", t,
			 emit_exp(e, x->u.bin.right), fn, t, t);
	}
	if (!fn && x->type == TY_LONG && op == OP_ASSIGN)	/* guru: memory */
		return emit_target_write(e, x->u.bin.left, tv,
					 emit_exp(e, x->u.bin.right));
	if (!fn || x->type != TY_STRING) {
		emit_unsupported(e, x->loc, "this assignment to a target variable");
		return "0";
	}
	t = A(e, "l->t%d", e->ntemps);
	sb_printf(&e->temps, "\tconst char *t%d;\n", e->ntemps++);
	return A(e, "({ %s = %s; %s(c, %s); %s; })", t, emit_exp(e, x->u.bin.right),
		 fn, t, t);
}

static const char *assign(struct emit *e, struct exp *x)
{
	struct exp *l = x->u.bin.left;

	if (x->u.bin.op == OP_APPEND)
		return emit_array_assign(e, x);
	if (l->kind == EX_SYM)
		return assign_scalar(e, x, emit_sym_ref(e, l->u.sym.sym), l->type);
	if (l->kind == EX_INDEX)
		return emit_array_assign(e, x);
	if (l->kind == EX_TARGET && l->u.target.resolved)	/* a family's variable */
		return assign_target(e, x, l->u.target.resolved);
	if (l->kind == EX_AUTOCAST && l->u.op.resolved)	/* guru (autocast.c) */
		return assign_target(e, x, l->u.op.resolved);
	emit_unsupported(e, l->loc, "assignment to this kind of expression");
	return "0";
}

static const char *incdec(struct emit *e, struct exp *x, int post)
{
	struct exp *o = x->u.un.operand;
	const char *lv;

	if (o->kind == EX_INDEX)
		return emit_array_incdec(e, x, post);
	if (o->kind != EX_SYM) {
		emit_unsupported(e, o->loc, "increment of this kind of expression");
		return "0";
	}
	lv = emit_sym_ref(e, o->u.sym.sym);
	if (post)
		return A(e, "({ int64_t _old = %s; %s = (int64_t)((uint64_t)_old %s 1); _old; })",
			 lv, lv, op_c(op_base(x->u.un.op)));
	return A(e, "(%s = (int64_t)((uint64_t)%s %s 1))", lv, lv,
		 op_c(op_base(x->u.un.op)));
}

static const char *ternary(struct emit *e, struct exp *x)
{
	return A(e, "(%s ? %s : %s)", emit_exp(e, x->u.tern.cond), emit_exp(e, x->u.tern.yes),
		 emit_exp(e, x->u.tern.no));
}

/* Call F with ARGS: arguments are evaluated into the caller's
 * temporaries first (a nested call would reuse the callee's frame), then
 * copied into the callee's frame.  A string function writes its value
 * into INTO (a string of MAXSTRINGLEN bytes), else into a temporary. */
static const char *call_into(struct emit *e, struct exp *x, const char *into)
{
	struct func *f = x->u.call.func;
	struct strbuf sb = {0};
	const char **vals, *r, *t = NULL;
	int i, n = x->u.call.args.n;
	int64_t b;

	if (!f)
		return "0";
	vals = arena_alloc(e->s->arena, sizeof(char *) * (size_t)(n + 1));
	sb_puts(&sb, "({ ");
	for (i = 0; i < n; i++) {
		struct exp *a = x->u.call.args.v[i];
		const char *v = emit_exp(e, a);
		if (a->kind == EX_NUM || a->kind == EX_STR) {
			vals[i] = v;
			continue;
		}
		vals[i] = emit_temp(e, a->type == TY_STRING ? TY_STRING : TY_LONG);
		if (a->type == TY_STRING)
			sb_printf(&sb, "_stp_strlcpy(%s, %s, MAXSTRINGLEN); ", vals[i], v);
		else
			sb_printf(&sb, "%s = %s; ", vals[i], v);
	}
	sb_printf(&sb, "c->last_stmt = %s; ",
		  emit_where(e, A(e, "identifier '%s'", f->name), x->loc));
	/* A string function writes its value straight into the caller's
	 * temporary (no copy out of its frame); set after the arguments,
	 * whose own calls use the same frame. */
	if (f->type == TY_STRING) {
		t = into ? into : emit_temp(e, TY_STRING);
		sb_printf(&sb, "_stp_callee_frame(c, struct frame_f%d)->__retvalue = %s; ",
			  f->info->index, t);
	}
	sb_printf(&sb, "%s(c", emit_call_entry(e, f));
	for (i = 0; i < n; i++)
		sb_printf(&sb, ", %s", vals[i]);
	sb_printf(&sb, "); %s ", emit_check(e));
	/* a body that counts as it runs pays a loop-free callee's bound */
	b = actions_func_bound(f);
	if (e->counting && b >= 0) {
		sb_printf(&sb, "if (_stp_check_actions(c, %lld, %s)) goto %s; ",
			  (long long)(e->pending + b),
			  emit_where(e, A(e, "identifier '%s'", f->name), x->loc),
			  e->err_label);
		e->pending = 0;
	}
	if (f->type == TY_STRING) {
		sb_printf(&sb, "(const char *)%s; })", t);
	} else if (f->type == TY_LONG) {
		sb_printf(&sb, "_stp_callee_frame(c, struct frame_f%d)->__retvalue; })",
			  f->info->index);
	} else {
		sb_puts(&sb, "(int64_t)0; })");
	}
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&sb);
	return r;
}

static const char *call(struct emit *e, struct exp *x)
{
	return call_into(e, x, NULL);
}

static const char *sym_value(struct emit *e, struct exp *x)
{
	const struct sym *sym = x->u.sym.sym;

	if (sym->type == TY_STATS) {
		emit_unsupported(e, x->loc, "an aggregate used as a value");
		return "0";
	}
	if (sym->type == TY_STRING)
		return A(e, "((const char *)%s)", emit_sym_ref(e, sym));
	return emit_sym_ref(e, sym);
}

const char *emit_exp(struct emit *e, struct exp *x)
{
	switch (x->kind) {
	case EX_NUM:
		return num_lit(e, x->u.num);
	case EX_STR:
		return emit_cstr(e, x->u.str.s, x->u.str.len);
	case EX_EMBEDDED:
		if (x->type == TY_STRING)
			return A(e, "((const char *)(%s))", x->u.str.s);
		return A(e, "((int64_t)(%s))", x->u.str.s);
	case EX_BINARY:
		return binary(e, x);
	case EX_UNARY:
		return unary(e, x);
	case EX_PRE_INC:
		return incdec(e, x, 0);
	case EX_POST_INC:
		return incdec(e, x, 1);
	case EX_LOG_OR:
		return A(e, "((int64_t)(%s || %s))", emit_exp(e, x->u.bin.left),
			 emit_exp(e, x->u.bin.right));
	case EX_LOG_AND:
		return A(e, "((int64_t)(%s && %s))", emit_exp(e, x->u.bin.left),
			 emit_exp(e, x->u.bin.right));
	case EX_CMP:
		return compare(e, x);
	case EX_CONCAT:
		return concat(e, x);
	case EX_TERNARY:
		return ternary(e, x);
	case EX_ASSIGN:
		return assign(e, x);
	case EX_SYM:
		return sym_value(e, x);
	case EX_CALL:
		return call(e, x);
	case EX_PRINT:
		return emit_print(e, x);
	case EX_INDEX:
		return emit_array_get(e, x);
	case EX_IN:
		return emit_array_in(e, x);
	case EX_STAT:
		return emit_stat_op(e, x);
	case EX_REGEX:
		return emit_regex(e, x);
	case EX_DEFINED:
		return "((int64_t)1)";
	case EX_TARGET: case EX_TARGET_LIST: case EX_CAST: case EX_ATVAR:
	case EX_AUTOCAST:
		return emit_target(e, x);
	case EX_PERF:	/* counters exist only in process probes (stap's words) */
		diag_error(&e->s->diags, x->loc, "translate.perf-context",
			   "cannot translate general @perf expression");
		return "0";
	default:
		emit_unsupported(e, x->loc, "this expression");
		return "0";
	}
}
