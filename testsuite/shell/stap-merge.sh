#!/bin/bash
# golden: stap 4.8 (its stap-merge on the same files).
# stap-merge.sh - stap-merge puts bulk-mode records (stp_bulk_hdr: sequence,
# length) from per-CPU files back in sequence order; -v names each record's
# file; a missing sequence number is reported.  Expected output from stap
# 4.8's stap-merge on the same files.
# Run by run-tests with $STAP set; exit 0 = pass.
set -u
merge=$(dirname "$STAP")/../staprun/stap-merge
w=$(mktemp -d /tmp/stap-merge.XXXXXX)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
status=0
# CPU 0: records 1 and 4; CPU 1: records 2 and 5 (3 was lost); CPU 2: 6
printf '\001\0\0\0\002\0\0\0a\n\004\0\0\0\002\0\0\0d\n' >cpu0
printf '\002\0\0\0\003\0\0\0bb\n\005\0\0\0\001\0\0\0e' >cpu1
printf '\006\0\0\0\001\0\0\0f' >cpu2

check() {	# NAME WANT-STDOUT WANT-STDERR COMMAND...
	local name=$1 want=$2 want_err=$3 got
	shift 3
	got=$("$@" 2>err; echo "rc=$?")
	if [ "$got" != "$(printf '%b' "$want")" ] ||
	   [ "$(cat err)" != "$(printf '%b' "$want_err")" ]; then
		echo "FAILED: $name"; echo "--- got"; echo "$got"; cat err; status=1
	fi
}
check plain 'a\nbb\nd\nerc=0' 'got 4. expected 3' "$merge" cpu1 cpu0
check verbose '[CPU:1, seq=1, length=2]\na\n[CPU:0, seq=2, length=3]\nbb\n[CPU:1, seq=4, length=2]\nd\n[CPU:0, seq=5, length=1]\nerc=0' \
	'got 4. expected 3' "$merge" -v cpu1 cpu0
printf '\003\0\0\0\001\0\0\0c' >cpu2
check no-drops '[CPU:0, seq=1, length=2]\na\n[CPU:1, seq=2, length=3]\nbb\n[CPU:2, seq=3, length=1]\nc[CPU:0, seq=4, length=2]\nd\n[CPU:1, seq=5, length=1]\nerc=0' \
	'' "$merge" -v cpu0 cpu1 cpu2
check output 'rc=0' '' "$merge" -o merged cpu0 cpu1 cpu2
[ "$(cat merged)" = "$(printf 'a\nbb\ncd\ne')" ] || { echo "FAILED: -o"; status=1; }
check missing 'rc=255' 'error opening file nonexistent.' "$merge" nonexistent
exit $status
