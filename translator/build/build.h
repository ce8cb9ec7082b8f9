/* build.h - pass 4 (kbuild) and the run's temporary directory.
 *
 * session_tmpdir is shared by the passes that write files: pass 3 writes
 * the generated C there, pass 4 the kbuild files and the module, pass 5 the
 * testbed guest's files.
 */
#ifndef BUILD_H
#define BUILD_H

struct session;

/* The run's temporary directory, /tmp/stapXXXXXX, created on the first call
 * (NULL after an error message).  It is removed when stap exits, unless -k
 * was given: then stap says where it is, as stap does. */
const char *session_tmpdir(struct session *s);

/* For recipe.c: write a whole file (an error is reported), and run kbuild
 * on the module directory DIR, its output going to LOG. */
int build_write_text(struct session *s, const char *path, const char *text);
int build_run_make(struct session *s, const char *dir, const char *log);

#endif
