#!/bin/bash
# golden: stap 4.8 (the shape of its -V: "Systemtap translator/driver
# (version 4.8/ELFUTILS, BUILD)", a second line naming who made it, "tested
# kernel versions: A ... B" and "enabled features: NAMES"; -vv prints the
# same banner first, on stdout).
# version-banner.sh - -V follows stap 4.8's lines with this project's name
# and version, the testbed's kernels and the features built in (LIBSQLITE3
# exactly when -q records coverage).
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" version-banner

"$STAP" -V >out 2>err || bad "-V: failed"
[ "$(wc -l <out)" = 4 ] || bad "-V: not four lines"
grep -qE '^Systemtap translator/driver \(version 4\.8/[0-9]+\.[0-9]+, ctap [0-9][0-9.]*\)$' out ||
	bad "-V: first line not stap's shape with ctap's version"
sed -n 2p out | grep -q 'ctap' || bad "-V: second line does not name ctap"
sed -n 3p out | grep -qE '^tested kernel versions: [0-9.]+ \.\.\. [0-9.]+$' ||
	bad "-V: no tested kernel versions line"
sed -n 4p out | grep -qE '^enabled features:( [A-Z0-9_]+)*$' ||
	bad "-V: no enabled features line"
cp out banner

"$STAP" -vv -p1 -e 'probe begin {}' >out 2>err || bad "-vv -p1: failed"
head -4 out | cmp -s - banner || bad "-vv: the banner does not open stdout"

cat >cov.stp <<'STP'
probe begin {}
STP
"$STAP" -q -p1 cov.stp >out 2>err || bad "-q -p1: failed"
if grep -q LIBSQLITE3 banner; then
	[ -n "$(ls "$SYSTEMTAP_DIR"/*.db 2>/dev/null)" ] || bad "LIBSQLITE3 listed, but -q wrote no database"
else
	grep -q "not recorded" err || bad "no LIBSQLITE3, but -q did not say so"
fi
exit $status
