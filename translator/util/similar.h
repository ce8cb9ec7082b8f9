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

/* The five names nearest to a name, fed one at a time (earlier names win
 * ties; names over 255 bytes are never suggested): similar_top_init, then
 * similar_top_add for each candidate, then similar_top_list. */
struct similar_top {
	const char *name;
	int limit;		/* the farthest distance kept */
	int stap_weights;	/* stap 4.8's distance for its DWARF
				   function suggestions: similar_stap */
	int n;
	const char *best[5];
	int dist[5];
};

void similar_top_init(struct similar_top *t, const char *name);
/* The same with stap 4.8's distance (similar_stap) and no limit. */
void similar_top_init_stap(struct similar_top *t, const char *name);

/* stap 4.8's edit distance for suggestions: a substitution costs 2 (1
 * between cases of one letter), an insertion or deletion 2, but 1 while
 * one string is still empty (its table's first row and column count 1
 * per character).  LIMIT + 1 once it is known to exceed LIMIT. */
int similar_stap(const char *a, const char *b, int limit);
void similar_top_add(struct similar_top *t, const char *cand);
/* "a, b, c", nearest first, in A; NULL if none was near enough. */
const char *similar_top_list(struct arena *a, const struct similar_top *t);

#endif
