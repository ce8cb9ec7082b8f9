/* privilege.h - who may load, attach to and unload which modules, when
 * staprun runs setuid root for a user who is not root (privilege.c). */
#ifndef STP_PRIVILEGE_H
#define STP_PRIVILEGE_H

#include <stddef.h>

/* stap's credential bits (as in a module's .stap_privilege section) */
#define STP_PRIV_STAPUSR 0x2
#define STP_PRIV_STAPSYS 0x4
#define STP_PRIV_STAPDEV 0x8
#define STP_PRIV_ALL (STP_PRIV_STAPUSR | STP_PRIV_STAPSYS | STP_PRIV_STAPDEV)

/* The real user's credentials: all for root, else by their groups. */
int priv_credentials(void);
/* A bare NAME (no '/', no .ko) stands for NAME.ko in the system module
 * directory, /lib/modules/RELEASE/systemtap; else ARG itself. */
const char *priv_module_path(const char *arg, char *buf, size_t n);
/* May the real user load the module at PATH, open on FD?  0, or -1 after
 * stap's messages. */
int priv_may_load(const char *path, int fd);
/* The loaded module NAME's transport directory, opened (O_PATH) while
 * staprun is root; -1 if there is none. */
int priv_transport_dir(const char *name);
/* Did the real user load module NAME (or is root)? */
int priv_owns(const char *name);
/* Give up root for good (all ids the real user's); -1 on failure. */
int priv_drop(void);

#endif /* STP_PRIVILEGE_H */
