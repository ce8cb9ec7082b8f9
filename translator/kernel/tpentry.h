/* tpentry.h - one tracepoint of the catalog (tpcat.h): its system, name
 * and arguments.  Types only, shared by the catalog and by tpproto.c,
 * which types a tracepoint from its TP_PROTO text.
 */
#ifndef TPENTRY_H
#define TPENTRY_H

#include "util/ctypes.h"

struct tp_arg {
	const char *name;
	struct ctype *type;
};

struct tp_entry {
	const char *system;	/* "sched" */
	const char *name;	/* "sched_switch" */
	int nargs;		/* without the leading void *__data */
	struct tp_arg *args;
	const char *module;	/* the module defining it ("sunrpc"), or
				   NULL when built into the kernel */
	int absent;		/* a header declares it, the kernel was
				   configured without it: typed from its
				   TP_PROTO (tpproto.c) */
	int module_dwarf;	/* its module carries no BTF (5.10's):
				   typed from its TP_PROTO until the
				   tracepoint family reads the module's
				   DWARF, on first use */
};

#endif
