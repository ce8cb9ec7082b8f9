#!/bin/bash
# golden: stap 4.8 (how it reads $SYSTEMTAP_DIR/rc).
# rc-file.sh - $SYSTEMTAP_DIR/rc holds options read before the command
# line's: split into words as the shell splits them (across lines), the
# command line overriding them (-p2 after the rc's -p 1), a bad option in
# it refused as on the command line; --help names the file.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" rc-file
mkdir -p "$SYSTEMTAP_DIR"

printf -- '-p\n1\n' >"$SYSTEMTAP_DIR/rc"
"$STAP" -e 'probe begin { print(1) }' >out 2>err || bad "rc -p 1: failed"
[ "$(head -n1 out)" = "# parse tree dump" ] || bad "rc -p 1: not a pass-1 dump"
"$STAP" -p2 -e 'probe begin { print(1) }' >out 2>err || bad "rc -p 1, -p2: failed"
[ "$(head -n1 out)" = "# probes" ] || bad "rc -p 1, -p2: not a pass-2 listing"

printf -- '--bogus\n' >"$SYSTEMTAP_DIR/rc"
if "$STAP" -p1 -e 'probe begin { print(1) }' >out 2>err; then
	bad "rc --bogus: accepted"
fi
grep -q "unknown option '--bogus'" err || bad "rc --bogus: no message"

rm "$SYSTEMTAP_DIR/rc"
"$STAP" --help | grep -qxF "Options (in $SYSTEMTAP_DIR/rc and on command line):" ||
	bad "--help does not name the rc file"
exit $status
