/* kimage.h - type data from a kernel image when there is no debug vmlinux.
 *
 * A kernel built with CONFIG_DEBUG_INFO_BTF carries its BTF in the image it
 * boots (/boot/vmlinuz-RELEASE), compressed inside the bzImage.  Reading it
 * takes the decompressor of the image's format (gzip, xz, lz4, zstd,
 * bzip2: the tool of that name, run as a child) and well under a second.
 */
#ifndef KIMAGE_H
#define KIMAGE_H

#include <stddef.h>

/* Is PATH an x86 bzImage (its setup header's "HdrS")? */
int kimage_is_bzimage(const char *path);

/* A malloc'ed copy of the .BTF section of the kernel inside the bzImage
 * PATH (its size in *SIZE), or NULL with a message in ERR. */
void *kimage_btf(const char *path, size_t *size, char *err, size_t errlen);

struct btf;

/* The kernel's BTF from PATH: an ELF vmlinux (its .BTF), a bzImage (the
 * .BTF of the kernel inside), or raw BTF (/sys/kernel/btf/vmlinux); NULL
 * with a message in ERR. */
struct btf *kimage_types(const char *path, char *err, size_t errlen);

#endif
