#!/bin/bash
# soak.sh - the soak test (issue 15): in a 4-CPU guest, with the kernel's
# debug checks on, five scripts run at once on hot paths (sched_switch,
# fork and exit tracepoints; vfs_read/vfs_write kprobes and a return
# probe; timer.profile on every CPU and a 1 ms timer; a printf flood; a
# map at its limit) while four workers fork, read, write and exit; a
# sixth script is loaded and unloaded in a loop, and a seventh's stapio
# is killed, then on another run stopped while its module is forced out
# (rmmod -f).  Checked: invariants, never timing: each script's counts
# agree with each other and with the workload's (a hit is counted or
# reported skipped), every flood line arrives once unless stapio reports
# transport failures, the full map ends with stap's error, every loaded
# module runs and unloads cleanly, the faults end as stap's do, and the
# kernel log stays clean.  Prints the load held (probe hits/s, lines/s).
# SOAK_SECONDS: how long the load runs (default 20, in make check; a
# longer soak: SOAK_SECONDS=600 STAP_CMD_TIMEOUT=1200 testsuite/run-tests
# shell/soak, as run-tests stops a shell test after 600 s; the short one
# takes 3-5 min here, most of it building the seven modules).
# SOAK_KEEP=DIR keeps the guest's results there.  Run by run-tests with $STAP and $TESTBED; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" soak
src=$(cd "$(dirname "$0")/soak" && pwd)
secs=${SOAK_SECONDS:-20}
cpus=4
mkdir batch

# stap's guards against a costly script measure wall-clock cycles: a hit
# is skipped after 1 ms waiting for a global's lock (10 ms here), the
# script stops after MAXSKIPPED (100) skipped hits, or when its probes
# took half of an interval (STP_OVERLOAD).  In this TCG guest on a loaded
# host a vCPU is descheduled for many milliseconds, holding a lock or in
# a handler, and the guards would stop the scripts for the host's load
# (a 150 s soak: sched's 101st skipped sched_switch hit, "Skipped too
# many probes"), as stap 4.8's, which counts the same way, would too.
# The soak tests the kernel and the transport under load, not the guards
# (run/ tests those): they are off, and a skipped hit is allowed for in
# the counts below.
limits="-DMAXSKIPPED=1000000000 -DSTP_NO_OVERLOAD"
for m in sched vfs timers flood fullmap cycle fault; do
	(cd batch && timeout 600 "$STAP" -p4 $limits -m $m "$src/$m.stp") >/dev/null 2>$m.build ||
		bad "cannot build $m: $(head -n 5 $m.build)" &
	[ $m = timers ] && wait
done
wait
${CC:-gcc} -static -O2 -o workload "$src/../../tools/workload.c" ||
	bad "cannot build the workload"
[ $status = 0 ] || exit 1
cat >batch/jobs <<EOT
install $w/workload usr/bin/workload
install $src/guest.sh work/guest.sh
sh soak $((secs + 300)) /work/guest.sh $secs
EOT
STAP_TESTBED_CPUS=$cpus "$TESTBED" run-batch batch >batch.log 2>&1 ||
	bad "the batch failed: $(cat batch.log)"
[ -n "${SOAK_KEEP:-}" ] && cp -r batch "$SOAK_KEEP"
r=batch/soak
for f in retried guest; do
	[ -e $r.$f ] && bad "the guest failed ($f): $(cat $r.$f)"
done
# a failed guest's console (its kernel's last words, or guest.sh's
# diagnosis of a soak that did not end) goes with the report
for c in batch/console.soak.*log; do
	[ -e "$c" ] && [ $status != 0 ] || continue
	if grep -q '^soak: not over' "$c"; then
		echo "--- $c (guest.sh's diagnosis)"
		sed -n '/^soak: not over/,$p' "$c" | head -n 600
	else
		echo "--- $c (its end)"
		tail -n 80 "$c"
	fi
done
[ -s $r.kmsg ] && bad "the kernel log reports a problem: $(head -n 20 $r.kmsg)"
[ "$(cat $r.rc 2>/dev/null)" = 0 ] || bad "the guest's soak ended with status $(cat $r.rc 2>/dev/null)"
out=$r.stdout
[ -s $out ] || { bad "no result from the guest"; exit 1; }

# field NAME KEY: the number after KEY on the line starting with NAME
field() {
	awk -v n="$1" -v k="$2" '$1 == n { for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' $out
}
# skipped NAME: the skipped probes NAME's stap reported (0 if none)
skipped() {
	sed -n "/^$1 rc/,/^[a-z]* rc/s/.*skipped probes: \([0-9]*\).*/\1/p" $out | head -n 1 | grep . || echo 0
}
# check WHAT CONDITION…: the condition, a bash arithmetic expression
check() {
	local what=$1
	shift
	(( $* )) 2>/dev/null || bad "$what: $* is false"
}
rounds=$(field workload rounds)
seconds=$(field seconds seconds)
[ -n "$rounds" ] && [ -n "$seconds" ] || { bad "the guest's soak did not end: $(tail -n 5 $out)"; exit 1; }
for m in sched vfs timers flood; do
	check "$m's exit status" "$(field $m rc) == 0"
done
check "guest CPUs" "$(field seconds cpus) == $cpus"
check "soak time" "$seconds >= $secs"
check "workload rounds" "$rounds > 0"

sk=$(skipped sched)
s=$(field sched switches)
check "sched: counter and aggregate" "$s == $(field sched agg)"
check "sched: counter and per-CPU counts" "$s == $(field sched percpu)"
check "sched: CPUs switching" "$(field sched cpus) == $cpus"
check "sched: the wrapping map" "$(field sched recent) == 64"
check "sched: the workload's forks" "$(field sched wforks) + $sk >= 10 * $rounds"
check "sched: the workload's exits" "$(field sched wexits) + $sk >= 11 * $rounds"
check "sched: all forks" "$(field sched forks) >= $(field sched wforks)"
check "sched: all exits" "$(field sched exits) >= $(field sched wexits)"

sk=$(skipped vfs)
check "vfs: the workload's reads" "$(field vfs wreads) + $sk >= 40 * $rounds"
check "vfs: the workload's writes" "$(field vfs wwrites) + $sk >= 40 * $rounds"
check "vfs: all reads" "$(field vfs reads) >= $(field vfs wreads)"
check "vfs: all writes" "$(field vfs writes) >= $(field vfs wwrites)"
check "vfs: returns" "$(field vfs returns) > 0"

p=$(field timers profile)
check "timers: profile hits" "$p > 0"
check "timers: profile total and per-CPU counts" "$p == $(field timers percpu)"
check "timers: profile CPUs" "$(field timers cpus) == $cpus"
check "timers: ms counter and aggregate" "$(field timers ms) == $(field timers agg)"
check "timers: ms aggregate's sum" "$(field timers sum-ok) == 1"

last=$(field flood last)
lines=$(field flood lines)
check "flood: lines" "$lines > 0"
if grep -q 'transport failures' <(sed -n '/^flood rc/,/^fullmap rc/p' $out); then
	check "flood: lines (some dropped)" "$lines <= $last"
else
	check "flood: every line once" "$lines == $last && $(field flood max) == $last && $(field flood out-of-sequence) == 0"
fi

check "fullmap's exit status" "$(field fullmap rc) == 1"
grep -q "^stderr: ERROR: Array overflow, check size limit (50) near identifier 'tasks' at .*fullmap.stp:6:2$" $out ||
	bad "fullmap: no overflow error"

check "cycle: runs" "$(field cycle runs) > 0"
check "cycle: failed runs" "$(field cycle bad) == 0"
grep '^cycle run ' $out | head -n 5

# at NAME WORD N: the Nth word of the line starting with NAME WORD
at() {
	awk -v n="$1" -v k="$2" -v i="$3" '$1 == n && $2 == k { print $i; exit }' $out
}
check "fault-killed: stapio's status" "$(at fault-killed rc 3) == 137"
check "fault-killed: the module stays" "$(field fault-killed loaded) == 1"
check "fault-killed: staprun -d" "$(at fault-killed delete 4) == 0"
check "fault-forced: rmmod -f" "$(at fault-forced rmmod 4) == 0"
check "fault-forced: staprun's status" "$(at fault-forced rc 3) == 1"
check "fault-forced: the module is gone" "$(field fault-forced loaded) == 0"
check "fault-forced: output kept" "$(field fault-forced lines) > 0"
grep -qx "fault-forced stderr: ERROR: module 'fault' was removed while its script ran" $out ||
	bad "fault-forced: stapio's error"
grep '^module .* still loaded' $out && bad "a module stayed loaded"

# num NAME KEY: field NAME KEY, 0 if absent (a script that failed)
num() {
	local v
	v=$(field "$1" "$2")
	echo "${v:-0}"
}
hits=$(( $(num sched switches) + $(num sched forks) + $(num sched exits) +
	$(num vfs reads) + $(num vfs writes) + $(num vfs returns) +
	$(num timers profile) + $(num timers ms) ))
echo "soak: $seconds s on $cpus CPUs: $((hits / seconds)) probe hits/s (sched, vfs, timers)," \
	"$(( $(num flood lines) / seconds)) flood lines/s, $rounds workload rounds," \
	"$(field cycle runs) module load/unload cycles, skipped probes: sched $(skipped sched), vfs $(skipped vfs); faults: stapio killed, rmmod -f with stapio stopped"
[ $status = 0 ] || { echo "--- the guest's results"; cat $out; }
exit $status
