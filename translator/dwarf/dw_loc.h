/* dw_loc.h - a variable's DWARF location at one pc, as a C expression.
 *
 * The location list is resolved here, at translate time, for the probe's
 * pc; what is left is straight-line C over the runtime's accessors
 * (runtime/stp_dwarf.h): _stp_dwarf_reg(c, N) for DWARF register N of the
 * probed registers, _stp_dwarf_deref(c, ADDR, SIZE, _stp_w) for a
 * fault-safe read (a fault leaves stap's read-fault error in c, at the
 * place _stp_w the caller declares), _stp_kaddr_at(ADDR, ANCHOR) for a
 * link-time kernel address relocated (ANCHOR: sprint_symbol's link-time
 * address, which the caller gives), or in a user-space file (USER)
 * _stp_uaddr(c, ADDR), the address moved by the probed mapping's load
 * bias (the user probe family defines it).
 */
#ifndef DW_LOC_H
#define DW_LOC_H

#include <stddef.h>
#include <stdint.h>

struct dw_file;

enum dw_loc_kind {
	DW_LOC_ADDR,	/* c is the address of the variable's bytes */
	DW_LOC_VALUE,	/* c is the variable's value (a register, a
			   computed value, a constant) */
};

enum dw_loc_status {
	DW_LOC_OK,
	DW_LOC_NOT_AT_PC,	/* no location covers pc (or none at all) */
	DW_LOC_UNSUPPORTED,	/* an operation we cannot translate: msg */
};

struct dw_loc {
	enum dw_loc_kind kind;
	int reads;		/* c reads memory: check for a fault after */
	int fb;			/* it took the frame base (DW_OP_fbreg): stap's
				   function for it keeps that in a local */
	int reg;		/* DW_LOC_VALUE of DWARF register reg alone
				   (a guru write can set it); else -1 */
	uint64_t pc;		/* the pc the location was resolved for */
	char c[1024];		/* the C expression, of type uint64_t */
	char msg[256];		/* DW_LOC_UNSUPPORTED: why */
};

/* The location of the variable or parameter DIE VAR_OFF at PC, in the
 * function (subprogram or inline instance) FUNC_OFF whose frame base
 * fbreg refers to (0: none, a global).  A DW_AT_const_value is a DW_LOC_VALUE.  When PC is
 * not covered and RETRY_PC is nonzero, RETRY_PC is tried as well (stap's
 * retry after a -mfentry call); out->pc says which was used. */
enum dw_loc_status dw_loc_var(struct dw_file *f, uint64_t var_off,
			      uint64_t func_off, uint64_t pc,
			      uint64_t retry_pc, uint64_t anchor, int user,
			      struct dw_loc *out);

/* Does the variable DIE VAR_OFF have a value at PC (a const_value or a
 * location covering PC)? */
int dw_loc_covers(struct dw_file *f, uint64_t var_off, uint64_t pc);

/* The ranges of VAR_OFF's location list, as stap lists them in "not
 * accessible" errors: "[0xA,0xB], [0xC,0xD]" into BUF. */
void dw_loc_ranges(struct dw_file *f, uint64_t var_off, char *buf,
		   size_t len);

#endif
