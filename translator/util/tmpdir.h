/* tmpdir.h - the run's temporary directory (tmpdir.c).
 *
 * Shared by the passes that write files: pass 3 writes the generated C
 * there, pass 4 the kbuild files and the module, pass 5 the testbed
 * guest's files.
 */
#ifndef TMPDIR_H
#define TMPDIR_H

struct session;

/* The run's temporary directory, /tmp/stapXXXXXX, created on the first call
 * (NULL after an error message).  It is removed when stap exits, unless -k
 * was given: then stap says where it is, as stap does. */
const char *session_tmpdir(struct session *s);

#endif
