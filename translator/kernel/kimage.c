/* kimage.c - the BTF inside a compressed kernel image (bzImage); see
 * kimage.h.
 *
 * An x86 bzImage is a real-mode setup (setup_sects + 1 sectors of 512
 * bytes) followed by the protected-mode part, in which the setup header's
 * payload_offset and payload_length locate the compressed vmlinux.  The
 * payload is decompressed by the tool of its format (its magic bytes say
 * which), fed from a memfd and read back through a pipe; the .BTF section
 * of the ELF that comes out is the type data.  Knows nothing of sessions.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/btf.h"
#include "kernel/elfsec.h"
#include "kernel/kimage.h"
#include "util/arena.h"
#include "util/fileio.h"

/* Offsets in the setup header (the kernel's boot protocol, 2.08 on). */
#define SETUP_SECTS	0x1f1
#define HDR_MAGIC	0x202	/* "HdrS" */
#define PAYLOAD_OFFSET	0x248
#define PAYLOAD_LENGTH	0x24c

struct codec {
	const char *name;		/* as the kernel's config names it */
	const unsigned char *magic;
	size_t magic_len;
	const char *const *argv;	/* decompress stdin to stdout */
	const char *package;		/* Debian's package of the tool */
};

static const char *const gzip_argv[] = {"gzip", "-dc", NULL};
static const char *const xz_argv[] = {"xz", "-dc", NULL};
static const char *const lzma_argv[] = {"xz", "-dc", "--format=lzma", NULL};
static const char *const lz4_argv[] = {"lz4", "-dc", NULL};
static const char *const zstd_argv[] = {"zstd", "-dcq", NULL};
static const char *const bzip2_argv[] = {"bzip2", "-dc", NULL};

static const struct codec codecs[] = {
	{"gzip", (const unsigned char *)"\x1f\x8b", 2, gzip_argv, "gzip"},
	{"xz", (const unsigned char *)"\xfd" "7zXZ", 5, xz_argv, "xz-utils"},
	{"lzma", (const unsigned char *)"\x5d\x00\x00", 3, lzma_argv, "xz-utils"},
	{"lz4", (const unsigned char *)"\x02\x21\x4c\x18", 4, lz4_argv, "lz4"},
	{"zstd", (const unsigned char *)"\x28\xb5\x2f\xfd", 4, zstd_argv, "zstd"},
	{"bzip2", (const unsigned char *)"BZh", 3, bzip2_argv, "bzip2"},
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The compressed payload of the bzImage IMG (LEN bytes), or NULL. */
static const unsigned char *payload(const unsigned char *img, size_t len,
				    size_t *plen)
{
	size_t start, off, n;

	if (len < PAYLOAD_LENGTH + 4 || memcmp(img + HDR_MAGIC, "HdrS", 4))
		return NULL;
	start = ((size_t)img[SETUP_SECTS] + 1) * 512;
	off = le32(img + PAYLOAD_OFFSET);
	n = le32(img + PAYLOAD_LENGTH);
	if (start + off < start || start + off + n > len || n == 0)
		return NULL;
	*plen = n;
	return img + start + off;
}

/* Run the codec's tool on DATA; its output appended to OUT.  Its exit
 * status is not the verdict: the image's payload ends with the kernel's
 * size after the compressed stream, which lz4 calls an error after writing
 * everything out; the caller checks what came out. */
static int decompress(const struct codec *c, const unsigned char *data,
		      size_t n, struct strbuf *out, char *err, size_t errlen)
{
	int in = memfd_create("ctap-kimage", MFD_CLOEXEC), pipefd[2], status = 0;
	pid_t pid;

	if (in < 0 || fio_write_fd(in, data, n) || lseek(in, 0, SEEK_SET) ||
	    pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot decompress the kernel image: %s",
			 strerror(errno));
		if (in >= 0)
			close(in);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(in, 0);
		dup2(pipefd[1], 1);
		dup2(null, 2);
		execvp(c->argv[0], (char *const *)c->argv);
		_exit(127);
	}
	close(in);
	close(pipefd[1]);
	if (pid > 0)
		fio_read_fd(pipefd[0], out);
	close(pipefd[0]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) != 127)
		return 0;
	if (pid > 0 && WIFEXITED(status))
		snprintf(err, errlen, "the kernel image is %s-compressed and '%s' is not installed (apt-get install %s)",
			 c->name, c->argv[0], c->package);
	else
		snprintf(err, errlen, "'%s' could not decompress the kernel image",
			 c->argv[0]);
	return -1;
}

void *kimage_btf(const char *path, size_t *size, char *err, size_t errlen)
{
	struct strbuf img = {0}, elf = {0};
	const unsigned char *p;
	size_t plen = 0, i;
	void *btf = NULL;

	if (fio_read(path, &img)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		sb_free(&img);
		return NULL;
	}
	p = payload((const unsigned char *)img.s, img.len, &plen);
	for (i = 0; p && i < sizeof codecs / sizeof codecs[0]; i++)
		if (plen >= codecs[i].magic_len &&
		    !memcmp(p, codecs[i].magic, codecs[i].magic_len))
			break;
	if (!p)
		snprintf(err, errlen, "%s is not a bzImage with a compressed kernel", path);
	else if (i == sizeof codecs / sizeof codecs[0])
		snprintf(err, errlen, "%s is compressed in a format this tool does not know", path);
	else if (!decompress(&codecs[i], p, plen, &elf, err, errlen))
		btf = elfsec_find(elf.s, elf.len, path, ".BTF", size, err, errlen);
	sb_free(&elf);
	sb_free(&img);
	return btf;
}

int kimage_is_bzimage(const char *path)
{
	unsigned char hdr[HDR_MAGIC + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, hdr, sizeof hdr, 0);

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)sizeof hdr && !memcmp(hdr + HDR_MAGIC, "HdrS", 4);
}

struct btf *kimage_types(const char *path, char *err, size_t errlen)
{
	unsigned char magic[4] = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct strbuf raw = {0};
	struct btf *b = NULL;
	void *data;
	size_t size = 0;

	if (fd < 0 || read(fd, magic, sizeof magic) != (ssize_t)sizeof magic) {
		snprintf(err, errlen, "cannot read %s", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	if (!memcmp(magic, ELFMAG, SELFMAG))
		return btf_open_elf(path, err, errlen);
	if (kimage_is_bzimage(path)) {
		data = kimage_btf(path, &size, err, errlen);
		if (data)
			b = btf_from_mem(data, size, err, errlen);
		free(data);
		return b;
	}
	if (magic[0] + (magic[1] << 8) != BTF_MAGIC)
		snprintf(err, errlen, "%s is neither a kernel image nor BTF", path);
	else if (fio_read(path, &raw))
		snprintf(err, errlen, "cannot read %s", path);
	else
		b = btf_from_mem(raw.s, raw.len, err, errlen);
	sb_free(&raw);
	return b;
}
