/* dump.h - printing syntax trees back as script text (dump.c).
 *
 * Used for the -p1 listing and by later passes that need to show an
 * expression or a probe point in a message or listing.
 */
#ifndef DUMP_H
#define DUMP_H

#include <stdio.h>
#include "ast.h"

void dump_file(FILE *o, const struct file_ast *f);
void dump_exp(FILE *o, const struct exp *e);
/* How names print from now on (-p2 lists globals mangled); NULL: as
 * written. */
void dump_set_sym_namer(const char *(*namer)(const struct exp *e));
void dump_stmt(FILE *o, const struct stmt *s);
void dump_probe_point(FILE *o, const struct probe_point *pp);

#endif
