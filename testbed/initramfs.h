/* initramfs.h - write the testbed guest's initramfs (a newc cpio archive).
 *
 * The archive is written directly, without an external cpio, so building
 * one costs a few milliseconds.  Parent directories are added on demand.
 * Functions return 0, or -1 with a message in the archive's error buffer.
 */
#ifndef INITRAMFS_H
#define INITRAMFS_H

#include <stddef.h>

struct initramfs;

struct initramfs *ir_create(const char *path);

int ir_add_dir(struct initramfs *ir, const char *guest);
int ir_add_data(struct initramfs *ir, const char *guest, const void *data,
		size_t len, unsigned mode);
/* Copy the host file HOST (following symlinks) to GUEST. */
int ir_add_file(struct initramfs *ir, const char *guest, const char *host,
		unsigned mode);
int ir_add_symlink(struct initramfs *ir, const char *guest,
		   const char *target);
int ir_add_chardev(struct initramfs *ir, const char *guest, unsigned major,
		   unsigned minor);
/* A host program at its own path, with the shared libraries ldd lists. */
int ir_add_program(struct initramfs *ir, const char *host);
/* /bin/busybox (the static one at HOST) and a link for each applet. */
int ir_add_busybox(struct initramfs *ir, const char *host);

/* Write the trailer and close; frees IR.  Returns 0 or -1 (message in
 * ERR when not NULL). */
int ir_finish(struct initramfs *ir, char *err, size_t errlen);

#endif
