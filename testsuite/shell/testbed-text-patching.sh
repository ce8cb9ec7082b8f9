#!/bin/bash
# testbed-text-patching.sh - the testbed runs the kernel's text patching
# soundly: a bare kprobe module (kpcycle/, no stap code) is loaded and
# unloaded 100 times while two readers run through the probed vfs_read.
# Under Debian 12's qemu 7.2 the guest oopses within seconds (a jump to 0
# from the ftrace site, then CPUs spinning on an int3 no longer there), a
# fault that a run/ test would otherwise be blamed for; stap-testbed setup
# gives every kernel bookworm-backports' qemu 10, which runs it clean.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
src=$(cd "$(dirname "$0")/kpcycle" && pwd)
. "$(dirname "$0")/lib/workdir.bash" testbed-text-patching
tb=${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}
rel=$(cat "$tb/release")

cp "$src/kpcycle.c" "$src/Kbuild" .
make -s -C "/lib/modules/$rel/build" M="$w" modules >out 2>err ||
	bad "cannot build kpcycle.ko for $rel"
mkdir batch
mv kpcycle.ko batch/
cat >batch/jobs <<EOF2
install $src/guest.sh work/guest.sh
sh kpcycle 600 /work/guest.sh 100
EOF2
"$TESTBED" run-batch batch >out 2>err || bad "run-batch failed"
[ "$(cat batch/kpcycle.stdout 2>&1)" = "cycles: 100" ] ||
	bad "kpcycle: $(cat batch/kpcycle.stdout 2>&1)"
[ -e batch/kpcycle.kmsg ] && [ ! -s batch/kpcycle.kmsg ] ||
	bad "the kernel log: $(head -n 20 batch/kpcycle.kmsg 2>&1)"
for f in batch/kpcycle.retried batch/kpcycle.guest; do
	[ -e "$f" ] && bad "the guest: $(cat "$f")"
done
exit $status
