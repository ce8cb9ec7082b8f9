/* parse_help.h - helpers the grammar actions call (parse_help.c). */
#ifndef PARSE_HELP_H
#define PARSE_HELP_H

#include "parse/parse.h"

/* The parts of a foreach header, gathered while parsing it. */
struct fe_head {
	struct vec keys;	/* struct exp * (EX_SYM) */
	struct exp *value;
	struct exp *array;
	struct vec slice;
	struct exp *limit;
	int sort_col, sort_dir;
	const char *sort_stat;
	int nsorts;
};

struct exp *help_string(struct parser *p, const struct token *t);
struct exp *help_concat(struct parser *p, struct exp *e, const struct token *t);
struct exp *help_call(struct parser *p, const struct token *name,
		      struct vec args);
struct exp *help_target(struct parser *p, const struct token *t);
struct exp *help_member(struct parser *p, struct exp *e, const struct token *t);
struct exp *help_target_index(struct parser *p, struct exp *e,
			      struct exp *index, struct loc loc);
struct exp *help_addr_of(struct parser *p, struct loc loc, struct exp *e);
void help_variance_shift(struct parser *p, const struct exp *e);
void help_hist_bound(struct parser *p, const struct exp *e);
struct exp *help_assign(struct parser *p, struct loc loc, enum op op,
			struct exp *l, struct exp *r);
struct stmt *help_return(struct parser *p, struct loc loc, struct exp *value,
			 int ended);
struct exp *help_neg_literal(struct parser *p, struct loc loc, struct exp *e);
void help_embedded_ok(struct parser *p, struct loc loc);
void help_guru_op(struct parser *p, const struct token *t);
struct exp *help_sym(struct parser *p, const struct token *t);
void help_func_pragmas(struct func *f);

struct vec help_vec1(struct parser *p, void *item);
struct vec help_vec_add(struct parser *p, struct vec v, void *item);
/* A function's next parameter PA (a name used twice is an error). */
struct vec help_param_add(struct parser *p, struct vec v, struct param *pa);
/* Declare global G in this file (PRIVATE: `private`); a name declared
 * twice in one file is an error, as in stap's parser. */
void help_global_add(struct parser *p, struct global *g, int is_private);
/* The N of `global a[N]`: 1 to 2^31-1. */
int64_t help_array_size(struct parser *p, const struct token *n);
/* An alias's name (POINTS, its one point) cannot be `?` or `!`. */
void help_alias_name(struct parser *p, struct vec points);
/* --check-version: whether a %( systemtap_v … %) condition was read since
 * the previous declaration ended (as stap 4.8 has it: one around the
 * declaration counts, and one bison read ahead past it too). */
int help_version_dep(struct parser *p);
struct probe_alias *help_alias_version(struct parser *p,
				       struct probe_alias *al);

/* foreach */
struct fe_head *help_fe_new(struct parser *p);
void help_fe_key(struct parser *p, struct fe_head *h, const struct token *k,
		 int dir);
void help_fe_value(struct parser *p, struct fe_head *h, const struct token *v,
		   int dir);
void help_fe_sort(struct parser *p, struct fe_head *h, struct loc loc,
		  const char *stat, int dir);
struct stmt *help_foreach(struct parser *p, struct loc loc, struct fe_head *h,
			  struct stmt *body);

/* probe points: alternatives are struct vec * of struct pp_comp * */
struct vec help_pp_one(struct parser *p, struct pp_comp *c);
struct vec help_pp_mark(struct parser *p, struct vec alts, int suffix,
			struct exp *cond);
struct vec help_pp_cat(struct parser *p, struct vec left, struct vec right);
struct vec help_pp_union(struct parser *p, struct vec a, struct vec b);
struct vec help_pp_points(struct parser *p, struct loc loc, struct vec alts,
			  int suffix, struct exp *cond);
struct vec help_vec_cat(struct parser *p, struct vec a, struct vec b);

#endif
