// ucxx.cc - a C++ program (-g -O2) that forks: the child, then the parent
// (after the child has ended), each call a method N times and hit a
// marker with 12 arguments, then a marker with none.  Usage: ucxx [N]
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>

namespace shapes {
struct Box {
	long w, h;
	long area(int scale) const;
};

__attribute__((noinline)) long Box::area(int scale) const
{
	return w * h * scale;
}
}

volatile long sink;

__attribute__((noinline)) static void run(int who, int n)
{
	shapes::Box b = { who + 2, 3 };

	for (int i = 0; i < n; i++) {
		long a = b.area(i + 1);

		STAP_PROBE12(ucxx, twelve, who, i, a, 4, 5, 6, 7, 8, 9, 10,
			     11, -12);
		sink += a;
	}
	STAP_PROBE(ucxx, done);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pid_t p = fork();

	if (p == 0) {
		run(1, n);
		_exit(0);
	}
	waitpid(p, 0, 0);
	run(0, n);
	return 0;
}
