/* privilege.c - what staprun, installed setuid root and executable by the
 * stapusr group, lets a user who is not root do (stap 4.8's rules and
 * messages).
 *
 * A member of stapdev may load any module.  A member of stapusr (or
 * stapsys) only may load the modules root put in the system module
 * directory, /lib/modules/RELEASE/systemtap: the directory and the module
 * owned by root and not world-writable.  stap also lets them load a module
 * a trusted compile server signed for their level; ctap has no compile
 * server, so that way is always closed (a module they built themselves
 * could do anything as root).  Each user may stop, attach to and unload
 * only the modules they loaded: the module's transport files belong to its
 * loader (runtime/transport/fs.c), checked with the real uid.  The module
 * checks again at start: staprun passes it the credentials it was loaded
 * with (staprun.c), which must hold the level it was built for
 * (runtime/module.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "privilege.h"
#include "stp_msgs.h"

/* The gid of group NAME from /etc/group (no NSS: staprun is also built
 * static), or -1. */
static long priv_group_gid(const char *name)
{
	FILE *f = fopen("/etc/group", "r");
	char line[1024];
	size_t n = strlen(name);
	long gid = -1;

	if (!f)
		return -1;
	while (gid < 0 && fgets(line, sizeof line, f)) {
		char *p;

		if (strncmp(line, name, n) || line[n] != ':')
			continue;
		p = strchr(line + n + 1, ':');	/* past the password */
		if (p)
			gid = strtol(p + 1, NULL, 10);
	}
	fclose(f);
	return gid;
}

static int priv_in_group(const char *name)
{
	long gid = priv_group_gid(name);
	gid_t groups[NGROUPS_MAX];
	int i, n;

	if (gid < 0)
		return 0;
	if (getegid() == (gid_t)gid || getgid() == (gid_t)gid)
		return 1;
	n = getgroups(NGROUPS_MAX, groups);
	for (i = 0; i < n; i++)
		if (groups[i] == (gid_t)gid)
			return 1;
	return 0;
}

int priv_credentials(void)
{
	int c = 0;

	if (getuid() == 0)
		return STP_PRIV_ALL;
	if (priv_in_group("stapusr"))
		c |= STP_PRIV_STAPUSR;
	if (priv_in_group("stapsys"))
		c |= STP_PRIV_STAPUSR | STP_PRIV_STAPSYS;
	if (priv_in_group("stapdev"))
		c |= STP_PRIV_ALL;
	return c;
}

static void priv_moddir(char *buf, size_t n)
{
	struct utsname u;

	uname(&u);
	snprintf(buf, n, "/lib/modules/%s/systemtap", u.release);
}

const char *priv_module_path(const char *arg, char *buf, size_t n)
{
	size_t len = strlen(arg);
	char dir[PATH_MAX];

	if (strchr(arg, '/') || (len > 3 && !strcmp(arg + len - 3, ".ko")))
		return arg;
	priv_moddir(dir, sizeof dir);
	snprintf(buf, n, "%s/%s.ko", dir, arg);
	return buf;
}

/* The system module directory check; 0 if REAL (the module's real path)
 * lies in it and FD is root's and not world-writable. */
static int priv_in_moddir(const char *real, int fd)
{
	static const char head[] =
		"ERROR: Members of the \"stapusr\" and \"stapsys\" groups can only use unsigned modules within\n"
		"  the \"%s\" directory.\n";
	char dir[PATH_MAX], canon[PATH_MAX];
	struct stat st;
	size_t n;

	priv_moddir(dir, sizeof dir);
	if (!realpath(dir, canon)) {
		fprintf(stderr, head, dir);
		fprintf(stderr, "  Unable to canonicalize that directory: %s\n",
			strerror(errno));
		return -1;
	}
	if (stat(canon, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, head, dir);
		fprintf(stderr, "  That path must refer to a directory.\n");
		return -1;
	}
	if (st.st_uid != 0) {
		fprintf(stderr, head, dir);
		fprintf(stderr, "  That directory should be owned by root.\n");
		return -1;
	}
	if (st.st_mode & S_IWOTH) {
		fprintf(stderr, head, dir);
		fprintf(stderr, "  That directory should not be world writable.\n");
		return -1;
	}
	n = strlen(canon);
	if (strncmp(real, canon, n) || real[n] != '/') {
		fprintf(stderr, head, dir);
		fprintf(stderr, "  Module \"%s\" does not exist within that directory.\n",
			real);
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != 0) {
		fprintf(stderr, "ERROR: The module \"%s\" must be owned by root.\n",
			real);
		return -1;
	}
	if (st.st_mode & S_IWOTH) {
		fprintf(stderr, "ERROR: The module \"%s\" must not be world writable.\n",
			real);
		return -1;
	}
	return 0;
}

int priv_may_load(const char *path, int fd)
{
	char real[PATH_MAX];

	if (priv_credentials() & STP_PRIV_STAPDEV)
		return 0;
	if (!realpath(path, real))
		snprintf(real, sizeof real, "%s", path);
	if (priv_in_moddir(real, fd) == 0)
		return 0;
	fprintf(stderr, "ERROR: Unable to verify the signature for the module %s.\n",
		real);
	return -1;
}

int priv_transport_dir(const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof path, "/sys/kernel/debug/" STP_TRANSPORT_ROOT "/%s",
		 name);
	fd = open(path, O_PATH | O_DIRECTORY);
	if (fd < 0) {
		snprintf(path, sizeof path, "/proc/" STP_TRANSPORT_ROOT "/%s",
			 name);
		fd = open(path, O_PATH | O_DIRECTORY);
	}
	return fd;
}

int priv_owns(const char *name)
{
	int fd, ok;

	if (getuid() == 0)
		return 1;
	fd = priv_transport_dir(name);
	if (fd < 0)
		return 0;
	/* faccessat checks with the real ids: the loader's */
	ok = faccessat(fd, STP_CTL_NAME, R_OK | W_OK, 0) == 0;
	close(fd);
	return ok;
}

int priv_drop(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (geteuid() == uid && getegid() == gid)
		return 0;
	if (setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0) {
		perror("ERROR: Couldn't drop privileges");
		return -1;
	}
	return 0;
}
