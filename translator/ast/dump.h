/* dump.h - printing syntax trees back as script text (dump.c).
 *
 * Used for the -p1 listing and by later passes that need to show an
 * expression or a probe point in a message or listing.
 */
#ifndef DUMP_H
#define DUMP_H

#include <stdio.h>
#include "ast/ast.h"

void dump_file(FILE *o, const struct file_ast *f);
void dump_exp(FILE *o, const struct exp *e);
/* How the -p2 listing (listing_body.c) prints an elaborated tree: names
 * as stap mangles them, and the tree in stap's optimized shape. */
struct dump_style {
	const char *(*sym_name)(const struct exp *e);	/* EX_SYM */
	const char *(*call_name)(const struct exp *e);	/* EX_CALL */
	int (*exp)(FILE *o, const struct exp *e);	/* 1: printed E its
							   own way */
	int elaborated;		/* `delete arr` by the name as written */
	int optimized;		/* nested blocks flattened, null statements
				   dropped, a block of one statement printed
				   as that statement, `if (c) {} else S` as
				   `if (!(c)) S` */
};

/* From now on print in STYLE (NULL: the -p1 form, names as written). */
void dump_set_style(const struct dump_style *style);
void dump_stmt(FILE *o, const struct stmt *s);
/* The statements of S, nested blocks flattened, each on its line. */
void dump_stmt_flat(FILE *o, const struct stmt *s);
void dump_probe_point(FILE *o, const struct probe_point *pp);

#endif
