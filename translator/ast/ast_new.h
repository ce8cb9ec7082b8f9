/* ast_new.h - constructors of syntax-tree nodes (ast.c). */
#ifndef AST_NEW_H
#define AST_NEW_H

#include "ast/ast.h"

struct exp *ast_num(struct arena *a, struct loc loc, int64_t v);
struct exp *ast_str(struct arena *a, struct loc loc, const char *s,
		    size_t len, const char *raw);
struct exp *ast_embedded(struct arena *a, struct loc loc, const char *code);
struct exp *ast_binary(struct arena *a, enum exp_kind kind, struct loc loc,
		       enum op op, struct exp *l, struct exp *r);
struct exp *ast_unary(struct arena *a, enum exp_kind kind, struct loc loc,
		      enum op op, struct exp *operand);
struct exp *ast_ternary(struct arena *a, struct loc loc, struct exp *c,
			struct exp *yes, struct exp *no);
struct exp *ast_sym(struct arena *a, struct loc loc, const char *name);
struct exp *ast_index(struct arena *a, struct loc loc, struct exp *base,
		      struct vec indexes);
struct exp *ast_in(struct arena *a, struct loc loc, struct vec indexes,
		   struct exp *array);
struct exp *ast_call(struct arena *a, struct loc loc, const char *name,
		     struct vec args);
struct exp *ast_print(struct arena *a, struct loc loc, enum print_kind pk,
		      int to_string, struct vec args);
struct exp *ast_stat(struct arena *a, struct loc loc, const char *op,
		     struct exp *stat, struct exp *shift);
struct exp *ast_hist(struct arena *a, struct loc loc, int is_log,
		     struct exp *stat, struct exp *lo, struct exp *hi,
		     struct exp *step);
struct exp *ast_target(struct arena *a, enum exp_kind kind, struct loc loc,
		       const char *name);
struct exp *ast_op(struct arena *a, enum exp_kind kind, struct loc loc,
		   struct exp *operand, const char *name, const char *module);
struct target_comp *ast_comp(struct arena *a, enum target_comp_kind kind,
			     struct loc loc, const char *name, int64_t num,
			     struct exp *index);
struct stmt *ast_stmt(struct arena *a, enum stmt_kind kind, struct loc loc);
struct stmt *ast_block(struct arena *a, struct loc loc, struct vec stmts);
struct stmt *ast_exp_stmt(struct arena *a, enum stmt_kind kind,
			  struct loc loc, struct exp *e);
struct stmt *ast_if(struct arena *a, struct loc loc, struct exp *cond,
		    struct stmt *then, struct stmt *els);
struct stmt *ast_for(struct arena *a, struct loc loc, struct exp *init,
		     struct exp *cond, struct exp *incr, struct stmt *body,
		     int is_while);
struct stmt *ast_try(struct arena *a, struct loc loc, struct stmt *body,
		     struct exp *var, struct stmt *handler);
struct pp_comp *ast_pp_comp(struct arena *a, struct loc loc,
			    const char *name, struct exp *arg, int has_arg);
struct probe_point *ast_probe_point(struct arena *a, struct loc loc,
				    struct vec comps);
struct probe *ast_probe(struct arena *a, struct loc loc, struct vec points,
			struct stmt *body, const struct src_file *f);
struct probe_alias *ast_alias(struct arena *a, struct loc loc,
			      struct vec names, struct vec points,
			      enum alias_kind kind, struct stmt *body,
			      struct stmt *epilogue, const struct src_file *f);
struct param *ast_param(struct arena *a, struct loc loc, const char *name,
			enum type t);
struct func *ast_func(struct arena *a, struct loc loc, const char *name,
		      enum type t, struct vec params, const struct src_file *f);
struct global *ast_global(struct arena *a, struct loc loc, const char *name,
			  const struct src_file *f);
struct embedded_code *ast_embed(struct arena *a, struct loc loc,
				const char *code, const struct src_file *f);
struct file_ast *ast_file(struct arena *a, const struct src_file *f);

#endif
