/* listing_body.h - the bodies -v -p2 prints (listing_body.c). */
#ifndef LISTING_BODY_H
#define LISTING_BODY_H

#include <stdio.h>
#include "elab/program.h"

/* Print in the elaborated style from now on (OPTIMIZED: in the shape
 * stap's optimizer leaves); FUNCS (struct func *, every declared
 * function) number overloads.  Names are allocated in A. */
void listing_body_begin(struct arena *a, const struct vec *funcs,
			int optimized);
void listing_body_end(void);
/* Names as written (0) or mangled (1) until the next call. */
void listing_body_mangle(int on);
void listing_func_body(FILE *f, const struct func *fn);
void listing_probe_body(FILE *f, const struct derived_probe *dp);
void listing_arming_body(FILE *f);
void listing_display_body(FILE *f, const struct sym *sym);
/* A file as stap puts it in private names ("d.stp": "d_stp"). */
const char *listing_file_tag(struct arena *a, const struct src_file *f);

#endif
