#!/bin/bash
# testbed-text-patching.sh - the testbed runs the kernel's text patching
# soundly: a bare kprobe module (kpcycle/, no stap code) is loaded and
# unloaded 100 times while two readers run through the probed vfs_read.
# Under Debian 12's qemu 7.2 the guest oopses within seconds (a jump to 0
# from the ftrace site, then CPUs spinning on an int3 no longer there), a
# fault that a run/ test would otherwise be blamed for; stap-testbed setup
# gives every kernel bookworm-backports' qemu 10, which ran it clean on an
# idle host but oopsed the same way (RIP 0, then a double fault) in two
# runs of three on 2026-11-28 with the host at load 7: cause not known yet,
# so a failure shows the kernel's first complaint from the console log.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
src=$(cd "$(dirname "$0")/kpcycle" && pwd)
. "$(dirname "$0")/lib/workdir.bash" testbed-text-patching
tb=${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}
rel=$(cat "$tb/release")

cp "$src/kpcycle.c" "$src/Kbuild" .
"$(dirname "$src")/../tools/kbuild-ext" . >out 2>err ||
	bad "cannot build kpcycle.ko for $rel"
mkdir batch
mv kpcycle.ko batch/
cat >batch/jobs <<EOF2
install $src/guest.sh work/guest.sh
sh kpcycle 200 /work/guest.sh 100
EOF2
# The batch calls a guest silent for the job's time and two minutes hung,
# and runs the job once more in a new guest: both within run-tests' 600 s,
# and the first hang's console log is shown at once (the retry is no pass).
"$TESTBED" run-batch batch >out 2>err &
batch=$!
while kill -0 $batch 2>/dev/null && [ ! -e batch/kpcycle.retried ]; do
	sleep 1
done
if [ -e batch/kpcycle.retried ]; then
	kill $batch
	wait $batch
	bad "the guest: $(cat batch/kpcycle.retried)"
	echo "--- its console log from the kernel's first complaint"
	sed -n '/BUG:\|Oops\|WARNING:\|general protection\|Call Trace/,$p' \
		batch/console.kpcycle.1.log | head -n 80
	exit $status
fi
wait $batch || bad "run-batch failed"
[ "$(cat batch/kpcycle.stdout 2>&1)" = "cycles: 100" ] ||
	bad "kpcycle: $(cat batch/kpcycle.stdout 2>&1)"
[ -e batch/kpcycle.kmsg ] && [ ! -s batch/kpcycle.kmsg ] ||
	bad "the kernel log: $(head -n 20 batch/kpcycle.kmsg 2>&1)"
[ -e batch/kpcycle.guest ] && bad "the guest: $(cat batch/kpcycle.guest)"
exit $status
