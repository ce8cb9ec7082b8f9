/* build.c - pass 4: compile the generated C into a kernel module with kbuild.
 *
 * Reads s->c_source (written by pass 3 into the run's temporary directory)
 * and writes a Kbuild file, the -D defines as a header, and the module
 * beside it; sets s->module_path.  With -m, or when stopping after pass 4,
 * the module is also copied to the current directory and its name printed,
 * as stap does.  Also owns the temporary directory's life (session_tmpdir).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/build.h"
#include "build/cache.h"
#include "kernel/kernel.h"
#include "build/recipe.h"
#include "session.h"
#include "version.h"

/* ---- the temporary directory ---- */

static char *tmpdir_path;	/* heap: must outlive the session's arena */
static int tmpdir_keep;

static void remove_tree(const char *path)
{
	pid_t pid = fork();

	/* rm -rf is simpler and surer than a hand-written tree walk. */
	if (pid == 0) {
		execlp("rm", "rm", "-rf", "--", path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void tmpdir_cleanup(void)
{
	if (!tmpdir_path)
		return;
	if (tmpdir_keep)
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", tmpdir_path);
	else
		remove_tree(tmpdir_path);
	free(tmpdir_path);
	tmpdir_path = NULL;
}

/* Ctrl-C in passes 1-4 ends stap at once, as with stap, but without
 * leaving the directory behind.  (Pass 5 has its own handlers.) */
static void tmpdir_on_signal(int sig)
{
	pid_t pid;

	if (tmpdir_path && !tmpdir_keep) {
		pid = fork();
		if (pid == 0) {
			execl("/bin/rm", "rm", "-rf", "--", tmpdir_path, (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tmpdir_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		sigaction(sigs[i], NULL, &old);
		if (old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

const char *session_tmpdir(struct session *s)
{
	char tmpl[] = "/tmp/stapXXXXXX";

	if (s->tmpdir)
		return s->tmpdir;
	if (!mkdtemp(tmpl)) {
		diag_fatal(&s->diags, "cannot create a temporary directory: %s",
			   strerror(errno));
		return NULL;
	}
	tmpdir_path = xstrdup(tmpl);
	tmpdir_keep = s->keep_tmpdir;
	atexit(tmpdir_cleanup);
	catch_signals();
	s->tmpdir = arena_strdup(s->arena, tmpl);
	if (s->verbose >= 2)
		fprintf(stderr, "Created temporary directory \"%s\"\n", s->tmpdir);
	return s->tmpdir;
}

/* ---- pass 4 ---- */

static int read_file(const char *path, struct strbuf *sb)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		sb_put(sb, buf, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Bump when the way the module is built changes (the Kbuild file, make's
 * arguments): modules cached by an older recipe must not be reused. */
#define BUILD_RECIPE "kbuild 3"

/* The compiler kbuild runs: -B CC=…, else the one Debian's headers name in
 * .kernelvariables ("CC = … gcc-12"), else gcc; NULL when not found. */
static const char *build_compiler(struct session *s)
{
	const char *cc = NULL, *opt, *path, *p;
	char line[512], *w, *end;
	FILE *f;
	int i;

	VEC_EACH(s->kbuild_opts, i, opt)
		if (!strncmp(opt, "CC=", 3))
			cc = opt + 3;
	f = cc ? NULL : fopen(arena_printf(s->arena, "%s/.kernelvariables",
					   s->kernel->build_dir), "r");
	while (f && fgets(line, sizeof line, f)) {
		if (strncmp(line, "CC", 2) || !strchr(line, '='))
			continue;
		end = line + strcspn(line, "\n");
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = 0;
		w = strrchr(line, ' ');
		w = w ? w + 1 : line;
		if (!strncmp(w, "$(CROSS_COMPILE)", 16))
			w += 16;
		cc = arena_strdup(s->arena, w);
	}
	if (f)
		fclose(f);
	if (!cc || !*cc)
		cc = "gcc";
	if (strchr(cc, '/'))
		return cc;
	path = getenv("PATH");
	for (p = path ? path : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		const char *cand = arena_printf(s->arena, "%.*s/%s", (int)n, p, cc);
		if (n && !access(cand, X_OK))
			return cand;
		p += n;
	}
	return NULL;
}

/* Feed what identifies the target kernel's build tree and compiler. */
static void build_kernel_key(struct session *s, struct sha256 *key)
{
	static const char *const kfiles[] = {
		".config", "Module.symvers", "Makefile", ".kernelvariables",
		"include/generated/utsrelease.h", "include/generated/autoconf.h",
	};
	const struct kernel_info *k = s->kernel;
	const char *cc = build_compiler(s);
	char *real = realpath(k->build_dir, NULL), *rcc;
	size_t j;

	cache_key_str(key, "release", k->release);
	cache_key_str(key, "build-dir", real ? real : k->build_dir);
	free(real);
	for (j = 0; j < sizeof kfiles / sizeof kfiles[0]; j++)
		cache_key_file(s, key, "kernel-file",
			       arena_printf(s->arena, "%s/%s", k->build_dir, kfiles[j]));
	/* The compiler's binary stands for its version: an upgrade replaces
	 * it (stat stamp, through the digest memo). */
	rcc = cc ? realpath(cc, NULL) : NULL;
	cache_key_file(s, key, "compiler", rcc ? rcc : cc);
	free(rcc);
}

/* The cache key: a SHA-256 of everything that shapes the module. */
static void build_key(struct session *s, const struct strbuf *src, char hex[65])
{
	const char *opt;
	struct sha256 key;
	struct kv *kv;
	int i;

	sha256_init(&key);
	cache_key_str(&key, "recipe", BUILD_RECIPE);
	cache_key_str(&key, "translator", PACKAGE_STRING);
	cache_key_str(&key, "name", s->module_name);
	cache_key_add(&key, "source", src->s, src->len);
	cache_key_tree(s, &key, "runtime", s->runtime_dir);
	build_kernel_key(s, &key);
	VEC_EACH(s->defines, i, kv) {
		cache_key_str(&key, "define", kv->name);
		cache_key_str(&key, "value", kv->value);
	}
	VEC_EACH(s->kbuild_opts, i, opt)
		cache_key_str(&key, "kbuild-option", opt);
	sha256_final_hex(&key, hex);
}

/* The key of the kernel's build recipe (recipe.c). */
static void build_recipe_key(struct session *s, char hex[65])
{
	struct sha256 key;

	sha256_init(&key);
	cache_key_str(&key, "recipe", BUILD_RECIPE);
	cache_key_str(&key, "translator", PACKAGE_STRING);
	build_kernel_key(s, &key);
	sha256_final_hex(&key, hex);
}

int build_write_text(struct session *s, const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		diag_fatal(&s->diags, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Our compiler flags, as Kbuild's ccflags-y.  -g0 undoes the kernel's -g:
 * nothing reads a script module's DWARF, and generating it is a sixth of
 * the compile time. */
static const char *build_ccflags(struct session *s, const char *dir)
{
	return arena_printf(s->arena, "-I%s -include %s/stap_defines.h -g0",
			    s->runtime_dir, dir);
}

/* The Kbuild file and stap_defines.h (the -D options, as #defines: no
 * quoting through make and the shell to get wrong). */
static int write_kbuild(struct session *s, const char *dir, const char *name,
			const char *base)
{
	struct strbuf kb = { 0 }, defs = { 0 };
	struct kv *kv;
	int i, rc;

	sb_puts(&defs, "/* -D options of the stap command line */\n");
	VEC_EACH(s->defines, i, kv)
		sb_printf(&defs, "#define %s %s\n", kv->name,
			  kv->value ? kv->value : "1");
	sb_printf(&kb, "obj-m := %s.o\n", name);
	if (strcmp(name, base))
		sb_printf(&kb, "%s-y := %s.o\n", name, base);
	sb_printf(&kb, "ccflags-y := %s\n", build_ccflags(s, dir));
	rc = build_write_text(s, arena_printf(s->arena, "%s/stap_defines.h", dir), defs.s);
	if (!rc)
		rc = build_write_text(s, arena_printf(s->arena, "%s/Kbuild", dir), kb.s);
	sb_free(&kb);
	sb_free(&defs);
	return rc;
}

/* Run make; its output goes to LOG (or to stderr with -vv). */
int build_run_make(struct session *s, const char *dir, const char *log)
{
	const struct kernel_info *k = s->kernel;
	struct vec argv = { 0 };
	const char *opt;
	int i, status;
	pid_t pid;

	vec_push(s->arena, &argv, "make");
	vec_push(s->arena, &argv, "-C");
	vec_push(s->arena, &argv, (void *)k->build_dir);
	vec_push(s->arena, &argv, arena_printf(s->arena, "M=%s", dir));
	if (s->verbose < 2)
		vec_push(s->arena, &argv, "-s");
	else
		vec_push(s->arena, &argv, "V=1");
	/* No make-level parallelism to win for one object, and no
	 * rebuild of the tree's host tools. */
	vec_push(s->arena, &argv, "--no-print-directory");
	/* No DWARF in the .mod.o either (ccflags-y does not reach it):
	 * like stap's, the module carries none, and is a third smaller. */
	vec_push(s->arena, &argv, "CFLAGS_MODULE=-g0");
	VEC_EACH(s->kbuild_opts, i, opt)
		vec_push(s->arena, &argv, (void *)opt);
	vec_push(s->arena, &argv, "modules");
	vec_push(s->arena, &argv, NULL);
	if (s->verbose >= 2) {
		fputs("Running", stderr);
		for (i = 0; argv.v[i]; i++)
			fprintf(stderr, " %s", (char *)argv.v[i]);
		fputc('\n', stderr);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = s->verbose >= 2 ? 2 : open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("make", (char **)argv.v);
		fprintf(stderr, "cannot run make: %s\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void show_log(const char *log)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(log, "r");

	if (!f)
		return;
	fflush(stderr);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(f);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY), out, rc = 0;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
	if (n < 0)
		rc = -1;
	close(in);
	if (close(out))
		rc = -1;
	return rc;
}

static const char *source_base(struct session *s)
{
	const char *slash = strrchr(s->c_source, '/');
	const char *b = slash ? slash + 1 : s->c_source;
	size_t n = strlen(b);

	if (n > 2 && !strcmp(b + n - 2, ".c"))
		n -= 2;
	return arena_strndup(s->arena, b, n);
}

/* Copy the module to NAME.ko in the current directory. */
static int keep_module(struct session *s, const char *ko, const char *name)
{
	const char *here = arena_printf(s->arena, "%s.ko", name);

	if (copy_file(ko, here)) {
		diag_fatal(&s->diags, "cannot copy the module to %s: %s",
			   here, strerror(errno));
		return -1;
	}
	return 0;
}

/* After pass 4: -m keeps NAME.ko here; stopping after pass 4 names the
 * module on stdout, as stap does: the cached file, else NAME.ko here. */
static int deliver(struct session *s, const char *name, const char *cached)
{
	int here = s->module_name || (s->last_pass == 4 && !cached);

	if (here && keep_module(s, s->module_path, name))
		return 1;
	if (s->last_pass == 4)
		printf("%s\n", here ? arena_printf(s->arena, "%s.ko", name) : cached);
	return 0;
}

static int kbuild_failed(struct session *s, const char *log)
{
	if (s->verbose == 1)
		show_log(log);
	if (s->verbose)
		diag_fatal(&s->diags, "kernel module build failed%s",
			   s->keep_tmpdir ? "" : "; rerun with -k to keep the build directory");
	else if (s->keep_tmpdir)
		diag_fatal(&s->diags, "kernel module build failed; the compiler output is in %s",
			   log);
	else
		diag_fatal(&s->diags, "kernel module build failed; rerun with -v to see the compiler output or -k to keep the build directory");
	return 1;
}

/* Build without make when the kernel's recipe allows (recipe.c); never
 * with -B options, which only make understands. */
static int fast_build(struct session *s, const char *dir, const char *name,
		      const char *base)
{
	char key[65];

	if (s->kbuild_opts.n || !cache_dir(s))
		return -1;
	build_recipe_key(s, key);
	return recipe_build(s, key, dir, name, base, build_ccflags(s, dir));
}

int pass_build(struct session *s)
{
	const struct kernel_info *k = kernel_target(s);
	struct strbuf src = { 0 };
	const char *dir, *name, *base, *log, *cached;
	char key[65];

	if (!k)
		return 1;
	if (!k->build_dir) {
		diag_fatal(&s->diags, "no kernel build tree for %s: install linux-headers-%s (or use -r DIR)",
			   k->release, k->release);
		return 1;
	}
	dir = session_tmpdir(s);
	if (!dir)
		return 1;
	if (!s->c_source || read_file(s->c_source, &src)) {
		diag_fatal(&s->diags, "cannot read the generated C source %s",
			   s->c_source ? s->c_source : "(none)");
		sb_free(&src);
		return 1;
	}
	build_key(s, &src, key);
	sb_free(&src);
	name = s->module_name ? s->module_name
			      : arena_printf(s->arena, "stap_%.32s", key);
	if (s->verbose >= 3)
		fprintf(stderr, "Module cache key %s\n", key);
	cached = cache_lookup(s, key, name);
	if (cached) {
		if (s->verbose)
			fprintf(stderr, "Pass 4: using cached %s\n", cached);
		s->module_path = cached;
		s->module_cached = 1;
		return deliver(s, name, cached);
	}
	base = source_base(s);
	if (strncmp(s->c_source, dir, strlen(dir)) ||
	    s->c_source[strlen(dir)] != '/' ||
	    strchr(s->c_source + strlen(dir) + 1, '/')) {
		/* kbuild compiles sources of the module's own directory. */
		const char *copy = arena_printf(s->arena, "%s/%s.c", dir, base);
		if (copy_file(s->c_source, copy)) {
			diag_fatal(&s->diags, "cannot copy %s to %s", s->c_source, copy);
			return 1;
		}
	}
	if (write_kbuild(s, dir, name, base))
		return 1;
	log = arena_printf(s->arena, "%s/build.log", dir);
	if (fast_build(s, dir, name, base) && build_run_make(s, dir, log))
		return kbuild_failed(s, log);
	s->module_path = arena_printf(s->arena, "%s/%s.ko", dir, name);
	cached = cache_store(s, key, name, s->module_path);
	return deliver(s, name, cached);
}
