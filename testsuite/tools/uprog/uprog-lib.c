/* uprog-lib.c - libuprog.so, the library uprog links to (library probes). */
#include <sys/sdt.h>

__attribute__((noinline)) int lib_twice(int x)
{
	STAP_PROBE1(uprog_lib, twice, x);
	return 2 * x;
}
