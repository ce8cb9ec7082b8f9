/* build.h - the build directory and module name (pass 4, build.c). */
#ifndef BUILD_H
#define BUILD_H

struct session;

/* The run's temporary directory, created on first use (/tmp/stapXXXXXX);
 * removed at exit unless -k.  NULL after reporting an error. */
const char *session_tmpdir(struct session *s);

/* The module's name: -m NAME, else stap_<hash of the script and options>. */
const char *session_module_name(struct session *s);

#endif
