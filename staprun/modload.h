/* modload.h - load, rename and unload a kernel module image. */
#ifndef STP_MODLOAD_H
#define STP_MODLOAD_H

#include <stddef.h>

#include <stdint.h>
#include <stddef.h>

struct stp_module {
	char *image;		/* the .ko file's bytes */
	size_t size;
	char *this_name;	/* the name inside .gnu.linkonce.this_module */
	char name[56];		/* MODULE_NAME_LEN */
};

/* Open the module file at path (for modload_read); prints the error,
 * returns -1. */
int modload_open(const char *path);
/* Read the module file open on fd (path for messages), close fd and find
 * the module's name; prints the error, returns -1. */
int modload_read(struct stp_module *m, const char *path, int fd);
/* Change the name the kernel will register (at most 55 bytes). */
void modload_rename(struct stp_module *m, const char *newname);
/* init_module with params; -1 and errno on failure. */
int modload_insert(struct stp_module *m, const char *params);
/* Unload by name, retrying briefly while the last file closes. */
int modload_delete(const char *name);
/* Write a control message (TYPE, LEN bytes of PAYLOAD after the header)
 * to the module's control file FD; -1 and errno on failure. */
int modload_ctl_send(int fd, uint32_t type, const void *payload, uint32_t len);
/* The module name a path like dir/NAME.ko stands for (static buffer). */
const char *modload_name_of(const char *path);
/* The kernel release the module was built for (its vermagic's first
 * word), in BUF; NULL if it does not say. */
const char *modload_release(const struct stp_module *m, char *buf, size_t n);
/* What insmod would say for an init_module errno. */
const char *modload_strerror(int err);

/* The level the module was built for (its .stap_privilege: stap's
 * STP_PRIV_* bits), or -1 if it has none. */
int modload_privilege(const struct stp_module *m);

#endif /* STP_MODLOAD_H */
