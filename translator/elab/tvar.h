/* tvar.h - target variables: from a C value and components to a value.
 *
 * A family knows its variables' C types and where their values are at run
 * time ($prev: the second tracepoint argument); tvar_resolve walks the
 * components ($prev->comm, $arr[2]) through the C types (ctypes.h), checks
 * them, and records the accesses pass 3 turns into fault-safe reads
 * (emit/target.c).  Shared by every family with target variables.
 */
#ifndef TVAR_H
#define TVAR_H

#include "util/ctypes.h"
#include "session.h"

enum tvar_op_kind {
	TV_ADDR,	/* the value so far is an address: start there */
	TV_LOAD_PTR,	/* read the pointer at the address: go there */
	TV_ADD,		/* address += off */
	TV_ADD_INDEX,	/* address += index * scale */
};

struct tvar_op {
	enum tvar_op_kind kind;
	int64_t off;		/* TV_ADD; TV_ADD_INDEX: the scale */
	struct exp *index;	/* TV_ADD_INDEX */
};

enum tvar_final {
	TV_VALUE,	/* the base value itself, converted (no memory read) */
	TV_LOAD_INT,	/* read size bytes at the address */
	TV_PRETTY,	/* $var$ / $$parms: formatted by the family */
};

/* The function stap 4.8 synthesizes for one DWARF access (a $var, @var,
 * $return, each part of a $$vars), which its -p2 lists: we read the
 * value inline, and only name it, to list it as stap does. */
struct tvar_fn {
	const char *name;		/* "_dwarf_tvar_get_count_0" */
	const struct src_file *file;	/* the script the access is in */
	const char *params;		/* "index0:long, rvalue:long" */
	const char *locals;		/* "_fb_3": the frame base's, or NULL */
	const char *key;		/* equal keys: stap's bodies are equal,
					   and it keeps one of the functions */
	struct tvar_fn *kept;		/* tvarfns.c: that one (or itself) */
};

struct tvar {
	const char *base;	/* C expression of the base value (uint64_t) */
	int base_reads;		/* base reads memory through the runtime's
				   fault-safe reads (naming _stp_w, the
				   access's place in errors) */
	struct exp *base_exp;	/* or a script expression (@cast's operand) */
	struct ctype *base_type;
	struct ctype *type;	/* the final C type */
	int nops;
	struct tvar_op *ops;
	enum tvar_final final;
	int size;		/* bytes of the final read or value */
	int is_signed;
	int bit_offset, bit_size;	/* bitfields: within the read bytes */
	const char *pretty;	/* TV_PRETTY: a C string expression, or NULL
				   for "label=0x…" over parts */
	char pretty_kind;	/* $var$: 'd' decimal, 'x' hex, 's' a char array
				   quoted (str_len bytes at the address), '{'
				   the aggregate pretty_agg at the address, 0 */
	struct ctype *pretty_agg;
	int pretty_deep;	/* $$: nested aggregates expanded too */
	int str_len;
	int user;		/* reads user memory (a user-space probe's
				   DWARF variable), else kernel memory */
	int write_reg;		/* N + 1: the base is DWARF register N's value
				   (a guru write sets the register) */
	const char *assign_fn;	/* written through F(c, value) for `=`, */
	const char *append_fn;	/* and for `.=` (procfs's $value) */
	int nparts;		/* $$parms: one scalar access per argument
				   (with pretty_kind '1'/'2' for $$parms$ and
				   $$parms$$: one $var$ / $var$$ each) */
	struct tvar **parts;
	const char **labels;
	struct tvar_fn *fn;	/* a DWARF access: stap's function for it */
};

/* Resolve the components COMPS of E against BASE_TYPE; BASE is the C
 * expression of the raw base value (or NULL with base_exp set later);
 * WHAT and LABEL name it in messages ("tracepoint variable", "$prev").
 * Sets E->type.  Returns the access, or NULL (reported unless QUIET). */
struct tvar *tvar_resolve(struct session *s, struct exp *e, struct vec *comps,
			  const char *base, struct ctype *base_type,
			  const char *what, const char *label, int quiet);

/* The same for a variable whose bytes are in memory at the address BASE
 * (a local on the stack: DWARF's location is an address). */
struct tvar *tvar_resolve_at(struct session *s, struct exp *e,
			     struct vec *comps, const char *base,
			     struct ctype *type, const char *what,
			     const char *label, int quiet);

/* Name the function stap makes for E's DWARF access TV of variable VAR
 * (LVALUE: a guru write), numbered in the order stap expands them
 * (s->tvar_ticks); COMPS are E's components (an index expression is a
 * parameter).  Nothing for a pretty-printed access ($var$: stap prints
 * it through functions of another kind) or one already named. */
void tvar_name_fn(struct session *s, const struct exp *e, struct tvar *tv,
		  const char *var, int lvalue, const struct vec *comps);
/* Its local for the frame base (DW_OP_fbreg), numbered as stap does. */
void tvar_fn_frame_base(struct session *s, struct tvar *tv);

#endif
