/* recipe.c - build a module by running kbuild's commands without make.
 *
 * For a small module kbuild spends most of its time in make itself: three
 * make runs read the kernel's makefiles and check dependencies.  The work
 * is a few commands (compile each object, link them, modpost, compile the
 * .mod.c, link the .ko), fixed for a kernel except for the module's
 * directory, name and objects and our -I/-include flags.  The module is
 * a composite of two objects: the script's own C (stp_script.o) and the
 * part of the runtime no script changes (stp_rt.o, runtime/stp_rtlib.c),
 * which is compiled once per kernel, runtime and -D options and kept in
 * the cache (CACHE/rtlib/KEY.o), so that a new script compiles only its
 * own unit.  Since 6.10 every module also links an object of the
 * kernel's (.module-common.o, scripts/module-common.c) that kbuild
 * compiles beside each module: it depends on nothing of the module, so it
 * is kept beside the runtime's (CACHE/rtlib/KEY.common.o) and compiled
 * once too.  The capture builds a small two-object module of its own with
 * kbuild, reads those commands from the .cmd files kbuild leaves beside
 * its outputs, replaces the directory, names and flags by placeholders,
 * replays them in the same directory and keeps the recipe only if the
 * replayed module is byte-identical to kbuild's.  A kernel whose recipe
 * cannot be captured or verified is recorded as such and always built
 * with kbuild (one object: the script's unit includes the whole runtime).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/cache.h"
#include "build/kbuild.h"
#include "build/recipe.h"
#include "kernel/kernel.h"
#include "session.h"
#include "util/fileio.h"
#include "util/tmpdir.h"

#define RECIPE_MAGIC "ctap-recipe 5"
/* The capture's module name, objects and flag: distinctive, so that
 * replacing them by placeholders cannot touch anything else in a command. */
#define CAPTURE_NAME "ctap_recipe_capture_module"
#define CAPTURE_MAIN "ctap_rcpobj_main"
#define CAPTURE_RT "ctap_rcpobj_rt"
#define CAPTURE_FLAG "-DCTAP_RECIPE_CCFLAGS"

/* The objects of a module built here: the script's unit, the runtime's. */
#define SCRIPT_OBJ "stp_script"
#define RT_OBJ "stp_rt"

enum {
	STEP_CC, STEP_FIXDEP, STEP_LINK, STEP_MODPOST, STEP_MOD_CC,
	STEP_COMMON_CC, STEP_LD, STEP_MODFILE, STEP_ORDERFILE, NSTEPS
};

static const char *const step_names[NSTEPS] = {
	[STEP_CC] = "cc", [STEP_FIXDEP] = "fixdep", [STEP_LINK] = "link",
	[STEP_MODPOST] = "modpost", [STEP_MOD_CC] = "mod-cc",
	[STEP_COMMON_CC] = "common-cc", [STEP_LD] = "ld",
	[STEP_MODFILE] = "mod-file", [STEP_ORDERFILE] = "order-file",
};

/* The .cmd file kbuild writes for each step's target, %s the module or,
 * for cc, the object; NULL for what kbuild records nowhere.  The objects
 * every module links since 6.10 (scripts/module-common.c) are compiled
 * beside it; before, that step is a no-op. */
static const char *const step_cmd_files[NSTEPS] = {
	[STEP_CC] = ".%s.o.cmd", [STEP_LINK] = ".%s.o.cmd",
	[STEP_MODPOST] = ".Module.symvers.cmd",
	[STEP_MOD_CC] = ".%s.mod.o.cmd", [STEP_COMMON_CC] = "..module-common.o.cmd",
	[STEP_LD] = ".%s.ko.cmd",
};

/* After compiling, kbuild turns the compiler's dependency file into the
 * object's .cmd file, which modpost reads (symbol versions, srcversion).
 * Its command line is kbuild's, not recorded anywhere: the verification
 * of the capture checks it. */
#define FIXDEP_CMD "scripts/basic/fixdep @DIR@/.@OBJ@.o.d @DIR@/@OBJ@.o " \
	"'ctap' >@DIR@/.@OBJ@.o.cmd && rm -f @DIR@/.@OBJ@.o.d"

/* Commands (a shell's) with @DIR@ @NAME@ @CCFLAGS@, @OBJ@ (cc, fixdep),
 * @MAIN@ @RT@ (link); mod-file and order-file are the texts of NAME.mod
 * (the objects, for the link and modpost) and modules.order (the module,
 * for modpost), their newlines as "\n". */
struct recipe {
	const char *cmd[NSTEPS];
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

/* TEXT with the capture's directory, names and flag as placeholders;
 * OBJ (an object's name, or NULL) as @OBJ@, else the two objects' as
 * @MAIN@ and @RT@.  NULL if anything of the capture's is left. */
static const char *placeholders(struct session *s, const char *text,
				const char *dir, const char *obj)
{
	text = replace_all(s, text, dir, "@DIR@");
	text = replace_all(s, text, CAPTURE_NAME, "@NAME@");
	text = replace_all(s, text, CAPTURE_FLAG, "@CCFLAGS@");
	if (obj) {
		text = replace_all(s, text, obj, "@OBJ@");
	} else {
		text = replace_all(s, text, CAPTURE_MAIN, "@MAIN@");
		text = replace_all(s, text, CAPTURE_RT, "@RT@");
	}
	if (strstr(text, "ctap_r") || strstr(text, "CTAP_RECIPE"))
		return NULL;
	return text;
}

/* The compile command of the capture's object OBJ, with placeholders. */
static const char *cc_cmd(struct session *s, const char *dir, const char *obj)
{
	const char *file = arena_printf(s->arena, step_cmd_files[STEP_CC], obj);
	const char *cmd = read_cmd_file(s, arena_printf(s->arena, "%s/%s", dir, file));

	return cmd ? placeholders(s, cmd, dir, obj) : NULL;
}

/* DIR/FILE as kbuild wrote it, its newlines escaped; NULL if it holds a
 * backslash or anything of the capture's but the placeholders. */
static const char *text_file(struct session *s, const char *dir,
			     const char *file)
{
	struct strbuf sb = { 0 };
	const char *text = NULL;

	if (!fio_read(arena_printf(s->arena, "%s/%s", dir, file), &sb) &&
	    !strchr(sb.s, '\\') && !strchr(sb.s, '\t'))
		text = placeholders(s, replace_all(s, sb.s, "\n", "\\n"), dir, NULL);
	sb_free(&sb);
	return text;
}

/* A recipe from the capture directory's .cmd files; 0 on success. */
static int recipe_from_cmds(struct session *s, const char *dir,
			    struct recipe *r)
{
	const char *rt_cc;
	int i;

	for (i = 0; i < NSTEPS; i++) {
		const char *file, *cmd;
		if (i == STEP_CC) {
			r->cmd[i] = cc_cmd(s, dir, CAPTURE_MAIN);
			if (!r->cmd[i])
				return -1;
			continue;
		}
		if (i == STEP_FIXDEP || i >= STEP_MODFILE) {
			r->cmd[i] = i == STEP_FIXDEP ? FIXDEP_CMD :
				    i == STEP_ORDERFILE ? text_file(s, dir, "modules.order") :
				    text_file(s, dir, CAPTURE_NAME ".mod");
			if (!r->cmd[i])
				return -1;
			continue;
		}
		file = arena_printf(s->arena, step_cmd_files[i], CAPTURE_NAME);
		file = arena_printf(s->arena, "%s/%s", dir, file);
		if (i == STEP_COMMON_CC && access(file, F_OK)) {
			r->cmd[i] = "true";
			continue;
		}
		cmd = read_cmd_file(s, file);
		if (!cmd || !(cmd = placeholders(s, cmd, dir, NULL)))
			return -1;
		r->cmd[i] = cmd;
	}
	/* Both objects compile alike, and the flags reach the compiler. */
	rt_cc = cc_cmd(s, dir, CAPTURE_RT);
	if (!rt_cc || strcmp(rt_cc, r->cmd[STEP_CC]))
		return -1;
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

/* make exports SRCARCH, which some kernels' objtool (Debian's wrapper
 * that runs the architecture's) needs: the source architecture the
 * compile's include paths name ("-I…/arch/x86/include"). */
static void export_srcarch(struct session *s, const char *cc)
{
	const char *a = strstr(cc, "/arch/"), *end;

	if (getenv("SRCARCH") || !a)
		return;
	a += 6;
	end = strchr(a, '/');
	if (end && end > a)
		setenv("SRCARCH", arena_strndup(s->arena, a, (size_t)(end - a)), 0);
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

/* One replay: module NAME in DIR of the objects MAIN and RT (DIR/MAIN.c,
 * DIR/RT.c), the runtime's already compiled when RT_READY; RT_NAME is the
 * module name RT is compiled for (a cached one is compiled once for all).
 * COMMON: where the cache keeps the kernel's module-common object (NULL:
 * compile it, as the capture does). */
struct replay {
	const struct recipe *r;
	const char *dir, *name, *main, *rt, *rt_name, *ccflags, *common;
	int rt_ready;
	int fd;
};

/* CMD with the replay's values for the placeholders; OBJ and NAME for
 * @OBJ@ and @NAME@. */
static const char *expand(struct session *s, const struct replay *p,
			  const char *cmd, const char *obj, const char *name)
{
	cmd = replace_all(s, cmd, "@DIR@", p->dir);
	cmd = replace_all(s, cmd, "@NAME@", name);
	cmd = replace_all(s, cmd, "@MAIN@", p->main);
	cmd = replace_all(s, cmd, "@RT@", p->rt);
	if (obj)
		cmd = replace_all(s, cmd, "@OBJ@", obj);
	return replace_all(s, cmd, "@CCFLAGS@", p->ccflags);
}

/* Compile DIR/OBJ.c for module NAME, and its .cmd file. */
static int compile_obj(struct session *s, const struct replay *p,
		       const char *obj, const char *name)
{
	return run_step(s, expand(s, p, p->r->cmd[STEP_CC], obj, name), p->fd) ||
	       run_step(s, expand(s, p, p->r->cmd[STEP_FIXDEP], obj, name), p->fd);
}

/* Compile the runtime's object in a child while the script's unit
 * compiles here: the first build for a kernel pays two gcc runs side by
 * side rather than one after the other.  The child's pid, or -1. */
static pid_t compile_rt_async(struct session *s, const struct replay *p)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(compile_obj(s, p, p->rt, p->rt_name) ? 1 : 0);
	return pid;
}

/* The step that compiles the kernel's module-common object into
 * DIR/.module-common.o (a no-op before 6.10), or its copy from the cache,
 * where a compiled one is kept for the next builds (through a temporary
 * file and a rename). */
static int common_cc(struct session *s, const struct replay *p)
{
	const char *cmd = p->r->cmd[STEP_COMMON_CC], *tmp;
	const char *obj = arena_printf(s->arena, "%s/.module-common.o", p->dir);

	if (!strcmp(cmd, "true"))
		return 0;
	if (p->common && !s->poison_cache && !fio_copy(p->common, obj)) {
		utimensat(AT_FDCWD, p->common, NULL, 0);	/* used now */
		return 0;
	}
	if (run_step(s, expand(s, p, cmd, NULL, p->name), p->fd))
		return -1;
	if (p->common) {
		tmp = arena_printf(s->arena, "%s.tmp%ld", p->common, (long)getpid());
		if (fio_copy(obj, tmp) || rename(tmp, p->common))
			unlink(tmp);
	}
	return 0;
}

static int recipe_run(struct session *s, struct replay *p)
{
	const char *log = arena_printf(s->arena, "%s/build.log", p->dir);
	const char *mod = expand(s, p, p->r->cmd[STEP_MODFILE], NULL, p->name);
	const char *order = expand(s, p, p->r->cmd[STEP_ORDERFILE], NULL, p->name);
	pid_t rt_pid = -1;
	int i, rc, st;

	if (fio_put(&s->diags, arena_printf(s->arena, "%s/modules.order", p->dir),
			     replace_all(s, order, "\\n", "\n")) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/%s.mod", p->dir, p->name),
			     replace_all(s, mod, "\\n", "\n")))
		return -1;
	p->fd = s->verbose >= 2 ? dup(2) : open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (p->fd < 0)
		return -1;
	export_srcarch(s, p->r->cmd[STEP_CC]);
	if (!p->rt_ready)
		rt_pid = compile_rt_async(s, p);
	rc = compile_obj(s, p, p->main, p->name);
	if (rt_pid > 0) {
		if (waitpid(rt_pid, &st, 0) != rt_pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			rc = -1;
	} else if (!rc && !p->rt_ready) {
		rc = compile_obj(s, p, p->rt, p->rt_name);
	}
	for (i = STEP_LINK; i <= STEP_LD && !rc; i++)
		rc = i == STEP_COMMON_CC ? common_cc(s, p) :
		     run_step(s, expand(s, p, p->r->cmd[i], NULL, p->name), p->fd);
	close(p->fd);
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

/* Remove every file of DIR but its sources (.c): the replay must find
 * nothing kbuild left (its outputs, its .cmd files). */
static int clear_dir(struct session *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (n < 2 || strcmp(e->d_name + n - 2, ".c")) &&
		    unlink(arena_printf(s->arena, "%s/%s", dir, e->d_name)))
			rc = -1;
	}
	closedir(d);
	return rc;
}

/* Build a small two-object module with kbuild in a directory of its own,
 * derive the recipe and verify it by replaying it there; 0 on success. */
static int recipe_capture(struct session *s, struct recipe *r)
{
	static const char main_src[] =
		"/* ctap: a module to learn how kbuild builds one */\n"
		"#include <linux/module.h>\n"
		"#include <linux/kernel.h>\n"
		"int ctap_rcp_part(void);\n"
		"static int __init capture_init(void)\n"
		"{\n\tpr_info(\"%d\\n\", THIS_MODULE != NULL && ctap_rcp_part());\n"
		"\treturn 0;\n}\n"
		"static void __exit capture_exit(void)\n{\n}\n"
		"module_init(capture_init);\nmodule_exit(capture_exit);\n"
		"MODULE_LICENSE(\"GPL\");\n"
		"MODULE_VERSION(\"1\");\n";	/* modpost reads the .cmd files */
	static const char rt_src[] =
		"/* ctap: the module's second object */\n"
		"#include <linux/kernel.h>\n"
		"#include <linux/string.h>\n"
		"int ctap_rcp_part(void);\n"
		"int ctap_rcp_part(void)\n{\n\treturn strlen(\"ctap\") == 4;\n}\n";
	const char *top = session_tmpdir(s), *dir, *ko, *kept;
	struct replay p = { 0 };

	if (!top)
		return -1;
	dir = arena_printf(s->arena, "%s/recipe", top);
	if (mkdir(dir, 0700) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/%s.c", dir, CAPTURE_MAIN), main_src) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/%s.c", dir, CAPTURE_RT), rt_src) ||
	    fio_put(&s->diags, arena_printf(s->arena, "%s/Kbuild", dir),
			     "obj-m := " CAPTURE_NAME ".o\n"
			     CAPTURE_NAME "-y := " CAPTURE_MAIN ".o " CAPTURE_RT ".o\n"
			     "ccflags-y := " CAPTURE_FLAG "\n") ||
	    kbuild_make(s, dir, arena_printf(s->arena, "%s/build.log", dir)) ||
	    recipe_from_cmds(s, dir, r))
		return -1;
	ko = arena_printf(s->arena, "%s/%s.ko", dir, CAPTURE_NAME);
	kept = arena_printf(s->arena, "%s/kbuild.ko", top);
	if (rename(ko, kept) || clear_dir(s, dir))
		return -1;
	p.r = r;
	p.dir = dir;
	p.name = p.rt_name = CAPTURE_NAME;
	p.main = CAPTURE_MAIN;
	p.rt = CAPTURE_RT;
	p.ccflags = CAPTURE_FLAG;
	if (recipe_run(s, &p) || !same_file(ko, kept))
		return -1;
	return 0;
}

/* The runtime's object (DIR/stp_rt.o and its .cmd file) from the cache,
 * its directory there as @DIR@; 0 when found. */
static int rt_fetch(struct session *s, const char *cpath, const char *dir)
{
	const char *cmd = arena_printf(s->arena, "%s/." RT_OBJ ".o.cmd", dir);
	struct strbuf sb = { 0 };
	int rc;

	if (s->poison_cache || fio_read(arena_printf(s->arena, "%s.cmd", cpath), &sb))
		return -1;
	rc = fio_put(&s->diags, cmd, replace_all(s, sb.s, "@DIR@", dir)) ||
	     fio_copy(arena_printf(s->arena, "%s.o", cpath),
		      arena_printf(s->arena, "%s/" RT_OBJ ".o", dir)) ? -1 : 0;
	sb_free(&sb);
	/* used now: the cache's cleaner removes the least recently used */
	if (!rc)
		utimensat(AT_FDCWD, arena_printf(s->arena, "%s.o", cpath), NULL, 0);
	return rc;
}

/* Keep the runtime's object just compiled in DIR for the next builds:
 * through temporary files and renames, the .cmd file first, so that a
 * concurrent build finds both whole or does not find the object. */
static void rt_store(struct session *s, const char *cpath, const char *dir)
{
	const char *tmp = arena_printf(s->arena, "%s.tmp%ld", cpath, (long)getpid());
	struct strbuf sb = { 0 };

	if (fio_read(arena_printf(s->arena, "%s/." RT_OBJ ".o.cmd", dir), &sb))
		return;
	if (!fio_put(&s->diags, tmp, replace_all(s, sb.s, dir, "@DIR@")) &&
	    !rename(tmp, arena_printf(s->arena, "%s.cmd", cpath)) &&
	    !fio_copy(arena_printf(s->arena, "%s/" RT_OBJ ".o", dir), tmp) &&
	    !rename(tmp, arena_printf(s->arena, "%s.o", cpath)) && s->verbose >= 2)
		fprintf(stderr, "Kept the runtime's object as %s.o\n", cpath);
	unlink(tmp);
	sb_free(&sb);
}

int recipe_build(struct session *s, const char *key, const char *rt_key,
		 const char *dir, const char *name, const char *src_base,
		 const char *ccflags)
{
	const char *cdir = fio_cache_dir(s), *path, *rtdir, *cpath;
	struct replay p = { 0 };
	struct recipe r;
	int have;

	if (!cdir || !shell_safe(dir) || !shell_safe(name) ||
	    !shell_safe(s->runtime_dir) || !strcmp(name, SCRIPT_OBJ) ||
	    !strcmp(name, RT_OBJ) || !strcmp(src_base, RT_OBJ))
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
	rtdir = arena_printf(s->arena, "%s/rtlib", cdir);
	if (!have || fio_mkdirs(rtdir))
		return -1;
	cpath = arena_printf(s->arena, "%s/%s", rtdir, rt_key);
	if (symlink(arena_printf(s->arena, "%s.c", src_base),
		    arena_printf(s->arena, "%s/" SCRIPT_OBJ ".c", dir)) && errno != EEXIST)
		return -1;
	if (fio_put(&s->diags, arena_printf(s->arena, "%s/" RT_OBJ ".c", dir),
		    "#include \"stp_rtlib.c\"\n"))
		return -1;
	p.r = &r;
	p.dir = dir;
	p.name = name;
	p.main = SCRIPT_OBJ;
	p.rt = p.rt_name = RT_OBJ;
	p.ccflags = ccflags;
	p.common = arena_printf(s->arena, "%s.common.o", cpath);
	p.rt_ready = !rt_fetch(s, cpath, dir);
	if (recipe_run(s, &p)) {
		if (s->verbose >= 2)
			fprintf(stderr, "Building with kbuild's commands failed; running make\n");
		return -1;
	}
	if (!p.rt_ready)
		rt_store(s, cpath, dir);
	return 0;
}
