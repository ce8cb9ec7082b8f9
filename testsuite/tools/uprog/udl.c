/* udl.c - opens libudl.so with dlopen (it does not link to it) and calls
 * udl_work() N times.  Usage: udl [N] (default 2) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, i, s = 0;
	void *h = dlopen("/var/tmp/ctap-uprobes/libudl.so", RTLD_NOW);
	int (*work)(int, const char *);

	if (!h) {
		fprintf(stderr, "udl: %s\n", dlerror());
		return 1;
	}
	work = (int (*)(int, const char *))dlsym(h, "udl_work");
	for (i = 0; i < n; i++)
		s += work(i + 1, "dl");
	dlclose(h);
	return s == -1;
}
