#!/bin/bash
# golden: stap 4.8 (staprun -L's and -D's output, which stap -F runs).
# flight-recorder.sh - stap -F through pass 5 in the testbed guest: without
# -o the module is loaded, started and left running detached (staprun -L:
# stdout empty, stap 4.8's note naming the module on stderr, status 0);
# with -o staprun goes on in the background and prints its pid (-D).
# testsuite/transport's flight-recorder tests check what the detached
# module keeps.
# Run by run-tests with $STAP set (and SYSTEMTAP_STAPRUN); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" flight-recorder
export STAP_TESTBED=1

"$STAP" -F -m fr_t -e 'probe begin { println("begin") }' >out 2>err
rc=$?
[ "$rc" = 0 ] || bad "-F: exit status $rc"
[ -s out ] && bad "-F: output before the attach"
printf '\nDisconnecting from systemtap module.\nTo reconnect, type "staprun -A fr_t"\n' >want
diff -u want err || bad "-F: stderr"

"$STAP" -F -o "$w/fr.txt" -m fr_t -e 'probe begin { println("begin") }' >out 2>err
rc=$?
[ "$rc" = 0 ] || bad "-F -o: exit status $rc"
grep -qx '[0-9][0-9]*' out || bad "-F -o: no pid on stdout"
[ -s err ] && bad "-F -o: stderr not empty"
exit $status
