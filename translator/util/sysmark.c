/* sysmark.c - SDT markers around the commands stap runs (sysmark.h). */
#include <string.h>

#include "includes/sys/sdt.h"

#include "util/arena.h"
#include "util/sysmark.h"

void sysmark_start(struct arena *a, const char *const *argv)
{
	size_t len = 1, i;
	char *cmd, *p;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	p = cmd = arena_alloc(a, len);
	for (i = 0; argv[i]; i++) {
		if (i)
			*p++ = ' ';
		p = stpcpy(p, argv[i]);
	}
	*p = '\0';
	STAP_PROBE1(stap, stap_system__start, cmd);
}

void sysmark_spawn(pid_t pid, int err)
{
	long ret = pid < 0 ? err : 0, id = pid;

	STAP_PROBE2(stap, stap_system__spawn, ret, id);
}

void sysmark_complete(int status, pid_t pid)
{
	long ret = status, id = pid;

	STAP_PROBE2(stap, stap_system__complete, ret, id);
}
