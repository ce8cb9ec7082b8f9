/* uinl.c - an -O2 program whose function scale() is inlined at several
 * sites (and kept out of line for its caller through a pointer), for
 * probes on every inline instance.  Usage: uinl [N] */
#include <stdlib.h>

volatile int sink;

static inline int scale(int v, int by)
{
	sink += v;
	return v * by;
}

__attribute__((noinline)) int first(int a)
{
	return scale(a, 3) + 1;
}

__attribute__((noinline)) int second(int b)
{
	return scale(b + 10, 5) - 1;
}

int (*volatile indirect)(int, int) = scale;

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, i, s = 0;

	for (i = 0; i < n; i++)
		s += first(i) + second(i) + indirect(i, 7);
	return s == -1;
}
