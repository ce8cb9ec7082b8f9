/* similar.c - "did you mean" suggestions for unknown names.
 *
 * stap 4.8 follows unresolved functions and unmatched probe points with
 * "(similar: …)": the known names nearest in edit distance.  We do the
 * same, with a threshold that keeps the suggestions plausible.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/similar.h"

#define MAX_SUGGESTIONS 5

/* Edit distance between A and B, giving up above LIMIT: plain
 * Levenshtein, or with STAP, stap 4.8's weights (similar_stap). */
static int edit_distance(const char *a, const char *b, int limit, int stap)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row, best, d, prev, cur, step = stap ? 2 : 1;

	if ((int)(la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	row = malloc((lb + 1) * sizeof *row);
	if (!row)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (int)i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			if (a[i - 1] == b[j - 1])
				d = prev;
			else if (stap && tolower((unsigned char)a[i - 1]) ==
					 tolower((unsigned char)b[j - 1]))
				d = prev + 1;
			else
				d = prev + step;
			if (row[j] + step < d)
				d = row[j] + step;
			if (row[j - 1] + step < d)
				d = row[j - 1] + step;
			row[j] = d;
			prev = cur;
			if (d < best)
				best = d;
		}
		if (best > limit) {
			free(row);
			return limit + 1;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

int similar_distance(const char *a, const char *b, int limit)
{
	return edit_distance(a, b, limit, 0);
}

int similar_stap(const char *a, const char *b, int limit)
{
	return edit_distance(a, b, limit, 1);
}

struct cand {
	const char *name;
	int dist;
};

static int cmp_cand(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->dist != b->dist)
		return a->dist - b->dist;
	return strcmp(a->name, b->name);
}

const char *similar_names(struct arena *ar, const char *name,
			  const struct vec *names)
{
	struct cand *c = malloc(sizeof *c * (size_t)(names->n + 1));
	int limit = (int)strlen(name) / 3 + 1, n = 0, i, j, d;
	const char *cand;
	struct strbuf sb = {0};
	const char *out;

	if (!c)
		return "";
	VEC_EACH(*names, i, cand) {
		if (!strcmp(cand, name))
			continue;
		for (j = 0; j < n && strcmp(c[j].name, cand); j++)
			;
		if (j < n)
			continue;
		d = similar_distance(name, cand, limit);
		if (d <= limit) {
			c[n].name = cand;
			c[n].dist = d;
			n++;
		}
	}
	qsort(c, (size_t)n, sizeof *c, cmp_cand);
	for (i = 0; i < n && i < MAX_SUGGESTIONS; i++)
		sb_printf(&sb, "%s%s", i ? ", " : " (similar: ", c[i].name);
	if (n)
		sb_putc(&sb, ')');
	out = arena_strdup(ar, sb.s ? sb.s : "");
	sb_free(&sb);
	free(c);
	return out;
}

void similar_top_init(struct similar_top *t, const char *name)
{
	t->name = name;
	t->limit = strlen(name) > 255 ? -1 : (int)strlen(name) / 2 + 1;
	t->n = 0;
	t->stap_weights = 0;
}

void similar_top_init_stap(struct similar_top *t, const char *name)
{
	similar_top_init(t, name);
	if (t->limit >= 0)
		t->limit = 1 << 20;
	t->stap_weights = 1;
}

void similar_top_add(struct similar_top *t, const char *cand)
{
	enum { N = 5 };
	int d, i;

	if (t->limit < 0 || strlen(cand) > 255)
		return;
	d = (t->stap_weights ? similar_stap : similar_distance)(t->name, cand,
			     t->n == N ? t->dist[N - 1] - 1 : t->limit);
	if (d > t->limit || (t->n == N && d >= t->dist[N - 1]))
		return;
	for (i = t->n < N ? t->n : N - 1; i > 0 && t->dist[i - 1] > d; i--) {
		t->dist[i] = t->dist[i - 1];
		t->best[i] = t->best[i - 1];
	}
	t->dist[i] = d;
	t->best[i] = cand;
	if (t->n < N)
		t->n++;
}

const char *similar_top_list(struct arena *a, const struct similar_top *t)
{
	struct strbuf sb = {0};
	const char *r;
	int j;

	if (!t->n)
		return NULL;
	for (j = 0; j < t->n; j++)
		sb_printf(&sb, "%s%s", j ? ", " : "", t->best[j]);
	r = arena_strdup(a, sb.s);
	sb_free(&sb);
	return r;
}
