#!/bin/bash
# testbed-kmsg.sh - the batch sends back, per job, the lines the job added
# to the guest's kernel log that say the kernel went wrong (NAME.kmsg):
# job "warn" runs a guru-mode script whose begin probe does WARN_ON(1),
# job "clean" one that does nothing wrong; booted without panic_on_warn,
# so that the warning is logged, not a panic.  run-tests fails a run/ test
# whose NAME.kmsg is not empty.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-kmsg

mkdir batch
"$STAP" -g -p4 -m warn -e 'function w() %{ WARN_ON(1); %}
probe begin { w(); exit() }' >out 2>err || bad "cannot build warn.ko"
"$STAP" -p4 -m clean -e 'probe begin { println("fine") exit() }' >out 2>err ||
	bad "cannot build clean.ko"
mv warn.ko clean.ko batch/
cat >batch/jobs <<EOF
file $SYSTEMTAP_STAPRUN
run warn 30 warn.ko
run clean 30 clean.ko
EOF
STAP_TESTBED_KARGS= "$TESTBED" run-batch batch >out 2>err || bad "run-batch failed"
grep -q 'WARNING: .* at ' batch/warn.kmsg 2>/dev/null ||
	bad "no WARNING in warn.kmsg: $(cat batch/warn.kmsg 2>&1)"
[ -e batch/clean.kmsg ] && [ ! -s batch/clean.kmsg ] ||
	bad "clean.kmsg missing or not empty: $(cat batch/clean.kmsg 2>&1)"
[ "$(cat batch/clean.stdout 2>&1)" = fine ] || bad "clean: $(cat batch/clean.stdout 2>&1)"
exit $status
