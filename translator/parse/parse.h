/* parse.h - the parts of pass 1 that talk to each other.
 *
 * lexer.l turns text into tokens; preproc.c sits between it and the bison
 * parser (parser.y): it expands @define macros and $1/@1 arguments, resolves
 * %( … %) conditionals and glues probe-point names; parse_help.c holds the
 * grammar's helpers, errors.c the error reports, and ast.c the node
 * constructors.  Only parse_pass.c and dump.c are seen from outside
 * (through session.h and dump.h).
 */
#ifndef PARSE_H
#define PARSE_H

#include <stdint.h>
#include "session.h"

/* One token.  Kept by value on the parser stack and in macro bodies, so
 * kept small: 40 bytes. */
struct token {
	struct loc loc;
	const char *text;	/* identifier, operator or number text (interned);
				   string: stap's stored form (see lex_string);
				   embedded code: what is between %{ and %} */
	union {
		const char *str;	/* STRING: decoded bytes */
		int64_t num;		/* NUMBER: its value */
	};
	uint32_t str_len;	/* STRING: bytes at str */
	unsigned short type;	/* bison token code, or a character */
	unsigned short depth : 15;	/* macro expansion depth that made it */
	unsigned short space_before : 1;	/* white space or a comment
						   before it */
};
_Static_assert(sizeof(struct token) == 40, "struct token grew");

/* A macro made by @define. */
struct macro {
	const char *name;	/* without '@' */
	struct loc loc;
	const struct src_file *file;	/* file-local scope; NULL = library */
	struct vec params;	/* const char *: "@name", interned */
	struct token *body;
	int nbody;
	struct macro *next;	/* hash chain */
};

/* Pending conditional, innermost last. */
struct pp_cond {
	struct loc loc;
	int in_else;		/* past %: */
};

/* Where tokens come from: a stack of pushed-back tokens over the scanner. */
struct tokbuf {
	struct token *v;
	int n, cap;
};

#define MACRO_ARGS 16	/* argument buffers a parser keeps for reuse */

struct parser {
	struct session *s;
	struct arena *a;
	const struct src_file *file;
	struct file_ast *out;
	void *scanner;		/* yyscan_t of the current file */
	int privileged;		/* tapset (or -g): embedded C allowed */
	int library_macros_only;	/* .stpm file: @define only */

	/* preproc.c state */
	struct tokbuf pending;	/* pushed-back tokens, next one last */
	struct tokbuf margs[MACRO_ARGS];	/* a macro call's arguments */
	struct pp_cond *conds;
	int nconds, capconds;
	long expanded;		/* tokens made by macro expansion */
	int pp_mode;		/* 1 inside probe points (see preproc.c) */
	int pp_parens;		/* paren depth of an if (…) condition */
	int pp_braces;		/* open brace-expansion groups */
	int pp_in_cond;		/* reading a probe point's if (…) */
	int prev_type;		/* type of the last token handed to bison */
	int prev2_type;		/* and of the one before it */
	int in_function;	/* inside a function declaration */
	struct token last;	/* the last token handed to bison */
	int ntokens;		/* tokens handed to bison so far */
	int sysv_conds;		/* %( systemtap_v … %) conditions read */
	int sysv_mark;		/* sysv_conds when the last declaration
				   ended */
	int nraw;		/* tokens the lexer read from the file (an
				   empty file has none) */
	int quiet_after;	/* ntokens at the last lexer/preprocessor
				   error: a syntax error right after it is
				   its consequence, not worth reporting */

	int errors;		/* errors reported in this file */
	const char *err_id;	/* the first error since listpat.c cleared
				   it, and its place */
	struct loc err_loc;
	int fast;		/* the quiet first attempt: errors are only
				   counted, and the file is parsed again */
	struct vec defined;	/* fast: struct macro * defined here */
};

/* Start a run afresh (pass_parse calls these first). */
void parse_tables_reset(struct session *s);
void macro_tables_reset(void);

/* Identifier interning: equal names share one pointer. */
const char *parse_intern(struct session *s, const char *text, size_t len);

/* lexer.l */
int lex_open(struct parser *p, const struct src_file *f, const char *text,
	     size_t len, void **scanner);
void lex_close(void *scanner);
int lex_next(struct parser *p, void *scanner, struct token *t);

/* preproc.c: the next token for bison. */
int pp_next(struct parser *p, struct token *t);
void pp_reset(struct parser *p);

/* preproc.c: is TYPE a keyword's token?  Does the @WORD token T define
 * or name a macro? */
int pp_is_keyword(int type);
int pp_names_macro(struct parser *p, const struct token *t);

/* ppcond.c: evaluate the condition after the %( token OPEN, reading
 * tokens with NEXT through '%?' (the marker that ended it in *STOP). */
int ppcond_eval(struct parser *p, struct token *open,
		int (*next)(struct parser *, struct token *), int *stop);

/* parser.y: parse one file into P->out; returns the number of errors.
 * parse_file_fast (the same grammar without LAC) is faster; it reports
 * nothing (P->fast is set) and stops at the first error. */
int parse_file(struct parser *p);
int parse_file_fast(struct parser *p);

/* Forget the macros a failed fast attempt defined (preproc.c). */
void macro_undefine(struct parser *p);

/* histcheck.c: report histograms used where a value is expected. */
void histcheck_file(struct parser *p);

/* listpat.c: check the -l/-L pattern's syntax as stap reads it; 1 when
 * it printed stap's report of an error in it. */
int listpat_check(struct session *s);

/* errors.c: report an error and count it against the file. */
void parse_error(struct parser *p, struct loc loc, const char *id,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* errors.c: a printable description of a token for messages: "'foo'",
 * "end of file". */
const char *token_desc(struct parser *p, const struct token *t);

#endif
