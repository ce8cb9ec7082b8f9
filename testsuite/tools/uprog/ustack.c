/* ustack.c - the program the user backtrace tests probe (built by
 * ../build-uprog at /var/tmp/ctap-uprobes/ustack, -O2, no frame pointer,
 * so frames unwind by .eh_frame only).  Usage: ustack [N]: N times (default
 * 1) main -> outer -> middle -> inner, then qsort() of two ints, whose
 * comparator cmp() is called from inside libc.
 */
#include <stdlib.h>

volatile int sink;

__attribute__((noipa)) int inner(int x)
{
	sink += x;
	return x + 1;
}

__attribute__((noipa)) int middle(int x)
{
	int r = inner(x * 2);

	sink += r;
	return r;
}

__attribute__((noipa)) int outer(int x)
{
	int r = middle(x + 1);

	sink -= r;
	return r;
}

__attribute__((noipa)) static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, i, v[2] = { 2, 1 };

	for (i = 0; i < n; i++)
		sink += outer(i);
	qsort(v, 2, sizeof v[0], cmp);
	return v[0] != 1;
}
