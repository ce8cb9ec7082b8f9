#!/bin/bash
# testbed-text-patching.sh - the testbed runs the kernel's text patching
# soundly: a bare kprobe module (kpcycle/, no stap code) is loaded and
# unloaded 100 times while two readers run through the probed vfs_read.
# Multi-threaded TCG (qemu's default for -smp 2, in qemu 7.2 and 10 alike)
# fails it under host load: a vCPU now and then runs code that another vCPU
# has already rewritten and synchronized.  Seen on 2026-11-28 with qemu 10
# at load 10-24 (2 of 10 runs on 6.1, 1 of 2 on 6.12, the console's first
# complaint the same each time): rmmod's unregister_kprobe has ftrace put
# vfs_read's nop back over the call (text_poke_bp: int3, the tail, the
# first byte, each write followed by an IPI every CPU answers) and is past
# it (6.1: in ftrace_modify_all_code's smp_call_function after the patch;
# 6.12: not on a CPU at all), yet a reader's CPU traps on that int3.
# poke_int3_handler no longer claims it, so kprobe_int3_handler takes it for
# the kprobe's own and "single-steps" it out of line; an ftrace-site kprobe
# has no copy of the instruction (ainsn.insn is NULL): the CPU returns to
# RIP 0 with IF clear (EFLAGS 0x97; setup_singlestep's return address is
# still on the stack), and without panic-on-oops the double faults follow.
# With -smp 1 (3 runs) or -accel tcg,thread=single (9 runs, 900 cycles, at
# the same load) no run crashed.
# Real CPUs (and stap users) cannot get there: the IPIs make every CPU see
# the new bytes before text_poke_bp returns.  So the testbed runs qemu with
# -accel tcg,thread=single (testbed.c), where one host thread runs the
# vCPUs in turn and a write drops the stale translation before any other
# vCPU runs again.  It costs time when both vCPUs are busy: this loop took
# 156-455 s single-threaded against 118-363 s multi-threaded at load 15-25:
# the job's 400 s holds up to load ~20 (the 455 s were at load 23).
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
sh kpcycle 400 /work/guest.sh 100
EOF2
# The batch calls a guest silent for the job's time and two minutes hung
# (520 s, within run-tests' 600 s with the boot) and runs the job once more
# in a new guest; the first hang's console log is shown at once (the retry
# is no pass).
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
