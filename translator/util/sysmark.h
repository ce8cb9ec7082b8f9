/* sysmark.h - the SDT markers of the commands stap runs (sysmark.c):
 * stap_system__start, __spawn and __complete, which stap 4.8's tapset
 * aliases stap.system, stap.system.spawn and stap.system.return probe in
 * this program. */
#ifndef SYSMARK_H
#define SYSMARK_H

#include <sys/types.h>

struct arena;

/* ARGV (NULL-terminated) is about to run: stap_system__start with its
 * words joined by spaces. */
void sysmark_start(struct arena *a, const char *const *argv);

/* The fork for it returned PID (-1: failed, with errno): stap_system__spawn
 * with (0 or errno, pid). */
void sysmark_spawn(pid_t pid, int err);

/* It ended with wait STATUS: stap_system__complete with (status, pid). */
void sysmark_complete(int status, pid_t pid);

#endif
