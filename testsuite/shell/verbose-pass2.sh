#!/bin/bash
# golden: stap 4.8 (its -v -p2 lines on the same scripts).
# verbose-pass2.sh - stap -v's pass 2 line counts as stap 4.8 does: the
# probes stap adds (a begin arming conditions that read globals, an end
# probe per written-only global it displays), "1 function", "1 global".
# Run by run-tests with $STAP set; exit 0 = pass.
set -u
status=0
# check SCRIPT EXPECTED: the Pass 2 line, less its " using …" tail
check() {
	got=$("$STAP" -v -p2 -e "$1" 2>&1 >/dev/null | sed -n 's/^\(Pass 2: .*\) using .*/\1/p')
	[ "$got" = "$2" ] || { echo "FAILED: $1"; echo "  got:      $got"; echo "  expected: $2"; status=1; }
}
check 'global a, shown, twice
function f() { return 1 }
probe begin if (a > 0) { println(f()) }
probe timer.s(1) { a = 1; shown = 2; twice[1] = 3 }' \
	'Pass 2: analyzed script: 5 probes, 1 function, 0 embeds, 3 globals'
check 'probe begin { println(1) }' \
	'Pass 2: analyzed script: 1 probe, 0 functions, 0 embeds, 0 globals'
check 'global x probe begin { x = 1; println(x) }' \
	'Pass 2: analyzed script: 1 probe, 0 functions, 0 embeds, 1 global'
exit $status
