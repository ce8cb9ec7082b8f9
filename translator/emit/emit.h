/* emit.h - pass 3, the C writer, as the probe families see it (family.h).
 *
 * Pass 3 writes one C file per script: the runtime's header, globals, one
 * frame struct per probe and function, their bodies, then each probe
 * family's tables and start/stop functions (module.c lays it out).  All
 * of it goes through the small indenting text emitter (text.c).
 * Generated C is glue: anything that is logic lives in runtime/.
 */
#ifndef EMIT_H
#define EMIT_H

#include "elab/program.h"
#include "session.h"

struct emit {
	struct session *s;
	struct program *prog;
	struct strbuf out;
	struct strbuf frames;	/* frame structs, gathered before bodies */
	int indent;
	/* the body being emitted (stmt.c / exp.c) */
	const char *frame;	/* frame struct type, e.g. "struct frame_p3" */
	struct strbuf temps;	/* temporaries of the current frame */
	int ntemps;
	int nlabels;
	const char *err_label;	/* where a runtime error jumps */
	const char *break_label, *continue_label;
	struct func *func;	/* NULL in a probe */
	int counting;		/* statements are counted as they run */
	int pending;		/* actions counted but not yet charged */
	/* file-scope C gathered while emitting bodies, written before them */
	struct strbuf decls;	/* regex programs (regex.c) */
	void *regex;		/* regex.c's record of them */
	void *pretty;		/* pretty.c's: the $var$ tables */
};

/* The text emitter (text.c): lines into e->out at the current indent. */
void emit_line(struct emit *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void emit_raw(struct emit *e, const char *text);
void emit_open(struct emit *e, const char *fmt, ...)	/* "… {" */
	__attribute__((format(printf, 2, 3)));
void emit_close(struct emit *e, const char *tail);	/* "}" + tail */

/* A C string literal for BYTES (escaped), in the arena. */
const char *emit_cstr(struct emit *e, const char *bytes, size_t len);
/* "identifier 'x' at file:1:2": where a runtime error happened. */
const char *emit_where(struct emit *e, const char *what, struct loc loc);

/* The module (module.c): the C name of a symbol's storage, e.g. "g_count"
 * or "l->l_x". */
const char *emit_sym_ref(struct emit *e, const struct sym *sym);
/* A kept function's embedded C names PRAGMA ("pragma:symbols"). */
int emit_pragma_used(const struct emit *e, const char *pragma);

/* Bodies (stmt.c). */
void emit_probe_body(struct emit *e, struct derived_probe *dp);
void emit_func_body(struct emit *e, struct func *f);

/* For families: the handler of probe DP is "probe_<index>", its record in
 * the probe table is "&stp_probes[<index>]". */

#endif
