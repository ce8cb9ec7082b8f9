/* targets.h - pass 2's resolution of target expressions outside any
 * family: @cast (cast.c), @var (atvar.c). */
#ifndef TARGETS_H
#define TARGETS_H

#include <stdint.h>

#include "session.h"

/* Resolve @cast E (EX_CAST): set E->type and E->u.op.resolved.  Returns 0,
 * or -1 (reported unless QUIET). */
int cast_resolve(struct session *s, struct exp *e, int quiet);

struct dw_file;

/* Resolve @var E (EX_ATVAR) from the debug file F (NULL: the kernel's):
 * "name@unit" in the units matching unit, plain "name" in the unit at
 * CU_OFF (a DWARF probe's); MODNAME names F in errors ("kernel").  Sets
 * E->type and E->u.op.resolved; 0, or -1 (reported unless QUIET).  USER:
 * F is a user-space file (its addresses move with the mapping). */
int atvar_resolve(struct session *s, struct exp *e, struct dw_file *f,
		  uint64_t cu_off, const char *modname, int user, int quiet);

#endif
