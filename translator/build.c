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

#include "build.h"
#include "kernel.h"
#include "session.h"

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

/* FNV-1a over the generated C and what else changes the module. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

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

static const char *module_name(struct session *s, const struct strbuf *src)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct kv *kv;
	int i;

	if (s->module_name)
		return s->module_name;
	h = fnv(h, src->s, src->len);
	h = fnv(h, s->kernel->release, strlen(s->kernel->release));
	VEC_EACH(s->defines, i, kv) {
		h = fnv(h, kv->name, strlen(kv->name) + 1);
		if (kv->value)
			h = fnv(h, kv->value, strlen(kv->value) + 1);
	}
	return arena_printf(s->arena, "stap_%016llx", (unsigned long long)h);
}

static int write_text(struct session *s, const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		diag_fatal(&s->diags, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
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
	sb_printf(&kb, "ccflags-y := -I%s -include %s/stap_defines.h\n",
		  s->runtime_dir, dir);
	rc = write_text(s, arena_printf(s->arena, "%s/stap_defines.h", dir), defs.s);
	if (!rc)
		rc = write_text(s, arena_printf(s->arena, "%s/Kbuild", dir), kb.s);
	sb_free(&kb);
	sb_free(&defs);
	return rc;
}

/* Run make; its output goes to LOG (or to stderr with -vv). */
static int run_make(struct session *s, const char *dir, const char *log)
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

int pass_build(struct session *s)
{
	const struct kernel_info *k = kernel_target(s);
	struct strbuf src = { 0 };
	const char *dir, *name, *base, *log, *ko;

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
	name = module_name(s, &src);
	sb_free(&src);
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
	if (run_make(s, dir, log)) {
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
	ko = arena_printf(s->arena, "%s/%s.ko", dir, name);
	s->module_path = ko;
	if (s->module_name || s->last_pass == 4) {
		const char *here = arena_printf(s->arena, "%s.ko", name);
		if (copy_file(ko, here)) {
			diag_fatal(&s->diags, "cannot copy the module to %s: %s",
				   here, strerror(errno));
			return 1;
		}
		if (s->last_pass == 4)
			printf("%s\n", here);
	}
	return 0;
}
