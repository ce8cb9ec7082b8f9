/* regex.h - compile the regex of `s =~ "re"` at translation time.
 *
 * regex_compile parses stap's stored form of the literal (its escapes
 * still in place) as a POSIX extended regex the way stap 4.8 accepts it
 * and produces the instruction program that runtime/regex_match.h runs.
 * Plain user-space C without the rest of the translator, for unit tests.
 */
#ifndef REGEX_H
#define REGEX_H

#include <stddef.h>
#include "regex_match.h"

/* Programs larger than this are refused (the matcher's per-CPU workspace
 * grows with the program). */
#define REGEX_MAX_INST 30000
/* Largest repetition count stap accepts in {m,n}. */
#define REGEX_MAX_COUNT 12344

struct regex_prog {
	struct stp_regex_inst *inst;
	int ninst;
	unsigned char (*sets)[32];
	int nsets;
	int ngroups;		/* groups, group 0 (the whole match) included */
};

struct regex_error {
	int pos;		/* position in the stored form, or -1 */
	char msg[200];
};

/* Compile RAW (LEN bytes).  Returns 0, or -1 with ERR filled. */
int regex_compile(const char *raw, size_t len, struct regex_prog *p,
		  struct regex_error *err);
void regex_prog_free(struct regex_prog *p);

#endif
