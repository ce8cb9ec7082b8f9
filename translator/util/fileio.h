/* fileio.h - whole files: read, write, copy.
 *
 * The translator reads and writes small files whole (caches, recipes,
 * build logs, catalogs) and copies modules; these are the one copy of those
 * loops.  Functions return 0 on success and -1 with errno set, and report
 * nothing, except fio_put(), which says what could not be written.
 */
#ifndef FILEIO_H
#define FILEIO_H

#include <stddef.h>

struct strbuf;
struct diags;
struct session;

/* Append all that can be read from FD, or from the file PATH, to SB. */
int fio_read_fd(int fd, struct strbuf *sb);
int fio_read(const char *path, struct strbuf *sb);

/* The first line of PATH into BUF (SIZE bytes), with its newline if it
 * fit, as fgets() leaves it. */
int fio_read_line(const char *path, char *buf, size_t size);

/* Write LEN bytes of DATA as the file PATH (created or truncated). */
int fio_write(const char *path, const void *data, size_t len);

/* Write all LEN bytes of DATA to the descriptor FD (retrying short
 * writes and EINTR). */
int fio_write_fd(int fd, const void *data, size_t len);

/* Write LEN bytes of DATA as the file PATH through a temporary file
 * renamed over PATH (mode 0644), so that readers see the old file or the
 * new one whole. */
int fio_write_atomic(const char *path, const void *data, size_t len);

/* Write TEXT as the file PATH; a failure is reported to D as
 * "cannot write PATH: why". */
int fio_put(struct diags *d, const char *path, const char *text);

/* Copy the file FROM to the file TO (mode 0644), or to the descriptor OUT. */
int fio_copy(const char *from, const char *to);
int fio_copy_to_fd(const char *from, int out);

/* The program NAME as the shell finds it on $PATH (an executable regular
 * file, its real path), or NAME itself resolved when it has a '/'; NULL if
 * there is none. */
const char *fio_which(struct session *s, const char *name);

/* --sysroot: target paths (what the target machine calls a file) and the
 * paths this machine reads them at.  fio_host_path: PATH under the
 * sysroot (PATH itself without one, or when relative).
 * fio_target_realpath: the real path of target path PATH, its symbolic
 * links followed inside the sysroot (an absolute link is the target's),
 * as a target path; NULL when it does not exist.  fio_has_sysroot: 1 when
 * there is a sysroot other than "/". */
int fio_has_sysroot(struct session *s);
const char *fio_host_path(struct session *s, const char *path);
const char *fio_target_realpath(struct session *s, const char *path);

/* staprun -P: the translator runs as root for a user in stapusr or
 * stapsys, who is named by STAP_BUILD_USER="UID:GID[:GROUP,...]" in its
 * environment (set by staprun, honoured only when stap's real user is
 * root).  fio_user_may_read: 1 when that user may read PATH (a host
 * path), or when there is no such user; every file the script names
 * (process paths, libraries, @cast/@var modules and headers) passes it,
 * and one that does not is treated as missing.  fio_for_user: 1 when
 * stap builds for such a user. */
int fio_user_may_read(const char *path);
int fio_for_user(void);

/* mkdir -p PATH; 0 on success. */
int fio_mkdirs(const char *path);

/* The cache directory ($SYSTEMTAP_DIR/cache, default ~/.systemtap/cache):
 * built modules, recipes, DWARF indexes; NULL when --disable-cache was
 * given or there is no home directory. */
const char *fio_cache_dir(struct session *s);

/* $SYSTEMTAP_DIR, else ~/.systemtap (its rc file, its cache); NULL if
 * there is no home directory. */
const char *fio_stap_dir(struct session *s);

#endif
