/* ast.h - the syntax tree of a script and of the tapset library.
 *
 * Pass 1 (parse/parser.y) builds it through the constructors in ast.c and nothing
 * else; later passes read it and fill in the fields marked "sema:" (written
 * only by the elaboration pass) or "emit:" (written only by translation).
 * Nodes are tagged unions with a kind and a source location, allocated in the
 * session arena.  Lists are `struct vec`s of node pointers.
 */
#ifndef AST_H
#define AST_H

#include <stdint.h>
#include "util/arena.h"
#include "util/loc.h"
#include "ast/op.h"

/* Value types of the language. */
enum type {
	TY_UNKNOWN = 0,
	TY_LONG,
	TY_STRING,
	TY_STATS,	/* an aggregate: only as a global or array value */
	TY_VOID,	/* a function that returns nothing */
};

/* ---- expressions ---------------------------------------------------- */

enum exp_kind {
	EX_NUM,		/* 42, 0x2a, 052 */
	EX_STR,		/* "text" (adjacent literals already joined) */
	EX_EMBEDDED,	/* %{ C expression %} */
	EX_BINARY,	/* op: + - * / % << >> >>> & | ^ */
	EX_UNARY,	/* op: - + ! ~ & (address-of, target only) */
	EX_PRE_INC,	/* ++x / --x: op is OP_INC or OP_DEC */
	EX_POST_INC,	/* x++ / x-- */
	EX_LOG_OR,	/* a || b */
	EX_LOG_AND,	/* a && b */
	EX_IN,		/* [k1,k2] in arr; a NULL index is the wildcard * */
	EX_REGEX,	/* s =~ "re", s !~ "re": OP_MATCH, OP_NOMATCH */
	EX_CMP,		/* op: < > <= >= == != */
	EX_CONCAT,	/* a . b */
	EX_TERNARY,	/* c ? a : b */
	EX_ASSIGN,	/* op: = += -= *= /= %= <<= >>= &= ^= |= .= <<< */
	EX_SYM,		/* a variable: local, global, or @define'd name */
	EX_INDEX,	/* arr[i, j]; base is a symbol or a @hist_* */
	EX_CALL,	/* f(a, b) */
	EX_PRINT,	/* the print family: print, printf, sprintln, … */
	EX_STAT,	/* @count(x) @sum @min @max @avg @variance(x[, shift]) */
	EX_HIST,	/* @hist_linear(x, lo, hi, step) / @hist_log(x) */
	EX_TARGET,	/* $var and its ->member / [index] components */
	EX_TARGET_LIST,	/* $$vars $$locals $$parms $$return ($ or $$ suffix) */
	EX_CAST,	/* @cast(e, "type"[, "module"]) with components */
	EX_ATVAR,	/* @var("name[@cu]"[, "module"]) with components */
	EX_DEFINED,	/* @defined(e) */
	EX_PROBEWRITE,	/* @probewrite(var) */
	EX_ENTRY,	/* @entry(e) */
	EX_PERF,	/* @perf("counter") */
	EX_CONST,	/* @const("C_MACRO") */
	EX_REGISTER,	/* @kregister(n) / @uregister(n): user flag */
	EX_DEREF,	/* @kderef(size, addr) / @uderef(size, addr) */
	EX_AUTOCAST,	/* e->member…: components on any value (a pointer
			   whose type the value carries); operand is e */
	EX_KIND_COUNT
};

/* One step after a target expression: ->name, [index], or the $/$$ pretty
 * printing suffix. */
enum target_comp_kind {
	TC_MEMBER,	/* ->name */
	TC_INDEX_NUM,	/* [3] */
	TC_INDEX_EXP,	/* [expression] */
	TC_PRETTY,	/* trailing $ (depth 1) or $$ (depth 2) */
};

struct target_comp {
	enum target_comp_kind kind;
	struct loc loc;
	const char *name;	/* TC_MEMBER */
	int64_t num;		/* TC_INDEX_NUM; TC_PRETTY: 1 or 2 */
	struct exp *index;	/* TC_INDEX_EXP */
};

enum print_kind {
	PR_PRINT, PR_PRINTLN, PR_PRINTD, PR_PRINTDLN, PR_PRINTF,
};

/* A node is allocated only as large as its kind's member of the union
 * (ast_exp_size): never copy one whole, nor change its kind to one with
 * a larger member, except EX_ASSIGN and EX_TERNARY, which have the full
 * size (an elided assignment becomes its right side, opt.c, and a
 * ternary under a literal condition its live branch, targets.c). */
struct exp {
	enum exp_kind kind;
	enum type type;		/* sema: the inferred type */
	unsigned parens : 1;	/* parse: written inside ( ) */
	unsigned hex : 1;	/* EX_NUM: an address a pass made, which the
				   -p2 listing shows in hex as stap does */
	enum type fold_type;	/* opt: the type an operator folded away
				   (x . "", x + 0) gave this operand */
	struct loc loc;
	union {
		int64_t num;			/* EX_NUM */
		struct {			/* EX_STR, EX_EMBEDDED */
			const char *s;		/* decoded bytes (EX_STR) or C code */
			size_t len;
			const char *raw;	/* EX_STR: stap's stored form (source
						   text, \" unescaped), for -p1 */
		} str;
		struct {			/* EX_BINARY EX_CMP EX_LOG_* EX_CONCAT
						   EX_ASSIGN EX_REGEX */
			enum op op;		/* op.h */
			struct exp *left, *right;
		} bin;
		struct {			/* EX_UNARY EX_PRE_INC EX_POST_INC */
			enum op op;
			struct exp *operand;
		} un;
		struct {			/* EX_TERNARY */
			struct exp *cond, *yes, *no;
		} tern;
		struct {			/* EX_SYM */
			const char *name;
			struct sym *sym;	/* sema: what it refers to */
		} sym;
		struct {			/* EX_INDEX; EX_IN uses it too */
			struct exp *base;	/* EX_SYM of an array, or EX_HIST */
			struct vec indexes;	/* struct exp *; NULL = '*' */
			struct exp *in_array;	/* EX_IN: the array (EX_SYM or
						   EX_HIST); indexes above */
		} index;
		struct {			/* EX_CALL */
			const char *name;
			struct vec args;	/* struct exp * */
			struct func *func;	/* sema: the resolved overload */
		} call;
		struct {			/* EX_PRINT */
			enum print_kind pkind;
			int to_string;		/* sprint* form */
			const char *fmt;	/* printf: the literal format */
			size_t fmt_len;
			const char *fmt_raw;	/* its stored form, for -p1 */
			struct exp *delim;	/* printd/printdln: literal */
			struct vec args;	/* struct exp * */
			struct vec directives;	/* sema: per argument, the enum type
						   its directive wants, as (void *)(intptr_t) */
		} print;
		struct {			/* EX_STAT */
			const char *op;		/* "count" "sum" "min" "max"
						   "avg" "variance" */
			struct exp *stat;	/* the aggregate: symbol or index */
			struct exp *shift;	/* @variance's optional 2nd arg */
		} stat;
		struct {			/* EX_HIST */
			int is_log;
			struct exp *stat;
			struct exp *lo, *hi, *step;	/* linear only */
		} hist;
		struct {			/* EX_TARGET, EX_TARGET_LIST */
			const char *name;	/* without the leading '$'; for
						   lists "$vars", "$parms", … */
			struct vec comps;	/* struct target_comp * */
			int addr_of;		/* &$var */
			struct tvar *resolved;	/* sema: what the probe's family
						   resolved it to (tvar.h) */
			int unresolved;		/* sema: the family could not;
						   an error if the optimizer
						   keeps it */
		} target;
		struct {			/* EX_CAST EX_ATVAR EX_DEFINED EX_ENTRY
						   EX_PERF EX_CONST EX_PROBEWRITE
						   EX_REGISTER EX_DEREF EX_AUTOCAST */
			struct exp *operand;	/* cast/defined/entry/probewrite/
						   autocast; register number; deref
						   address */
			const char *name;	/* cast type; @var name; perf/const */
			const char *module;	/* cast/@var module, or NULL */
			struct exp *size;	/* @kderef size */
			int user;		/* @uregister/@uderef */
			struct vec comps;	/* cast/@var/autocast:
						   struct target_comp * */
			int addr_of;
			struct tvar *resolved;	/* sema: @cast's access
						   (tvar.h) */
			int misplaced;		/* sema: @entry outside a
						   .return probe; an error if
						   the optimizer keeps it */
		} op;
	} u;
};

/* ---- statements ----------------------------------------------------- */

enum stmt_kind {
	ST_BLOCK,	/* { … } */
	ST_EMBEDDED,	/* %{ C %} as a statement (function body) */
	ST_NULL,	/* ; */
	ST_EXP,		/* expression statement */
	ST_IF,
	ST_FOR,		/* for (init; cond; incr) — also while (cond) */
	ST_FOREACH,
	ST_RETURN,
	ST_DELETE,
	ST_BREAK,
	ST_CONTINUE,
	ST_NEXT,
	ST_TRY,		/* try { } catch[(var)] { } */
	ST_KIND_COUNT
};

/* Sized by kind, as struct exp (ast_stmt_size). */
struct stmt {
	enum stmt_kind kind;
	struct loc loc;
	int folded;		/* sema: ST_BLOCK standing for the branch an
				   `if` on a literal kept (one statement or
				   none); -p2 prints that instead */
	union {
		struct vec block;		/* ST_BLOCK: struct stmt * */
		struct {			/* ST_EMBEDDED */
			const char *code;
		} embedded;
		struct exp *exp;		/* ST_EXP ST_DELETE ST_RETURN (may be
						   NULL) */
		struct {			/* ST_IF */
			struct exp *cond;
			struct stmt *then, *els;	/* els may be NULL */
		} if_;
		struct {			/* ST_FOR */
			struct exp *init, *cond, *incr;	/* each may be NULL */
			struct stmt *body;
			int is_while;		/* written as while (cond) */
		} for_;
		struct {			/* ST_FOREACH */
			struct vec keys;	/* struct exp * (EX_SYM) */
			struct exp *value;	/* v = [k] in …: EX_SYM or NULL */
			struct exp *array;	/* EX_SYM or EX_HIST */
			struct vec slice;	/* arr[*, 5]: struct exp *, NULL = *;
						   empty when not sliced */
			int sort_col;		/* 0 none; 1..9 key column; -1 value */
			int sort_dir;		/* +1 ascending, -1 descending */
			const char *sort_stat;	/* @sum- etc: extractor, or NULL */
			struct exp *limit;	/* or NULL */
			struct stmt *body;
		} foreach;
		struct {			/* ST_TRY */
			struct stmt *body, *handler;
			struct exp *catch_var;	/* EX_SYM or NULL */
		} try_;
	} u;
};

/* ---- probe points --------------------------------------------------- */

struct pp_comp {
	struct loc loc;
	const char *name;	/* may hold * wildcards; "**" alone */
	struct exp *arg;	/* EX_NUM or EX_STR literal, or NULL */
	int has_arg;		/* written with parentheses, even if empty */
};

struct probe_point {
	struct loc loc;
	struct vec comps;	/* struct pp_comp * */
	int optional;		/* ? */
	int sufficient;		/* ! (implies optional) */
	struct exp *cond;	/* if (…), or NULL */
};

/* ---- top-level declarations ----------------------------------------- */

struct probe {
	struct loc loc;
	struct vec points;	/* struct probe_point * */
	struct stmt *body;	/* ST_BLOCK */
	const struct src_file *file;
	int is_private;		/* inside a private section (unused) */
	int version_dependent;	/* a %( systemtap_v %) in its text (parse) */
};

enum alias_kind { ALIAS_PROLOGUE, ALIAS_EPILOGUE, ALIAS_BOTH };

struct probe_alias {
	struct loc loc;
	struct vec names;	/* struct probe_point *: the alias names */
	struct vec points;	/* struct probe_point *: what they expand to */
	enum alias_kind kind;	/* = or += or = {pro},{epi} */
	struct stmt *body;	/* prologue (=) or epilogue (+=) */
	struct stmt *epilogue;	/* ALIAS_BOTH only */
	const struct src_file *file;
	int version_dependent;	/* a %( systemtap_v %) in its text (parse) */
};

struct param {
	struct loc loc;
	const char *name;
	enum type decl_type;	/* :long / :string, or TY_UNKNOWN */
};

struct func {
	struct loc loc;
	const char *name;
	enum type decl_type;	/* function f:long (…) */
	struct vec params;	/* struct param * */
	struct stmt *body;	/* ST_BLOCK or ST_EMBEDDED */
	int priority;		/* f() :3 {…}; 0 user, 1 tapset default */
	int is_private;
	const struct src_file *file;
	/* embedded-C pragmas: found in the body's comments */
	unsigned pure : 1, unprivileged : 1, myproc_unprivileged : 1,
		guru : 1, unmangled : 1, unmodified_fnargs : 1,
		stable : 1;	/* same value throughout a probe hit
				   (stable.c) */
	enum type type;		/* sema: inferred return type */
	struct loc type_loc;	/* sema: where that type was first inferred */
	int used;		/* sema: reachable from a kept probe */
	struct func_info *info;	/* sema: symbols and callees */
};

struct global {
	struct loc loc;
	const char *name;
	struct exp *init;	/* EX_NUM / EX_STR / unary minus, or NULL */
	int64_t max_entries;	/* global a[N]; 0 = MAXMAPENTRIES */
	int wrap;		/* global a% */
	int is_array_decl;	/* declared with [N] */
	int is_private;
	const struct src_file *file;
	enum type type;		/* sema: value type */
	struct vec index_types;	/* sema: enum type per column (as
				   (void *)(intptr_t)), empty for scalars */
	int used;		/* sema */
};

struct embedded_code {		/* %{ … %} at top level */
	struct loc loc;
	const char *code;
	const struct src_file *file;
};

/* The bytes a node of this kind occupies (ast.c). */
size_t ast_exp_size(enum exp_kind kind);
size_t ast_stmt_size(enum stmt_kind kind);

/* Deep copies, for bodies that appear in several derived probes (ast.c). */
struct exp *exp_clone(struct arena *a, const struct exp *e);
struct stmt *stmt_clone(struct arena *a, const struct stmt *st);

/* A number literal, possibly negated (-10): 1 and its value in *v. */
int exp_int_literal(const struct exp *e, int64_t *v);

/* Everything parsed from one file. */
struct file_ast {
	const struct src_file *file;
	struct vec probes;	/* struct probe * */
	struct vec aliases;	/* struct probe_alias * */
	struct vec funcs;	/* struct func * */
	struct vec globals;	/* struct global * */
	struct vec embeds;	/* struct embedded_code * */
	int privileged;		/* tapset file: embedded C allowed */
};

#endif
