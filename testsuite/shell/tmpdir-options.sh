#!/bin/bash
# tmpdir-options.sh - where pass 4 builds, and the options stap 4.8 accepts
# for what has no counterpart here.  --tmpdir=DIR builds in DIR (made if
# missing) and keeps it, as stap 4.8 keeps it; TMPDIR is where a temporary
# build directory is made; --download-debuginfo warns as stap 4.8 warns
# without ABRT (its text and the bad-value error are stap 4.8's);
# --save-uprobes is accepted.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" tmpdir-options

"$STAP" --disable-cache --tmpdir="$w/build" -p4 -m tmpdir_t \
	-e 'probe begin { exit() }' >out 2>err || bad "--tmpdir build failed"
[ -f "$w/build/tmpdir_t.ko" ] && [ -f "$w/build/stap_src.c" ] ||
	bad "--tmpdir: no module or source kept in $w/build: $(ls "$w/build")"

mkdir tmp
TMPDIR=$w/tmp "$STAP" -k --disable-cache -p4 -e 'probe begin { exit() }' \
	>out 2>err || bad "TMPDIR build failed"
kept=$(sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' err)
case $kept in
"$w"/tmp/stap??????) [ -d "$kept" ] || bad "TMPDIR: $kept not kept" ;;
*) bad "TMPDIR: not built under $w/tmp: '$kept'" ;;
esac

"$STAP" --download-debuginfo=yes -p1 -e 'probe begin {}' >out 2>err ||
	bad "--download-debuginfo=yes refused"
if ! command -v abrt-action-install-debuginfo-to-abrt-cache >/dev/null; then
	echo "stap: warning: abrt-action-install-debuginfo-to-abrt-cache is not installed. Continuing without downloading debuginfo." >want
	diff -u want err || bad "--download-debuginfo warning"
fi
"$STAP" --download-debuginfo=no --save-uprobes -p1 -e 'probe begin {}' \
	>out 2>err || bad "--download-debuginfo=no --save-uprobes refused"
[ -s err ] && bad "--download-debuginfo=no: unexpected stderr"
if "$STAP" --download-debuginfo=-3 -p1 -e 'probe begin {}' >out 2>err; then
	bad "--download-debuginfo=-3 accepted"
fi
printf '%s\n' "stap: error: -3 is not a valid value. Use 'yes', 'no', 'ask' or a timeout value." \
	"Try 'stap --help' for more information." >want
diff -u want err || bad "--download-debuginfo=-3 message"
exit $status
