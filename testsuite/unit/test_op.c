/* test_op.c - the operator table (translator/ast/op.c): every enumerator
 * has its row (a gap in the designated initializers would leave a row of
 * zeros), each compound assignment is spelled as its binary operator and
 * '=', and the folding facts agree with the folding arithmetic.
 */
#include "ast/op.h"
#include "unit.h"

static const int64_t samples[] = {
	0, 1, -1, 2, 7, -16, 63, 64, INT64_MAX, INT64_MIN,
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static void check_rows(void)
{
	int i;

	for (i = 0; i < OP_COUNT; i++) {
		const struct op_info *o = &op_table[i];

		CHECK(o->name && *o->name);
		if (!(o->flags & OPF_COMPOUND))
			continue;
		CHECK(!op_has(o->base, OPF_COMPOUND));
		if (i == OP_INC || i == OP_DEC)
			continue;
		CHECK_INT(op_assign_named(o->name), i);
		{
			char want[8];

			snprintf(want, sizeof want, "%s=", op_name(o->base));
			CHECK_STR(o->name, want);
		}
	}
	CHECK_STR(op_c(op_base(OP_INC)), "+");
	CHECK_STR(op_c(op_base(OP_DEC)), "-");
}

/* x OP ident is x, absorb OP x is absorbed: for every sample x that
 * op_fold_binary folds at all. */
static void check_facts(enum op op)
{
	const struct op_info *o = &op_table[op];
	int64_t v;
	size_t i;

	for (i = 0; i < NSAMPLES; i++) {
		int64_t x = samples[i];

		if ((o->flags & OPF_IDENT_R) && op_fold_binary(op, x, o->ident, &v))
			CHECK_INT(v, x);
		if ((o->flags & OPF_IDENT_L) && op_fold_binary(op, o->ident, x, &v))
			CHECK_INT(v, x);
		if ((o->flags & OPF_ABSORB_R) && op_fold_binary(op, x, o->absorb, &v))
			CHECK_INT(v, o->absorbed);
		if ((o->flags & OPF_ABSORB_L) && op_fold_binary(op, o->absorb, x, &v))
			CHECK_INT(v, o->absorbed);
	}
}

static void check_folding(void)
{
	int64_t v;
	int i;

	for (i = 0; i < OP_COUNT; i++)
		check_facts((enum op)i);
	CHECK(!op_fold_binary(OP_DIV, 1, 0, &v));
	CHECK(!op_fold_binary(OP_MOD, INT64_MIN, -1, &v));
	/* stap folds a count outside 0..63 to the shifted value itself */
	CHECK(op_fold_binary(OP_SHL, 120, -2, &v));
	CHECK_INT(v, 120);
	CHECK(op_fold_binary(OP_SHR, -8, 70, &v));
	CHECK_INT(v, -8);
	CHECK(!op_fold_binary(OP_USHR, -5, 2, &v));
	CHECK(op_fold_binary(OP_ADD, INT64_MAX, 1, &v));
	CHECK_INT(v, INT64_MIN);
	CHECK(op_fold_unary(OP_NEG, INT64_MIN, &v));
	CHECK_INT(v, INT64_MIN);
	CHECK(!op_fold_unary(OP_ADDR, 1, &v));
	CHECK_INT(op_fold_cmp(OP_LE, -1), 1);
	CHECK_INT(op_fold_cmp(OP_LE, 0), 1);
	CHECK_INT(op_fold_cmp(OP_LE, 1), 0);
	CHECK_INT(op_fold_cmp(OP_NE, 0), 0);
	CHECK_INT(op_fold_cmp(OP_NE, -3), 1);
}

int main(void)
{
	check_rows();
	check_folding();
	return unit_failures != 0;
}
