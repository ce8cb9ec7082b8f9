/* uprog.c - the program the uprobe and SDT tests probe (built by
 * ../build-uprog at fixed paths, -O2 and -O0, with our sys/sdt.h).
 * Usage: uprog [N]: calls work() N times (default 3), each hitting the
 * markers below once, and lib_twice() in libuprog.so.  Its markers'
 * operands cover what the compiler leaves: registers of each width,
 * base+displacement, base+index*scale, immediates, and globals relative to
 * %rip (-O2), or stack slots (-O0).  uprog:report's argument is the
 * semaphore of uprog:guarded, nonzero only while a script listens to it.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdlib.h>
#include <sys/sdt.h>

__extension__ unsigned short uprog_guarded_semaphore
	__attribute__((section(".probes"), visibility("hidden")));

int g = 7;
long tab[4] = { 10, 20, 30, 40 };
volatile int sink;

int lib_twice(int x);

__attribute__((noinline)) int work(int x, long *p, long i, char c,
				   unsigned short us)
{
	int local = x * 3;

	STAP_PROBE8(uprog, args, x, g, tab[2], p[i], local, c, us, -x);
	STAP_PROBE(uprog, zero);
	STAP_PROBEV(uprog, imm, 1, -2, 3);
	if (uprog_guarded_semaphore)
		STAP_PROBE1(uprog, guarded, x);
	STAP_PROBE1(uprog, report, uprog_guarded_semaphore);
	DTRACE_PROBE2(uprog, dash__name, x, i);
	sink += local;
	return x * 2;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, i, s = 0;

	for (i = 0; i < n; i++)
		s += work(i + 1, tab, i % 4, (char)('a' + i), 60000);
	return lib_twice(s) == -1;
}
