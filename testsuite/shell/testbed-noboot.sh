#!/bin/bash
# testbed-noboot.sh - a batch guest that does not boot (a boot starved by
# the host's load) boots once more before the batch fails: no job ran, so
# none is blamed.  A boot limit of 1 s makes every boot fail here.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-noboot

mkdir batch
echo "run a 30 a" >batch/jobs
STAP_TESTBED_BOOT_TIMEOUT=1 SYSTEMTAP_STAPRUN=/bin/true \
	"$TESTBED" run-batch batch >out 2>err
rc=$?
[ $rc = 1 ] || bad "exit status $rc, expected 1"
[ "$(grep -c '^stap-testbed: note: the testbed guest did not boot within 1 s; booting again$' err)" = 1 ] ||
	bad "no single note of a second boot"
grep -q '^stap-testbed: error: the testbed guest did not boot within 1 s (console log: batch/console.log)$' err ||
	bad "no error after the second boot"
exit $status
