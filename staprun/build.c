/* build.c - staprun -P LEVEL SCRIPT: the module a user in stapusr or
 * stapsys may run, built by the installed translator from their script.
 *
 * stap lets such a user load a module a trusted compile server built with
 * --privilege=LEVEL and signed; ctap has no compile server, so staprun,
 * setuid root, is the trusted builder: it reads the script with the
 * user's own rights, copies it into a directory of root's (mode 0700),
 * runs BINDIR/stap there as root, with a clean environment and only the
 * options that cannot change what the script may do, at the level the
 * user's groups allow, and loads only the module that build left there,
 * read once into memory.  The files the script names (a process's
 * program, a library, a @cast module) the translator reads only if the
 * user may (STAP_BUILD_USER).  The user cannot change the translator, its
 * tapsets and runtime, the generated C or the module between the build
 * and the load; the privilege checks the translator makes (elab/
 * privilege.c) and the runtime's (a stapusr module probes only its user's
 * processes) are what make the module safe to run for them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "build.h"
#include "privilege.h"

#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif

#define BUILD_SCRIPT_MAX (4 << 20)	/* bytes of script read */

/* The translator options a user may pass: none of them changes what the
 * script may do (no -g, -D, -I, -B, -R, no cache options, no -r DIR). */
static const char *const build_safe_opts[] = {
	"-w", "-u", "-t", "-b", "-v", "--suppress-handler-errors",
};

static int build_level(const char *name)
{
	if (!strcmp(name, "stapusr"))
		return STP_PRIV_STAPUSR;
	if (!strcmp(name, "stapsys"))
		return STP_PRIV_STAPSYS;
	if (!strcmp(name, "stapdev"))	/* for stapdev users only */
		return STP_PRIV_STAPDEV;
	return 0;
}

/* -rRELEASE, a release's name (never a directory): it picks one of the
 * kernels root installed (/lib/modules/RELEASE/build, or a testbed
 * kernel of stap-testbed setup), nothing of the user's.  The user's stap
 * passes it when its script goes to the testbed, whose kernel need not
 * be the default one root's build would pick. */
static int build_opt_release(const char *opt)
{
	const char *p = opt + 2;

	if (strncmp(opt, "-r", 2) || !*p || *p == '.' || *p == '-')
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._+~-", *p)))
			return 0;
	return 1;
}

static int build_opt_safe(const char *opt)
{
	size_t i;

	if (build_opt_release(opt))
		return 1;
	for (i = 0; i < sizeof build_safe_opts / sizeof build_safe_opts[0]; i++)
		if (!strcmp(opt, build_safe_opts[i]))
			return 1;
	return 0;
}

/* Open PATH with the user's rights (the real ids), not root's. */
static int build_open_as_user(const char *path)
{
	uid_t euid = geteuid();
	gid_t egid = getegid();
	int fd, err;

	if (setegid(getgid()) < 0 || seteuid(getuid()) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	err = errno;
	if (seteuid(euid) < 0 || setegid(egid) < 0) {
		perror("ERROR: Couldn't regain privileges");
		exit(1);
	}
	errno = err;
	return fd;
}

/* The script, copied into DIR/script.stp; -1 after an error. */
static int build_copy_script(const char *path, const char *dir)
{
	char buf[65536], dst[PATH_MAX];
	int in = build_open_as_user(path), out;
	ssize_t n;
	long total = 0;

	if (in < 0) {
		fprintf(stderr, "ERROR: Couldn't open script file '%s': %s\n",
			path, strerror(errno));
		return -1;
	}
	snprintf(dst, sizeof dst, "%s/script.stp", dir);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0 &&
	       (total += n) <= BUILD_SCRIPT_MAX)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	if (out < 0 || close(out) < 0 || total > BUILD_SCRIPT_MAX) {
		fprintf(stderr, "ERROR: Couldn't copy script file '%s'%s\n", path,
			total > BUILD_SCRIPT_MAX ? ": it is too large" : "");
		return -1;
	}
	return 0;
}

/* In the child: become root wholly and run the translator in DIR. */
static void build_exec(const struct stp_opts *o, const char *dir,
		       const char *name)
{
	const char *argv[16 + 64 + 16];
	char level[32], user[64 * 12 + 32];
	gid_t groups[64];
	int i, n = 0, fd, ng = getgroups(64, groups);
	size_t len;

	/* the user whose rights the files the script names are read with
	 * (STAP_BUILD_USER, translator/util/fileio.h) */
	len = (size_t)snprintf(user, sizeof user, "%u:%u", (unsigned)getuid(),
			       (unsigned)getgid());
	for (i = 0; i < ng; i++)
		len += (size_t)snprintf(user + len, sizeof user - len, "%c%u",
					i ? ',' : ':', (unsigned)groups[i]);
	if (ng < 0) {
		perror("ERROR: Couldn't read your groups");
		_exit(1);
	}
	if (setgroups(0, NULL) < 0 || setresgid(0, 0, 0) < 0 ||
	    setresuid(0, 0, 0) < 0 || chdir(dir) < 0) {
		perror("ERROR: Couldn't become root to build the module");
		_exit(1);
	}
	/* nothing of the user's session reaches root's build: not their
	 * environment, umask, file size limit or open files */
	clearenv();
	umask(022);
	setrlimit(RLIMIT_FSIZE, &(struct rlimit){ RLIM_INFINITY, RLIM_INFINITY });
	for (fd = 3; fd < 4096; fd++)
		close(fd);
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", "/root", 1);
	setenv("LC_ALL", "C", 1);
	setenv("STAP_BUILD_USER", user, 1);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {	/* its diagnostics go to the user, on stderr */
		dup2(fd, 0);
		dup2(fd, 1);
	}
	snprintf(level, sizeof level, "--privilege=%s", o->build_level);
	argv[n++] = "stap";
	argv[n++] = level;
	argv[n++] = "-p4";
	argv[n++] = "-m";
	argv[n++] = name;
	for (i = 0; i < o->nxopts; i++)
		argv[n++] = o->xopts[i];
	argv[n++] = "script.stp";
	argv[n++] = "--";	/* an argument like -I DIR is one, no option */
	for (i = 0; i < o->nxargs; i++)
		argv[n++] = o->xargs[i];
	argv[n] = NULL;
	execv(BINDIR "/stap", (char **)argv);
	fprintf(stderr, "ERROR: Couldn't run '%s': %s\n", BINDIR "/stap",
		strerror(errno));
	_exit(1);
}

int build_module(const struct stp_opts *o, struct stp_build *b)
{
	int level = build_level(o->build_level), i, status;
	pid_t pid;

	memset(b, 0, sizeof *b);
	if (!level) {
		fprintf(stderr, "ERROR: Invalid privilege level '%s' for -P (stapusr, stapsys or stapdev).\n",
			o->build_level);
		return -1;
	}
	if ((priv_credentials() & level) != level) {
		fprintf(stderr, "ERROR: Your privilege credentials are insufficient to build a module for --privilege=%s.\n",
			o->build_level);
		return 255;
	}
	for (i = 0; i < o->nxopts; i++)
		if (!build_opt_safe(o->xopts[i])) {
			fprintf(stderr, "ERROR: You can't specify %s when --privilege=%s is specified.\n",
				o->xopts[i], o->build_level);
			return -1;
		}
	b->level = level;
	snprintf(b->dir, sizeof b->dir, "/tmp/staprun.XXXXXX");
	if (!mkdtemp(b->dir)) {
		fprintf(stderr, "ERROR: Couldn't create a directory to build in: %s\n",
			strerror(errno));
		b->dir[0] = 0;
		return -1;
	}
	snprintf(b->name, sizeof b->name, "stap_u%u_%d", (unsigned)getuid(),
		 (int)getpid());
	snprintf(b->path, sizeof b->path, "%s/%s.ko", b->dir, b->name);
	if (build_copy_script(o->module, b->dir) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		build_exec(o, b->dir, b->name);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("ERROR: Couldn't run stap");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -1;	/* stap said why */
	return 0;
}

void build_cleanup(struct stp_build *b)
{
	char path[PATH_MAX + 16];

	if (!b->dir[0])
		return;
	snprintf(path, sizeof path, "%s/script.stp", b->dir);
	unlink(path);
	unlink(b->path);
	rmdir(b->dir);
	b->dir[0] = 0;
}
