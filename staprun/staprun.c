/* staprun.c - load a probe module and become stapio, which runs it.
 *
 * staprun needs root for init_module/delete_module; stapio does the talking.
 * As stap's staprun, it loads the module and then becomes stapio (exec),
 * which stops the script on a signal and unloads the module at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../includes/sys/sdt.h"
#include "build.h"
#include "modload.h"
#include "opts.h"
#include "privilege.h"

/* -P: the module staprun built from the user's script (build.c). */
static struct stp_build staprun_built;

/* A Ctrl-C while the module loads must not be lost: the stop signals stay
 * blocked (pending) across the exec of stapio, which unblocks them once its
 * handlers are in place. */
static void staprun_block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* "var=value ..." for init_module, with the transport's own parameters. */
static char *staprun_params(const struct stp_opts *o)
{
	size_t len = 64;
	char *p, *s;
	int i;

	for (i = 0; i < o->nparams; i++)
		len += strlen(o->params[i]) + 3;
	s = p = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0; i < o->nparams; i++) {
		const char *eq = strchr(o->params[i], '=');

		/* the kernel splits on blanks unless the value is quoted */
		if (eq && strpbrk(eq, " \t\n") && !strchr(eq, '"'))
			p += sprintf(p, "%.*s\"%s\" ", (int)(eq - o->params[i] + 1),
				     o->params[i], eq + 1);
		else
			p += sprintf(p, "%s ", o->params[i]);
	}
	if (o->bufsize_mb)
		p += sprintf(p, "_stp_bufsize=%d ", o->bufsize_mb);
	/* last, so a user's own _stp_credentials=N does not count: all
	 * levels for what root, stapdev or the system module directory
	 * loads (stap's), the user's own for a module built for them (-P),
	 * which the module checks against the level it was built for */
	p += sprintf(p, "_stp_credentials=%d", o->build_level ?
		     priv_credentials() : STP_PRIV_ALL);
	return s;
}

/* After stap's "Invalid module format": say so when the module was built
 * for another kernel release (stap -r) than the one running. */
static void staprun_other_kernel(const struct stp_module *m)
{
	struct utsname u;
	char built[256];

	if (!modload_release(m, built, sizeof(built)) || uname(&u) < 0 ||
	    !strcmp(built, u.release))
		return;
	fprintf(stderr, "  The module was built for kernel %s, not for the running kernel %s.\n",
		built, u.release);
}

/* Read the module once (the checks and the load see the same bytes);
 * a user who is not root may load only what privilege.c allows.  -1 after
 * an error; 255 (stap's status) when the user may not load it. */
static int staprun_read(const struct stp_opts *o, struct stp_module *m)
{
	char buf[4096];
	const char *path = o->build_level ? staprun_built.path :
		priv_module_path(o->module, buf, sizeof(buf));
	int fd = modload_open(path), rc;

	if (fd >= 0 && getuid() != 0 && !o->build_level &&
	    priv_may_load(path, fd) < 0) {
		close(fd);
		return 255;
	}
	rc = modload_read(m, path, fd);
	if (!o->build_level)
		return rc;
	/* what root built is in memory now: its files go */
	build_cleanup(&staprun_built);
	if (!rc && modload_privilege(m) != staprun_built.level) {
		fprintf(stderr, "ERROR: The module built from the script is not one for --privilege=%s.\n",
			o->build_level);
		return -1;
	}
	return rc;
}

/* The first line of a small file in BUF ("" if it cannot be read). */
static const char *staprun_read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, (int)n, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* The kernel's lockdown level ("integrity", "confidentiality"), or NULL:
 * none, or unknown (securityfs not mounted: then the boot parameter). */
static const char *staprun_lockdown(char *buf, size_t n)
{
	char *open, *close;

	staprun_read_line("/sys/kernel/security/lockdown", buf, n);
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = 0;
		return strcmp(open + 1, "none") ? open + 1 : NULL;
	}
	staprun_read_line("/proc/cmdline", buf, n);
	open = strstr(buf, "lockdown=");
	if (!open || (open > buf && open[-1] != ' '))
		return NULL;
	open += strlen("lockdown=");
	open[strcspn(open, " ")] = 0;
	return strcmp(open, "none") ? open : NULL;
}

/* After stap's message for an EPERM or EKEYREJECTED from init_module:
 * why the kernel refused, and what to do. */
static void staprun_refused(const struct stp_module *m, int err)
{
	static const char marker[] = "~Module signature appended~\n";
	int has_sig = m->size >= sizeof(marker) - 1 &&
		!memcmp(m->image + m->size - (sizeof(marker) - 1), marker,
			sizeof(marker) - 1);
	const char *what = has_sig ? "its signature is not one the kernel trusts" :
		"it is not signed";
	const char *level;
	char buf[4096];

	if (err == EPERM && !strcmp(staprun_read_line(
			"/proc/sys/kernel/modules_disabled", buf, sizeof(buf)), "1")) {
		fprintf(stderr, "  Module loading is disabled until the next boot (/proc/sys/kernel/modules_disabled is 1).\n");
		return;
	}
	level = err == EPERM ? staprun_lockdown(buf, sizeof(buf)) : NULL;
	if (level)
		fprintf(stderr, "  The kernel is locked down (%s): it loads only modules signed with a key it trusts, and %s.\n",
			level, what);
	else if (err == EKEYREJECTED)
		fprintf(stderr, "  The kernel enforces module signatures (module.sig_enforce): it loads only modules signed with a key it trusts, and %s.\n",
			what);
	else
		return;
	fprintf(stderr, "  Sign the module with a key the kernel trusts (the kernel's scripts/sign-file, with a certificate\n"
		"  enrolled as a machine owner key by mokutil --import), or boot the kernel without %s.\n",
		level ? "lockdown (lockdown=, or Secure Boot off)" : "module.sig_enforce=1");
}

static int staprun_load(const struct stp_opts *o, struct stp_module *m)
{
	char *params, unique[56];
	int rc;

	rc = staprun_read(o, m);
	if (rc)
		return rc;
	params = staprun_params(o);
	if (!params)
		return -1;
	snprintf(unique, sizeof(unique), "%.40s_%d", m->name, (int)getpid());
	if (o->rename)
		modload_rename(m, unique);
	STAP_PROBE1(staprun, insert__module, o->module);
	rc = modload_insert(m, params);
	free(params);
	if (rc < 0) {
		int err = errno;

		fprintf(stderr, "ERROR: Couldn't insert module '%s': %s\n",
			o->module, modload_strerror(err));
		/* a module of that name runs (stap -m NAME twice; stap
		 * itself passes -R when it named the module) */
		if (err == EEXIST)
			fprintf(stderr, "ERROR: Rerun with staprun option '-R' to rename this module.\n");
		else if (err == ENOEXEC)
			staprun_other_kernel(m);
		else if (err == EPERM || err == EKEYREJECTED)
			staprun_refused(m, err);
		return -1;
	}
	if (o->verbose)
		fprintf(stderr, "staprun: loaded module '%s'\n", m->name);
	return 0;
}

static const char *staprun_stapio_path(void)
{
	const char *env = getenv("SYSTEMTAP_STAPIO");

	return env && *env ? env : PKGLIBEXECDIR "/stapio";
}

/* Become stapio (as stap's staprun does, so that the module's begin probes
 * see stapio's parent as theirs), with our options and the module's name;
 * stapio unloads the module when the script ends.  Returns only if the
 * exec failed. */
static void staprun_exec_stapio(char **argv, const struct stp_opts *o,
				const char *modname)
{
	char **args = calloc(o->nopt_args + 4, sizeof(*args));
	char verbose[16], dirfd[24];
	int i, fd;

	if (!args)
		return;
	if (getuid() != 0) {
		/* the user's stapio reaches the module's files through the
		 * directory root opened (debugfs is root's alone), as -F */
		fd = priv_transport_dir(modname);
		snprintf(dirfd, sizeof(dirfd), "-F%d", fd);
		if (fd >= 0)
			args[o->nopt_args + 1] = dirfd;
		if (priv_drop() < 0)
			return;
	}
	/* stap's staprun leaves these for stapio and the -c command */
	snprintf(verbose, sizeof(verbose), "%d", o->verbose);
	setenv("SYSTEMTAP_VERBOSE", verbose, 1);
	setenv("SYSTEMTAP_MODULE", modname, 1);
	args[0] = (char *)staprun_stapio_path();
	for (i = 1; i <= o->nopt_args; i++)
		args[i] = argv[i];
	if (args[i])
		i++;	/* -F */
	args[i] = (char *)modname;
	execv(args[0], args);
	fprintf(stderr, "ERROR: Couldn't run '%s': %s\n", args[0],
		strerror(errno));
	free(args);
}

/* -D: the foreground process returns once the module is loaded, and
 * prints the pid of the one that goes on as stapio (as stap 4.8's does:
 * stap -F -o FILE shows it; kill -INT PID ends the script). */
static void staprun_daemonize(void)
{
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("ERROR: fork");
		return;
	}
	if (pid > 0) {
		printf("%d\n", (int)pid);
		fflush(stdout);
		_exit(0);
	}
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
}

/* -d '*': every loaded script module (ours carry the _stp_bulkmode
 * parameter) that no stapio holds; the rest are left alone, silently. */
static int staprun_unload_all(void)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[512], name[256], param[512];

	if (!f) {
		fprintf(stderr, "ERROR: Couldn't read /proc/modules: %s\n",
			strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%255s", name) != 1 || !priv_owns(name))
			continue;
		snprintf(param, sizeof param,
			 "/sys/module/%s/parameters/_stp_bulkmode", name);
		if (!access(param, F_OK))
			(void)syscall(SYS_delete_module, name, O_NONBLOCK);
	}
	fclose(f);
	return 0;
}

/* -d NAME: a module that is not loaded, or that a stapio holds, is not
 * one to delete; stap 4.8's staprun says so in these words and exits with
 * status 234 (its -EINVAL). */
static int staprun_unload(const char *name)
{
	int err;

	if (!strcmp(name, "*"))
		return staprun_unload_all();
	if (!priv_owns(name)) {	/* stap's words and status (-EINVAL) */
		fprintf(stderr, "ERROR: Cannot attach to module %s control channel; not running?\n"
			"ERROR: '%s' is not a zombie systemtap module.\n", name, name);
		return 234;
	}
	if (modload_delete(name) < 0) {
		err = errno;
		if (err == ENOENT || err == EBUSY || err == EAGAIN) {
			fprintf(stderr, "ERROR: Cannot attach to module %s control channel; not running?\n"
				"ERROR: '%s' is not a zombie systemtap module.\n",
				name, name);
			return 234;
		}
		fprintf(stderr, "ERROR: Couldn't remove module '%s': %s\n",
			name, strerror(err));
		return 1;
	}
	return 0;
}

#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif

/* A kernel built without module support (no /proc/modules) cannot run a
 * script; unless told not to (STAP_TESTBED=0), hand the whole command to
 * stap, which runs it inside the testbed guest.  Inside the guest
 * /proc/modules exists, so this never loops. */
static int no_modules(void)
{
	const char *tb = getenv("STAP_TESTBED");

	return access("/proc/modules", F_OK) && !(tb && !strcmp(tb, "0"));
}

/* The user's SYSTEMTAP_STAPRUN and SYSTEMTAP_STAPIO, which a setuid
 * staprun ignores, for the testbed's guest. */
static char *user_staprun, *user_stapio;

/* Run stap --testbed-staprun ARGS as the user (a setuid staprun drops
 * root first: the testbed needs none, and the user chooses the stap and
 * the staprun and stapio it runs in the guest). */
static void exec_testbed(char **args)
{
	const char *stap = getenv("SYSTEMTAP_STAP");

	if (priv_drop() < 0)
		exit(1);
	if (user_staprun)
		setenv("SYSTEMTAP_STAPRUN", user_staprun, 1);
	if (user_stapio)
		setenv("SYSTEMTAP_STAPIO", user_stapio, 1);
	if (!stap || !*stap)
		stap = BINDIR "/stap";
	args[0] = (char *)stap;
	args[1] = "--testbed-staprun";
	execv(stap, args);
	fprintf(stderr, "ERROR: this kernel cannot load modules, and running the testbed with '%s' failed: %s\n",
		stap, strerror(errno));
	exit(1);
}

static void maybe_testbed(int argc, char **argv)
{
	char **args;
	int i;

	if (!no_modules())
		return;
	args = calloc((size_t)argc + 2, sizeof *args);
	if (!args)
		return;
	for (i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	exec_testbed(args);
}

/* -P on a kernel without modules: the module built goes to the testbed
 * (readable by the user, still root's), with the options less -P, -E and
 * -a; their directory goes when it is done.  Returns its status. */
static int built_testbed(int argc, char **argv, const struct stp_opts *o)
{
	char **args = calloc((size_t)argc + 3, sizeof *args);
	int i, n = 2, status = 1;
	pid_t pid;

	if (!args)
		return 1;
	for (i = 1; i <= o->nopt_args; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1] && strchr("PEa", a[1])) {
			i += !a[2];	/* and its value */
			continue;
		}
		args[n++] = argv[i];
	}
	args[n++] = staprun_built.path;
	for (i = 0; i < o->nparams; i++)
		args[n++] = o->params[i];
	if (chmod(staprun_built.dir, 0711) < 0 ||
	    chmod(staprun_built.path, 0644) < 0) {
		perror("ERROR: chmod");
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		exec_testbed(args);
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	build_cleanup(&staprun_built);
	free(args);
	return status;
}

/* -P LEVEL: build the user's script as root; -1 to go on and load it,
 * else the exit status. */
static int staprun_build(int argc, char **argv, const struct stp_opts *o)
{
	int rc = build_module(o, &staprun_built);

	if (rc) {
		build_cleanup(&staprun_built);
		return rc < 0 ? 1 : rc;
	}
	return no_modules() ? built_testbed(argc, argv, o) : -1;
}

int main(int argc, char **argv)
{
	struct stp_opts o;
	struct stp_module m;
	const char *name;

	stp_std_fds();
	if (stp_opts_parse(&o, argc, argv, "staprun") < 0)
		return 1;	/* (-h and -V exit here, with no testbed) */
	if (o.dirfd >= 0) {	/* stapio's alone: staprun opens it */
		fprintf(stderr, "ERROR: Relay basedir -F option is invalid for staprun\n");
		return 1;
	}
	if (!o.build_level)
		maybe_testbed(argc, argv);
	if (geteuid() != 0) {
		fprintf(stderr, "ERROR: The effective user ID of staprun must be set to the root user.\n"
			"  Check permissions on staprun and ensure it is a setuid root program.\n");
		return 1;
	}
	if (getuid() != geteuid()) {
		/* setuid: the user's environment may not choose programs */
		if (getenv("SYSTEMTAP_STAPRUN"))
			user_staprun = strdup(getenv("SYSTEMTAP_STAPRUN"));
		if (getenv("SYSTEMTAP_STAPIO"))
			user_stapio = strdup(getenv("SYSTEMTAP_STAPIO"));
		unsetenv("SYSTEMTAP_STAPIO");
		unsetenv("SYSTEMTAP_STAPRUN");
	}
	if (o.build_level) {
		int rc = staprun_build(argc, argv, &o);

		if (rc >= 0)
			return rc;
	}
	if (o.delete_mod)
		return staprun_unload(modload_name_of(o.module));
	staprun_block_signals();
	if (o.attach) {
		/* a path to the .ko names the module too */
		name = modload_name_of(o.module);
		if (!priv_owns(name)) {
			fprintf(stderr, "ERROR: Cannot attach to module %s control channel; not running?\n",
				name);
			return 1;
		}
	} else {
		int rc = staprun_load(&o, &m);

		if (rc)
			return rc < 0 ? 1 : rc;
		name = m.name;
	}
	if (o.daemon)
		staprun_daemonize();
	staprun_exec_stapio(argv, &o, name);
	if (!o.attach)
		staprun_unload(name);
	return 1;
}
