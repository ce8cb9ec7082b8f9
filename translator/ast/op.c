/* op.c - the table of operators (op.h), and their values on literals.
 *
 * Every pass that needs to know something about an operator reads it here
 * rather than comparing spellings.  The folding functions compute what the
 * module's C would (emit/exp.c), with stap's one exception: a literal
 * shifted by a literal count outside 0..63 folds to itself, where the
 * module's shift masks the count.
 */
#include <string.h>

#include "ast/op.h"

#define BOTH(side) (side##_L | side##_R)

const struct op_info op_table[] = {
	[OP_ADD] = { "+", "+", .flags = OPF_WRAPS | BOTH(OPF_IDENT) },
	[OP_SUB] = { "-", "-", .flags = OPF_WRAPS | OPF_IDENT_R },
	[OP_MUL] = { "*", "*", .flags = OPF_WRAPS | BOTH(OPF_IDENT) |
				      BOTH(OPF_ABSORB),
		     .ident = 1, .absorb = 0, .absorbed = 0 },
	[OP_DIV] = { "/", "/", .flags = OPF_DIVIDES | OPF_IDENT_R,
		     .ident = 1 },
	[OP_MOD] = { "%", "%", .flags = OPF_DIVIDES | OPF_ABSORB_R,
		     .absorb = 1, .absorbed = 0 },
	[OP_SHL] = { "<<", "<<", .flags = OPF_IDENT_R | OPF_ABSORB_L },
	[OP_SHR] = { ">>", ">>", .flags = OPF_IDENT_R | OPF_ABSORB_L },
	[OP_USHR] = { ">>>", NULL },
	[OP_AND] = { "&", "&", .flags = BOTH(OPF_IDENT) | BOTH(OPF_ABSORB),
		     .ident = -1, .absorb = 0, .absorbed = 0 },
	[OP_OR] = { "|", "|", .flags = BOTH(OPF_IDENT) | BOTH(OPF_ABSORB),
		    .ident = 0, .absorb = -1, .absorbed = -1 },
	[OP_XOR] = { "^", "^", .flags = BOTH(OPF_IDENT) },

	[OP_LOG_AND] = { "&&", "&&" },
	[OP_LOG_OR] = { "||", "||" },
	[OP_CAT] = { ".", NULL },

	[OP_LT] = { "<", "<", .flags = OPF_IF_LT },
	[OP_GT] = { ">", ">", .flags = OPF_IF_GT },
	[OP_LE] = { "<=", "<=", .flags = OPF_IF_LT | OPF_IF_EQ },
	[OP_GE] = { ">=", ">=", .flags = OPF_IF_GT | OPF_IF_EQ },
	[OP_EQ] = { "==", "==", .flags = OPF_IF_EQ },
	[OP_NE] = { "!=", "!=", .flags = OPF_IF_LT | OPF_IF_GT },
	[OP_MATCH] = { "=~", NULL },
	[OP_NOMATCH] = { "!~", NULL },

	[OP_NEG] = { "-", "-" },
	[OP_POS] = { "+", "+" },
	[OP_NOT] = { "!", "!" },
	[OP_COMPL] = { "~", "~" },
	[OP_ADDR] = { "&", "&" },

	[OP_INC] = { "++", "++", OP_ADD, OPF_COMPOUND },
	[OP_DEC] = { "--", "--", OP_SUB, OPF_COMPOUND },

	[OP_ASSIGN] = { "=", "=" },
	[OP_ADD_ASSIGN] = { "+=", "+=", OP_ADD, OPF_COMPOUND },
	[OP_SUB_ASSIGN] = { "-=", "-=", OP_SUB, OPF_COMPOUND },
	[OP_MUL_ASSIGN] = { "*=", "*=", OP_MUL, OPF_COMPOUND },
	[OP_DIV_ASSIGN] = { "/=", "/=", OP_DIV, OPF_COMPOUND },
	[OP_MOD_ASSIGN] = { "%=", "%=", OP_MOD, OPF_COMPOUND },
	[OP_SHL_ASSIGN] = { "<<=", "<<=", OP_SHL, OPF_COMPOUND },
	[OP_SHR_ASSIGN] = { ">>=", ">>=", OP_SHR, OPF_COMPOUND },
	[OP_AND_ASSIGN] = { "&=", "&=", OP_AND, OPF_COMPOUND },
	[OP_OR_ASSIGN] = { "|=", "|=", OP_OR, OPF_COMPOUND },
	[OP_XOR_ASSIGN] = { "^=", "^=", OP_XOR, OPF_COMPOUND },
	[OP_CAT_ASSIGN] = { ".=", NULL, OP_CAT, OPF_COMPOUND },
	[OP_APPEND] = { "<<<", NULL },
};

_Static_assert(sizeof op_table / sizeof op_table[0] == OP_COUNT,
	       "op_table: one row per enum op");

enum op op_assign_named(const char *name)
{
	int i;

	for (i = OP_ASSIGN; i < OP_COUNT; i++)
		if (!strcmp(op_table[i].name, name))
			return (enum op)i;
	return OP_ASSIGN;
}

int op_fold_unary(enum op op, int64_t x, int64_t *v)
{
	switch (op) {
	case OP_NEG: *v = (int64_t)(0 - (uint64_t)x); return 1;
	case OP_POS: *v = x; return 1;
	case OP_NOT: *v = !x; return 1;
	case OP_COMPL: *v = ~x; return 1;
	default: return 0;
	}
}

int op_fold_binary(enum op op, int64_t x, int64_t y, int64_t *v)
{
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;

	switch (op) {
	case OP_ADD: *v = (int64_t)(ux + uy); return 1;
	case OP_SUB: *v = (int64_t)(ux - uy); return 1;
	case OP_MUL: *v = (int64_t)(ux * uy); return 1;
	case OP_AND: *v = x & y; return 1;
	case OP_OR: *v = x | y; return 1;
	case OP_XOR: *v = x ^ y; return 1;
	case OP_DIV: case OP_MOD:
		if (y == 0 || (x == INT64_MIN && y == -1))
			return 0;
		*v = op == OP_DIV ? x / y : x % y;
		return 1;
	case OP_SHL: case OP_SHR:
		if (y < 0 || y > 63)
			*v = x;
		else
			*v = op == OP_SHL ? (int64_t)(ux << y) : x >> y;
		return 1;
	default:
		return 0;
	}
}

int op_fold_cmp(enum op op, int c)
{
	return op_has(op, c < 0 ? OPF_IF_LT : c > 0 ? OPF_IF_GT : OPF_IF_EQ);
}
