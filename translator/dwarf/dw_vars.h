/* dw_vars.h - the variables a probe site sees, from its function's DWARF.
 *
 * The scopes of a site are its function (a subprogram or an inline
 * instance, whose parameters and locals take their names and types from
 * their abstract origins) and the lexical blocks in it that hold the pc.
 * Listing and lookup follow stap 4.8: the scopes holding pc from the
 * innermost outwards (nested blocks only at statements), parameters and
 * locals in DIE order within one; a name is looked up in that order.
 */
#ifndef DW_VARS_H
#define DW_VARS_H

#include <stdint.h>

struct dw_file;

struct dw_var {
	const char *name;	/* from the DIE or its abstract origin */
	uint64_t die_off;	/* the concrete DIE (its location) */
	int is_param;		/* DW_TAG_formal_parameter */
	int depth;		/* 0: the function's own scope; deeper
				   blocks count up */
};

/* The variables of the function FUNC_OFF, with NESTED those of the
 * lexical blocks holding PC (a file address) too, into a calloc'd array
 * *OUT, innermost scope first; returns their number (-1: no such DIE).  stap lists a function
 * probe's variables from the function's own scope only, a statement's
 * from the blocks holding it as well. */
int dw_vars_at(struct dw_file *f, uint64_t func_off, uint64_t pc,
	       int nested, struct dw_var **out);

/* The variable NAME visible at PC in FUNC_OFF (with NESTED in the
 * lexical blocks holding PC too), innermost scope first: 0 and *OUT, or
 * -1. */
int dw_var_find(struct dw_file *f, uint64_t func_off, uint64_t pc,
		int nested, const char *name, struct dw_var *out);

/* The out-of-line subprogram holding FUNC_OFF (itself when it is one),
 * whose frame base fbreg uses; 0 if none. */
uint64_t dw_frame_func(struct dw_file *f, uint64_t func_off);

/* The DIE offset of FUNC_OFF's return type (its DW_AT_type, through its
 * abstract origin), 0 for void. */
uint64_t dw_return_type(struct dw_file *f, uint64_t func_off);

/* FUNC_OFF's name and its unit's name, as stap's errors show them. */
const char *dw_func_name(struct dw_file *f, uint64_t func_off);
const char *dw_cu_name(struct dw_file *f, uint64_t func_off);

/* "fs/read_write.c:603:1"-like declaration of FUNC_OFF: its decl file,
 * line and column into BUF. */
void dw_func_decl_at(struct dw_file *f, uint64_t func_off, char *buf,
		     int len);

/* The global variable NAME: in the first unit whose name matches the
 * pattern CU (with stap's implicit leading "*\/"), or with CU NULL in
 * the unit at CU_OFF (CU_OFF 0 too: in the first unit that has it); a
 * declaration there is resolved to its definition in another unit, and
 * stays when none has one (the linker's: dw_loc_var takes its symbol).
 * 0 and *VAR_OFF, or -1. */
int dw_global_var(struct dw_file *f, const char *name, const char *cu,
		  uint64_t cu_off, uint64_t *var_off);

/* "FILE:LINE:COL" of the line-table row holding PC (in FUNC_OFF's unit)
 * into BUF, as stap names where a probe is; "" if none. */
void dw_pc_line(struct dw_file *f, uint64_t func_off, uint64_t pc, char *buf,
		int len);

/* Where a probe on FUNC_OFF's entry PC (a file address) goes in user
 * space, as stap places it: in a unit compiled without optimization, past
 * the prologue, at the function's next line-table row (the parameters are
 * in their stack slots by then); else PC itself. */
uint64_t dw_prologue_end(struct dw_file *f, uint64_t func_off, uint64_t pc);

#endif
