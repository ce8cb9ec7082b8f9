/* parse_pass.c - pass 1: parse the user's script and the tapset library.
 *
 * Order, as stap: the library macro files (.stpm) first, so their macros
 * are visible everywhere; then the script and the -E scripts; then every
 * library .stp file.  The library is searched in the tapset directory and
 * each -I directory, most specific subdirectory first (linux/x86_64, linux,
 * x86_64, then the directory itself), files in name order.  A tapset file
 * with errors is reported, then skipped with a warning, as stap does.
 * Writes s->user_files and s->library_files; prints the -p1 listing.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "includes/sys/sdt.h"

#include "ast/ast_new.h"
#include "ast/dump.h"
#include "parse/parse.h"

static const char *const subdirs[] = { "linux/x86_64", "linux", "x86_64", "" };

static int parse_attempt(struct parser *p, struct session *s,
			 const struct src_file *f, int privileged,
			 int macros_only, int fast)
{
	memset(p, 0, sizeof *p);
	p->s = s;
	p->a = s->arena;
	p->file = f;
	p->out = ast_file(s->arena, f);
	p->privileged = privileged;
	p->library_macros_only = macros_only;
	p->fast = fast;
	lex_open(p, f, f->text, f->len, &p->scanner);
	if (fast)
		parse_file_fast(p);
	else
		parse_file(p);
	if (!p->errors)
		histcheck_file(p);
	lex_close(p->scanner);
	pp_reset(p);
	return p->errors;
}

/* Parse F; NULL when it had errors.  The fast parser first; a file it
 * fails on is parsed again, from scratch, by the one whose messages are
 * stap's (see parser.y). */
static struct file_ast *parse_one(struct session *s, const struct src_file *f,
				  int privileged, int macros_only, int *empty)
{
	struct parser p;

	if (parse_attempt(&p, s, f, privileged, macros_only, 1)) {
		macro_undefine(&p);
		parse_attempt(&p, s, f, privileged, macros_only, 0);
	}
	if (empty)	/* ntokens counts the end of the file too */
		*empty = !p.nraw ? 1 : p.ntokens <= 1 ? 2 : 0;
	return p.errors ? NULL : p.out;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n > m && !strcmp(name + n - m, suffix);
}

/* The files of DIR ending in SUFFIX, sorted, as arena paths. */
static struct vec list_dir(struct session *s, const char *dir,
			   const char *suffix)
{
	struct vec v = {0};
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return v;
	while ((de = readdir(d)))
		if (has_suffix(de->d_name, suffix))
			vec_push(s->arena, &v, arena_printf(s->arena, "%s/%s",
							    dir, de->d_name));
	closedir(d);
	if (v.n)
		qsort(v.v, (size_t)v.n, sizeof *v.v, by_name);
	return v;
}

static void parse_library_file(struct session *s, const char *path,
			       int macros_only)
{
	struct src_file *f;
	struct file_ast *fa;
	int errors = s->diags.errors;

	f = (struct src_file *)src_read(s, path, path);
	if (!f) {
		s->diags.errors = errors;
		return;
	}
	f->is_tapset = 1;
	f->is_user = 0;
	fa = parse_one(s, f, 1, macros_only, NULL);
	if (!fa) {
		s->diags.errors = errors;
		diag_plain_warning(&s->diags,
				   "tapset \"%s\" has errors, and will be skipped",
				   path);
		return;
	}
	vec_push(s->arena, &s->library_files, fa);
}

/* Every library file with SUFFIX, in search order. */
static void parse_library(struct session *s, const char *suffix,
			  int macros_only)
{
	struct vec roots = {0};
	int r, i;
	size_t d;

	if (s->tapset_dir)
		vec_push(s->arena, &roots, (void *)s->tapset_dir);
	for (i = 0; i < s->include_dirs.n; i++)
		vec_push(s->arena, &roots, s->include_dirs.v[i]);
	for (r = 0; r < roots.n; r++)
		for (d = 0; d < sizeof subdirs / sizeof subdirs[0]; d++) {
			const char *dir = *subdirs[d] ?
				arena_printf(s->arena, "%s/%s",
					     (char *)roots.v[r], subdirs[d]) :
				roots.v[r];
			struct vec files = list_dir(s, dir, suffix);

			for (i = 0; i < files.n; i++)
				parse_library_file(s, files.v[i], macros_only);
		}
}

/* A script with nothing in it, or nothing left once its macros and
 * conditions are gone, is an error (stap's words). */
static void parse_user(struct session *s, const struct src_file *f)
{
	int empty;
	struct file_ast *fa;

	if (f == s->script && (s->list_probes || s->list_probes_vars) &&
	    listpat_check(s)) {
		s->diags.errors++;
		return;
	}
	fa = parse_one(s, f, s->guru, 0, &empty);

	if (fa && empty) {
		diag_fatal(&s->diags, "Input file '%s' is empty%s.", f->name,
			   empty == 2 ? " after preprocessing" : "");
		return;
	}
	if (fa)
		vec_push(s->arena, &s->user_files, fa);
}

/* stap names the -E scripts <input1>, <input2>, … */
static void name_extra_scripts(struct session *s)
{
	int i;

	for (i = 0; i < s->extra_scripts.n; i++) {
		const struct src_file *f = s->extra_scripts.v[i];
		struct src_file *c;

		if (strcmp(f->name, "<input>"))
			continue;
		c = arena_alloc(s->arena, sizeof *c);
		*c = *f;
		c->name = arena_printf(s->arena, "<input%d>", i + 1);
		s->extra_scripts.v[i] = c;
	}
}

int pass_parse(struct session *s)
{
	int i;

	parse_tables_reset(s);
	macro_tables_reset();
	name_extra_scripts(s);
	parse_library(s, ".stpm", 1);
	/* SDT markers (stap.pass1a, stap.pass1b, stap.pass1.end) */
	STAP_PROBE1(stap, pass1a__start, s);
	if (s->script)
		parse_user(s, s->script);
	for (i = 0; i < s->extra_scripts.n; i++)
		parse_user(s, s->extra_scripts.v[i]);
	STAP_PROBE1(stap, pass1b__start, s);
	parse_library(s, ".stp", 0);
	STAP_PROBE1(stap, pass1__end, s);
	if (s->diags.errors)
		return 1;
	if (s->last_pass == 1) {
		fputs("# parse tree dump\n", stdout);
		for (i = 0; i < s->user_files.n; i++)
			dump_file(stdout, s->user_files.v[i]);
		fputc('\n', stdout);
		for (i = 0; s->verbose && i < s->library_files.n; i++) {
			dump_file(stdout, s->library_files.v[i]);
			fputc('\n', stdout);
		}
	}
	return 0;
}
