/* run.c - pass 5: run the module with staprun, here or in the testbed guest.
 *
 * Reads s->module_path (pass 4) and the run options; sets s->exit_status.
 * On a kernel that loads modules staprun runs directly.  In the testbed
 * (kernel.h says when) the module, staprun, stapio and the -c command go
 * into the guest's initramfs and testbed.c boots it, relaying the output
 * live and forwarding Ctrl-C so that end probes run.  As with stap, a run
 * ended by SIGINT succeeds; a failing staprun fails the pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/sysmark.h"
#include "util/tmpdir.h"
#include "kernel/elfsec.h"
#include "kernel/kernel.h"
#include "elab/program.h"
#include "session.h"
#include "testbed/testbed.h"

#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif

static const char *env_or(const char *name, const char *dflt)
{
	const char *e = getenv(name);

	return e && *e ? e : dflt;
}

static const char *staprun_path(void)
{
	return env_or("SYSTEMTAP_STAPRUN", BINDIR "/staprun");
}

static const char *stapio_path(void)
{
	return env_or("SYSTEMTAP_STAPIO", PKGLIBEXECDIR "/stapio");
}

/* staprun's arguments after argv[0]: options, the module, then -G
 * assignments as module parameters.  OUTPUT is the -o file staprun
 * writes (and then -S applies), or NULL (in the testbed the host may write
 * it itself). */
static void staprun_args(struct session *s, const char *ko, const char *output,
			 struct vec *argv)
{
	struct arena *a = s->arena;
	struct kv *kv;
	int i;

	for (i = 1; i < s->verbose; i++)	/* stap's -v level, less one */
		vec_push(a, argv, "-v");
	if (s->diags.suppress_warnings)
		vec_push(a, argv, "-w");
	if (s->buffer_mb) {	/* -b is built into the module (STP_BULKMODE) */
		vec_push(a, argv, "-b");
		vec_push(a, argv, arena_printf(a, "%d", s->buffer_mb));
	}
	if (s->output_file && output) {
		vec_push(a, argv, "-o");
		vec_push(a, argv, (void *)output);
	}
	if (s->output_switch && output) {
		vec_push(a, argv, "-S");
		vec_push(a, argv, (void *)s->output_switch);
	}
	if (s->target_cmd) {
		vec_push(a, argv, "-c");
		vec_push(a, argv, (void *)s->target_cmd);
	}
	if (s->reads_stdin)
		vec_push(a, argv, "-i");
	if (s->target_pid) {
		vec_push(a, argv, "-x");
		vec_push(a, argv, arena_printf(a, "%ld", s->target_pid));
	}
	if (s->target_namespace) {
		vec_push(a, argv, "-N");
		vec_push(a, argv, arena_printf(a, "%ld", s->target_namespace));
	}
	/* -F: a flight recorder, as stap 4.8 runs it: into -o's file by a
	 * staprun in the background, else left loaded and detached (its
	 * ring overwrites its oldest output until staprun -A) */
	if (s->flight_recorder)
		vec_push(a, argv, s->output_file ? "-D" : "-L");
	if (!s->module_name)	/* as stap: a second run goes beside */
		vec_push(a, argv, "-R");
	vec_push(a, argv, (void *)ko);
	VEC_EACH(s->globals_set, i, kv)
		vec_push(a, argv, arena_printf(a, "%s=%s", kv->name, kv->value));
}

/* The script reads stdin (input probes) and the guest cannot reach
 * ours: what stdin holds, to the end, copied to WORK/stdin for the guest's
 * staprun.  NULL (no copy) when stdin is a terminal: it cannot be relayed
 * as typed. */
static const char *stdin_copy(struct session *s, const char *work)
{
	const char *path = arena_printf(s->arena, "%s/stdin", work);
	char buf[65536];
	ssize_t n;
	int fd;

	if (!s->reads_stdin || isatty(0))
		return NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	while ((n = read(0, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(fd, buf, (size_t)n) != n)
			break;
	close(fd);
	return path;
}

/* -o FILE written here for the guest: its strftime(3) %-patterns expanded
 * as staprun does. */
static const char *output_name(struct session *s)
{
	char buf[4096];
	time_t now = time(NULL);
	struct tm tm;

	if (!strchr(s->output_file, '%') || !localtime_r(&now, &tm) ||
	    !strftime(buf, sizeof buf, s->output_file, &tm))
		return s->output_file;
	return arena_strdup(s->arena, buf);
}

/* Run staprun with ARGV here, waiting it out. */
static int run_staprun(struct session *s, struct vec *argv, int *status)
{
	struct sigaction ign, old_int, old_term;
	int wstatus;
	pid_t pid;

	vec_push(s->arena, argv, NULL);
	fflush(NULL);
	/* Ctrl-C reaches staprun from the terminal; stap waits it out. */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGTERM, &ign, &old_term);
	sysmark_start(s->arena, (const char *const *)argv->v);
	pid = fork();
	if (pid)
		sysmark_spawn(pid, errno);
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		execv(argv->v[0], (char **)argv->v);
		fprintf(stderr, "stap: error: cannot run %s: %s\n",
			(char *)argv->v[0], strerror(errno));
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (pid < 0) {
		diag_fatal(&s->diags, "cannot fork: %s", strerror(errno));
		return -1;
	}
	sysmark_complete(wstatus, pid);
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
				     : 128 + WTERMSIG(wstatus);
	return 0;
}

static int run_on_host(struct session *s, int *status)
{
	struct vec argv = { 0 };

	vec_push(s->arena, &argv, (void *)staprun_path());
	staprun_args(s, s->module_path, s->output_file, &argv);
	return run_staprun(s, &argv, status);
}

/* A user without stapdev's credentials (autopriv.c) runs only what the
 * installed translator builds from their script as root: staprun -P,
 * setuid, builds it and loads that (staprun/build.c), here or, on a kernel
 * without modules, in the testbed.  The translator options that do not
 * change what the script may do go with it (-E), the testbed kernel's
 * release among them, and its arguments (-a). */
static int run_trusted_build(struct session *s, int *status)
{
	struct vec argv = { 0 };
	const char *script, *arg;
	struct arena *a = s->arena;
	const char *dir = session_tmpdir(s);
	const struct src_file *extra;
	struct strbuf text = { 0 };
	int i;

	if (!dir)
		return -1;
	/* the script, then -E's and -T's, which went with it here */
	sb_puts(&text, s->script->text);
	VEC_EACH(s->extra_scripts, i, extra)
		sb_printf(&text, "\n%s\n", extra->text);
	script = arena_printf(a, "%s/script.stp", dir);
	i = fio_write(script, text.s, text.len);
	sb_free(&text);
	if (i < 0) {
		diag_fatal(&s->diags, "cannot write %s: %s", script, strerror(errno));
		return -1;
	}
	vec_push(a, &argv, (void *)staprun_path());
	vec_push(a, &argv, "-P");
	vec_push(a, &argv, (void *)privilege_name(session_privilege(s)));
	if (s->diags.suppress_warnings)
		vec_push(a, &argv, "-E-w");
	if (s->unoptimized)
		vec_push(a, &argv, "-E-u");
	if (s->timing)
		vec_push(a, &argv, "-E-t");
	if (s->bulk)
		vec_push(a, &argv, "-E-b");
	if (s->suppress_handler_errors)
		vec_push(a, &argv, "-E--suppress-handler-errors");
	/* the testbed's kernel, which need not be root's default one */
	if (kernel_target(s)->testbed)
		vec_push(a, &argv, arena_printf(a, "-E-r%s", kernel_target(s)->release));
	VEC_EACH(s->args, i, arg)
		vec_push(a, &argv, arena_printf(a, "-a%s", arg));
	staprun_args(s, script, s->output_file, &argv);
	return run_staprun(s, &argv, status);
}

/* Single-quote ARG for the guest's shell. */
static const char *quoted(struct session *s, const char *arg)
{
	struct strbuf sb = { 0 };
	const char *q;

	sb_putc(&sb, '\'');
	for (; *arg; arg++) {
		if (*arg == '\'')
			sb_puts(&sb, "'\\''");
		else
			sb_putc(&sb, *arg);
	}
	sb_putc(&sb, '\'');
	q = arena_strdup(s->arena, sb.s);
	sb_free(&sb);
	return q;
}

/* The host program the -c command starts, to copy into the guest at the
 * same path (*GUEST NULL), or with --sysroot at its target path *GUEST:
 * its first word, looked up in PATH (the target's, in the sysroot).  NULL
 * when it is not a file (a shell builtin, or a busybox applet the guest
 * has anyway). */
static const char *target_program(struct session *s, const char **guest)
{
	const char *cmd = s->target_cmd, *path, *p;
	size_t n;

	*guest = NULL;
	cmd += strspn(cmd, " \t");
	n = strcspn(cmd, " \t;|&<>()$`'\"");
	if (!n)
		return NULL;
	if (s->sysroot && strcmp(s->sysroot, "/")) {
		*guest = fio_which(s, arena_strndup(s->arena, cmd, n));
		return *guest ? fio_host_path(s, *guest) : NULL;
	}
	if (memchr(cmd, '/', n))
		return access(arena_strndup(s->arena, cmd, n), X_OK) ? NULL
			: arena_strndup(s->arena, cmd, n);
	path = env_or("PATH", "/usr/local/bin:/usr/bin:/bin");
	for (p = path; *p; p += strcspn(p, ":"), p += *p == ':') {
		size_t dl = strcspn(p, ":");
		const char *f = arena_printf(s->arena, "%.*s/%.*s", (int)dl, p,
					     (int)n, cmd);
		struct stat st;
		if (dl && *p == '/' && !stat(f, &st) && S_ISREG(st.st_mode) &&
		    !access(f, X_OK))
			return f;
	}
	return NULL;
}

/* Does the script move -o's output on to new files (switch_file())?  Then
 * the guest's stapio writes them, as with -S. */
static int calls_switch_file(struct session *s)
{
	struct func *f;
	int i;

	VEC_EACH(s->program->funcs, i, f)
		if (!strcmp(f->name, "switch_file"))
			return 1;
	return 0;
}

/* -o FILE as the guest's staprun writes it, in its /work/out. */
static const char *guest_output(struct session *s)
{
	const char *base;

	if (!s->output_file)
		return NULL;
	base = strrchr(s->output_file, '/');
	return base ? base + 1 : s->output_file;
}

/* Where the files the guest's staprun writes come back to: -o's
 * directory, or the current one. */
static const char *results_dir(struct session *s)
{
	const char *slash = s->output_file ? strrchr(s->output_file, '/') : NULL;

	if (!slash)
		return ".";
	if (slash == s->output_file)
		return "/";
	return arena_strndup(s->arena, s->output_file,
			     (size_t)(slash - s->output_file));
}

/* The testbed state directory of the kernel to boot: the target kernel's
 * (stap -r NAME, or the one staprun's module was built for), else the
 * default one. */
static const char *boot_dir(struct session *s)
{
	return s->kernel && s->kernel->tb_dir ? s->kernel->tb_dir
					      : kernel_testbed_dir();
}

/* Run staprun with ARGV (its arguments, naming the module as /work/NAME.ko)
 * in the testbed guest, with the module MODULE copied in.  It runs in
 * /work/out, and the files left there come back (as with a run here, in
 * the current directory or -o's).  IN_GUEST: the guest's staprun writes
 * -o's files itself (bulk mode, -S rotation); else the host writes -o's
 * file from the guest's stdout as it comes. */
static int run_in_testbed(struct session *s, const char *module,
			  struct vec *argv, int in_guest, int *status)
{
	const char *dir = session_tmpdir(s), *work, *prog, *arg, *ko, *in;
	const char *prog_guest;
	struct tb_file files[5];
	struct strbuf job = { 0 };
	struct tb_guest g;
	struct tb_result r;
	int nfiles = 0, out_fd = 1, rc, i;
	char log[4200];

	if (!dir)
		return -1;
	work = arena_printf(s->arena, "%s/testbed", dir);
	if (mkdir(work, 0700) && errno != EEXIST) {
		diag_fatal(&s->diags, "cannot create %s: %s", work, strerror(errno));
		return -1;
	}
	ko = strrchr(module, '/');
	ko = ko ? ko + 1 : module;
	files[nfiles++] = (struct tb_file){ .host = module,
		.guest = arena_printf(s->arena, "work/%s", ko), .stap_module = 1 };
	files[nfiles++] = (struct tb_file){ .host = staprun_path(), .program = 1 };
	files[nfiles++] = (struct tb_file){ .host = stapio_path(), .program = 1 };
	prog = s->target_cmd ? target_program(s, &prog_guest) : NULL;
	if (prog)
		files[nfiles++] = (struct tb_file){ .host = prog,
			.guest = prog_guest, .program = 1 };
	in = stdin_copy(s, work);
	if (in)
		files[nfiles++] = (struct tb_file){ .host = in, .guest = "work/stdin" };

	if (in_guest && s->output_file && access(results_dir(s), W_OK)) {
		diag_fatal(&s->diags, "cannot open output file %s: %s",
			   s->output_file, strerror(errno));
		return -1;
	}
	sb_puts(&job, "mkdir -p /work/out && cd /work/out\n");
	sb_printf(&job, "export SYSTEMTAP_STAPIO=%s\ntb_group %s",
		  quoted(s, stapio_path()), quoted(s, staprun_path()));
	VEC_EACH(*argv, i, arg)
		sb_printf(&job, " %s", quoted(s, arg));
	if (in)
		sb_puts(&job, " </work/stdin");
	sb_putc(&job, '\n');

	if (s->output_file && !in_guest) {
		const char *name = output_name(s);

		out_fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (out_fd < 0) {
			diag_fatal(&s->diags, "cannot open output file %s: %s",
				   name, strerror(errno));
			sb_free(&job);
			return -1;
		}
	}
	memset(&g, 0, sizeof g);
	g.kernel = arena_printf(s->arena, "%s/vmlinuz", boot_dir(s));
	g.workdir = work;
	g.files = files;
	g.nfiles = nfiles;
	g.job = job.s;
	g.forward_signals = 1;
	g.boot_timeout = atoi(env_or("STAP_TESTBED_BOOT_TIMEOUT", "0"));
	g.modules = getenv("STAP_TESTBED_MODULES");
	g.modules_dir = arena_printf(s->arena, "%s/modules", boot_dir(s));
	g.verbose = s->verbose >= 3;
	g.results_dir = results_dir(s);
	fflush(NULL);
	rc = tb_run(&g, out_fd, 2, &r);
	sb_free(&job);
	if (out_fd != 1)
		close(out_fd);
	if (rc) {
		if (s->keep_tmpdir)
			diag_fatal(&s->diags, "%s; the guest's console log is %s",
				   r.error, tb_console_log(&g, log, sizeof log));
		else
			diag_fatal(&s->diags, "%s; rerun with -k to keep the guest's console log",
				   r.error);
		return -1;
	}
	*status = r.interrupted ? 0 : r.status;
	return 0;
}

static int check_file(struct session *s, const char *what, const char *path)
{
	if (access(path, X_OK) == 0)
		return 0;
	diag_fatal(&s->diags, "cannot find %s at %s: install the project (make install) or set SYSTEMTAP_%s",
		   what, path, !strcmp(what, "staprun") ? "STAPRUN" : "STAPIO");
	return -1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double tv_ms(const struct timeval *tv)
{
	return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

int pass_run(struct session *s)
{
	const struct kernel_info *k = kernel_target(s);
	struct rusage ru0, ru;
	double t0 = now_ms();
	int status = 0, rc;

	if (!k)
		return 1;
	if (s->auto_privilege_cred) {
		if (check_file(s, "staprun", staprun_path()))
			return 1;
		if (s->verbose)
			fprintf(stderr, "Pass 5: starting run.\n");
		return run_trusted_build(s, &status) || status ? 1 : 0;
	}
	if (!s->module_path) {
		diag_fatal(&s->diags, "no module to run");
		return 1;
	}
	if (check_file(s, "staprun", staprun_path()) ||
	    (k->testbed && check_file(s, "stapio", stapio_path())))
		return 1;
	if (!k->testbed && !kernel_host_loads_modules()) {
		diag_fatal(&s->diags, "this kernel cannot load modules; run in the testbed guest instead (--testbed)");
		return 1;
	}
	if (s->verbose)
		fprintf(stderr, "Pass 5: starting run.\n");
	getrusage(RUSAGE_CHILDREN, &ru0);
	if (k->testbed) {
		struct vec argv = { 0 };
		const char *ko = strrchr(s->module_path, '/');
		int in_guest = s->bulk || s->output_switch ||
			       calls_switch_file(s) ||
			       (s->flight_recorder && s->output_file);

		ko = arena_printf(s->arena, "/work/%s", ko ? ko + 1 : s->module_path);
		staprun_args(s, ko, in_guest ? guest_output(s) : NULL, &argv);
		rc = run_in_testbed(s, s->module_path, &argv, in_guest, &status);
	} else {
		rc = run_on_host(s, &status);
	}
	if (rc)
		return 1;
	if (s->verbose && !status) {
		getrusage(RUSAGE_CHILDREN, &ru);
		fprintf(stderr, "Pass 5: run completed in %.0fusr/%.0fsys/%.0freal ms.\n",
			tv_ms(&ru.ru_utime) - tv_ms(&ru0.ru_utime),
			tv_ms(&ru.ru_stime) - tv_ms(&ru0.ru_stime),
			now_ms() - t0);
	}
	/* A failing staprun has said why; stap adds its summary line. */
	return status ? 1 : 0;
}

/* The kernel release MODULE was built for (its vermagic's first word),
 * or NULL. */
static const char *module_release(struct session *s, const char *module)
{
	size_t n, len;
	char *mi = elfsec_read(module, ".modinfo", &n, NULL, 0), *p, *end;
	const char *rel = NULL;

	for (p = mi; p && p < mi + n && !rel; p = end + 1) {
		end = memchr(p, '\0', (size_t)(mi + n - p));
		if (!end)
			break;
		if (!strncmp(p, "vermagic=", 9)) {
			len = strcspn(p + 9, " ");
			rel = len ? arena_strndup(s->arena, p + 9, len) : NULL;
		}
	}
	free(mi);
	return rel;
}

/* staprun on a kernel that cannot load modules: run the same command in
 * the testbed guest.  ARGS are staprun's arguments; the module (the first
 * argument naming a .ko file) is copied in, a -c command's program too,
 * and -o FILE is written here on the host; the guest boots the testbed
 * kernel the module was built for.  Returns staprun's status. */
int run_staprun_in_testbed(struct session *s, int nargs, char **args)
{
	struct vec argv = { 0 };
	const char *module = NULL;
	int i, status = 1;

	for (i = 0; i < nargs; i++) {
		const char *a = args[i];
		size_t n = strlen(a);
		if (!module && a[0] == '-' && a[1] && strchr("cxbTSCNrFo", a[1]) &&
		    !a[2] && i + 1 < nargs) {	/* the options with a value */
			if (!strcmp(a, "-c"))
				s->target_cmd = args[i + 1];
			if (!strcmp(a, "-o")) {
				s->output_file = args[++i];
				continue;
			}
			if (!strcmp(a, "-S"))
				s->output_switch = args[i + 1];
			vec_push(s->arena, &argv, (void *)a);
			vec_push(s->arena, &argv, args[++i]);
			continue;
		}
		if (!module && n > 3 && !strcmp(a + n - 3, ".ko")) {
			const char *base = strrchr(a, '/');
			module = a;
			if (s->output_file && s->output_switch) {
				vec_push(s->arena, &argv, "-o");
				vec_push(s->arena, &argv, (void *)guest_output(s));
			}
			vec_push(s->arena, &argv, arena_printf(s->arena,
				 "/work/%s", base ? base + 1 : a));
			continue;
		}
		vec_push(s->arena, &argv, (void *)a);
	}
	if (!module) {
		fprintf(stderr, "staprun: error: no module file (NAME.ko) given\n");
		return 1;
	}
	if (access(module, R_OK)) {
		fprintf(stderr, "ERROR: Couldn't open module file '%s': %s\n",
			module, strerror(errno));
		return 1;
	}
	if (check_file(s, "staprun", staprun_path()) ||
	    check_file(s, "stapio", stapio_path()))
		return 1;
	/* The guest boots the testbed kernel the module was built for, as
	 * stap -r RELEASE would (the default one when none matches). */
	s->kernel_release = module_release(s, module);
	if (s->kernel_release)
		kernel_target(s);
	if (run_in_testbed(s, module, &argv, s->output_switch != NULL, &status))
		return 1;
	return status;
}
