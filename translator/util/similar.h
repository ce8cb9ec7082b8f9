/* similar.h - "did you mean" suggestions for unknown names (similar.c). */
#ifndef SIMILAR_H
#define SIMILAR_H

struct arena;
struct vec;

/* " (similar: a, b, …)": up to five of NAMES (const char *) close to
 * NAME in edit distance, nearest first; "" if none. */
const char *similar_names(struct arena *a, const char *name,
			  const struct vec *names);

/* The edit distance between A and B, case-sensitive; LIMIT + 1 once it
 * is known to exceed LIMIT. */
int similar_distance(const char *a, const char *b, int limit);

#endif
