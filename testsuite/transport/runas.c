/* runas.c - run a command as another user with the groups given:
 *   runas UID GID[,GID...] COMMAND [ARG...]
 * (the guest's busybox su sets no supplementary groups: a static
 * busybox cannot read /etc/group through NSS). */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	gid_t groups[16];
	char *p;
	int n = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: runas UID GID[,GID...] COMMAND [ARG...]\n");
		return 2;
	}
	for (p = strtok(argv[2], ","); p && n < 16; p = strtok(NULL, ","))
		groups[n++] = (gid_t)atoi(p);
	if (setgroups(n, groups) < 0 || setresgid(groups[0], groups[0], groups[0]) < 0 ||
	    setresuid(atoi(argv[1]), atoi(argv[1]), atoi(argv[1])) < 0) {
		perror("runas");
		return 2;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
