/* module.c - pass 3: the resolved program as one C file for kbuild.
 *
 * Layout of the generated file: limits and the runtime's headers; top-level
 * embedded C; globals (scalars are module parameters, so staprun's
 * var=value and stap -G set them); frame structs; functions and probe
 * handlers; the probe table with each probe's locks; each family's tables
 * and start/stop code; then the runtime's session code, which runs it all.
 * What each part must define for the runtime, and what the runtime gives
 * it, is runtime/stp_generated.h; the two change together.  Writes
 * s->tmpdir/<module>.c and sets s->c_source; -p3 prints the file.
 */
#define _GNU_SOURCE	/* strverscmp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/dump.h"
#include "emit/emit_int.h"
#include "util/fileio.h"
#include "util/tmpdir.h"
#include "version.h"

const char *emit_sym_ref(struct emit *e, const struct sym *sym)
{
	if (sym->kind == SYM_GLOBAL)
		return arena_printf(e->s->arena, "g%d_%s", sym->index, sym->name);
	return arena_printf(e->s->arena, "l->l_%s", sym->name);
}

static const char *init_value(struct emit *e, const struct sym *sym)
{
	const struct exp *init = sym->decl->init;

	if (!init)
		return NULL;
	if (init->kind == EX_STR)
		return emit_cstr(e, init->u.str.s, init->u.str.len);
	if (init->kind == EX_NUM)
		return arena_printf(e->s->arena, "%lldLL", (long long)init->u.num);
	if (init->kind == EX_UNARY && init->u.un.operand->kind == EX_NUM)
		return arena_printf(e->s->arena, "(-%lldLL)",
				    (long long)init->u.un.operand->u.num);
	return NULL;
}

static void emit_globals(struct emit *e)
{
	struct sym *sym;
	int i, data = 0;

	VEC_EACH(e->prog->globals, i, sym)
		if (sym->arity > 0 || sym->type == TY_STATS)
			data = 1;
	if (data || e->s->timing)	/* -t keeps its counts in stats */
		emit_line(e, "#include \"stp_data.c\"");
	VEC_EACH(e->prog->globals, i, sym) {
		const char *name = emit_sym_ref(e, sym);
		const char *init = init_value(e, sym);

		emit_line(e, "static stp_rwlock_t %s_lock;", name);
		if (emit_array_decl(e, sym))
			continue;
		if (sym->type == TY_STRING) {
			emit_line(e, "static char %s[MAXSTRINGLEN]%s%s;", name,
				  init ? " = " : "", init ? init : "");
			/* __module_param_call directly: a global named like a
			 * C macro (NULL) must not be expanded */
			if (!sym->decl->is_private) {
				emit_line(e, "static const struct kparam_string __param_string_%s = { MAXSTRINGLEN, %s };",
					  sym->name, name);
				emit_line(e, "__module_param_call(MODULE_PARAM_PREFIX, %s, &param_ops_string, .str = &__param_string_%s, 0, -1, 0);",
					  sym->name, sym->name);
			}
		} else {
			emit_line(e, "static int64_t %s = %s;", name, init ? init : "0");
			if (!sym->decl->is_private)
				emit_line(e, "__module_param_call(MODULE_PARAM_PREFIX, %s, &param_ops_stp_int64, &%s, 0, -1, 0);",
					  sym->name, name);
		}
	}
}

static void emit_prototypes(struct emit *e)
{
	struct func *f;
	struct sym *p;
	int i, j;

	VEC_EACH(e->prog->funcs, i, f) {
		struct strbuf sb = {0};
		sb_puts(&sb, "struct context *c");
		VEC_EACH(f->info->params, j, p)
			sb_printf(&sb, ", %s", p->type == TY_STRING ?
				  "const char *" : "int64_t");
		emit_line(e, "static void f%d(%s);", f->info->index, sb.s);
		if (f->info->next_overload)
			emit_line(e, "static void fo%d(%s);", f->info->index, sb.s);
		sb_free(&sb);
	}
}

/* Dispatchers for runtime overloading: try each overload in priority
 * order until one finishes without `next`. */
static void emit_dispatchers(struct emit *e)
{
	struct func *f, *g;
	struct sym *p;
	int i, j;

	VEC_EACH(e->prog->funcs, i, f) {
		struct strbuf decl = {0}, args = {0};
		if (!f->info->next_overload)
			continue;
		sb_puts(&decl, "struct context *c");
		sb_puts(&args, "c");
		VEC_EACH(f->info->params, j, p) {
			sb_printf(&decl, ", %s a%d", p->type == TY_STRING ?
				  "const char *" : "int64_t", j);
			sb_printf(&args, ", a%d", j);
		}
		emit_line(e, "static void fo%d(%s)", f->info->index, decl.s);
		emit_open(e, "%s", "");
		for (g = f; g; g = g->info->next_overload) {
			emit_line(e, "f%d(%s);", g->info->index, args.s);
			emit_line(e, "if (!c->next || c->last_error) return;");
			emit_line(e, "c->next = 0;");
		}
		emit_close(e, "\n");
		sb_free(&decl);
		sb_free(&args);
	}
}

static int cmp_sym_index(const void *a, const void *b)
{
	const struct sym *x = *(const struct sym *const *)a;
	const struct sym *y = *(const struct sym *const *)b;

	return x->index - y->index;
}

/* -t: where the script wrote the probe and what it came from. */
static void emit_timing_fields(struct emit *e, const struct derived_probe *dp)
{
	const char *where = arena_printf(e->s->arena, "%s:%d:%d",
		dp->elide_loc.file ? dp->elide_loc.file->name : "<input>",
		dp->elide_loc.line, dp->elide_loc.col);

	emit_line(e, "\t  .location = %s,", emit_cstr(e, where, strlen(where)));
	emit_line(e, "\t  .derivation = %s,",
		  emit_cstr(e, dp->timing_from, strlen(dp->timing_from)));
}

static int vec_has(const struct vec *v, const void *p)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == p)
			return 1;
	return 0;
}

/* Whether DP takes SYM's lock exclusively, as stap 4.8 decides: a write
 * does, but for an aggregate x <<< v only adds to its CPU's own record
 * (shared), while reading it merges the CPUs into one scratch record
 * (exclusive). */
static int lock_exclusive(const struct derived_probe *dp, const struct sym *sym)
{
	if (sym->type == TY_STATS)
		return vec_has(&dp->globals_read, sym);
	return vec_has(&dp->globals_written, sym);
}

/* pn(): the point as the script names it, as -l lists it: the first alias
 * it went through (with the user's suffix) or the point itself, wildcards
 * expanded, with the user's ? or !. */
static const char *probe_name(struct emit *e, const struct derived_probe *dp)
{
	const char *pn = dp->list_pp ? dp->list_pp : dp->pp;

	if (!dp->list_mark)
		return pn;
	return arena_printf(e->s->arena, "%s%c", pn, dp->mark_sufficient ? '!' : '?');
}

/* pp(): the point as resolved (or as its family names it), with its own
 * ? or ! and if (…), as stap (the marks of an alias's point, not the
 * user's name of the alias). */
static const char *runtime_pp(struct emit *e, const struct derived_probe *dp)
{
	const char *pp = dp->family->runtime_pp ?
			 dp->family->runtime_pp(e->s, dp) : NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!pp)
		pp = dp->pp;
	if (!dp->mark_optional && !dp->mark_sufficient && !dp->point_cond)
		return pp;
	f = open_memstream(&buf, &len);
	if (!f)
		return pp;
	fputs(pp, f);
	if (dp->mark_sufficient || dp->mark_optional)
		fputc(dp->mark_sufficient ? '!' : '?', f);
	if (dp->point_cond) {
		fputs(" if (", f);
		dump_exp(f, dp->point_cond);
		fputc(')', f);
	}
	fclose(f);
	return arena_strdup(e->s->arena, buf);
}

/* A script with more hit probes than this (wildcards over many
 * functions) runs them all through the table (_stp_probe_run_table):
 * an entry of its own costs each probe ~0.8 KB of text and its compile
 * time (1,712 kprobes: text x7, gcc's time x2.5). */
#define EMIT_HIT_ENTRIES_MAX 64

/* Does each hit probe get an entry of its own, stp_run_N? */
static int own_hit_entries(struct emit *e)
{
	struct derived_probe *dp;
	int i, n = 0;

	VEC_EACH(e->prog->probes, i, dp)
		n += !dp->family->no_hit_entry;
	return n <= EMIT_HIT_ENTRIES_MAX;
}

/* Each hit probe's entry, stp_run_N: the runtime's _stp_probe_hit with
 * its handler and lock table as constants (the families call it through
 * stp_probes[N].run). */
static void emit_hit_entries(struct emit *e)
{
	struct derived_probe *dp;
	int i;

	VEC_EACH(e->prog->probes, i, dp) {
		if (dp->family->no_hit_entry)
			continue;
		emit_line(e, "static notrace int stp_run_%d(struct stp_probe *p, struct pt_regs *regs, const u64 *args, struct pt_regs *sregs)", i);
		emit_open(e, "%s", "");
		if (dp->globals_used.n)
			emit_line(e, "return _stp_probe_hit(p, probe_%d, stp_locks_%d, %d, regs, args, sregs);",
				  i, i, dp->globals_used.n);
		else
			emit_line(e, "return _stp_probe_hit(p, probe_%d, NULL, 0, regs, args, sregs);", i);
		emit_close(e, "\n");
	}
}

/* The probe table: each probe's handler, pp, and locks (in global order,
 * so two probes never take two locks in opposite orders).  A probe that
 * touches no global takes no lock. */
static void emit_probe_table(struct emit *e)
{
	struct derived_probe *dp;
	int i, j, own = own_hit_entries(e);

	VEC_EACH(e->prog->probes, i, dp) {
		struct sym *sym;
		if (!dp->globals_used.n)
			continue;
		qsort(dp->globals_used.v, (size_t)dp->globals_used.n,
		      sizeof(void *), cmp_sym_index);
		emit_line(e, "static const struct stp_lock_spec stp_locks_%d[] = {", i);
		VEC_EACH(dp->globals_used, j, sym)
			emit_line(e, "\t{ &%s_lock, %d, %d },", emit_sym_ref(e, sym),
				  lock_exclusive(dp, sym), sym->index);
		emit_line(e, "};");
	}
	if (own)
		VEC_EACH(e->prog->probes, i, dp)
			if (!dp->family->no_hit_entry)
				emit_line(e, "static int stp_run_%d(struct stp_probe *p, struct pt_regs *regs, const u64 *args, struct pt_regs *sregs);", i);
	emit_line(e, "static struct stp_probe stp_probes[] = {");
	VEC_EACH(e->prog->probes, i, dp) {
		const char *pn = probe_name(e, dp), *pp = runtime_pp(e, dp);

		if (dp->family->no_hit_entry)
			emit_line(e, "\t{ .pp = %s, .handler = probe_%d, .index = %d,",
				  emit_cstr(e, pp, strlen(pp)), i, i);
		else if (own)	/* its stp_run_N calls the handler */
			emit_line(e, "\t{ .pp = %s, .run = stp_run_%d, .index = %d,",
				  emit_cstr(e, pp, strlen(pp)), i, i);
		else
			emit_line(e, "\t{ .pp = %s, .handler = probe_%d, .run = _stp_probe_run_table, .index = %d,",
				  emit_cstr(e, pp, strlen(pp)), i, i);
		emit_line(e, "\t  .pn = %s, .type = \"%s\",", emit_cstr(e, pn, strlen(pn)),
			  dp->family->probe_type ? dp->family->probe_type(dp) : "");
		if (e->s->timing)
			emit_timing_fields(e, dp);
		if (dp->globals_used.n)
			emit_line(e, "\t  .locks = stp_locks_%d, .nlocks = %d },", i,
				  dp->globals_used.n);
		else
			emit_line(e, "\t  .locks = NULL, .nlocks = 0 },");
	}
	emit_line(e, "};\n");
	if (own)
		emit_hit_entries(e);
}

static void emit_global_locks_init(struct emit *e)
{
	struct sym *sym;
	int i;

	emit_line(e, "static void stp_globals_free(void)");
	emit_open(e, "%s", "");
	VEC_EACH(e->prog->globals, i, sym)
		emit_array_free(e, sym);
	if (e->s->modsyms.n)
		emit_line(e, "_stp_modsyms_stop();");
	emit_close(e, "\n");
	emit_line(e, "static int stp_globals_init(void)");
	emit_open(e, "%s", "");
	if (e->s->modsyms.n)	/* before a begin probe reads them */
		emit_line(e, "_stp_modsyms_start();");
	VEC_EACH(e->prog->globals, i, sym) {
		emit_line(e, "stp_rwlock_init(&%s_lock);", emit_sym_ref(e, sym));
		emit_array_init(e, sym);
	}
	emit_line(e, "return 0;");
	emit_close(e, "\n");
}

/* Is SYM printed at the end (written, never read, the user's)? */
static int global_displayed(struct emit *e, const struct sym *sym)
{
	return !e->s->no_global_display && !sym->read && sym->written &&
	       sym->loc.file && sym->loc.file->is_user;
}

static int count_displayed(struct emit *e)
{
	struct sym *sym;
	int i, n = 0;

	VEC_EACH(e->prog->globals, i, sym)
		n += global_displayed(e, sym);
	return n;
}

/* At the end, globals that were written but never read are printed, as
 * stap does (unless --no-global-var-display): one function each (stap's
 * synthesized end probes, which -t times one by one), in a table. */
static void emit_global_display(struct emit *e)
{
	struct sym *sym;
	int i, n = 0;

	VEC_EACH(e->prog->globals, i, sym) {
		if (!global_displayed(e, sym))
			continue;
		emit_line(e, "static void stp_global_display_%d(struct context *c)", n++);
		emit_open(e, "%s", "");
		if (sym->arity > 0 || sym->type == TY_STATS)
			emit_array_display(e, sym);
		else if (sym->type == TY_STRING)
			emit_line(e, "_stp_print_str(c, \"%s=\"); _stp_print_quoted(c, %s); _stp_print_str(c, \"\\n\");",
				  sym->name, emit_sym_ref(e, sym));
		else
			emit_line(e, "_stp_print_str(c, \"%s=\"); _stp_print_long(c, %s); _stp_print_str(c, \"\\n\");",
				  sym->name, emit_sym_ref(e, sym));
		emit_close(e, "\n");
	}
	emit_line(e, "static void (*const stp_global_displays[])(struct context *c) = {");
	for (i = 0; i < n; i++)
		emit_line(e, "\tstp_global_display_%d,", i);
	emit_line(e, "\tNULL");
	emit_line(e, "};\n");
}

/* -t: stap's C names of the globals, for the lock contention report. */
static void emit_timing_globals(struct emit *e)
{
	struct sym *sym;
	int i;

	if (!e->s->timing)
		return;
	emit_line(e, "static const char *const stp_global_cnames[] = {");
	VEC_EACH(e->prog->globals, i, sym)
		emit_line(e, "\t\"__global_%s\",", sym->name);
	emit_line(e, "\tNULL");
	emit_line(e, "};\n");
}

/* Each family emits its tables and stp_<name>_start/_stop; the session
 * starts them in table order and stops them in reverse. */
struct fam_group {
	const struct probe_family *fam;
	struct vec probes;
};

static void collect_family(const struct probe_family *f, void *arg)
{
	struct emit *e = ((void **)arg)[0];
	struct vec *groups = ((void **)arg)[1];
	struct fam_group *g = ARENA_NEW(e->s->arena, struct fam_group);
	struct derived_probe *dp;
	int i;

	g->fam = f;
	VEC_EACH(e->prog->probes, i, dp)
		if (dp->family == f)
			vec_push(e->s->arena, &g->probes, dp);
	if (g->probes.n)
		vec_push(e->s->arena, groups, g);
}

/* What a family's probe bodies need declared before them. */
static void emit_family_decls(struct emit *e)
{
	struct vec groups = {0};
	void *arg[2] = { e, &groups };
	struct fam_group *g;
	int i;

	family_list(collect_family, arg);
	VEC_EACH(groups, i, g)
		if (g->fam->emit_decls)
			g->fam->emit_decls(e, &g->probes);
}

static void emit_families(struct emit *e)
{
	struct vec groups = {0};
	void *arg[2] = { e, &groups };
	struct fam_group *g;
	int i;

	family_list(collect_family, arg);
	VEC_EACH(groups, i, g)
		g->fam->emit(e, &g->probes);
	emit_line(e, "static int stp_probes_start(void)");
	emit_open(e, "%s", "");
	emit_line(e, "int rc = 0;");
	VEC_EACH(groups, i, g) {
		emit_line(e, "if ((rc = stp_%s_start()))", g->fam->name);
		emit_line(e, "\tgoto fail_%d;", i);
	}
	emit_line(e, "return 0;");
	for (i = groups.n - 1; i >= 0; i--) {
		g = groups.v[i];
		emit_line(e, "fail_%d: __attribute__((unused));", i);
		if (i > 0)
			emit_line(e, "stp_%s_stop();", ((struct fam_group *)groups.v[i - 1])->fam->name);
	}
	emit_line(e, "return rc;");
	emit_close(e, "\n");
	emit_line(e, "static void stp_probes_stop(void)");
	emit_open(e, "%s", "");
	for (i = groups.n - 1; i >= 0; i--)
		emit_line(e, "stp_%s_stop();", ((struct fam_group *)groups.v[i])->fam->name);
	emit_close(e, "\n");
}

/* Does a kept function's embedded C carry PRAGMA (a runtime feature
 * the module needs only when the script uses it)? */
int emit_pragma_used(const struct emit *e, const char *pragma)
{
	struct func *f;
	int i;

	VEC_EACH(e->prog->funcs, i, f)
		if (f->body && f->body->kind == ST_EMBEDDED &&
		    strstr(f->body->u.embedded.code, pragma))
			return 1;
	return 0;
}

/* Is FILE outside the installed tapset library (the script, -I dirs)? */
static int user_file(const struct emit *e, const struct src_file *file)
{
	const char *dir = e->s->tapset_dir;

	return file && (!file->is_tapset || !dir ||
			strncmp(file->name, dir, strlen(dir)));
}

/* Does kept embedded C come from outside the tapset library?  Such code
 * gets the kernel headers stap's module would give it (stp_embedded.h). */
static int user_embedded_c(const struct emit *e)
{
	struct embedded_code *ec;
	struct func *f;
	int i;

	if (e->s->guru)
		return 1;
	VEC_EACH(e->prog->embeds, i, ec)
		if (user_file(e, ec->file))
			return 1;
	VEC_EACH(e->prog->funcs, i, f)
		if (f->body && f->body->kind == ST_EMBEDDED &&
		    user_file(e, f->file))
			return 1;
	return 0;
}

static void emit_header(struct emit *e)
{
	struct kv *kv;
	const char *kv_text;
	int i, major, minor;

	emit_line(e, "/* Generated by stap (ctap) from %s. */",
		  e->s->script ? e->s->script->name : "<input>");
	if (e->s->compatible && strverscmp(e->s->compatible, "1.3") < 0)
		emit_line(e, "#define STP_LEGACY_PTR 1");	/* runtime/format.c */
	/* embedded C tests the language version as stap's generated C
	 * lets it: #if STAP_COMPAT_VERSION >= STAP_VERSION(1,8) */
	if (sscanf(e->s->compatible ? e->s->compatible : STAP_VERSION, "%d.%d",
		   &major, &minor) != 2)
		major = minor = 0;
	emit_line(e, "#define STAP_VERSION(a, b) (((a) << 8) + (b))");
	emit_line(e, "#define STAP_COMPAT_VERSION STAP_VERSION(%d, %d)", major, minor);
	emit_line(e, "#define STP_NUM_PROBES %d", e->prog->probes.n);
	emit_line(e, "#define STP_NUM_GLOBALS %d", e->prog->globals.n);
	emit_line(e, "#define STP_NUM_DISPLAYS %d", count_displayed(e));
	emit_line(e, "#ifndef MAXNESTING");
	emit_line(e, "#define MAXNESTING %d", e->prog->max_nesting);
	emit_line(e, "#endif");
	VEC_EACH(e->s->defines, i, kv)
		if (kv->name && !strncmp(kv->name, "STP_", 4))
			continue;	/* passed on the compiler's command line */
	if (e->s->suppress_time_limits) {
		emit_line(e, "#define STP_NO_OVERLOAD 1");
		emit_line(e, "#define STP_SUPPRESS_TIME_LIMITS 1");
	}
	if (e->s->suppress_handler_errors)
		emit_line(e, "#define STP_SUPPRESS_HANDLER_ERRORS 1");
	if (e->s->timing) {
		/* stap places its synthesized display probes at 1:1 */
		emit_line(e, "#define STP_TIMING 1");
		emit_line(e, "#define STP_DISPLAY_LOCATION \"%s:1:1\"",
			  e->s->script ? e->s->script->name : "<input>");
	}
	if (e->s->bulk)
		emit_line(e, "#define STP_BULKMODE 1");
	emit_line(e, "#define STP_PRIVILEGE 0x%x", session_privilege(e->s));
	if (emit_pragma_used(e, "pragma:system"))
		emit_line(e, "#define STP_NEED_SYSTEM 1");
	emit_line(e, "#include \"stp_runtime.h\"\n");
	if (user_embedded_c(e))
		emit_line(e, "#include \"stp_embedded.h\"\n");
	if (e->prog->autocast_writes)	/* _stp_dwarf_write */
		emit_line(e, "#include \"stp_dwarf.h\"\n");
	VEC_EACH(e->s->modinfo, i, kv_text) {	/* --modinfo NAME=VALUE */
		const char *eq = strchr(kv_text, '=');

		emit_line(e, "MODULE_INFO(%.*s, %s);", (int)(eq - kv_text),
			  kv_text, emit_cstr(e, eq + 1, strlen(eq + 1)));
	}
	/* the --privilege level it was built for, where staprun reads it
	 * (stap's section and values) */
	emit_line(e, "int stp_required_privilege __attribute__((section(\".stap_privilege\"))) = 0x%x;",
		  session_privilege(e->s));
}

static void emit_embeds(struct emit *e)
{
	struct embedded_code *ec;
	int i;

	VEC_EACH(e->prog->embeds, i, ec) {
		emit_raw(e, ec->code);
		emit_raw(e, "\n");
	}
}

/* Function and probe bodies, each preceded by its frame struct; the
 * frames are gathered first so the union of all frames can be sized. */
static void emit_bodies(struct emit *e, struct strbuf *frames,
			struct strbuf *bodies)
{
	struct strbuf saved = e->out;
	struct derived_probe *dp;
	struct func *f;
	int i;

	e->out = (struct strbuf){0};
	VEC_EACH(e->prog->funcs, i, f)
		emit_func_body(e, f);
	VEC_EACH(e->prog->probes, i, dp)
		emit_probe_body(e, dp);
	*bodies = e->out;
	e->out = saved;
	*frames = e->frames;
}

static int write_file(struct session *s, const char *path, struct strbuf *sb)
{
	if (fio_write(path, sb->s, sb->len)) {
		diag_fatal(&s->diags, "cannot write '%s'", path);
		return 1;
	}
	return 0;
}

int pass_translate(struct session *s)
{
	struct emit e;
	struct strbuf frames = {0}, bodies = {0};
	struct func *f;
	int i, rc = 0;

	memset(&e, 0, sizeof e);
	e.s = s;
	e.prog = s->program;
	if (!e.prog->max_nesting)
		e.prog->max_nesting = 10 + e.prog->funcs.n;
	emit_header(&e);
	emit_kmodules(&e);
	emit_ksym_table(&e);
	emit_usym_table(&e);
	emit_modsyms(&e);
	emit_embeds(&e);
	emit_globals(&e);
	emit_prototypes(&e);
	emit_family_decls(&e);
	emit_bodies(&e, &frames, &bodies);
	if (e.decls.len)	/* regex programs, $var$ tables */
		sb_put(&e.out, e.decls.s, e.decls.len);
	emit_regex_decls(&e);
	sb_free(&e.decls);
	sb_put(&e.out, frames.s ? frames.s : "", frames.len);
	emit_line(&e, "union stp_frames {");
	VEC_EACH(e.prog->funcs, i, f)
		emit_line(&e, "\tstruct frame_f%d f%d;", f->info->index, i);
	for (i = 0; i < e.prog->probes.n; i++)
		emit_line(&e, "\tstruct frame_p%d p%d;", i, i);
	emit_line(&e, "};");
	emit_line(&e, "#define STP_FRAME_SIZE sizeof(union stp_frames)\n");
	sb_put(&e.out, bodies.s ? bodies.s : "", bodies.len);
	emit_dispatchers(&e);
	emit_probe_table(&e);
	emit_global_locks_init(&e);
	emit_global_display(&e);
	emit_timing_globals(&e);
	emit_families(&e);
	emit_line(&e, "#include \"stp_session.c\"");
	sb_free(&frames);
	sb_free(&bodies);
	if (s->diags.errors) {
		sb_free(&e.out);
		return 1;
	}
	if (s->last_pass == 3)
		fwrite(e.out.s, 1, e.out.len, stdout);
	else {
		const char *dir = session_tmpdir(s);
		if (!dir)
			rc = 1;
		else {
			s->c_source = arena_printf(s->arena, "%s/stap_src.c", dir);
			rc = write_file(s, s->c_source, &e.out);
		}
	}
	sb_free(&e.out);
	return rc;
}
