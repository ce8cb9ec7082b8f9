/* test_dwarf.c - DWARF types, locations and scopes (translator/dwarf/) on
 * the testbed's debug vmlinux (6.1): vfs_read's parameters with the types
 * stap 4.8's -L prints for them, their register locations at the entry
 * pc, a stack local through the frame base and the CFA, a local not yet
 * live there, a computed value, a static's relocated address, an
 * operation not translated, a static local's array type, struct members
 * and bitfields.
 * Without the testbed's vmlinux there is nothing to test: it passes.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <unistd.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_loc.h"
#include "dwarf/dw_types.h"
#include "dwarf/dw_vars.h"
#include "unit.h"

static struct dw_file *f;

/* The out-of-line subprogram NAME of the unit CU: 0 and its offset and
 * entry pc, or -1. */
static int find_func(const char *cu_name, const char *name, uint64_t *off,
		     uint64_t *pc)
{
	Dwarf *dbg = dw_file_dwarf(f, NULL);
	Dwarf_Off o = 0, next;
	size_t hsize;
	Dwarf_Die cu, d;
	Dwarf_Addr lo;

	while (dwarf_nextcu(dbg, o, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg, o + hsize, &cu) && dwarf_diename(&cu) &&
		    !strcmp(dwarf_diename(&cu), cu_name) && dwarf_child(&cu, &d) == 0) {
			do {
				if (dwarf_tag(&d) == DW_TAG_subprogram &&
				    dwarf_diename(&d) && !strcmp(dwarf_diename(&d), name) &&
				    dwarf_lowpc(&d, &lo) == 0) {
					*off = dwarf_dieoffset(&d);
					*pc = lo;
					return 0;
				}
			} while (dwarf_siblingof(&d, &d) == 0);
		}
		o = next;
	}
	return -1;
}

/* " $a:T $b:U" for the variables with a value at PC, as -L lists them. */
static const char *listing(uint64_t func, uint64_t pc)
{
	static char out[1024];
	struct dw_var *v;
	char buf[256];
	int n = dw_vars_at(f, func, pc, 0, &v), i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!dw_loc_covers(f, v[i].die_off, pc))
			continue;
		snprintf(out + strlen(out), sizeof out - strlen(out), " $%s:%s",
			 v[i].name, ctype_name(dw_type_of(f, v[i].die_off), buf, sizeof buf));
	}
	free(v);
	return out;
}

static const char *loc_of(uint64_t func, uint64_t pc, const char *name,
			  enum dw_loc_status *st, struct dw_loc *l)
{
	struct dw_var v;

	if (dw_var_find(f, func, pc, 1, name, &v))
		return "(none)";
	*st = dw_loc_var(f, v.die_off, dw_frame_func(f, func), pc, pc + 5, 0, 0, l);
	return l->c;
}

static void test_vfs_read(void)
{
	uint64_t func, pc;
	enum dw_loc_status st = DW_LOC_UNSUPPORTED;
	struct dw_loc l;

	if (find_func("fs/read_write.c", "vfs_read", &func, &pc)) {
		CHECK(!"vfs_read found");
		return;
	}
	CHECK_STR(listing(func, pc),
		  " $file:struct file* $buf:char* $count:size_t $pos:loff_t*");
	CHECK_STR(loc_of(func, pc, "count", &st, &l), "_stp_dwarf_reg(c, 1)");
	CHECK_INT(st, DW_LOC_OK);
	CHECK_INT(l.kind, DW_LOC_VALUE);
	CHECK_STR(loc_of(func, pc, "file", &st, &l), "_stp_dwarf_reg(c, 5)");
	CHECK_STR(loc_of(func, pc, "pos", &st, &l), "_stp_dwarf_reg(c, 2)");
	loc_of(func, pc, "ret", &st, &l);
	CHECK_INT(st, DW_LOC_NOT_AT_PC);
	CHECK_STR(dw_func_name(f, func), "vfs_read");
	CHECK_STR(dw_cu_name(f, func), "fs/read_write.c");
}

static void test_frame_base(void)
{
	uint64_t func, pc;
	enum dw_loc_status st = DW_LOC_UNSUPPORTED;
	struct dw_loc l;
	char decl[128];

	if (find_func("fs/open.c", "do_sys_openat2", &func, &pc)) {
		CHECK(!"do_sys_openat2 found");
		return;
	}
	CHECK_STR(listing(func, pc),
		  " $dfd:int $filename:char const* $how:struct open_how* $op:struct open_flags");
	loc_of(func, pc, "op", &st, &l);
	CHECK_INT(st, DW_LOC_OK);
	CHECK_INT(l.kind, DW_LOC_ADDR);
	CHECK(strstr(l.c, "_stp_dwarf_reg(c, 7)") != NULL);	/* from rsp */
	dw_func_decl_at(f, func, decl, sizeof decl);
	CHECK_STR(decl, "fs/open.c:1304:13");
}

static void test_ksys_read(void)
{
	uint64_t func, pc;
	enum dw_loc_status st = DW_LOC_OK;
	struct dw_loc l;
	char ranges[1024];
	struct dw_var v;

	if (find_func("fs/read_write.c", "ksys_read", &func, &pc)) {
		CHECK(!"ksys_read found");
		return;
	}
	CHECK_STR(listing(func, pc), " $fd:unsigned int $buf:char* $count:size_t");
	loc_of(func, pc, "ret", &st, &l);
	CHECK_INT(st, DW_LOC_NOT_AT_PC);
	CHECK_INT(l.pc, pc + 5);	/* the retry pc, as stap reports it */
	CHECK(!dw_var_find(f, func, pc, 1, "ret", &v));
	dw_loc_ranges(f, v.die_off, ranges, sizeof ranges);
	CHECK_STR(ranges, "[0xffffffff8134d7f1,0xffffffff8134d82e], [0xffffffff8134d82e,0xffffffff8134d837], [0xffffffff8134d837,0xffffffff8134d845], [0xffffffff8134d867,0xffffffff8134d87a], [0xffffffff8134d87a,0xffffffff8134d87f], [0xffffffff8134d87f,0xffffffff8134d896], [0xffffffff8134d896,0xffffffff8134d89f]");
}

/* A computed value (DW_OP_stack_value), a constant array (__func__), a
 * global's address (DW_OP_addr, relocated by the anchor) and an
 * operation not translated. */
static void test_values(void)
{
	uint64_t func, pc;
	enum dw_loc_status st = DW_LOC_UNSUPPORTED;
	struct dw_loc l;
	struct dw_var v;

	if (!find_func("kernel/fork.c", "__delayed_free_task", &func, &pc)) {
		CHECK_STR(loc_of(func, pc, "tsk", &st, &l),
			  "(_stp_dwarf_reg(c, 5) + (uint64_t)-4968LL)");
		CHECK_INT(l.kind, DW_LOC_VALUE);
		CHECK_INT(l.reg, -1);
	} else {
		CHECK(!"__delayed_free_task found");
	}
	if (!find_func("kernel/rcu/tree.c", "call_rcu", &func, &pc) &&
	    !dw_var_find(f, func, pc, 1, "__func__", &v)) {	/* a const array */
		st = dw_loc_var(f, v.die_off, func, pc, 0, 0, 0, &l);
		CHECK_INT(st, DW_LOC_OK);
		CHECK_INT(l.kind, DW_LOC_ADDR);
		CHECK_STR(l.c, "(uint64_t)(unsigned long)\"\\143\\141\\154\\154\\137\\162\\143\\165\\000\"");
	} else {
		CHECK(!"call_rcu's __func__ found");
	}
	{
		uint64_t var = 0;	/* a global's relocated address */
		CHECK(!dw_global_var(f, "init_task", "init/init_task.c", 0, &var));
		st = dw_loc_var(f, var, 0, 0, 0, 0xffffffff81000000ULL, 0, &l);
		CHECK_INT(st, DW_LOC_OK);
		CHECK_INT(l.kind, DW_LOC_ADDR);
		CHECK(!strncmp(l.c, "_stp_kaddr_at(0xffffffff", 24) &&
		      strstr(l.c, ", 0xffffffff81000000ULL)"));
	}
	if (!find_func("arch/x86/kernel/tsc.c", "convert_art_ns_to_tsc", &func, &pc)) {
		loc_of(func, pc, "art_ns", &st, &l);
		CHECK_INT(st, DW_LOC_UNSUPPORTED);
		CHECK_STR(l.msg, "unhandled DW_OP operation in DWARF expression [1] at 2 (168: 43, 0)");
	} else {
		CHECK(!"convert_art_ns_to_tsc found");
	}
}

static void test_types(void)
{
	struct ctype *file = dw_type_find(f, "file", CT_STRUCT), *t;
	const struct ctype_member *m;
	char buf[256];
	uint32_t off;
	uint64_t func, pc;

	CHECK(file != NULL);
	if (!file)
		return;
	m = ctype_member(file, "f_path", &off);
	CHECK(m && !strcmp(ctype_name(m->type, buf, sizeof buf), "struct path"));
	m = ctype_member(file, "f_pos", &off);
	CHECK(m && !strcmp(ctype_name(m->type, buf, sizeof buf), "loff_t"));
	t = dw_type_find(f, "task_struct", CT_STRUCT);
	m = t ? ctype_member(t, "comm", &off) : NULL;
	CHECK(m && ctype_strip(m->type)->kind == CT_ARRAY &&
	      ctype_strip(m->type)->nelems == 16);
	CHECK(m && !strcmp(ctype_name(m->type, buf, sizeof buf), "char[]"));
	m = t ? ctype_member(t, "sched_reset_on_fork", &off) : NULL;
	CHECK(m && m->bit_size == 1);
	t = dw_type_find(f, "qstr", CT_STRUCT);	/* through an anonymous union */
	m = t ? ctype_member(t, "len", &off) : NULL;
	CHECK(m && off == 32 && m->bit_size == 0);	/* after u32 hash */
	m = t ? ctype_member(t, "name", &off) : NULL;
	CHECK(m && off == 64 &&
	      !strcmp(ctype_name(m->type, buf, sizeof buf), "unsigned char const*"));
	if (!find_func("kernel/rcu/tree.c", "call_rcu", &func, &pc))
		CHECK_STR(listing(func, pc),
			  " $head:struct callback_head* $func:rcu_callback_t $__func__:char const[] const");
	else
		CHECK(!"call_rcu found");
}

/* A user-space program (tools/build-uprog's uvars-O0): a static address
 * moves with the mapping, and -O0 code is probed past the prologue. */
static void test_user(void)
{
	const char *path = "/var/tmp/ctap-uprobes/uvars-O0";
	struct dw_file *u;
	struct dw_loc l;
	uint64_t var = 0, bias = 0;
	char err[512];
	Dwarf_Die cu, die;
	Dwarf *dbg;
	Dwarf_Addr low;

	if (access(path, R_OK) || !(u = dw_file_open(path, err, sizeof err)))
		return;
	CHECK(!dw_global_var(u, "total", "uvars.c", 0, &var));
	CHECK_INT(dw_loc_var(u, var, 0, 0, 0, 0, 1, &l), DW_LOC_OK);
	CHECK(!strncmp(l.c, "_stp_uaddr(c, 0x", 16));
	dbg = dw_file_dwarf(u, &bias);
	for (Dwarf_Off off = 0, next; dbg; off = next) {	/* walk() */
		size_t hs;
		if (dwarf_nextcu(dbg, off, &next, &hs, NULL, NULL, NULL) ||
		    !dwarf_offdie(dbg, off + hs, &cu))
			break;
		if (dwarf_child(&cu, &die))
			continue;
		do {
			if (dwarf_tag(&die) == DW_TAG_subprogram &&
			    !strcmp(dwarf_diename(&die) ?: "", "walk") &&
			    !dwarf_lowpc(&die, &low)) {
				/* push %rbp; mov %rsp,%rbp; three stores */
				CHECK_INT(dw_prologue_end(u, dwarf_dieoffset(&die),
							  low + bias) - (low + bias), 0xf);
				return;
			}
		} while (!dwarf_siblingof(&die, &die));
	}
	CHECK(!"walk found in uvars-O0");
}

int main(void)
{
	const char *path = "/var/cache/ctap/testbed/vmlinux";
	char err[512];

	if (access(path, R_OK)) {
		printf("test_dwarf: no %s, nothing to test\n", path);
		return 0;
	}
	f = dw_file_open(path, err, sizeof err);
	if (!f) {
		printf("%s\n", err);
		return 1;
	}
	test_vfs_read();
	test_frame_base();
	test_ksys_read();
	test_values();
	test_types();
	test_user();
	return unit_failures ? 1 : 0;
}
