/* fileio.c - whole files: read, write, copy (fileio.h).
 *
 * Plain read/write loops over descriptors, or stdio where a caller's file
 * is text.  Nothing here knows what the files hold.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/arena.h"
#include "util/diag.h"
#include "util/fileio.h"
#include "session.h"

int fio_read_fd(int fd, struct strbuf *sb)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0)
		sb_put(sb, buf, (size_t)n);
	return n < 0 ? -1 : 0;
}

int fio_read(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY), rc;

	if (fd < 0)
		return -1;
	rc = fio_read_fd(fd, sb);
	close(fd);
	return rc;
}

int fio_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return -1;
	rc = fgets(buf, (int)size, f) ? 0 : -1;
	fclose(f);
	return rc;
}

int fio_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -1;
	if (fwrite(data, 1, len, f) != len) {
		err = errno;
		fclose(f);
		errno = err;
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

int fio_write_fd(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int fio_write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[4200];
	int fd, rc = 0;

	snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	if (fio_write_fd(fd, data, len))
		rc = -1;
	if (fchmod(fd, 0644) || close(fd))
		rc = -1;
	if (!rc && rename(tmp, path))
		rc = -1;
	if (rc)
		unlink(tmp);
	return rc;
}

int fio_put(struct diags *d, const char *path, const char *text)
{
	if (fio_write(path, text, strlen(text))) {
		diag_fatal(d, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int copy_fds(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof buf)) > 0)
		if (fio_write_fd(out, buf, (size_t)n))
			return -1;
	return n < 0 ? -1 : 0;
}

int fio_copy_to_fd(const char *from, int out)
{
	int in = open(from, O_RDONLY), rc;

	if (in < 0)
		return -1;
	rc = copy_fds(in, out);
	close(in);
	return rc;
}

int fio_copy(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out, rc;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	rc = copy_fds(in, out);
	close(in);
	if (close(out))
		rc = -1;
	return rc;
}

const char *fio_stap_dir(struct session *s)
{
	const char *base = getenv("SYSTEMTAP_DIR"), *home;
	struct passwd *pw;

	if (base && *base)
		return base;
	home = getenv("HOME");
	if (!home || !*home) {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	return home && *home ? arena_printf(s->arena, "%s/.systemtap", home)
			     : NULL;
}

const char *fio_cache_dir(struct session *s)
{
	static const char *dir;
	const char *base;

	if (s->disable_cache)
		return NULL;
	if (!dir && (base = fio_stap_dir(s)))
		dir = arena_printf(s->arena, "%s/cache", base);
	return dir;
}

int fio_mkdirs(const char *path)
{
	char buf[4096];
	char *p;

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return -1;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

static int executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static const char *sysroot(struct session *s)
{
	return s->sysroot && strcmp(s->sysroot, "/") ? s->sysroot : NULL;
}

int fio_has_sysroot(struct session *s)
{
	return sysroot(s) != NULL;
}

const char *fio_host_path(struct session *s, const char *path)
{
	return sysroot(s) && path[0] == '/' ?
		arena_printf(s->arena, "%s%s", s->sysroot, path) : path;
}

/* Append component C (N bytes) to target path OUT (LEN bytes so far),
 * following a symbolic link there inside the root: its text goes in front
 * of REST, to be walked next.  -1 when it does not exist or loops. */
static int walk_component(struct session *s, char *out, size_t *len,
			  const char *c, size_t n, char *rest, int *links)
{
	char link[PATH_MAX], next[PATH_MAX];
	struct stat st;
	ssize_t k;

	if (n == 1 && c[0] == '.')
		return 0;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		while (*len > 0 && out[--*len] != '/')
			;
		out[*len] = 0;
		return 0;
	}
	if (*len + 1 + n >= PATH_MAX)
		return -1;
	snprintf(out + *len, PATH_MAX - *len, "/%.*s", (int)n, c);
	if (lstat(fio_host_path(s, out), &st))
		return -1;
	if (!S_ISLNK(st.st_mode)) {
		*len += 1 + n;
		return 0;
	}
	k = readlink(fio_host_path(s, out), link, sizeof link - 1);
	if (k < 0 || ++*links > 40)
		return -1;
	link[k] = 0;
	if (snprintf(next, sizeof next, "%s/%s", link, rest) >= (int)sizeof next)
		return -1;
	strcpy(rest, next);
	if (link[0] == '/')
		*len = 0;	/* from the root again */
	out[*len] = 0;
	return 0;
}

const char *fio_target_realpath(struct session *s, const char *path)
{
	char buf[PATH_MAX], out[PATH_MAX], rest[PATH_MAX];
	size_t len = 0, n;
	int links = 0;
	char *c;

	if (!sysroot(s))
		return realpath(path, buf) && fio_user_may_read(buf) ?
		       arena_strdup(s->arena, buf) : NULL;
	if (path[0] != '/' || strlen(path) >= sizeof rest)
		return NULL;
	strcpy(rest, path);
	out[0] = 0;
	while (rest[0]) {
		c = rest + strspn(rest, "/");
		n = strcspn(c, "/");
		memmove(buf, c, n);
		buf[n] = 0;
		memmove(rest, c + n, strlen(c + n) + 1);
		if (n && walk_component(s, out, &len, buf, n, rest, &links))
			return NULL;
	}
	if (!fio_user_may_read(fio_host_path(s, len ? out : "/")))
		return NULL;
	return arena_strdup(s->arena, len ? out : "/");
}

/* The user STAP_BUILD_USER names: 1 with their ids, 0 when none. */
static int build_user(uid_t *uid, gid_t *gid, gid_t *groups, int *ngroups)
{
	const char *e = getenv("STAP_BUILD_USER");
	char *end;
	int n = 0;

	if (!e || getuid() != 0 || geteuid() != 0)
		return 0;
	*uid = (uid_t)strtoul(e, &end, 10);
	if (*end++ != ':')
		goto bad;
	*gid = (gid_t)strtoul(end, &end, 10);
	while (*end == ':' || *end == ',') {
		if (n == 64)
			goto bad;
		groups[n++] = (gid_t)strtoul(end + 1, &end, 10);
	}
	if (*end)
		goto bad;
	*ngroups = n;
	return 1;
bad:	/* read nothing for a user stap cannot name */
	*uid = 65534;
	*gid = 65534;
	*ngroups = 0;
	return 1;
}

int fio_for_user(void)
{
	uid_t uid;
	gid_t gid, groups[64];
	int n;

	return build_user(&uid, &gid, groups, &n);
}

int fio_user_may_read(const char *path)
{
	gid_t groups[64], saved[256];
	uid_t uid;
	gid_t gid;
	int ngroups, nsaved, ok;

	if (!build_user(&uid, &gid, groups, &ngroups))
		return 1;
	nsaved = getgroups(256, saved);
	if (nsaved < 0 || setgroups((size_t)ngroups, groups) < 0 ||
	    setegid(gid) < 0 || seteuid(uid) < 0) {
		ok = 0;
	} else {
		ok = !faccessat(AT_FDCWD, path, R_OK, AT_EACCESS);
	}
	if (seteuid(0) < 0 || setegid(0) < 0 ||
	    setgroups(nsaved > 0 ? (size_t)nsaved : 0, saved) < 0) {
		perror("stap: cannot regain root's rights");
		exit(1);
	}
	return ok;
}

const char *fio_which(struct session *s, const char *name)
{
	const char *dirs, *d;
	const struct kv *kv;
	int i;

	if (strchr(name, '/'))
		return fio_target_realpath(s, name);
	dirs = getenv("PATH");
	VEC_EACH(s->sysenv, i, kv)	/* --sysenv PATH=...: the target's */
		if (!strcmp(kv->name, "PATH"))
			dirs = kv->value;
	for (d = dirs ? dirs : ""; *d; d += strcspn(d, ":"), d += *d == ':') {
		size_t n = strcspn(d, ":");
		const char *f = arena_printf(s->arena, "%.*s/%s", (int)n, d, name);

		if (n && executable(fio_host_path(s, f)))
			return fio_target_realpath(s, f);
	}
	return NULL;
}
