/* op.h - the operators of the language: one enumerator each, and one table
 * (op.c) of what the passes need to know about them.
 *
 * The grammar maps tokens to these and the syntax tree carries them
 * (ast.h); dumps and diagnostics print the script spelling, pass 3 writes
 * the C spelling, and constant folding (opt.c) reads the algebraic facts.
 * The aggregate extractors (@count, @sum, …) are not operators here.
 */
#ifndef OP_H
#define OP_H

#include <stdint.h>

enum op {
	/* EX_BINARY */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
	OP_SHL, OP_SHR, OP_USHR,
	OP_AND, OP_OR, OP_XOR,
	/* EX_LOG_AND, EX_LOG_OR, EX_CONCAT */
	OP_LOG_AND, OP_LOG_OR, OP_CAT,
	/* EX_CMP, EX_REGEX */
	OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE,
	OP_MATCH, OP_NOMATCH,
	/* EX_UNARY: - + ! ~, and & (address of a target) */
	OP_NEG, OP_POS, OP_NOT, OP_COMPL, OP_ADDR,
	/* EX_PRE_INC, EX_POST_INC */
	OP_INC, OP_DEC,
	/* EX_ASSIGN */
	OP_ASSIGN,
	OP_ADD_ASSIGN, OP_SUB_ASSIGN, OP_MUL_ASSIGN, OP_DIV_ASSIGN,
	OP_MOD_ASSIGN, OP_SHL_ASSIGN, OP_SHR_ASSIGN,
	OP_AND_ASSIGN, OP_OR_ASSIGN, OP_XOR_ASSIGN,
	OP_CAT_ASSIGN,
	OP_APPEND,	/* <<<: add a value to an aggregate */
	OP_COUNT
};

/* What an operator is (struct op_info's flags). */
enum {
	OPF_COMPOUND = 1 << 0,	/* += … .= ++ --: applies .base to the
				   variable's value (++ and -- with 1) */
	OPF_DIVIDES = 1 << 1,	/* / %: a zero divisor fails at run time */
	OPF_WRAPS = 1 << 2,	/* + - *: computed in uint64_t, so overflow
				   wraps (in int64_t it is undefined) */
	OPF_IDENT_L = 1 << 3,	/* ident OP x is x */
	OPF_IDENT_R = 1 << 4,	/* x OP ident is x */
	OPF_ABSORB_L = 1 << 5,	/* absorb OP x is absorbed, whatever x */
	OPF_ABSORB_R = 1 << 6,	/* x OP absorb is absorbed, whatever x */
	OPF_IF_LT = 1 << 7,	/* comparisons: true when the left side */
	OPF_IF_EQ = 1 << 8,	/* is less than, equal to or greater */
	OPF_IF_GT = 1 << 9,	/* than the right side */
};

struct op_info {
	const char *name;	/* the script's spelling: dumps, messages */
	const char *c;		/* the C operator, or NULL: there is none
				   (. >>> =~ !~ .= <<<) */
	enum op base;		/* OPF_COMPOUND: the binary operator */
	unsigned flags;		/* OPF_* */
	int64_t ident;		/* OPF_IDENT_*: the identity element */
	int64_t absorb;		/* OPF_ABSORB_*: the deciding operand … */
	int64_t absorbed;	/* … and the value it decides */
};

/* One row per enumerator, indexed by it (op.c checks the count). */
extern const struct op_info op_table[];

static inline const char *op_name(enum op op)
{
	return op_table[op].name;
}

static inline const char *op_c(enum op op)
{
	return op_table[op].c;
}

static inline enum op op_base(enum op op)
{
	return op_table[op].base;
}

static inline int op_has(enum op op, unsigned flags)
{
	return (op_table[op].flags & flags) != 0;
}

/* The compound assignment spelled NAME (the lexer's ASSIGNOP tokens). */
enum op op_assign_named(const char *name);

/* The value of OP on literal operands, as the module computes it
 * (wrapping): 1 and the value in *V, or 0 when it is left to run time
 * (a zero divisor, a shift count outside 0..63, no literal value). */
int op_fold_unary(enum op op, int64_t x, int64_t *v);
int op_fold_binary(enum op op, int64_t x, int64_t y, int64_t *v);

/* Comparison OP given the three-way comparison C (<0, 0, >0): 0 or 1. */
int op_fold_cmp(enum op op, int c);

#endif
