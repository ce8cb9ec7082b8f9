/* ldd.c - pass 3: the shared libraries a user file loads, for --ldd.
 *
 * On this machine they are what ldd lists (the dynamic loader's own
 * search).  Under --sysroot the loader here is the wrong one: it would
 * look in this machine's directories, or not run the target's program at
 * all.  There the file's DT_NEEDED names are followed, transitively, as
 * the target's loader finds them: in --sysenv's LD_LIBRARY_PATH, the
 * file's DT_RUNPATH (or DT_RPATH; $ORIGIN its directory), the directories
 * of the sysroot's /etc/ld.so.conf (and the files it includes), then the
 * default ones; and its interpreter (PT_INTERP), all inside the sysroot.
 * Reads ELF files through dwarf/elf_user.h; writes target paths.
 */
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/elf_user.h"
#include "emit/emit_int.h"
#include "util/fileio.h"

/* Where the loader looks last (the multiarch ones first, as Debian's
 * ld.so.conf.d names them). */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL,
};

/* The library paths ldd prints for PATH on this machine: "name => /path
 * (0x…)" or "/path (0x…)". */
static void host_ldd(struct session *s, const char *path, struct vec *out)
{
	char line[PATH_MAX + 64], *p, *end;
	struct strbuf cmd = {0};
	const char *q;
	FILE *f;

	sb_puts(&cmd, "ldd '");
	for (q = path; *q; q++)	/* PATH in single quotes */
		*q == '\'' ? sb_puts(&cmd, "'\\''") : sb_putc(&cmd, *q);
	sb_puts(&cmd, "' 2>/dev/null");
	f = popen(cmd.s, "r");
	sb_free(&cmd);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		p = strstr(line, "=> ");
		p = p ? p + 3 : line + strspn(line, " \t");
		if (*p != '/')
			continue;
		end = p + strcspn(p, " \t\n");
		*end = '\0';
		vec_push(s->arena, out, arena_strdup(s->arena, p));
	}
	pclose(f);
}

static void add_dirs(struct session *s, struct vec *dirs, const char *list,
		     const char *origin)
{
	const char *d;
	size_t n;

	for (d = list ? list : ""; *d; d += n, d += *d == ':') {
		n = strcspn(d, ":");
		if (!n)
			continue;
		if (n >= 7 && !strncmp(d, "$ORIGIN", 7))
			vec_push(s->arena, dirs,
				 arena_printf(s->arena, "%s%.*s", origin,
					      (int)n - 7, d + 7));
		else
			vec_push(s->arena, dirs, arena_strndup(s->arena, d, n));
	}
}

static void conf_file(struct session *s, struct vec *dirs, const char *conf,
		      int depth);

/* "include GLOB" in ld.so.conf file CONF: GLOB relative to CONF's
 * directory, in the sysroot. */
static void conf_include(struct session *s, struct vec *dirs, const char *pat,
			 const char *conf, int depth)
{
	const char *root = fio_host_path(s, "/");
	size_t rootlen = strlen(root) - 1;	/* without its '/' */
	glob_t g;
	size_t i;

	if (pat[0] != '/')
		pat = arena_printf(s->arena, "%.*s/%s",
				   (int)(strrchr(conf, '/') - conf), conf, pat);
	if (glob(fio_host_path(s, pat), 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++)
		conf_file(s, dirs, g.gl_pathv[i] + rootlen, depth + 1);
	globfree(&g);
}

/* The directories ld.so.conf file CONF (a target path) names. */
static void conf_file(struct session *s, struct vec *dirs, const char *conf,
		      int depth)
{
	char line[PATH_MAX + 16], *p, *end;
	FILE *f;

	if (depth > 8 || !(f = fopen(fio_host_path(s, conf), "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "#\n")] = 0;
		p = line + strspn(line, " \t");
		for (end = p + strlen(p); end > p && (end[-1] == ' ' ||
						     end[-1] == '\t'); end--)
			*--end = 0;
		if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t'))
			conf_include(s, dirs, p + 8 + strspn(p + 8, " \t"),
				     conf, depth);
		else if (*p == '/')
			vec_push(s->arena, dirs, arena_strdup(s->arena, p));
	}
	fclose(f);
}

/* LIB as the target's loader finds it for a file in directory ORIGIN
 * with run path RUNPATH; NULL when it is nowhere. */
static const char *find_in_sysroot(struct session *s, const char *lib,
				   const char *runpath, const char *origin,
				   const struct vec *conf_dirs)
{
	struct vec dirs = {0};
	const struct kv *kv;
	const char *d, *f;
	int i;

	if (strchr(lib, '/'))
		return fio_target_realpath(s, lib) ? lib : NULL;
	VEC_EACH(s->sysenv, i, kv)
		if (!strcmp(kv->name, "LD_LIBRARY_PATH"))
			add_dirs(s, &dirs, kv->value, origin);
	add_dirs(s, &dirs, runpath, origin);
	VEC_EACH(*conf_dirs, i, d)
		vec_push(s->arena, &dirs, (void *)d);
	for (i = 0; default_dirs[i]; i++)
		vec_push(s->arena, &dirs, (void *)default_dirs[i]);
	VEC_EACH(dirs, i, d) {
		f = arena_printf(s->arena, "%s/%s", d, lib);
		if (fio_target_realpath(s, f))
			return f;
	}
	return NULL;
}

/* PATH's DT_NEEDED closure and interpreter inside the sysroot. */
static void sysroot_ldd(struct session *s, const char *path, struct vec *out)
{
	struct vec conf_dirs = {0}, todo = {0};
	const struct elf_user *eu;
	const char *cur, *dir, *lib;
	char err[256];
	size_t j;
	int k;

	conf_file(s, &conf_dirs, "/etc/ld.so.conf", 0);
	vec_push(s->arena, &todo, (void *)path);
	for (k = 0; k < todo.n; k++) {
		cur = todo.v[k];
		if (!(eu = elf_user_open(cur, err, sizeof err)))
			continue;
		if (k == 0 && eu->interp && fio_target_realpath(s, eu->interp) &&
		    !vec_has_str(out, eu->interp))
			vec_push(s->arena, out, (void *)eu->interp);
		dir = arena_strndup(s->arena, cur,
				    (size_t)(strrchr(cur, '/') - cur));
		for (j = 0; j < eu->nneeded; j++) {
			lib = find_in_sysroot(s, eu->needed[j], eu->runpath,
					      dir, &conf_dirs);
			if (!lib || vec_has_str(out, lib))
				continue;
			vec_push(s->arena, out, (void *)lib);
			vec_push(s->arena, &todo, (void *)lib);
		}
	}
}

void emit_ldd_libs(struct session *s, const char *path, struct vec *out)
{
	if (fio_has_sysroot(s))
		sysroot_ldd(s, path, out);
	else if (fio_user_may_read(path))	/* staprun -P: as missing */
		host_ldd(s, path, out);
}
