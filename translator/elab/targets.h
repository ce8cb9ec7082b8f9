/* targets.h - pass 2's resolution of target expressions outside any
 * family: @cast (cast.c). */
#ifndef TARGETS_H
#define TARGETS_H

#include "session.h"

/* Resolve @cast E (EX_CAST): set E->type and E->u.op.resolved.  Returns 0,
 * or -1 (reported unless QUIET). */
int cast_resolve(struct session *s, struct exp *e, int quiet);

#endif
