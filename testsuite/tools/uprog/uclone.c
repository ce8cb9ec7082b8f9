/* uclone.c - an -O2 program (-g) whose functions gcc clones: pick() by
 * IPA-SRA (pick.isra.0) and mul() by constant propagation
 * (mul.constprop.0); stap names their probes by DWARF, not by symbol. */
#include <stdlib.h>

struct big {
	long a[8];
	long unused;
};

volatile long sink;

static __attribute__((noinline)) long pick(const struct big *b, int i)
{
	return b->a[i & 7];
}

static __attribute__((noinline)) long mul(long x, long k)
{
	sink += x;
	return x * k;
}

int main(int argc, char **argv)
{
	struct big b = { { 1, 2, 3, 4, 5, 6, 7, 8 }, 0 };
	int n = argc > 1 ? atoi(argv[1]) : 2, i;
	long s = 0;

	for (i = 0; i < n; i++)
		s += mul(pick(&b, i), 3) + mul(i, 3);
	return s == -1;
}
