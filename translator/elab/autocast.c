/* autocast.c - value->member on values that carry a C type (pass 2).
 *
 * As in stap 4, a value that came from a typed source keeps its C type:
 * @cast(…) and &@cast(…), a target variable, @var, another such access,
 * a variable (local or global) every typed assignment of which gave the
 * same type, a script function every typed return of which did, an
 * assignment's or a ternary's value.  `e->m`, `e[N]` and `&e->m` on it
 * walk its type like @cast (tvar.c); the access reads the memory the type
 * came from (kernel, or a process's for user-space DWARF).  Types from
 * different sources differ even when they are the same C type (two @cast
 * modules), as in stap: such a variable has no type.  An array's values
 * carry none, except @entry's (entry.c saves them in an array).  The
 * types settle by repeating until nothing changes; a failed walk, or what
 * stays untyped, is an error only if the optimizer keeps the access
 * (elab_report_unresolved_targets).  @defined of
 * such an access is false, as in stap 4.8 (which decides it before the
 * types are known), even where the access itself resolves.
 */
#include <string.h>

#include "ast/ast_walk.h"
#include "elab/elab.h"
#include "elab/tvar.h"

/* A typed access whose walk failed: reported only if the optimizer keeps
 * it, as stap resolves these after optimizing.  (Also one that walked,
 * to check its type held.) */
struct failed {
	struct exp *e;
	struct ctype *type;
};

struct slot {
	const void *key;	/* struct sym * (a variable, @entry's array)
				   or struct func * (its returns) */
	struct ctype *type;
	int user;
	int conflict;		/* two different types: none */
};

struct actx {
	struct elab *el;
	struct vec slots;	/* struct slot * */
	struct vec failed;	/* struct exp *: walked and failed (or a
				   write reported): not tried again */
	struct vec resolved;	/* struct failed *: walked with that type */
	struct func *func;	/* the function walked, or NULL */
	int resolving;		/* the variables' types are settled: walk */
	int changed;
};

static struct slot *slot_of(struct actx *a, const void *key, int make)
{
	struct slot *sl;
	int i;

	VEC_EACH(a->slots, i, sl)
		if (sl->key == key)
			return sl;
	if (!make)
		return NULL;
	sl = ARENA_NEW(a->el->s->arena, struct slot);
	sl->key = key;
	vec_push(a->el->s->arena, &a->slots, sl);
	return sl;
}

/* The same type from the same source: identical nodes, or pointers to
 * (arrays of) the same. */
static int same_type(struct ctype *x, struct ctype *y)
{
	x = ctype_strip(x);
	y = ctype_strip(y);
	if (x == y)
		return 1;
	if (!x || !y || x->kind != y->kind)
		return 0;
	if (x->kind == CT_PTR || x->kind == CT_ARRAY)
		return x->size == y->size && same_type(x->target, y->target);
	return 0;
}

static struct ctype *ptr_to(struct actx *a, struct ctype *t)
{
	struct ctype *p = ARENA_NEW(a->el->s->arena, struct ctype);

	p->kind = CT_PTR;
	p->name = "";
	p->size = 8;
	p->target = t;
	return p;
}

/* The C type of an access's value: a pointer, or the address of what it
 * reached (an array's address points at its elements). */
static struct ctype *access_type(struct actx *a, const struct tvar *tv,
				 int *user)
{
	struct ctype *t;

	if (!tv || tv->final == TV_PRETTY || tv->pretty_kind || tv->bit_size)
		return NULL;
	t = ctype_strip(tv->type);
	if (!t)
		return NULL;
	*user = tv->user;
	if (tv->final == TV_LOAD_INT && tv->size == 0)
		return t->kind == CT_ARRAY ? ptr_to(a, t->target) :
					     ptr_to(a, tv->type);
	return t->kind == CT_PTR ? tv->type : NULL;
}

/* X is the literal that leaves the other operand of OP as it is (LEFT:
 * X is the left one). */
static int identity(enum op op, const struct exp *x, int left)
{
	if (x->kind != EX_NUM)
		return 0;
	return (op == OP_ADD && x->u.num == 0) ||
	       (op == OP_SUB && x->u.num == 0 && !left) ||
	       (op == OP_MUL && x->u.num == 1);
}

/* The array @entry's value is kept in (entry.c), or NULL. */
static struct sym *entry_array(struct exp *e)
{
	struct exp *b;

	if (!e || e->kind != EX_INDEX || !(b = e->u.index.base) ||
	    b->kind != EX_SYM || !b->u.sym.sym ||
	    strncmp(b->u.sym.name, "__global_entry_tvar_entry_", 26))
		return NULL;
	return b->u.sym.sym;
}

/* The C type E's value carries, or NULL. */
static struct ctype *value_type(struct actx *a, struct exp *e, int *user)
{
	struct ctype *x, *y;
	struct slot *sl;
	int u2;

	if (!e)
		return NULL;
	switch (e->kind) {
	case EX_CAST: case EX_ATVAR: case EX_AUTOCAST:
		return access_type(a, e->u.op.resolved, user);
	case EX_TARGET:
		return access_type(a, e->u.target.resolved, user);
	case EX_ENTRY:
		return value_type(a, e->u.op.operand, user);
	case EX_ASSIGN:
		return e->u.bin.op == OP_ASSIGN ?
		       value_type(a, e->u.bin.right, user) : NULL;
	case EX_BINARY:		/* v + 0, v * 1: stap's optimizer leaves v */
		if (a->el->s->unoptimized)
			return NULL;
		if (identity(e->u.bin.op, e->u.bin.right, 0))
			return value_type(a, e->u.bin.left, user);
		if (identity(e->u.bin.op, e->u.bin.left, 1))
			return value_type(a, e->u.bin.right, user);
		return NULL;
	case EX_TERNARY:
		if (e->u.tern.cond->kind == EX_NUM)
			return value_type(a, e->u.tern.cond->u.num ?
					  e->u.tern.yes : e->u.tern.no, user);
		x = value_type(a, e->u.tern.yes, user);
		y = value_type(a, e->u.tern.no, &u2);
		return x && y && same_type(x, y) ? x : NULL;
	case EX_SYM:
		sl = e->u.sym.sym ? slot_of(a, e->u.sym.sym, 0) : NULL;
		break;
	case EX_CALL:
		sl = e->u.call.func ? slot_of(a, e->u.call.func, 0) : NULL;
		break;
	case EX_INDEX:
		sl = entry_array(e) ? slot_of(a, entry_array(e), 0) : NULL;
		break;
	default:
		return NULL;
	}
	if (!sl || sl->conflict || !sl->type)
		return NULL;
	*user = sl->user;
	return sl->type;
}

/* A typed value reaching KEY (a variable or a function's return). */
static void merge(struct actx *a, const void *key, struct exp *value)
{
	struct slot *sl;
	struct ctype *t;
	int user = 0;

	if (!(t = value_type(a, value, &user)))
		return;
	sl = slot_of(a, key, 1);
	if (sl->conflict || (sl->type && same_type(sl->type, t)))
		return;
	if (sl->type)
		sl->conflict = 1;
	else {
		sl->type = t;
		sl->user = user;
	}
	a->changed = 1;
}

static int was_failed(struct actx *a, struct exp *e)
{
	struct exp *f;
	int i;

	VEC_EACH(a->failed, i, f)
		if (f == e)
			return 1;
	return 0;
}

static void resolve(struct actx *a, struct exp *e)
{
	struct session *s = a->el->s;
	struct ctype *t;
	struct tvar *tv;
	int user = 0;

	struct failed *f;

	if (!a->resolving || e->u.op.resolved || was_failed(a, e) ||
	    !(t = value_type(a, e->u.op.operand, &user)))
		return;
	a->changed = 1;
	tv = tvar_resolve(s, e, &e->u.op.comps, NULL, t, "autocast", "->", 1);
	f = ARENA_NEW(s->arena, struct failed);
	f->e = e;
	f->type = t;
	if (!tv) {
		vec_push(s->arena, &a->el->autocast_failed, f);
		vec_push(s->arena, &a->failed, e);
		return;
	}
	vec_push(s->arena, &a->resolved, f);
	tv->base_exp = e->u.op.operand;
	tv->user = user;
	e->u.op.resolved = tv;
}

static void fold(struct exp *e, int v)
{
	e->kind = EX_NUM;
	e->u.num = v;
	e->type = TY_LONG;
}

static int has_pretty(const struct exp *e)
{
	struct target_comp *c;
	int i;

	VEC_EACH(e->u.op.comps, i, c)
		if (c->kind == TC_PRETTY)
			return 1;
	return 0;
}

/* stap's words for a write to an autocast access. */
static void check_write(struct actx *a, struct exp *lhs)
{
	struct session *s = a->el->s;

	if (!lhs || lhs->kind != EX_AUTOCAST || was_failed(a, lhs))
		return;
	if (has_pretty(lhs))
		diag_error(&s->diags, lhs->loc, "sema.autocast-write",
			   "cannot write to pretty-printed variable");
	else if (!s->guru)
		diag_error(&s->diags, lhs->loc, "sema.autocast-write",
			   "write not permitted; need stap -g");
	else {
		a->el->prog->autocast_writes = 1;
		return;
	}
	vec_push(s->arena, &a->failed, lhs);
}

static int visit(struct walker *w, struct exp *e)
{
	struct actx *a = w->arg;

	switch (e->kind) {
	case EX_TERNARY:	/* @choose_defined: only the live branch */
		walk_exp(w, e->u.tern.cond);
		if (e->u.tern.cond->kind != EX_NUM)
			return 0;
		walk_exp(w, e->u.tern.cond->u.num ? e->u.tern.yes : e->u.tern.no);
		return 1;
	case EX_DEFINED:
		if (!e->u.op.operand || e->u.op.operand->kind != EX_AUTOCAST)
			return 0;
		fold(e, 0);	/* as stap 4.8's, whatever the value's type */
		return 1;
	case EX_AUTOCAST:
		walk_exp(w, e->u.op.operand);
		resolve(a, e);
		return 0;
	case EX_ASSIGN:
		if (e->u.bin.left->kind == EX_SYM && e->u.bin.op == OP_ASSIGN &&
		    e->u.bin.left->u.sym.sym)
			merge(a, e->u.bin.left->u.sym.sym, e->u.bin.right);
		else if (entry_array(e->u.bin.left) && e->u.bin.op == OP_ASSIGN)
			merge(a, entry_array(e->u.bin.left), e->u.bin.right);
		check_write(a, e->u.bin.left);
		return 0;
	case EX_PRE_INC: case EX_POST_INC:
		check_write(a, e->u.un.operand);
		return 0;
	default:
		return 0;
	}
}

static int visit_stmt(struct walker *w, struct stmt *st)
{
	struct actx *a = w->arg;

	if (st->kind == ST_RETURN && a->func && st->u.exp)
		merge(a, a->func, st->u.exp);
	if (st->kind != ST_IF)
		return 0;
	walk_exp(w, st->u.if_.cond);	/* if (@defined(…)): the live branch */
	if (st->u.if_.cond->kind != EX_NUM) {
		walk_stmt(w, st->u.if_.then);
		walk_stmt(w, st->u.if_.els);
	} else {
		walk_stmt(w, st->u.if_.cond->u.num ? st->u.if_.then :
			  st->u.if_.els);
	}
	return 1;
}

/* An access walked with a type its value lost later (a variable's second,
 * different source came from an access walked after it): untyped. */
static void forget_moved(struct actx *a, struct vec *done)
{
	struct failed *f;
	struct ctype *t;
	int i, user;

	VEC_EACH(*done, i, f) {
		t = f->e ? value_type(a, f->e->u.op.operand, &user) : NULL;
		if (t && same_type(t, f->type))
			continue;
		if (f->e)
			f->e->u.op.resolved = NULL;
		f->e = NULL;
	}
}

void elab_resolve_autocasts(struct elab *el)
{
	struct actx a = { .el = el };
	struct walker w = { .exp = visit, .stmt = visit_stmt, .arg = &a };
	struct derived_probe *dp;
	struct func *f;
	int i, rounds = 0;

	do {
		if (a.changed)	/* the variables' types moved: again */
			a.resolving = 0;
		else if (rounds)	/* they settled: walk the accesses */
			a.resolving = 1;
		a.changed = 0;
		VEC_EACH(el->prog->probes, i, dp) {
			a.func = NULL;
			walk_stmt(&w, dp->body);
			if (dp->cond)
				walk_exp(&w, dp->cond);
		}
		VEC_EACH(el->prog->funcs, i, f) {
			a.func = f;
			if (f->body->kind != ST_EMBEDDED)
				walk_stmt(&w, f->body);
		}
	} while ((a.changed || !a.resolving) && ++rounds < 64);
	forget_moved(&a, &a.resolved);
	forget_moved(&a, &el->autocast_failed);
}

void elab_report_autocast(struct elab *el, struct exp *e)
{
	struct failed *f;
	int i;

	VEC_EACH(el->autocast_failed, i, f)
		if (f->e == e) {
			tvar_resolve(el->s, e, &e->u.op.comps, NULL, f->type,
				     "autocast", "->", 0);
			return;
		}
	diag_error(&el->s->diags, e->loc, "sema.autocast-type",
		   "unknown type in dereference");
}
