#!/bin/bash
# testbed-noboot-panic.sh - a batch guest whose kernel panics while booting
# (no initramfs /init: "Kernel panic - not syncing: ...") fails the batch at
# once, with the kernel's words: a crash is never retried into a pass (nor
# is a silent boot: testbed-noboot).
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-noboot-panic

mkdir batch
echo "run a 30 a" >batch/jobs
STAP_TESTBED_KARGS="rdinit=/nonexistent" SYSTEMTAP_STAPRUN=/bin/true \
	"$TESTBED" run-batch batch >out 2>err
rc=$?
[ $rc = 1 ] || bad "exit status $rc, expected 1"
grep -q 'booting again' err && bad "the panicking boot was retried"
grep -q '^stap-testbed: error: the testbed guest stopped before its job ended: the guest kernel reported "Kernel panic - not syncing: ' err ||
	bad "no error naming the kernel's panic"
exit $status
