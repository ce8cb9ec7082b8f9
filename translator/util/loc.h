/* loc.h - source files and positions, shared by every pass.
 *
 * A source file is read once into memory and kept for the whole run, so a
 * diagnostic can quote any line of it.  Every AST node carries a loc.
 */
#ifndef LOC_H
#define LOC_H

#include <stddef.h>

struct src_file {
	const char *name;	/* as shown to the user: a path or "<input>" */
	const char *text;	/* whole contents, NUL-terminated */
	size_t len;
	int is_tapset;		/* from the tapset library (-I dirs included) */
	int is_user;		/* the user's script (file, -e or -E) */
};

struct loc {
	const struct src_file *file;	/* NULL: no position (synthesized) */
	int line, col;			/* 1-based; col counts bytes */
};

#endif
