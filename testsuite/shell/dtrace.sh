#!/bin/bash
# dtrace.sh - the dtrace command and sys/sdt.h without a tracer: a provider
# file through -C (a -D'd probe), -h and -G with DTrace's ignored options;
# the program builds with the header and object, each probe leaves a
# stapsdt note (provider, name with "__", "SIZE@OPERAND" arguments, the
# semaphore's address), and the _ENABLED() guard is 0 untraced.  Also
# C++ and STAP_PROBEV.  Exit 0 = pass.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dtrace=$top/dtrace/dtrace
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
fail() { echo "dtrace.sh: $*" >&2; exit 1; }

cat >p.d <<'D'
/* a comment */
provider app {
	probe query__start(const char *q, int id);	// another
	probe tick();
#ifdef WITH_EXTRA
	probe extra(long, unsigned char);
#endif
};
D
"$dtrace" -C -DWITH_EXTRA -64 -fPIC -x nolibs -h -s p.d -o app.h
"$dtrace" -G -32 -fpic -s p.d -o app-sem.o
grep -q '^#define APP_QUERY_START(arg1, arg2) DTRACE_PROBE2 (app, query__start, arg1, arg2)$' app.h ||
	fail "no APP_QUERY_START in the header"
grep -q '^#define APP_EXTRA_ENABLED() __builtin_expect (app_extra_semaphore, 0)$' app.h ||
	fail "-C -D did not define app:extra"
cat >main.c <<'C'
#include <stdio.h>
#include "app.h"
int main(void)
{
	APP_QUERY_START("select", 42);
	APP_TICK();
	APP_EXTRA(-1L, 200);
	STAP_PROBEV(app, v, 1, 2, 3, 4);
	printf("%d %d\n", APP_QUERY_START_ENABLED() != 0, APP_EXTRA_ENABLED() != 0);
	return 0;
}
C
gcc -O2 -Wall -Werror -I"$top/includes" -I. -o prog main.c app-sem.o
[ "$(./prog)" = "0 0" ] || fail "_ENABLED() is not 0 untraced"
notes=$(readelf -n prog)
for p in 'Provider: app' 'Name: query__start' 'Name: tick' 'Name: extra' 'Name: v'; do
	grep -q "$p" <<<"$notes" || fail "no note with $p"
done
grep -q 'Arguments: 8@%[a-z0-9]* -4@\$42$' <<<"$notes" || fail "query__start's arguments: $(grep Arguments <<<"$notes")"
[ "$(grep -c 'Semaphore: 0x0*[1-9a-f]' <<<"$notes")" = 3 ] || fail "not 3 probes with semaphores"
# (readelf's whole output first: grep -q stops reading early, and under
# pipefail the writer's SIGPIPE would fail the check)
sections=$(readelf -S prog)
grep -q '\.probes' <<<"$sections" || fail "no .probes section"
grep -q '\.stapsdt\.base' <<<"$sections" || fail "no .stapsdt.base section"

cat >cxx.cc <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	const char s[] = "x";
	STAP_PROBE3(cxx, m, argc, argv, s);
	DTRACE_PROBE(cxx, z);
	return 0;
}
C
g++ -O2 -Wall -Werror -I"$top/includes" -o cxx cxx.cc
cxx_notes=$(readelf -n cxx)
grep -q 'Arguments: -4@%[a-z0-9]* 8@%[a-z0-9]* 8@' <<<"$cxx_notes" || fail "C++ arguments: $(grep Arguments <<<"$cxx_notes")"
echo ok
