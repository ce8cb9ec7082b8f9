#!/bin/bash
# tapfuncs.sh - every documented tapset function of stap 4.8 exists here.
# tapfuncs.stap48 is the list of them: the public names (no leading "_")
# that stap 4.8's --dump-functions prints on the testbed kernel, a fact
# about its interface.  The ones still missing here are exactly those in
# tapfuncs.missing (the list only shrinks: a name missing that is not in
# it, or one in it that now exists, fails here; move it out of the list).
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" tapfuncs
src=$(cd "$(dirname "$0")/../.." && pwd)

"$STAP" --dump-functions >out 2>err || bad "stap --dump-functions failed"
sed -n 's/^\([A-Za-z][A-Za-z0-9_]*\):.*/\1/p' out | sort -u >ours
# stap 4.8 lists no internal function (a name beginning with "_")
grep -q '^_' out && bad "--dump-functions lists internal functions: $(grep -m3 '^_' out)"

grep -v '^#' "$src/testsuite/shell/tapfuncs.stap48" | sort -u >theirs
comm -23 theirs ours >missing
grep -v '^#' "$src/testsuite/shell/tapfuncs.missing" | sort -u >expected
diff -u expected missing >diff ||
	bad "stap 4.8's functions missing here differ from tapfuncs.missing (+ newly missing, - now here): $(cat diff)"
exit $status
