#!/bin/bash
# testbed-noboot.sh - a batch guest that does not boot within its limit
# (counted in the CPU time it got, so that the host's load only slows it)
# fails the batch at once: it is not booted again (issue 15: a retry never
# turns into a pass), and no job is blamed.  A boot limit of 1 s makes the
# boot fail here.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-noboot

mkdir batch
echo "run a 30 a" >batch/jobs
STAP_TESTBED_BOOT_TIMEOUT=1 SYSTEMTAP_STAPRUN=/bin/true \
	"$TESTBED" run-batch batch >out 2>err
rc=$?
[ $rc = 1 ] || bad "exit status $rc, expected 1"
grep -q 'booting again' err && bad "the boot was retried"
grep -q '^stap-testbed: error: the testbed guest did not boot within 1 s ([0-9]* s of CPU time, [0-9]* s on the clock) (console log: batch/console.log)$' err ||
	bad "no error naming the boot limit"
exit $status
