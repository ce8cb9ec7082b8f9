#!/bin/bash
# testbed-batch.sh - a batch whose guest hangs or dies goes on: the job that
# was running is blamed, runs once more in a new guest (NAME.retried and
# its console log say what happened the first time), and fails if the
# guest fails again (NAME.guest, its console log kept); the jobs after it
# run in a new guest.  The "staprun" here is a script: job "flaky" stays
# silent past the idle limit unless it is the first job of its guest (its
# second try), job "crash" panics the guest kernel, job "spin" runs a
# guru-mode script whose begin probe spins with interrupts off (the report
# names the module's code as where a CPU is, with its interrupts off).
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-batch

mkdir batch
"$STAP" -g -p4 -m spin -e 'function spin() %{ local_irq_disable(); for (;;) cpu_relax(); %}
probe begin { spin() }' >out 2>err || bad "cannot build spin.ko"
mv spin.ko batch/
cat >fake-staprun <<EOF
#!/bin/sh
case \$1 in
spin) exec $SYSTEMTAP_STAPRUN spin.ko ;;
flaky) grep '^run ' /jobs | head -n 1 | grep -q '^run flaky ' || exec sleep 1000 ;;
crash) echo c >/proc/sysrq-trigger ;;
esac
echo "job \$1 ran"
EOF
chmod +x fake-staprun
cat >batch/jobs <<EOF
file $SYSTEMTAP_STAPRUN
run first 30 first
run flaky 1000 flaky
run second 30 second
run crash 30 crash
run third 30 third
run spin 1000 spin
run fourth 30 fourth
EOF
SYSTEMTAP_STAPRUN=$w/fake-staprun STAP_TESTBED_IDLE_TIMEOUT=8 \
	"$TESTBED" run-batch batch >out 2>err
rc=$?
[ $rc = 1 ] || bad "exit status $rc, expected 1"
for j in first flaky second third fourth; do
	[ "$(cat batch/$j.stdout 2>/dev/null)" = "job $j ran" ] ||
		bad "job $j: no output"
	[ "$(cat batch/$j.rc 2>/dev/null)" = 0 ] || bad "job $j: no status 0"
	[ -e batch/$j.guest ] && bad "job $j blamed"
done
for j in flaky crash spin; do
	[ -s batch/$j.retried ] || bad "job $j: not retried"
	tr -d '\r' <batch/console.$j.1.log | grep -qx "stap-testbed: job $j" ||
		bad "job $j: its first console log does not name it"
done
for j in crash spin; do
	[ -e batch/$j.rc ] && bad "job $j has a result"
	tr -d '\r' <batch/console.$j.log | grep -qx "stap-testbed: job $j" ||
		bad "job $j: its console log does not name it"
done
grep -q '^the testbed guest hung: nothing from it for 8 s; CPU0 [a-z]' batch/flaky.retried ||
	bad "flaky: $(cat batch/flaky.retried)"
grep -q "(console log: batch/console.flaky.1.log)\$" batch/flaky.retried ||
	bad "flaky: the message does not name the console log"
grep -q '^the testbed guest stopped before its job ended: the guest kernel reported "' batch/crash.guest ||
	bad "crash: $(cat batch/crash.guest)"
grep -q "^the testbed guest hung: nothing from it for 8 s; .*CPU[01] in the kernel at 0x[0-9a-f]* (a module's code) with interrupts off" batch/spin.guest ||
	bad "spin: $(cat batch/spin.guest)"
[ "$(grep -c '^stap-testbed: error: during ' err)" = 2 ] ||
	bad "stderr does not name the two failed jobs"
[ "$(grep -c '^stap-testbed: note: during .*; it runs again in a new guest$' err)" = 3 ] ||
	bad "stderr does not note the three retries"
exit $status
