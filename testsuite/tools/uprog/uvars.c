/* uvars.c - the program the user-space DWARF tests probe (built by
 * ../build-uprog with -g, -O0 and -O2, at fixed paths).  Usage: uvars [N]:
 * calls walk() N times (default 2) on a small list, then bad() with a
 * pointer that faults when read.  No bitfields: stap 4.8 reads DWARF 5's
 * DW_AT_data_bit_offset ones as 0, so they cannot have its goldens. */
#include <stdlib.h>

struct point {
	int x, y;
};

struct node {
	long val;
	struct point pt;
	char name[8];
	struct node *next;
};

long total = 5;
struct node nodes[2] = {
	{ 10, { 1, 2 }, "first", &nodes[1] },
	{ 20, { 3, 4 }, "second", NULL },
};
volatile long sink;

__attribute__((noinline)) long walk(struct node *head, int depth,
				    const char *tag)
{
	long sum = 0;
	struct node *n;

	for (n = head; n; n = n->next)
		sum += n->val * depth;
	sink = sum + tag[0];
	total += sum;
	return sum;
}

__attribute__((noinline)) int bad(struct node *p)
{
	sink = (long)p;
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, i;

	for (i = 0; i < n; i++)
		walk(&nodes[0], i + 1, "go");
	return bad((struct node *)16);
}
