/* emit_int.h - shared by the files of emit/ (pass 3) only. */
#ifndef EMIT_INT_H
#define EMIT_INT_H

#include <stdarg.h>

#include "emit/emit.h"

/* Text in the session arena (text.c); the emit files call it A(). */
const char *emit_sprintf(struct emit *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

const char *emit_exp(struct emit *e, struct exp *x);		/* exp.c */
const char *emit_temp(struct emit *e, enum type t);
const char *emit_check(struct emit *e);
const char *emit_div_check(struct emit *e, const char *b, enum op op,
			   struct loc loc);

const char *emit_print(struct emit *e, struct exp *x);	/* print.c */

const char *emit_array_get(struct emit *e, struct exp *x);	/* array.c */
const char *emit_array_in(struct emit *e, struct exp *x);
const char *emit_array_assign(struct emit *e, struct exp *x);
const char *emit_array_incdec(struct emit *e, struct exp *x, int post);
const char *emit_stat_op(struct emit *e, struct exp *x);
const char *emit_hist_print(struct emit *e, struct exp *h, const char *to,
			    const char *where);
int emit_array_decl(struct emit *e, struct sym *sym);
void emit_array_init(struct emit *e, struct sym *sym);
void emit_array_free(struct emit *e, struct sym *sym);
void emit_array_display(struct emit *e, struct sym *sym);
void emit_foreach(struct emit *e, struct stmt *st);
void emit_delete(struct emit *e, struct stmt *st);

const char *emit_target(struct emit *e, struct exp *x);	/* target.c */
const char *emit_target_write(struct emit *e, struct exp *target,
			      const struct tvar *tv, const char *value);
struct tvar;
const char *emit_pretty_agg(struct emit *e, struct tvar *tv,	/* pretty.c */
			    const char *value, const char *where);
const char *emit_regex(struct emit *e, struct exp *x);	/* regex.c */
void emit_regex_decls(struct emit *e);

/* The packed kernel symbol table (runtime/sym.c reads it), or an empty
 * one when the module should not name kernel addresses. */
void emit_ksym_table(struct emit *e);			/* ksymtab.c */

/* The packed user files' symbols and unwind data (runtime/usym.h). */
void emit_usym_table(struct emit *e);			/* usymtab.c */
/* --ldd: the libraries user file PATH (a target path) loads, as target
 * paths, added to OUT (const char *). */
void emit_ldd_libs(struct session *s, const char *path, struct vec *out);	/* ldd.c */

/* The kernel modules the probes lie in, as a .modinfo entry the testbed
 * guest reads to load them first (or nothing when there are none). */
void emit_kmodules(struct emit *e);			/* kmodules.c */
void emit_modsyms(struct emit *e);			/* kmodules.c */

void emit_stmt(struct emit *e, struct stmt *st);	/* stmt.c */
/* Count N actions of a body that counts as it runs; charge all that is
 * pending (naming WHERE) when UPDATE, or once ten have gathered. */
void emit_actions(struct emit *e, int n, const char *where, int update);
const char *emit_stmt_where(struct emit *e, struct stmt *st);
const char *emit_body_where(struct emit *e, struct stmt *loop,
			    struct stmt *body);
/* "identifier 'x' at FILE:L:C" for the first token of an expression. */
const char *emit_exp_where(struct emit *e, struct exp *x);
const char *emit_new_label(struct emit *e, const char *stem);

int64_t actions_probe_bound(struct stmt *body);		/* actions.c */
int64_t actions_func_bound(struct func *f);
const char *emit_call_entry(struct emit *e, struct func *f);

/* A construct this translator cannot emit yet: a clear error, never a
 * silent wrong module. */
void emit_unsupported(struct emit *e, struct loc loc, const char *what);

#endif
