/* udl-lib.c - libudl.so (-g -O2), the library udl opens with dlopen:
 * library function probes with DWARF variables, .return and a marker. */
#include <sys/sdt.h>

struct udl_pt {
	int x;
	long y;
};

volatile long udl_sink;

__attribute__((noinline)) long udl_sum(struct udl_pt *p)
{
	udl_sink += p->y;
	return p->x + p->y;
}

__attribute__((noinline)) int udl_work(int n, const char *tag)
{
	struct udl_pt p = { n, n * 10L };

	STAP_PROBE2(udl, hit, n, tag);
	return (int)udl_sum(&p) + tag[0];
}
