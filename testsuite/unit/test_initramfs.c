/* test_initramfs.c - the testbed's cpio writer, read back by cpio itself.
 *
 * Writes an archive with a file, a program-less data entry, a symlink, a
 * device and nested directories, then lists and extracts it with cpio(1)
 * and checks what comes out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testbed/initramfs.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

static char *slurp(const char *cmd)
{
	static char buf[8192];
	FILE *p = popen(cmd, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (!p)
		return buf;
	n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	pclose(p);
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/test_initramfsXXXXXX", path[256], cmd[1024], err[256];
	struct initramfs *ir;
	const char *data = "#!/bin/sh\necho hi\n";
	struct stat st;
	FILE *f;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/src.txt", dir);
	f = fopen(path, "w");
	fputs("three", f);	/* length not a multiple of 4: padding */
	fclose(f);

	snprintf(cmd, sizeof cmd, "%s/a.cpio", dir);
	ir = ir_create(cmd);
	CHECK(ir != NULL);
	CHECK(ir_add_dir(ir, "proc") == 0);
	CHECK(ir_add_data(ir, "/init", data, strlen(data), 0755) == 0);
	CHECK(ir_add_file(ir, "usr/share/x/copy.txt", path, 0644) == 0);
	CHECK(ir_add_symlink(ir, "bin/sh", "busybox") == 0);
	CHECK(ir_add_chardev(ir, "dev/console", 5, 1) == 0);
	CHECK(ir_finish(ir, err, sizeof err) == 0);

	snprintf(cmd, sizeof cmd, "cpio -it --quiet <%s/a.cpio | sort | tr '\\n' ' '", dir);
	CHECK(!strcmp(slurp(cmd), "bin bin/sh dev dev/console init proc usr usr/share usr/share/x usr/share/x/copy.txt "));

	snprintf(cmd, sizeof cmd, "cd %s && mkdir x && cd x && cpio -id --quiet --no-absolute-filenames <../a.cpio 2>/dev/null; "
		 "cat usr/share/x/copy.txt; echo; cat init; readlink bin/sh", dir);
	CHECK(!strcmp(slurp(cmd), "three\n#!/bin/sh\necho hi\nbusybox\n"));
	snprintf(path, sizeof path, "%s/x/init", dir);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0755);

	/* A missing host file is an error with a message, not a crash. */
	snprintf(cmd, sizeof cmd, "%s/b.cpio", dir);
	ir = ir_create(cmd);
	CHECK(ir_add_file(ir, "x", "/nonexistent/file", 0644) == -1);
	CHECK(ir_finish(ir, err, sizeof err) == -1);
	CHECK(strstr(err, "/nonexistent/file") != NULL);

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd))
		failures++;
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
