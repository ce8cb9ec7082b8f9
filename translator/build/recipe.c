/* recipe.c - build a module by running kbuild's commands without make.
 *
 * For a small module kbuild spends most of its time in make itself: three
 * make runs read the kernel's makefiles and check dependencies.  The work
 * is four commands (compile, modpost, compile the .mod.c, link), fixed for
 * a kernel except for the module's directory and name and our -I/-include
 * flags.  The capture builds a small module of its own with kbuild, reads
 * those commands from the .cmd files kbuild leaves beside its outputs,
 * replaces the directory, name and flags by placeholders, replays them in
 * the same directory and keeps the recipe only if the replayed module is
 * byte-identical to kbuild's.  A kernel whose recipe cannot be captured
 * or verified is recorded as such and always built with kbuild.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/cache.h"
#include "build/kbuild.h"
#include "build/recipe.h"
#include "kernel/kernel.h"
#include "session.h"
#include "util/fileio.h"
#include "util/tmpdir.h"

#define RECIPE_MAGIC "ctap-recipe 2"
/* The capture's module name and flag: distinctive, so that replacing them
 * by placeholders cannot touch anything else in a command. */
#define CAPTURE_NAME "ctap_recipe_capture_module"
#define CAPTURE_FLAG "-DCTAP_RECIPE_CCFLAGS"

enum { STEP_CC, STEP_FIXDEP, STEP_MODPOST, STEP_MOD_CC, STEP_LD, NSTEPS };

static const char *const step_names[NSTEPS] = {
	[STEP_CC] = "cc", [STEP_FIXDEP] = "fixdep", [STEP_MODPOST] = "modpost",
	[STEP_MOD_CC] = "mod-cc", [STEP_LD] = "ld",
};

/* The .cmd file kbuild writes for each step's target, NAME for the module;
 * NULL for the step kbuild records nowhere. */
static const char *const step_cmd_files[NSTEPS] = {
	[STEP_CC] = ".%s.o.cmd", [STEP_MODPOST] = ".Module.symvers.cmd",
	[STEP_MOD_CC] = ".%s.mod.o.cmd", [STEP_LD] = ".%s.ko.cmd",
};

/* After compiling, kbuild turns the compiler's dependency file into the
 * object's .cmd file, which modpost reads (symbol versions, srcversion).
 * Its command line is kbuild's, not recorded anywhere: the verification
 * of the capture checks it. */
#define FIXDEP_CMD "scripts/basic/fixdep @DIR@/.@NAME@.o.d @DIR@/@NAME@.o " \
	"'ctap' >@DIR@/.@NAME@.o.cmd && rm -f @DIR@/.@NAME@.o.d"

struct recipe {
	const char *cmd[NSTEPS];	/* with @DIR@ @NAME@ @CCFLAGS@ */
};

/* Replace every FROM in TEXT by TO. */
static char *replace_all(struct session *s, const char *text, const char *from,
			 const char *to)
{
	struct strbuf sb = { 0 };
	size_t n = strlen(from);
	const char *p;
	char *out;

	while ((p = strstr(text, from))) {
		sb_put(&sb, text, (size_t)(p - text));
		sb_puts(&sb, to);
		text = p + n;
	}
	sb_puts(&sb, text);
	out = arena_strdup(s->arena, sb.s);
	sb_free(&sb);
	return out;
}

/* The command a .cmd file records: its first line is
 * "cmd_TARGET := COMMAND" (savedcmd_ in newer kernels), with make's
 * escapes: $ doubled and # as $(pound). */
static const char *read_cmd_file(struct session *s, const char *path)
{
	static char line[65536];
	const char *cmd;

	if (fio_read_line(path, line, sizeof line) || !strchr(line, '\n'))
		return NULL;
	*strchr(line, '\n') = 0;
	if (strncmp(line, "cmd_", 4) && strncmp(line, "savedcmd_", 9))
		return NULL;
	cmd = strstr(line, " := ");
	if (!cmd)
		return NULL;
	cmd += 4;
	cmd += strspn(cmd, " ");
	cmd = replace_all(s, cmd, "$(pound)", "#");
	cmd = replace_all(s, cmd, "$$", "$");
	/* Anything else of make's would need make to expand it. */
	return *cmd && !strstr(cmd, "$(") ? cmd : NULL;
}

/* A recipe from the capture directory's .cmd files; 0 on success. */
static int recipe_from_cmds(struct session *s, const char *dir,
			    struct recipe *r)
{
	int i;

	for (i = 0; i < NSTEPS; i++) {
		const char *file, *cmd;
		if (!step_cmd_files[i]) {
			r->cmd[i] = FIXDEP_CMD;
			continue;
		}
		file = arena_printf(s->arena, step_cmd_files[i], CAPTURE_NAME);
		cmd = read_cmd_file(s, arena_printf(s->arena, "%s/%s", dir, file));
		if (!cmd)
			return -1;
		cmd = replace_all(s, cmd, dir, "@DIR@");
		cmd = replace_all(s, cmd, CAPTURE_NAME, "@NAME@");
		cmd = replace_all(s, cmd, CAPTURE_FLAG, "@CCFLAGS@");
		if (strstr(cmd, "ctap_recipe") || strstr(cmd, "CTAP_RECIPE"))
			return -1;
		r->cmd[i] = cmd;
	}
	/* The flags must reach the compiler of our source. */
	return strstr(r->cmd[STEP_CC], "@CCFLAGS@") ? 0 : -1;
}

/* Read a stored recipe: 1 read, 0 recorded as unusable, -1 none. */
static int recipe_load(struct session *s, const char *path, struct recipe *r)
{
	static char line[65536];
	int i, n = 0, rc = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	memset(r, 0, sizeof *r);
	if (!fgets(line, sizeof line, f) || strcmp(line, RECIPE_MAGIC "\n"))
		goto out;
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
		if (!strcmp(line, "unusable\n")) {
			rc = 0;
			goto out;
		}
		if (!tab || !nl)
			goto out;
		*tab = *nl = 0;
		for (i = 0; i < NSTEPS; i++)
			if (!strcmp(line, step_names[i]) && !r->cmd[i]) {
				r->cmd[i] = arena_strdup(s->arena, tab + 1);
				n++;
			}
	}
	rc = n == NSTEPS ? 1 : -1;
out:
	fclose(f);
	return rc;
}

/* Store R (NULL: the kernel's recipe is unusable) through a rename. */
static void recipe_save(struct session *s, const char *path,
			const struct recipe *r)
{
	struct strbuf sb = { 0 };
	const char *tmp = arena_printf(s->arena, "%s.tmp%ld", path, (long)getpid());
	int i;

	sb_puts(&sb, RECIPE_MAGIC "\n");
	for (i = 0; r && i < NSTEPS; i++)
		sb_printf(&sb, "%s\t%s\n", step_names[i], r->cmd[i]);
	if (!r)
		sb_puts(&sb, "unusable\n");
	if (!fio_put(&s->diags, tmp, sb.s) && rename(tmp, path))
		unlink(tmp);
	sb_free(&sb);
}

/* Only plain path characters go into a command unquoted. */
static int shell_safe(const char *str)
{
	return *str && strspn(str, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_./+-=") == strlen(str);
}

/* Run one command with sh in the kernel's build tree, as make does;
 * its output goes to LOG_FD. */
static int run_step(struct session *s, const char *cmd, int log_fd)
{
	const char *const argv[] = { "/bin/sh", "-c", cmd, NULL };

	if (s->verbose >= 2)
		fprintf(stderr, "Running %s\n", cmd);
	return kbuild_exec(s, argv, log_fd, s->kernel->make_dir);
}

/* Replay R for module NAME in DIR, whose source is DIR/NAME.c. */
static int recipe_run(struct session *s, const struct recipe *r,
		      const char *dir, const char *name, const char *ccflags)
{
	const char *log = arena_printf(s->arena, "%s/build.log", dir);
	int fd, i, rc = 0;

	if (fio_put(&s->diags, arena_printf(s->arena, "%s/modules.order", dir),
			     arena_printf(s->arena, "%s/%s.ko\n", dir, name)) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/%s.mod", dir, name),
			     arena_printf(s->arena, "%s/%s.o\n", dir, name)))
		return -1;
	fd = s->verbose >= 2 ? dup(2) : open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	for (i = 0; i < NSTEPS && !rc; i++) {
		const char *cmd = replace_all(s, r->cmd[i], "@DIR@", dir);
		cmd = replace_all(s, cmd, "@NAME@", name);
		cmd = replace_all(s, cmd, "@CCFLAGS@", ccflags);
		rc = run_step(s, cmd, fd);
	}
	close(fd);
	return rc;
}

static int same_file(const char *a, const char *b)
{
	static char ba[65536], bb[65536];
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	size_t na, nb;
	int same = fa && fb;

	while (same) {
		na = fread(ba, 1, sizeof ba, fa);
		nb = fread(bb, 1, sizeof bb, fb);
		same = na == nb && !memcmp(ba, bb, na);
		if (na < sizeof ba)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Remove every file of DIR but KEEP: the replay must find nothing kbuild
 * left (its outputs, its .cmd files). */
static int clear_dir(struct session *s, const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, keep) &&
		    unlink(arena_printf(s->arena, "%s/%s", dir, e->d_name)))
			rc = -1;
	closedir(d);
	return rc;
}

/* Build a small module with kbuild in a directory of its own, derive the
 * recipe and verify it by replaying it there; 0 on success. */
static int recipe_capture(struct session *s, struct recipe *r)
{
	static const char src[] =
		"/* ctap: a module to learn how kbuild builds one */\n"
		"#include <linux/module.h>\n"
		"#include <linux/kernel.h>\n"
		"static int __init capture_init(void)\n"
		"{\n\tpr_info(\"%d\\n\", THIS_MODULE != NULL);\n\treturn 0;\n}\n"
		"static void __exit capture_exit(void)\n{\n}\n"
		"module_init(capture_init);\nmodule_exit(capture_exit);\n"
		"MODULE_LICENSE(\"GPL\");\n"
		"MODULE_VERSION(\"1\");\n";	/* modpost reads the .cmd file */
	const char *top = session_tmpdir(s), *dir, *ko, *kept;

	if (!top)
		return -1;
	dir = arena_printf(s->arena, "%s/recipe", top);
	if (mkdir(dir, 0700) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/%s.c", dir, CAPTURE_NAME), src) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/Kbuild", dir),
			     "obj-m := " CAPTURE_NAME ".o\nccflags-y := " CAPTURE_FLAG "\n") ||
	    kbuild_make(s, dir, arena_printf(s->arena, "%s/build.log", dir)) ||
	    recipe_from_cmds(s, dir, r))
		return -1;
	ko = arena_printf(s->arena, "%s/%s.ko", dir, CAPTURE_NAME);
	kept = arena_printf(s->arena, "%s/kbuild.ko", top);
	if (rename(ko, kept) || clear_dir(s, dir, CAPTURE_NAME ".c"))
		return -1;
	if (recipe_run(s, r, dir, CAPTURE_NAME, CAPTURE_FLAG) || !same_file(ko, kept))
		return -1;
	return 0;
}

int recipe_build(struct session *s, const char *key, const char *dir,
		 const char *name, const char *src_base, const char *ccflags)
{
	const char *cdir = fio_cache_dir(s), *path;
	struct recipe r;
	int have;

	if (!cdir || !shell_safe(dir) || !shell_safe(name) ||
	    !shell_safe(s->runtime_dir))
		return -1;
	path = arena_printf(s->arena, "%s/recipes/%s", cdir, key);
	have = recipe_load(s, path, &r);
	/* A capture that cannot be kept would cost a second build every time. */
	if (have < 0 && (fio_mkdirs(arena_printf(s->arena, "%s/recipes", cdir)) ||
			 access(arena_printf(s->arena, "%s/recipes", cdir), W_OK)))
		return -1;
	if (have < 0) {
		have = recipe_capture(s, &r) ? 0 : 1;
		if (s->verbose >= 2)
			fprintf(stderr, have ? "Captured kbuild's commands in %s\n"
				: "kbuild's commands cannot be replayed; using make (%s)\n",
				path);
		recipe_save(s, path, have ? &r : NULL);
	}
	if (!have)
		return -1;
	if (strcmp(name, src_base) &&
	    symlink(arena_printf(s->arena, "%s.c", src_base),
		    arena_printf(s->arena, "%s/%s.c", dir, name)) && errno != EEXIST)
		return -1;
	if (recipe_run(s, &r, dir, name, ccflags)) {
		if (s->verbose >= 2)
			fprintf(stderr, "Building with kbuild's commands failed; running make\n");
		return -1;
	}
	return 0;
}
