/* stmt.c - C for statements, probe handlers and functions (pass 3).
 *
 * Locals live in a frame in the per-CPU context, never on the kernel
 * stack: a probe's frame is frame 0, a function's is one deeper than its
 * caller's.  Statements are counted against MAXACTION in runs: one check
 * after each run of straight-line statements and one per loop iteration,
 * so a runaway loop always ends with "MAXACTION exceeded".
 */
#include <string.h>

#include "emit/emit_int.h"

#define A emit_sprintf

void emit_unsupported(struct emit *e, struct loc loc, const char *what)
{
	diag_error(&e->s->diags, loc, "translate.unsupported",
		   "%s is not supported by this translator yet", what);
}

/* The first token of an expression, as stap names it in error messages. */
static const char *first_token(struct emit *e, struct exp *x, struct loc *loc)
{
	for (;;) {
		*loc = x->loc;
		switch (x->kind) {
		case EX_SYM:
			return A(e, "identifier '%s'", x->u.sym.name);
		case EX_CALL:
			return A(e, "identifier '%s'", x->u.call.name);
		case EX_NUM:
			return A(e, "number '%lld'", (long long)x->u.num);
		case EX_STR:
			return A(e, "string '%.*s'", (int)x->u.str.len, x->u.str.s);
		case EX_PRINT: {
			static const char *const names[] = {
				"print", "println", "printd", "printdln", "printf"
			};
			return A(e, "identifier '%s%s'", x->u.print.to_string ? "s" : "",
				 names[x->u.print.pkind]);
		}
		case EX_ASSIGN: case EX_BINARY: case EX_CMP: case EX_CONCAT:
		case EX_LOG_AND: case EX_LOG_OR: case EX_REGEX:
			x = x->u.bin.left;
			continue;
		case EX_POST_INC:
			x = x->u.un.operand;
			continue;
		case EX_TERNARY:
			x = x->u.tern.cond;
			continue;
		case EX_INDEX:
			if (!x->u.index.base)
				return "operator '['";
			x = x->u.index.base;
			continue;
		case EX_UNARY: case EX_PRE_INC:
			return A(e, "operator '%s'", op_name(x->u.un.op));
		case EX_TARGET:
			return A(e, "identifier '$%s'", x->u.target.name);
		default:
			return "operator '('";
		}
	}
}

/* A block's only statement once elided ones are gone, or NULL. */
static struct stmt *only_stmt(struct stmt *st)
{
	struct stmt *one = NULL;
	int i;

	for (i = 0; i < st->u.block.n; i++) {
		struct stmt *s = st->u.block.v[i];
		if (s->kind == ST_NULL)
			continue;
		if (one)
			return NULL;
		one = s;
	}
	return one;
}

/* How stap names a statement in "MAXACTION exceeded near …": a block of
 * one statement is that statement (stap's optimizer drops the braces). */
const char *emit_stmt_where(struct emit *e, struct stmt *st)
{
	struct loc loc;
	const char *what;

	while (st->kind == ST_BLOCK && only_stmt(st))
		st = only_stmt(st);
	loc = st->loc;
	switch (st->kind) {
	case ST_EXP:
		what = first_token(e, st->u.exp, &loc);
		break;
	case ST_BLOCK:
		what = "operator '{'";
		break;
	default:
		what = "keyword";
		break;
	}
	return emit_where(e, what, loc);
}

#define stmt_where emit_stmt_where

/* Where a loop's body is charged: an empty body, which stap's optimizer
 * replaces with an empty statement at the loop's own token, is the loop
 * (with -u it stays the braces). */
const char *emit_body_where(struct emit *e, struct stmt *loop, struct stmt *body)
{
	if (!e->s->unoptimized && (body->kind == ST_NULL ||
				   (body->kind == ST_BLOCK && !body->u.block.n)))
		return stmt_where(e, loop);
	return stmt_where(e, body);
}

/* stap's accounting, which decides where a runaway loop stops: actions
 * gather at translation time and are charged at the end of each basic
 * block (before an if, at the end of a branch or loop body, at a jump). */
void emit_actions(struct emit *e, int n, const char *where, int update)
{
	if (!e->counting)
		return;
	e->pending += n;
	if ((update && e->pending > 0) || e->pending >= 10) {
		emit_line(e, "if (_stp_check_actions(c, %d, %s)) goto %s;",
			  e->pending, where, e->err_label);
		e->pending = 0;
	}
}

const char *emit_new_label(struct emit *e, const char *stem)
{
	return A(e, "%s_%d", stem, e->nlabels++);
}

#define new_label emit_new_label

const char *emit_exp_where(struct emit *e, struct exp *x)
{
	struct loc loc;
	const char *what = first_token(e, x, &loc);

	return emit_where(e, what, loc);
}

/* for and while: break and continue jump to labels, so that the step
 * and the counting can sit where stap puts them. */
static void emit_for(struct emit *e, struct stmt *st)
{
	const char *kw = stmt_where(e, st);
	const char *brk = new_label(e, "brk"), *cont = new_label(e, "cont");

	if (st->u.for_.init) {
		emit_line(e, "(void)(%s);", emit_exp(e, st->u.for_.init));
		emit_actions(e, 1, emit_exp_where(e, st->u.for_.init), 0);
	}
	emit_actions(e, 1, kw, 1);
	emit_open(e, "for (;;)");
	emit_actions(e, 1, kw, 0);
	if (st->u.for_.cond)
		emit_line(e, "if (!(%s)) goto %s;", emit_exp(e, st->u.for_.cond), brk);
	e->break_label = brk, e->continue_label = cont;
	emit_stmt(e, st->u.for_.body);
	emit_actions(e, 0, emit_body_where(e, st, st->u.for_.body), 1);
	emit_line(e, "%s: __attribute__((unused));", cont);
	/* stap counts the step as a statement after the loop's last charge:
	 * it is charged with whatever comes next */
	if (st->u.for_.incr) {
		emit_line(e, "(void)(%s);", emit_exp(e, st->u.for_.incr));
		emit_actions(e, 1, emit_exp_where(e, st->u.for_.incr), 0);
	}
	emit_close(e, "");
	emit_line(e, "%s: ;", brk);
}

static void emit_try(struct emit *e, struct stmt *st)
{
	const char *outer = e->err_label;
	const char *catch_l = new_label(e, "catch");
	const char *end_l = new_label(e, "tried");
	const char *kw = stmt_where(e, st);

	emit_actions(e, 0, kw, 1);
	emit_open(e, "%s", "");
	e->err_label = catch_l;
	emit_stmt(e, st->u.try_.body);
	emit_actions(e, 0, stmt_where(e, st->u.try_.body), 1);
	e->err_label = outer;
	emit_line(e, "goto %s;", end_l);
	emit_line(e, "%s:", catch_l);
	emit_line(e, "if (c->aborted || c->actionremaining <= 0) goto %s;", outer);
	if (st->u.try_.catch_var) {
		struct exp *v = st->u.try_.catch_var;
		emit_line(e, "_stp_strlcpy(%s, c->last_error, MAXSTRINGLEN);",
			  emit_sym_ref(e, v->u.sym.sym));
	}
	emit_line(e, "c->last_error = NULL;");
	emit_actions(e, 1, kw, 1);
	if (st->u.try_.handler) {
		emit_stmt(e, st->u.try_.handler);
		emit_actions(e, 0, stmt_where(e, st->u.try_.handler), 1);
	}
	emit_line(e, "%s: ;", end_l);
	emit_close(e, "");
}

static void emit_return(struct emit *e, struct stmt *st)
{
	struct exp *v = st->u.exp;

	if (v && e->func && e->func->type == TY_STRING)
		emit_line(e, "_stp_strassign(l->__retvalue, %s);", emit_exp(e, v));
	else if (v && e->func && e->func->type == TY_LONG)
		emit_line(e, "l->__retvalue = %s;", emit_exp(e, v));
	else if (v && e->func && e->func->type == TY_UNKNOWN) {
		/* `return f()` with f of no type (only recursion decides it) */
		struct loc loc;

		first_token(e, v, &loc);
		diag_error(&e->s->diags, loc, "translate.return-type",
			   "return value type unsupported");
	} else if (v)
		emit_line(e, "(void)(%s);", emit_exp(e, v));
	emit_actions(e, 1, stmt_where(e, st), 1);
	emit_line(e, "goto out;");
}

static void emit_if(struct emit *e, struct stmt *st)
{
	emit_actions(e, 1, stmt_where(e, st), 1);
	emit_open(e, "if (%s)", emit_exp(e, st->u.if_.cond));
	emit_stmt(e, st->u.if_.then);
	emit_actions(e, 0, stmt_where(e, st->u.if_.then), 1);
	if (st->u.if_.els) {
		emit_close(e, "");
		emit_open(e, "else");
		emit_stmt(e, st->u.if_.els);
		emit_actions(e, 0, stmt_where(e, st->u.if_.els), 1);
	}
	emit_close(e, "");
}

void emit_stmt(struct emit *e, struct stmt *st)
{
	const char *brk = e->break_label, *cont = e->continue_label;
	int i;

	if (!st)
		return;
	switch (st->kind) {
	case ST_BLOCK:
		emit_open(e, "%s", "");
		for (i = 0; i < st->u.block.n; i++)
			emit_stmt(e, st->u.block.v[i]);
		emit_close(e, "");
		break;
	case ST_NULL:
		break;
	case ST_EXP:
		emit_line(e, "(void)(%s);", emit_exp(e, st->u.exp));
		emit_actions(e, 1, stmt_where(e, st), 0);
		break;
	case ST_IF:
		emit_if(e, st);
		break;
	case ST_FOR:
		emit_for(e, st);
		e->break_label = brk, e->continue_label = cont;
		break;
	case ST_FOREACH:
		emit_foreach(e, st);
		e->break_label = brk, e->continue_label = cont;
		break;
	case ST_RETURN:
		emit_return(e, st);
		break;
	case ST_DELETE:
		emit_delete(e, st);
		emit_actions(e, 1, stmt_where(e, st), 0);
		break;
	case ST_BREAK:
		if (!brk)
			diag_error(&e->s->diags, st->loc, "translate.outside-loop",
				   "cannot 'break' outside loop");
		emit_actions(e, 1, stmt_where(e, st), 1);
		emit_line(e, "goto %s;", brk);
		break;
	case ST_CONTINUE:
		if (!cont)
			diag_error(&e->s->diags, st->loc, "translate.outside-loop",
				   "cannot 'continue' outside loop");
		emit_actions(e, 1, stmt_where(e, st), 1);
		emit_line(e, "goto %s;", cont);
		break;
	case ST_NEXT:
		emit_actions(e, 1, stmt_where(e, st), 1);
		if (e->func)
			emit_line(e, "c->next = 1;");
		emit_line(e, "goto out;");
		break;
	case ST_TRY:
		emit_try(e, st);
		break;
	case ST_EMBEDDED:
		emit_raw(e, st->u.embedded.code);
		break;
	case ST_KIND_COUNT:
		break;
	}
}

/* Before a body runs: a body that cannot loop needs its longest path's
 * actions left, and then counts nothing; one that can counts as it goes
 * (stap 4.8's two schemes).  FUNC_WHERE names a function for the error. */
static void begin_counting(struct emit *e, int64_t bound, const char *func_where)
{
	e->pending = 0;
	e->counting = bound < 0;
	if (bound >= 0)
		emit_line(e, "if (_stp_check_actions_left(c, %lld, %s)) goto out;",
			  (long long)bound, func_where ? func_where : "NULL");
}

static void end_counting(struct emit *e, struct stmt *body)
{
	emit_actions(e, 0, stmt_where(e, body), 1);
	e->counting = 0;
}

static void emit_field(struct emit *e, struct strbuf *sb, const struct sym *sym)
{
	if (sym->type == TY_STRING)
		sb_printf(sb, "\tchar l_%s[MAXSTRINGLEN];\n", sym->name);
	else
		sb_printf(sb, "\tint64_t l_%s;\n", sym->name);
}

static void emit_frame_struct(struct emit *e, const char *name, struct vec *syms,
		       struct vec *params, enum type ret)
{
	struct strbuf sb = {0};
	struct sym *sym;
	int i;

	sb_printf(&sb, "struct %s {\n", name);
	if (ret == TY_STRING)
		sb_puts(&sb, "\tchar *__retvalue;\t/* the caller's MAXSTRINGLEN bytes */\n");
	else if (ret == TY_LONG)
		sb_puts(&sb, "\tint64_t __retvalue;\n");
	if (params)
		VEC_EACH(*params, i, sym)
			emit_field(e, &sb, sym);
	VEC_EACH(*syms, i, sym)
		emit_field(e, &sb, sym);
	sb_put(&sb, e->temps.s ? e->temps.s : "", e->temps.len);
	sb_puts(&sb, "\tchar _unused;\n};\n");
	emit_raw(e, sb.s);
	sb_free(&sb);
}

static void init_locals(struct emit *e, struct vec *locals)
{
	struct sym *sym;
	int i;

	VEC_EACH(*locals, i, sym) {
		if (sym->type == TY_STRING)
			emit_line(e, "l->l_%s[0] = '\\0';", sym->name);
		else if (sym->type == TY_LONG)
			emit_line(e, "l->l_%s = 0;", sym->name);
	}
}

static void begin_body(struct emit *e, struct func *f)
{
	e->func = f;
	e->temps = (struct strbuf){0};
	e->ntemps = 0;
	e->err_label = "out";
}

/* The body's text was emitted into its own buffer while its temporaries
 * were found; now its frame struct (which needs them) goes to the frames
 * buffer and the text to the output. */
static void finish_body(struct emit *e, struct strbuf *text, const char *frame,
			struct vec *locals, struct vec *params, enum type ret)
{
	struct strbuf out = e->out;

	e->out = e->frames;
	emit_frame_struct(e, frame, locals, params, ret);
	e->frames = e->out;
	e->out = out;
	sb_put(&e->out, text->s, text->len);
	sb_free(text);
	sb_free(&e->temps);
}

void emit_probe_body(struct emit *e, struct derived_probe *dp)
{
	struct strbuf saved = e->out;
	const char *frame = arena_printf(e->s->arena, "frame_p%d", dp->index);

	begin_body(e, NULL);
	e->out = (struct strbuf){0};
	/* notrace: a handler with ftrace's call site at its entry is one
	 * more record the kernel patches as the module loads and walks at
	 * every ftrace update, and arming or disarming a kprobe on a
	 * function's entry is one (bench/README, 1,712 kprobes: 0.1 s more
	 * to load, 0.7 s more to register and unregister them) */
	emit_line(e, "static notrace void probe_%d(struct context *c)", dp->index);
	emit_open(e, "%s", "");
	emit_line(e, "struct %s *l = _stp_frame_at(c, 0);", frame);
	emit_line(e, "(void)l;");
	init_locals(e, &dp->locals);
	if (dp->cond)
		emit_line(e, "if (!(%s)) return;", emit_exp(e, dp->cond));
	begin_counting(e, actions_probe_bound(dp->body), NULL);
	emit_stmt(e, dp->body);
	end_counting(e, dp->body);
	emit_line(e, "goto out;");
	emit_line(e, "out: __attribute__((unused));");
	emit_close(e, "\n");
	{
		struct strbuf text = e->out;
		e->out = saved;
		finish_body(e, &text, frame, &dp->locals, NULL, TY_VOID);
	}
}

static void emit_params_decl(struct emit *e, struct strbuf *sb, struct func *f)
{
	struct sym *sym;
	int i;

	sb_puts(sb, "struct context *c");
	VEC_EACH(f->info->params, i, sym)
		sb_printf(sb, ", %s a_%s", sym->type == TY_STRING ?
			  "const char *" : "int64_t", sym->name);
}

/* A tapset function marked myproc-unprivileged reads the current
 * process: at --privilege=stapusr, only when it is the user's (stap's
 * check and error; stp_owner.h). */
static void emit_myproc_check(struct emit *e)
{
	emit_line(e, "if (!_stp_task_mine(current))");
	emit_line(e, "\tSTAP_ERROR(\"myproc-unprivileged tapset function called without is_myproc checking for pid %%d (euid %%d)\", current->tgid, from_kuid_munged(_stp_owner_userns(), current_euid()));");
}

static void embedded_macros(struct emit *e, struct func *f, int define)
{
	struct sym *sym;
	int i;

	if (!define) {
		VEC_EACH(f->info->params, i, sym)
			emit_line(e, "#undef STAP_ARG_%s", sym->name);
		emit_line(e, "#undef STAP_FUNC_WHERE");
		return;
	}
	emit_line(e, "#define STAP_FUNC_WHERE %s",
		  emit_where(e, arena_printf(e->s->arena, "identifier '%s'", f->name),
			     f->loc));
	VEC_EACH(f->info->params, i, sym)
		emit_line(e, "#define STAP_ARG_%s (l->l_%s)", sym->name, sym->name);
	if (f->type == TY_STRING)
		emit_line(e, "#define STAP_RETURN(v) do { _stp_strassign(STAP_RETVALUE, (v)); goto out; } while (0)");
	else
		emit_line(e, "#define STAP_RETURN(v) do { STAP_RETVALUE = (v); goto out; } while (0)");
}

void emit_func_body(struct emit *e, struct func *f)
{
	struct strbuf saved = e->out, decl = {0};
	const char *frame = arena_printf(e->s->arena, "frame_f%d", f->info->index);
	struct sym *sym;
	int i;

	begin_body(e, f);
	e->out = (struct strbuf){0};
	emit_params_decl(e, &decl, f);
	emit_line(e, "static void f%d(%s)", f->info->index, decl.s);
	sb_free(&decl);
	emit_open(e, "%s", "");
	emit_line(e, "struct %s *l;", frame);
	emit_line(e, "if (_stp_check_nesting(c, %s)) return;",
		  emit_where(e, arena_printf(e->s->arena, "identifier '%s'", f->name), f->loc));
	emit_line(e, "l = _stp_frame_at(c, ++c->nesting);");
	if (f->type == TY_STRING)
		emit_line(e, "l->__retvalue[0] = '\\0';");
	else if (f->type == TY_LONG)
		emit_line(e, "l->__retvalue = 0;");
	VEC_EACH(f->info->params, i, sym) {
		if (sym->type == TY_STRING)
			emit_line(e, "_stp_strlcpy(l->l_%s, a_%s, MAXSTRINGLEN);",
				  sym->name, sym->name);
		else
			emit_line(e, "l->l_%s = a_%s;", sym->name, sym->name);
	}
	init_locals(e, &f->info->locals);
	if (f->body->kind == ST_EMBEDDED) {
		embedded_macros(e, f, 1);
		/* as stap: a bare return in the code leaves through out, so
		 * that the frame is popped */
		emit_line(e, "#define return goto out");
		if (f->myproc_unprivileged &&
		    session_privilege(e->s) == STP_PRIV_STAPUSR)
			emit_myproc_check(e);
		emit_open(e, "%s", "");
		emit_raw(e, f->body->u.embedded.code);
		emit_raw(e, "\n");
		emit_close(e, "");
		emit_line(e, "#undef return");
		emit_line(e, "#undef STAP_RETURN");
		embedded_macros(e, f, 0);
	} else {
		begin_counting(e, actions_func_bound(f),
			       emit_where(e, arena_printf(e->s->arena, "identifier '%s'", f->name),
					  f->loc));
		emit_stmt(e, f->body);
		end_counting(e, f->body);
	}
	emit_line(e, "goto out;");
	emit_line(e, "out: __attribute__((unused));");
	emit_line(e, "c->nesting--;");
	emit_close(e, "\n");
	{
		struct strbuf text = e->out;
		e->out = saved;
		finish_body(e, &text, frame, &f->info->locals, &f->info->params,
			    f->type);
	}
}

/* The C function a call to F goes to: F itself, or a dispatcher that
 * falls through to the next overload when F does `next`. */
const char *emit_call_entry(struct emit *e, struct func *f)
{
	if (!f->info->next_overload)
		return arena_printf(e->s->arena, "f%d", f->info->index);
	return arena_printf(e->s->arena, "fo%d", f->info->index);
}
