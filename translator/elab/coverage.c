/* coverage.c - -q: stap's tapset coverage database.
 *
 * Reads the elaborated program (pass 2's result) and adds one to a row of
 * $SYSTEMTAP_DIR/RELEASE.db's table `counts` per use of a probe point, a
 * function, a global or a probe's local, as stap 4.8 does: a derived
 * probe counts its own point once and then every point of each probe it
 * came through (the aliases', then the user's); the probes stap
 * synthesizes (global display, condition arming) count at line 1, column
 * 7 of the first user script, where stap's own text for them puts them.
 * The `executed` column stays 0 (stap never fills it).  Only this file
 * knows SQLite; without it (configure) -q says so and records nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ast/dump.h"
#include "elab/cnames.h"
#include "elab/program.h"
#include "kernel/kernel.h"
#include "util/fileio.h"
#include "session.h"

#ifdef HAVE_LIBSQLITE3
#include <sqlite3.h>

enum cov_type { COV_PROBE = 1, COV_FUNCTION, COV_LOCAL, COV_GLOBAL };

struct cov {
	struct session *s;
	sqlite3 *db;
	sqlite3_stmt *add;
	const char *script;	/* the first user script's name */
	int failed;
};

static const char schema[] =
	"create table if not exists counts (file text, line integer, "
	"col integer, type text, name text, parent text, compiled integer, "
	"executed integer);"
	"create unique index if not exists tokens on counts "
	"(file, line, col, type, name);";

static const char upsert[] =
	"insert into counts values (?1, ?2, ?3, ?4, ?5, '', 1, 0) "
	"on conflict (file, line, col, type, name) "
	"do update set compiled = compiled + 1;";

static void add_at(struct cov *c, const char *file, int line, int col,
		   enum cov_type type, const char *name)
{
	sqlite3_stmt *st = c->add;

	if (c->failed)
		return;
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, line);
	sqlite3_bind_int(st, 3, col);
	sqlite3_bind_int(st, 4, type);
	sqlite3_bind_text(st, 5, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		c->failed = 1;
}

/* A row at LOC; synthesized code (no file) sits in the user's script. */
static void add(struct cov *c, struct loc loc, enum cov_type type,
		const char *name)
{
	if (loc.file)
		add_at(c, loc.file->name, loc.line, loc.col, type, name);
	else
		add_at(c, c->script, 1, 7, type, name);
}

/* The program's globals and the arena global_name() names them in (a
 * dump style callback has no argument of its own). */
static struct {
	struct arena *arena;
	const struct vec *globals;	/* struct sym * */
} cond_scope;

/* A point's condition reads only globals, unbound: stap names them
 * mangled, a private one of the condition's file as such. */
static const char *global_name(const struct exp *e)
{
	return cname_cond_global(cond_scope.arena, cond_scope.globals,
				 e->u.sym.name, e->loc);
}

/* A point as stap shows it after expansion: an alias's point carries the
 * user point's condition COND, whose globals are mangled at the level
 * elaborated (MANGLED). */
static void add_point(struct cov *c, const struct probe_point *pt,
		      const struct exp *cond, int mangled)
{
	static const struct dump_style mangle = { .sym_name = global_name };
	struct probe_point shown = *pt;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		c->failed = 1;
		return;
	}
	if (!shown.cond)
		shown.cond = (struct exp *)cond;
	if (mangled)
		dump_set_style(&mangle);
	dump_probe_point(f, &shown);
	dump_set_style(NULL);
	fclose(f);
	add(c, pt->loc, COV_PROBE, text);
	free(text);
}

/* The point resolved, then every point of each probe it came through:
 * the aliases' (the innermost elaborated), then the user's as written. */
static void add_probe(struct cov *c, const struct derived_probe *dp)
{
	const struct vec *points;
	int i, j, user;

	if (dp->point)	/* not the entry probe @entry makes (entry.c) */
		add_point(c, dp->point, dp->user_cond, 1);
	VEC_EACH(dp->chain, i, points) {
		user = i == dp->chain.n - 1;
		for (j = 0; j < points->n; j++)
			add_point(c, points->v[j], user ? NULL : dp->user_cond,
				  i == 0);
	}
}

/* stap names a local by the token it was declared at: a value it hoists
 * (stable.c) by the function called there. */
static const char *token_at(struct cov *c, const struct sym *sym)
{
	const char *p, *end;
	int line;

	if (!sym->loc.file || sym->loc.line < 1 || sym->loc.col < 1)
		return sym->name;
	p = sym->loc.file->text;
	for (line = 1; line < sym->loc.line && (p = strchr(p, '\n')); line++)
		p++;
	if (!p || strnlen(p, sym->loc.col) < (size_t)sym->loc.col)
		return sym->name;
	p += sym->loc.col - 1;
	for (end = p; *end == '_' || (*end >= '0' && *end <= '9') ||
		      ((*end | 0x20) >= 'a' && (*end | 0x20) <= 'z'); end++)
		;
	return end > p ? arena_strndup(c->s->arena, p, end - p) : sym->name;
}

static void add_locals(struct cov *c, const struct derived_probe *dp)
{
	const struct sym *sym;
	int i;

	VEC_EACH(dp->locals, i, sym)
		add(c, sym->loc, COV_LOCAL, token_at(c, sym));
}

/* The end probe displaying SYM, and an array's iteration locals at the
 * places stap's synthesized text has them (a statistic has no value
 * local). */
static void add_display(struct cov *c, const struct sym *sym)
{
	int stats = sym->type == TY_STATS, i;
	char name[16];

	add_at(c, c->script, 1, 7, COV_PROBE, "end");
	add_at(c, c->script, 1, 7, COV_PROBE, "end");
	for (i = 0; i < sym->arity; i++) {
		snprintf(name, sizeof name, "__idx%d", i);
		add_at(c, c->script, 2, (stats ? 11 : 19) + 7 * i, COV_LOCAL,
		       name);
	}
	if (sym->arity > 0 && !stats)
		add_at(c, c->script, 2, 10, COV_LOCAL, "__val");
}

struct named_func {
	const char *name;
	const struct func *fn;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named_func *)a)->name,
		      ((const struct named_func *)b)->name);
}

static void add_program(struct cov *c, const struct program *p)
{
	struct named_func *names;
	const struct derived_probe *dp;
	const struct func *fn;
	const struct sym *sym;
	int i;

	cond_scope.arena = c->s->arena;
	cond_scope.globals = &p->globals;
	VEC_EACH(p->probes, i, dp) {
		add_probe(c, dp);
		add_locals(c, dp);
	}
	if (elab_needs_arming_probe(p)) {
		add_at(c, c->script, 1, 7, COV_PROBE, "begin");
		add_at(c, c->script, 1, 7, COV_PROBE, "begin");
	}
	VEC_EACH(p->globals, i, sym)
		if (elab_displayed_at_end(c->s, sym))
			add_display(c, sym);
	/* functions in the order of their C names, as stap keeps them */
	names = arena_alloc(c->s->arena, (p->funcs.n + 1) * sizeof *names);
	VEC_EACH(p->funcs, i, fn) {
		names[i].name = cname_func(c->s->arena, &p->declared_funcs, fn);
		names[i].fn = fn;
	}
	qsort(names, p->funcs.n, sizeof *names, by_name);
	for (i = 0; i < p->funcs.n; i++)
		add(c, names[i].fn->loc, COV_FUNCTION, names[i].name);
	VEC_EACH(p->globals, i, sym)
		add(c, sym->decl ? sym->decl->loc : sym->loc, COV_GLOBAL,
		    cname_global(c->s->arena, sym));
}

static const char *script_name(struct session *s)
{
	const struct file_ast *fa;

	if (!s->user_files.n)
		return "<input>";
	fa = s->user_files.v[0];
	return fa->file->name;
}

int elab_write_coverage(struct session *s, const struct program *p)
{
	const struct kernel_info *k = kernel_target(s);
	const char *dir = fio_stap_dir(s), *path;
	struct cov c = { .s = s, .script = script_name(s) };
	int rc = 0;

	if (!k || !dir)
		return -1;
	path = arena_printf(s->arena, "%s/%s.db", dir, k->release);
	fio_mkdirs(dir);
	if (sqlite3_open(path, &c.db) != SQLITE_OK ||
	    sqlite3_exec(c.db, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(c.db, "begin;", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c.db, upsert, -1, &c.add, NULL) != SQLITE_OK)
		c.failed = 1;
	if (p)
		add_program(&c, p);
	if (!c.failed &&
	    sqlite3_exec(c.db, "commit;", NULL, NULL, NULL) != SQLITE_OK)
		c.failed = 1;
	if (c.failed) {
		diag_plain_warning(&s->diags, "cannot record tapset coverage in %s: %s",
				   path, sqlite3_errmsg(c.db));
		rc = -1;
	}
	sqlite3_finalize(c.add);
	sqlite3_close(c.db);
	return rc;
}

#else

int elab_write_coverage(struct session *s, const struct program *p)
{
	(void)p;
	diag_plain_warning(&s->diags, "%s", "-q: tapset coverage is not recorded: this stap was built without SQLite (install libsqlite3-dev, then rerun configure and make)");
	return -1;
}

#endif
