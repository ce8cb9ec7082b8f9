#!/bin/bash
# testbed-batch-interrupt.sh - a batch sent SIGTERM while a job runs stops
# its guest and itself (status 1, "interrupted during NAME"): the job is
# not blamed or run again in a new guest, and the jobs after it do not
# run.  (It once booted a second guest to retry the job.)  A batch
# killed outright (SIGKILL: run-tests' timeout) takes its guest with it
# (qemu was left running on the host's CPUs).  The "staprun" here is a
# script whose job "slow" sleeps.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-batch-interrupt

mkdir batch
cat >fake-staprun <<EOF2
#!/bin/sh
[ "\$1" = slow ] && { echo "job slow began"; sleep 1000; }
echo "job \$1 ran"
EOF2
chmod +x fake-staprun
cat >batch/jobs <<EOF2
run first 30 first
run slow 1000 slow
run last 30 last
EOF2
# started NAME: wait until the batch's guest runs job NAME (its console
# says so)
started() {
	for i in $(seq 3000); do
		tr -d '\r' 2>/dev/null <batch/console.log | grep -qx "stap-testbed: job $1" && break
		kill -0 $batch 2>/dev/null || break
		sleep 0.2
	done
	tr -d '\r' 2>/dev/null <batch/console.log | grep -qx "stap-testbed: job $1" ||
		bad "job $1 never started: $(cat err)"
	sleep 1
}

SYSTEMTAP_STAPRUN=$w/fake-staprun "$TESTBED" run-batch batch >out 2>err &
batch=$!
started slow
kill -TERM $batch
# stopped within a minute (a retry would boot a guest and sleep again)
for i in $(seq 300); do
	kill -0 $batch 2>/dev/null || break
	sleep 0.2
done
if kill -0 $batch 2>/dev/null; then
	bad "still running a minute after SIGTERM: $(cat err)"
	pkill -KILL -P $batch	# its guest
	kill -KILL $batch
fi
wait $batch
rc=$?
[ $rc = 1 ] || bad "exit status $rc, expected 1"
grep -qx "stap-testbed: error: interrupted during slow: it and the jobs after it did not run to their end" err ||
	bad "message: $(cat err)"
[ "$(cat batch/first.stdout 2>/dev/null)" = "job first ran" ] || bad "job first: no output"
for f in slow.retried slow.guest console.slow.1.log last.rc last.stdout; do
	[ -e batch/$f ] && bad "batch/$f exists"
done

# SIGKILL: the guest goes too
rm -f batch/*.rc batch/*.stdout batch/*.stderr batch/console*.log
SYSTEMTAP_STAPRUN=$w/fake-staprun "$TESTBED" run-batch batch >out 2>err &
batch=$!
started slow
qemu=$(pgrep -P $batch)
[ -n "$qemu" ] || bad "no guest process under the batch"
kill -KILL $batch
wait $batch
for i in $(seq 50); do
	[ -n "$qemu" ] && kill -0 $qemu 2>/dev/null || break
	sleep 0.2
done
if [ -n "$qemu" ] && kill -0 $qemu 2>/dev/null; then
	bad "the guest ($(ps -o args= -p $qemu | cut -c1-60)) outlived its killed batch"
	kill -KILL $qemu
fi
exit $status
