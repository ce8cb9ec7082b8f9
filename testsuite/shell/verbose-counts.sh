#!/bin/bash
# golden: stap 4.8 (its -v -p2 lines on the same scripts).
# verbose-counts.sh - stap -v's pass 2 line counts probes, functions, embeds
# and globals as stap 4.8 words them: "1 probe", "2 probes", "0 globals".
# Expected texts from stap 4.8 -v -p2 on the same scripts.
# Run by run-tests with $STAP set; exit 0 = pass.
set -u
status=0

check() {	# WANT SCRIPT [OPTIONS...]
	local want=$1 script=$2 got
	shift 2
	got=$("$STAP" "$@" -v -p2 -e "$script" 2>&1 >/dev/null |
		sed -n 's/^Pass 2: \(analyzed script: .*\) using .*/\1/p')
	if [ "$got" != "$want" ]; then
		echo "FAILED: $script"; echo "  got:  $got"; echo "  want: $want"
		status=1
	fi
}
check "analyzed script: 2 probes, 1 function, 0 embeds, 0 globals" \
	'probe begin{exit()} probe end {println(1)}'
check "analyzed script: 2 probes, 1 function, 0 embeds, 2 globals" \
	'global a, b probe begin{a=1;b=2;exit()} probe end {println(a,b)}'
check "analyzed script: 1 probe, 0 functions, 0 embeds, 1 global" \
	'global a probe begin{ a = 1; print(a) }'
check "analyzed script: 1 probe, 1 function, 1 embed, 0 globals" \
	'%{
#include <linux/x.h>
%}
probe begin{exit()}' -g
exit $status
