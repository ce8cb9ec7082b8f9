/* tpproto.h - a tracepoint's arguments from its TP_PROTO text (tpproto.c).
 *
 * For the tracepoints a header declares but the kernel was configured
 * without: stap 4.8 lists them (it compiles the header, not the kernel),
 * with the types the prototype names.  The kernel's BTF has no
 * __traceiter_ for them; their types are looked up in it by name, or made
 * as declarations.
 */
#ifndef TPPROTO_H
#define TPPROTO_H

#include "kernel/tpentry.h"

struct ctype_btf;

/* Fill TE's arguments from PROTO ("TP_PROTO(struct clk_core *core)" or
 * the inside of its parentheses); -1 when a parameter cannot be read. */
int tpproto_args(struct ctype_btf *cb, const char *proto, struct tp_entry *te);

#endif
