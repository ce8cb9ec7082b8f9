/* ast.c - constructors of syntax-tree nodes.
 *
 * The grammar (parser.y) builds nodes only through these.  Every node is
 * zeroed arena memory with its kind and location set; lists start empty.
 */
#include <stddef.h>
#include <string.h>

#include "ast/ast.h"
#include "ast/ast_new.h"

#define EXP_SIZE(m) (offsetof(struct exp, u) + sizeof(((struct exp *)0)->u.m))

size_t ast_exp_size(enum exp_kind kind)
{
	switch (kind) {
	case EX_NUM:
		return EXP_SIZE(num);
	case EX_STR: case EX_EMBEDDED:
		return EXP_SIZE(str);
	case EX_BINARY: case EX_CMP: case EX_LOG_OR: case EX_LOG_AND:
	case EX_CONCAT: case EX_REGEX:
		return EXP_SIZE(bin);
	case EX_UNARY: case EX_PRE_INC: case EX_POST_INC:
		return EXP_SIZE(un);
	case EX_SYM:
		return EXP_SIZE(sym);
	case EX_INDEX: case EX_IN:
		return EXP_SIZE(index);
	case EX_CALL:
		return EXP_SIZE(call);
	case EX_PRINT:
		return EXP_SIZE(print);
	case EX_STAT:
		return EXP_SIZE(stat);
	case EX_HIST:
		return EXP_SIZE(hist);
	case EX_TARGET: case EX_TARGET_LIST:
		return EXP_SIZE(target);
	case EX_CAST: case EX_ATVAR: case EX_DEFINED: case EX_PROBEWRITE:
	case EX_ENTRY: case EX_PERF: case EX_CONST: case EX_REGISTER:
	case EX_DEREF: case EX_AUTOCAST:
		return EXP_SIZE(op);
	case EX_ASSIGN: case EX_TERNARY: case EX_KIND_COUNT:
		break;
	}
	return sizeof(struct exp);
}

#define STMT_SIZE(m) (offsetof(struct stmt, u) + sizeof(((struct stmt *)0)->u.m))

size_t ast_stmt_size(enum stmt_kind kind)
{
	switch (kind) {
	case ST_BLOCK:
		return STMT_SIZE(block);
	case ST_EMBEDDED:
		return STMT_SIZE(embedded);
	case ST_EXP: case ST_DELETE: case ST_RETURN:
		return STMT_SIZE(exp);
	case ST_IF:
		return STMT_SIZE(if_);
	case ST_FOR:
		return STMT_SIZE(for_);
	case ST_TRY:
		return STMT_SIZE(try_);
	case ST_NULL: case ST_BREAK: case ST_CONTINUE: case ST_NEXT:
		return offsetof(struct stmt, u);
	case ST_FOREACH: case ST_KIND_COUNT:
		break;
	}
	return sizeof(struct stmt);
}

static struct exp *ast_exp(struct arena *a, enum exp_kind kind, struct loc loc)
{
	struct exp *e = arena_alloc(a, ast_exp_size(kind));

	e->kind = kind;
	e->loc = loc;
	return e;
}

struct exp *ast_num(struct arena *a, struct loc loc, int64_t v)
{
	struct exp *e = ast_exp(a, EX_NUM, loc);

	e->u.num = v;
	return e;
}

struct exp *ast_str(struct arena *a, struct loc loc, const char *s,
		    size_t len, const char *raw)
{
	struct exp *e = ast_exp(a, EX_STR, loc);

	e->u.str.s = s;
	e->u.str.len = len;
	e->u.str.raw = raw;
	return e;
}

struct exp *ast_embedded(struct arena *a, struct loc loc, const char *code)
{
	struct exp *e = ast_exp(a, EX_EMBEDDED, loc);

	e->u.str.s = code;
	e->u.str.len = strlen(code);
	return e;
}

struct exp *ast_binary(struct arena *a, enum exp_kind kind, struct loc loc,
		       enum op op, struct exp *l, struct exp *r)
{
	struct exp *e = ast_exp(a, kind, loc);

	e->u.bin.op = op;
	e->u.bin.left = l;
	e->u.bin.right = r;
	return e;
}

struct exp *ast_unary(struct arena *a, enum exp_kind kind, struct loc loc,
		      enum op op, struct exp *operand)
{
	struct exp *e = ast_exp(a, kind, loc);

	e->u.un.op = op;
	e->u.un.operand = operand;
	return e;
}

struct exp *ast_ternary(struct arena *a, struct loc loc, struct exp *c,
			struct exp *yes, struct exp *no)
{
	struct exp *e = ast_exp(a, EX_TERNARY, loc);

	e->u.tern.cond = c;
	e->u.tern.yes = yes;
	e->u.tern.no = no;
	return e;
}

struct exp *ast_sym(struct arena *a, struct loc loc, const char *name)
{
	struct exp *e = ast_exp(a, EX_SYM, loc);

	e->u.sym.name = name;
	return e;
}

struct exp *ast_index(struct arena *a, struct loc loc, struct exp *base,
		      struct vec indexes)
{
	struct exp *e = ast_exp(a, EX_INDEX, loc);

	e->u.index.base = base;
	e->u.index.indexes = indexes;
	return e;
}

struct exp *ast_in(struct arena *a, struct loc loc, struct vec indexes,
		   struct exp *array)
{
	struct exp *e = ast_exp(a, EX_IN, loc);

	e->u.index.indexes = indexes;
	e->u.index.in_array = array;
	return e;
}

struct exp *ast_call(struct arena *a, struct loc loc, const char *name,
		     struct vec args)
{
	struct exp *e = ast_exp(a, EX_CALL, loc);

	e->u.call.name = name;
	e->u.call.args = args;
	return e;
}

struct exp *ast_print(struct arena *a, struct loc loc, enum print_kind pk,
		      int to_string, struct vec args)
{
	struct exp *e = ast_exp(a, EX_PRINT, loc);

	e->u.print.pkind = pk;
	e->u.print.to_string = to_string;
	e->u.print.args = args;
	return e;
}

struct exp *ast_stat(struct arena *a, struct loc loc, const char *op,
		     struct exp *stat, struct exp *shift)
{
	struct exp *e = ast_exp(a, EX_STAT, loc);

	e->u.stat.op = op;
	e->u.stat.stat = stat;
	e->u.stat.shift = shift;
	return e;
}

struct exp *ast_hist(struct arena *a, struct loc loc, int is_log,
		     struct exp *stat, struct exp *lo, struct exp *hi,
		     struct exp *step)
{
	struct exp *e = ast_exp(a, EX_HIST, loc);

	e->u.hist.is_log = is_log;
	e->u.hist.stat = stat;
	e->u.hist.lo = lo;
	e->u.hist.hi = hi;
	e->u.hist.step = step;
	return e;
}

struct exp *ast_target(struct arena *a, enum exp_kind kind, struct loc loc,
		       const char *name)
{
	struct exp *e = ast_exp(a, kind, loc);

	e->u.target.name = name;
	return e;
}

struct exp *ast_op(struct arena *a, enum exp_kind kind, struct loc loc,
		   struct exp *operand, const char *name, const char *module)
{
	struct exp *e = ast_exp(a, kind, loc);

	e->u.op.operand = operand;
	e->u.op.name = name;
	e->u.op.module = module;
	return e;
}

struct target_comp *ast_comp(struct arena *a, enum target_comp_kind kind,
			     struct loc loc, const char *name, int64_t num,
			     struct exp *index)
{
	struct target_comp *c = ARENA_NEW(a, struct target_comp);

	c->kind = kind;
	c->loc = loc;
	c->name = name;
	c->num = num;
	c->index = index;
	return c;
}

/* ---- statements ---- */

struct stmt *ast_stmt(struct arena *a, enum stmt_kind kind, struct loc loc)
{
	struct stmt *s = arena_alloc(a, ast_stmt_size(kind));

	s->kind = kind;
	s->loc = loc;
	return s;
}

struct stmt *ast_block(struct arena *a, struct loc loc, struct vec stmts)
{
	struct stmt *s = ast_stmt(a, ST_BLOCK, loc);

	s->u.block = stmts;
	return s;
}

struct stmt *ast_exp_stmt(struct arena *a, enum stmt_kind kind,
			  struct loc loc, struct exp *e)
{
	struct stmt *s = ast_stmt(a, kind, loc);

	s->u.exp = e;
	return s;
}

struct stmt *ast_if(struct arena *a, struct loc loc, struct exp *cond,
		    struct stmt *then, struct stmt *els)
{
	struct stmt *s = ast_stmt(a, ST_IF, loc);

	s->u.if_.cond = cond;
	s->u.if_.then = then;
	s->u.if_.els = els;
	return s;
}

struct stmt *ast_for(struct arena *a, struct loc loc, struct exp *init,
		     struct exp *cond, struct exp *incr, struct stmt *body,
		     int is_while)
{
	struct stmt *s = ast_stmt(a, ST_FOR, loc);

	s->u.for_.init = init;
	s->u.for_.cond = cond;
	s->u.for_.incr = incr;
	s->u.for_.body = body;
	s->u.for_.is_while = is_while;
	return s;
}

struct stmt *ast_try(struct arena *a, struct loc loc, struct stmt *body,
		     struct exp *var, struct stmt *handler)
{
	struct stmt *s = ast_stmt(a, ST_TRY, loc);

	s->u.try_.body = body;
	s->u.try_.catch_var = var;
	s->u.try_.handler = handler;
	return s;
}

/* ---- declarations ---- */

struct pp_comp *ast_pp_comp(struct arena *a, struct loc loc,
			    const char *name, struct exp *arg, int has_arg)
{
	struct pp_comp *c = ARENA_NEW(a, struct pp_comp);

	c->loc = loc;
	c->name = name;
	c->arg = arg;
	c->has_arg = has_arg;
	return c;
}

struct probe_point *ast_probe_point(struct arena *a, struct loc loc,
				    struct vec comps)
{
	struct probe_point *pp = ARENA_NEW(a, struct probe_point);

	pp->loc = loc;
	pp->comps = comps;
	return pp;
}

struct probe *ast_probe(struct arena *a, struct loc loc, struct vec points,
			struct stmt *body, const struct src_file *f)
{
	struct probe *p = ARENA_NEW(a, struct probe);

	p->loc = loc;
	p->points = points;
	p->body = body;
	p->file = f;
	return p;
}

struct probe_alias *ast_alias(struct arena *a, struct loc loc,
			      struct vec names, struct vec points,
			      enum alias_kind kind, struct stmt *body,
			      struct stmt *epilogue, const struct src_file *f)
{
	struct probe_alias *al = ARENA_NEW(a, struct probe_alias);

	al->loc = loc;
	al->names = names;
	al->points = points;
	al->kind = kind;
	al->body = body;
	al->epilogue = epilogue;
	al->file = f;
	return al;
}

struct param *ast_param(struct arena *a, struct loc loc, const char *name,
			enum type t)
{
	struct param *p = ARENA_NEW(a, struct param);

	p->loc = loc;
	p->name = name;
	p->decl_type = t;
	return p;
}

struct func *ast_func(struct arena *a, struct loc loc, const char *name,
		      enum type t, struct vec params, const struct src_file *f)
{
	struct func *fn = ARENA_NEW(a, struct func);

	fn->loc = loc;
	fn->name = name;
	fn->decl_type = t;
	fn->params = params;
	fn->file = f;
	return fn;
}

struct global *ast_global(struct arena *a, struct loc loc, const char *name,
			  const struct src_file *f)
{
	struct global *g = ARENA_NEW(a, struct global);

	g->loc = loc;
	g->name = name;
	g->file = f;
	return g;
}

struct embedded_code *ast_embed(struct arena *a, struct loc loc,
				const char *code, const struct src_file *f)
{
	struct embedded_code *e = ARENA_NEW(a, struct embedded_code);

	e->loc = loc;
	e->code = code;
	e->file = f;
	return e;
}

struct file_ast *ast_file(struct arena *a, const struct src_file *f)
{
	struct file_ast *fa = ARENA_NEW(a, struct file_ast);

	fa->file = f;
	fa->privileged = f->is_tapset;
	return fa;
}

int exp_int_literal(const struct exp *e, int64_t *v)
{
	if (e && e->kind == EX_NUM) {
		*v = e->u.num;
		return 1;
	}
	if (e && e->kind == EX_UNARY && e->u.un.op == OP_NEG &&
	    e->u.un.operand->kind == EX_NUM) {
		*v = (int64_t)(0 - (uint64_t)e->u.un.operand->u.num);
		return 1;
	}
	return 0;
}
