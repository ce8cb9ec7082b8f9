/* test_dw_index.c - the DWARF function index (translator/dwarf/dw_index.c)
 * on this test's own executable (built with -g): records of an out-of-line
 * function and of a static function's inline instances, their order, the
 * index saved and mapped again, and stap's file-pattern matching.
 */
#include <stdlib.h>
#include <unistd.h>

#include "dwarf/dw_index.h"
#include "unit.h"

volatile int sink;

static inline __attribute__((always_inline)) void dw_unit_inlined(int x)
{
	sink += x;
}

void dw_unit_outofline(int x);

__attribute__((noinline)) void dw_unit_outofline(int x)
{
	dw_unit_inlined(x);
	dw_unit_inlined(x + 1);
}

static void check_records(struct dw_index *ix)
{
	size_t first, n, i;
	const struct dw_func *f;
	int inl = 0;

	n = dw_index_lookup(ix, "dw_unit_outofline", &first);
	CHECK_INT(n, 1);
	f = dw_index_at(ix, first);
	CHECK(!(f->flags & DW_FN_INLINE));
	CHECK(f->flags & DW_FN_EXTERNAL);
	CHECK(f->flags & DW_FN_EXPORTED);
	CHECK_INT(f->pc, (uintptr_t)dw_unit_outofline - 0);	/* -no-pie */
	CHECK(strstr(dw_index_str(ix, f->file), "test_dw_index.c") != NULL);
	CHECK_INT(f->line, 21);
	n = dw_index_lookup(ix, "dw_unit_inlined", &first);
	for (i = first; i < first + n; i++) {
		f = dw_index_at(ix, i);
		inl += (f->flags & DW_FN_INLINE) != 0;
		CHECK(f->flags & DW_FN_DECL_INLINE);
		CHECK_INT(f->line, 14);
		if (i > first)	/* DWARF order within a name */
			CHECK(f->die_off > dw_index_at(ix, i - 1)->die_off);
	}
	CHECK(inl >= 2);
	CHECK_INT(dw_index_lookup(ix, "no_such_function_here", &first), 0);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/test_dw_index.XXXXXX", err[512], cmd[600];
	struct dw_index *ix, *again;

	(void)argc;
	dw_unit_outofline(1);
	CHECK(dw_file_matches("fs/read_write.c", "fs/read_write.c"));
	CHECK(dw_file_matches("read_write.c", "fs/read_write.c"));
	CHECK(dw_file_matches("fs/*.c", "fs/read_write.c"));
	CHECK(dw_file_matches("*.c", "fs/ext4/inode.c"));
	CHECK(!dw_file_matches("s/read_write.c", "fs/read_write.c"));
	CHECK(!dw_file_matches("fs/*.h", "fs/read_write.c"));
	if (!mkdtemp(dir))
		return 1;
	ix = dw_index_open(argv[0], dir, NULL, err, sizeof err);
	if (!ix) {
		printf("cannot index %s: %s\n", argv[0], err);
		return 1;
	}
	CHECK(strlen(dw_index_build_id(ix)) == 40);
	check_records(ix);
	again = dw_index_open(argv[0], dir, NULL, err, sizeof err); /* mapped */
	CHECK(again != NULL);
	if (again) {
		CHECK_INT(dw_index_count(again), dw_index_count(ix));
		check_records(again);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd))
		unit_failures++;
	return unit_failures ? 1 : 0;
}
