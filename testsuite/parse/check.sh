#!/bin/sh
# check.sh - run the pass-1 golden tests (until testsuite/run-tests lands).
#
# For each NAME.stp: run "stap -p1 NAME.stp [NAME.opts]" from this
# directory and compare stdout with NAME.out, stderr with NAME.err (absent =
# empty) and the exit status with NAME.rc (absent = 0).  The tapset library
# is an empty directory so that only the test's own files are parsed.
# Usage: check.sh [-u] [NAME…]   (-u rewrites the expected files)
cd "$(dirname "$0")" || exit 1
STAP=${STAP:-../../translator/stap}
update=0
[ "$1" = "-u" ] && { update=1; shift; }
empty=$(mktemp -d)
trap 'rm -rf "$empty" "$out" "$err"' EXIT
out=$(mktemp) err=$(mktemp)
export SYSTEMTAP_TAPSET="$empty" NO_COLOR=1
pass=0 fail=0
if [ $# -eq 0 ]; then set -- *.stp; else set -- $(printf '%s.stp ' "$@"); fi
for t in "$@"; do
	n=${t%.stp}
	opts=$(cat "$n.opts" 2>/dev/null)
	eval "set -- $opts"
	"$STAP" -p1 "$t" "$@" >"$out" 2>"$err"
	rc=$?
	if [ $update = 1 ]; then
		cp "$out" "$n.out"
		if [ -s "$err" ]; then cp "$err" "$n.err"; else rm -f "$n.err"; fi
		if [ $rc != 0 ]; then echo $rc >"$n.rc"; else rm -f "$n.rc"; fi
	fi
	want_rc=$(cat "$n.rc" 2>/dev/null || echo 0)
	if cmp -s "$out" "$n.out" && { [ -f "$n.err" ] && cmp -s "$err" "$n.err" ||
	   { [ ! -f "$n.err" ] && [ ! -s "$err" ]; }; } && [ "$rc" = "$want_rc" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $n (rc $rc, want $want_rc)"
		diff "$n.out" "$out" | head -10
		[ -f "$n.err" ] && diff "$n.err" "$err" | head -10 || head -5 "$err"
	fi
done
echo "parse: $pass passed, $fail failed"
[ $fail = 0 ]
