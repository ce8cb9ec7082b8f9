/* initramfs.c - a newc cpio writer for the testbed guest's initramfs.
 *
 * The kernel unpacks the archive into its rootfs before running /init; a
 * later entry for the same path replaces an earlier one, so programs copied
 * from the host may shadow busybox's applet links.  See initramfs.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testbed/initramfs.h"

struct initramfs {
	FILE *f;
	unsigned ino;
	char **dirs;		/* directories already in the archive */
	int ndirs, capdirs;
	char err[512];
};

static int fail(struct initramfs *ir, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct initramfs *ir, const char *fmt, ...)
{
	va_list ap;

	if (!ir->err[0]) {
		va_start(ap, fmt);
		vsnprintf(ir->err, sizeof ir->err, fmt, ap);
		va_end(ap);
	}
	return -1;
}

struct initramfs *ir_create(const char *path)
{
	struct initramfs *ir = calloc(1, sizeof *ir);

	if (!ir)
		return NULL;
	ir->f = fopen(path, "w");
	if (!ir->f)
		fail(ir, "cannot create %s: %s", path, strerror(errno));
	return ir;
}

static void pad4(FILE *f, size_t n)
{
	while (n++ % 4)
		putc(0, f);
}

/* One header and name; the caller writes the data and its padding.
 * Names are stored without the leading slash, as cpio does. */
static void header(struct initramfs *ir, const char *name, unsigned mode,
		   size_t size, unsigned rmajor, unsigned rminor)
{
	size_t namelen;

	while (*name == '/')
		name++;
	namelen = strlen(name) + 1;
	fprintf(ir->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		++ir->ino, mode, 0u, 0u, 1u, 0u, size, 0u, 0u, rmajor, rminor,
		namelen, 0u);
	fwrite(name, 1, namelen, ir->f);
	pad4(ir->f, 110 + namelen);
}

static int have_dir(struct initramfs *ir, const char *path)
{
	int i;

	for (i = 0; i < ir->ndirs; i++)
		if (!strcmp(ir->dirs[i], path))
			return 1;
	return 0;
}

/* Add every missing parent directory of PATH ("a/b/c" adds a and a/b). */
static void parents(struct initramfs *ir, const char *path)
{
	char buf[4096];
	char *p;

	while (*path == '/')
		path++;
	snprintf(buf, sizeof buf, "%s", path);
	for (p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (!have_dir(ir, buf)) {
			if (ir->ndirs == ir->capdirs) {
				ir->capdirs = ir->capdirs ? 2 * ir->capdirs : 32;
				ir->dirs = realloc(ir->dirs, ir->capdirs * sizeof *ir->dirs);
				if (!ir->dirs)
					abort();
			}
			ir->dirs[ir->ndirs++] = strdup(buf);
			header(ir, buf, S_IFDIR | 0755, 0, 0, 0);
		}
		*p = '/';
	}
}

int ir_add_dir(struct initramfs *ir, const char *guest)
{
	char buf[4096];

	if (ir->err[0])
		return -1;
	snprintf(buf, sizeof buf, "%s/", guest);
	parents(ir, buf);
	return 0;
}

int ir_add_data(struct initramfs *ir, const char *guest, const void *data,
		size_t len, unsigned mode)
{
	if (ir->err[0])
		return -1;
	parents(ir, guest);
	header(ir, guest, S_IFREG | mode, len, 0, 0);
	fwrite(data, 1, len, ir->f);
	pad4(ir->f, len);
	return 0;
}

int ir_add_file(struct initramfs *ir, const char *guest, const char *host,
		unsigned mode)
{
	char buf[65536];
	struct stat st;
	size_t n, done = 0;
	int fd;

	if (ir->err[0])
		return -1;
	fd = open(host, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return fail(ir, "cannot read %s: %s", host, strerror(errno));
	}
	parents(ir, guest);
	header(ir, guest, S_IFREG | mode, (size_t)st.st_size, 0, 0);
	while (done < (size_t)st.st_size) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r <= 0)
			break;
		n = (size_t)r;
		if (done + n > (size_t)st.st_size)
			n = (size_t)st.st_size - done;
		fwrite(buf, 1, n, ir->f);
		done += n;
	}
	close(fd);
	if (done != (size_t)st.st_size)
		return fail(ir, "short read on %s", host);
	pad4(ir->f, done);
	return 0;
}

int ir_add_symlink(struct initramfs *ir, const char *guest,
		   const char *target)
{
	size_t len = strlen(target);

	if (ir->err[0])
		return -1;
	parents(ir, guest);
	header(ir, guest, S_IFLNK | 0777, len, 0, 0);
	fwrite(target, 1, len, ir->f);
	pad4(ir->f, len);
	return 0;
}

int ir_add_chardev(struct initramfs *ir, const char *guest, unsigned major,
		   unsigned minor)
{
	if (ir->err[0])
		return -1;
	parents(ir, guest);
	header(ir, guest, S_IFCHR | 0600, 0, major, minor);
	return 0;
}

/* Run a command and call FN on each line of its output. */
static int each_line(struct initramfs *ir, const char *cmd,
		     int (*fn)(struct initramfs *, char *))
{
	char line[4096];
	FILE *p = popen(cmd, "r");
	int rc = 0;

	if (!p)
		return fail(ir, "cannot run %s: %s", cmd, strerror(errno));
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		if (!rc)
			rc = fn(ir, line);
	}
	if (pclose(p) != 0 && !rc)
		rc = fail(ir, "'%s' failed", cmd);
	return rc;
}

/* An ldd line: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" or
 * "/lib64/ld-linux-x86-64.so.2 (0x…)"; the vdso has no path.  The library
 * goes in at its real path, with a symlink at the path ldd names, as on a
 * merged-/usr host: a mapped library's path in the guest is the one stap
 * names it by (-d, --ldd). */
static int ldd_line(struct initramfs *ir, char *line)
{
	char *arrow = strstr(line, "=> "), *path, *end, real[PATH_MAX];

	path = arrow ? arrow + 3 : line + strspn(line, " \t");
	if (*path != '/')
		return 0;
	end = strstr(path, " (");
	if (end)
		*end = '\0';
	if (!realpath(path, real) || !strcmp(real, path))
		return ir_add_file(ir, path, path, 0755);
	if (ir_add_file(ir, real, real, 0755))
		return -1;
	return ir_add_symlink(ir, path, real);
}

static void shell_quote(char *out, size_t outlen, const char *s)
{
	size_t n = 0;

	out[n++] = '\'';
	for (; *s && n + 5 < outlen; s++) {
		if (*s == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			out[n++] = *s;
		}
	}
	out[n++] = '\'';
	out[n] = '\0';
}

int ir_add_program(struct initramfs *ir, const char *host)
{
	char cmd[4200], q[4100];

	if (ir_add_file(ir, host, host, 0755))
		return -1;
	shell_quote(q, sizeof q, host);
	/* ldd fails on static programs ("not a dynamic executable"). */
	snprintf(cmd, sizeof cmd, "ldd %s 2>/dev/null || true", q);
	return each_line(ir, cmd, ldd_line);
}

static int applet_line(struct initramfs *ir, char *line)
{
	char target[64];
	const char *p;
	int depth = 0;

	if (!*line || !strcmp(line, "bin/busybox"))
		return 0;
	/* Relative links, so they are right wherever the root is. */
	target[0] = '\0';
	for (p = strchr(line, '/'); p; p = strchr(p + 1, '/'))
		depth++;
	while (depth-- > 0)
		strcat(target, "../");
	strcat(target, "bin/busybox");
	return ir_add_symlink(ir, line, target);
}

int ir_add_busybox(struct initramfs *ir, const char *host)
{
	char cmd[4200], q[4100];

	if (ir_add_file(ir, "bin/busybox", host, 0755))
		return -1;
	shell_quote(q, sizeof q, host);
	snprintf(cmd, sizeof cmd, "%s --list-full", q);
	return each_line(ir, cmd, applet_line);
}

int ir_finish(struct initramfs *ir, char *err, size_t errlen)
{
	int i, rc;

	if (ir->f) {
		header(ir, "TRAILER!!!", 0, 0, 0, 0);
		if (fclose(ir->f) != 0)
			fail(ir, "cannot write the initramfs: %s", strerror(errno));
	}
	rc = ir->err[0] ? -1 : 0;
	if (rc && err)
		snprintf(err, errlen, "%s", ir->err);
	for (i = 0; i < ir->ndirs; i++)
		free(ir->dirs[i]);
	free(ir->dirs);
	free(ir);
	return rc;
}
