# guest.sh SECS - the soak test's guest side (soak.sh): the scripts
# sched, vfs, timers, flood and fullmap run at once while four workers
# fork, read, write and exit for SECS seconds, cycle is loaded and
# unloaded in a loop, and fault's stapio is killed and, on another run,
# stopped while its module is forced out (rmmod -f).  Prints "NAME rc N"
# and each script's end lines for soak.sh to check; the flood's lines are
# checked here (sorted, each number once, from 1 to the last).
S=$1
cd /work
# the staprun under test (batch.c's job loop exports it) on the PATH
mkdir -p /tmp/bin
ln -sf "$STAPRUN" /tmp/bin/staprun
PATH=/tmp/bin:$PATH
up() {
	awk '{ printf "%d", $1 * 1000 }' /proc/uptime
}
loaded() {
	grep -c "^$1 " /proc/modules
}
# wait_for FILE TEXT: until FILE holds TEXT (60 s at most)
wait_for() {
	for i in $(seq 600); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "timeout waiting for '$2' in $1"
	return 1
}

# a hang's diagnosis: a soak not over after SECS + 240 s (the job is
# killed at SECS + 300) puts on the console, which the host keeps, what
# runs, where each task sleeps, the blocked tasks' kernel stacks and
# every CPU's backtrace (sysrq w and l)
(
	sleep $((S + 240))
	echo "soak: not over after $((S + 240)) s"
	ps
	for t in /proc/[0-9]*; do
		echo "$t $(cat $t/comm) $(cat $t/wchan 2>/dev/null)"
		sed 's/^/  /' $t/stack 2>/dev/null
	done
	cat /proc/modules
	echo w >/proc/sysrq-trigger
	echo l >/proc/sysrq-trigger
	dmesg | tail -n 400
) >/dev/console 2>&1 &
watchdog=$!

for m in sched vfs timers flood fullmap; do
	staprun $m.ko >/tmp/$m.out 2>/tmp/$m.err &
	eval pid_$m=$!
done
if ! wait_for /tmp/sched.out ready || ! wait_for /tmp/vfs.out ready; then
	for m in sched vfs timers flood fullmap; do
		echo "== $m"
		head -n 5 /tmp/$m.out /tmp/$m.err
	done
	exit 1
fi
t0=$(up)

# the workers: a round is the workload's fork of 10 and its 40 reads and
# 40 writes of 64 bytes (counted when it ends well), then a file of its
# own written, read and removed (dd, cat, rm)
rm -f /tmp/stop
for w in 1 2 3 4; do
	(
		n=0
		while [ ! -e /tmp/stop ]; do
			workload fork 10 read 40 64 write 40 64 >/dev/null 2>&1 &&
				n=$((n + 1))
			dd if=/dev/zero of=/tmp/w.$w bs=4096 count=16 2>/dev/null
			cat /tmp/w.$w >/dev/null
			rm -f /tmp/w.$w
		done
		echo $n >/tmp/worker.$w
	) &
done

# modules loaded and unloaded in a loop, each run checked
(
	n=0 bad=0
	while [ ! -e /tmp/stop ]; do
		staprun cycle.ko >/tmp/cycle.out 2>/tmp/cycle.err
		rc=$?
		if [ $rc != 0 ] || [ "$(cat /tmp/cycle.out)" != "$(printf 'cycle begin\ncycle end 1')" ] ||
			grep -qv '^WARNING: Number of errors: 0, skipped probes: [0-9]*$' /tmp/cycle.err ||
			[ "$(loaded cycle)" != 0 ]; then
			bad=$((bad + 1))
			echo "cycle run $n: rc $rc, loaded $(loaded cycle): $(cat /tmp/cycle.out /tmp/cycle.err | head -n 4)"
		fi
		n=$((n + 1))
	done
	echo "cycle runs $n bad $bad"
) >/tmp/cycle.log 2>&1 &
pid_cycle=$!

# faults under the load: stapio killed (the module stays until
# staprun -d), then forced out while its stapio is stopped.
# start_fault: run fault in the background ($p), its output files emptied
# here first: were they left to the background job's redirections, the
# second run's wait would find the first run's "begin" before the job
# truncated them, and under load stapio would be stopped (and the module
# forced out) before it had opened the module's files, as stapio then
# says: "Couldn't find the transport of module 'fault'"
start_fault() {
	: >/tmp/fault.out
	: >/tmp/fault.err
	staprun fault.ko >>/tmp/fault.out 2>>/tmp/fault.err &
	p=$!
	wait_for /tmp/fault.out begin
	sleep 1
}
sleep 1
start_fault
kill -KILL $(ps | awk '/[s]tapio .*fault/ { print $1 }')
wait $p 2>/dev/null
echo "fault-killed rc $? loaded $(loaded fault)"
staprun -d fault
echo "fault-killed delete rc $? loaded $(loaded fault)"
sed 's/^/fault-killed stderr: /' /tmp/fault.err
start_fault
sio=$(ps | awk '/[s]tapio .*fault/ { print $1 }')
kill -STOP $sio
rmmod -f fault &
r=$!
sleep 2
kill -CONT $sio
wait $r
echo "fault-forced rmmod rc $?"
wait $p
echo "fault-forced rc $? loaded $(loaded fault) lines $(grep -c '^[0-9]' /tmp/fault.out)"
sed 's/^/fault-forced stderr: /' /tmp/fault.err

# the rest of the time
while [ $(( $(up) - t0 )) -lt $((S * 1000)) ]; do
	sleep 1
done
touch /tmp/stop
wait $pid_cycle
t1=$(up)
sleep 1
for m in sched vfs timers flood fullmap; do
	eval p=\$pid_$m
	kill -INT $p 2>/dev/null
	wait $p
	echo "$m rc $?"
	grep -v '^[0-9]' /tmp/$m.out | grep -v '^ready$'
	sed 's/^/stderr: /' /tmp/$m.err
done
kill $watchdog
wait
echo "seconds $(( (t1 - t0) / 1000 )) cpus $(grep -c ^processor /proc/cpuinfo)"
echo "workload rounds $(cat /tmp/worker.* | awk '{ n += $1 } END { print n }')"
cat /tmp/cycle.log
sort -n /tmp/flood.out | awk '/^[0-9]+$/ { if ($1 != n + 1) bad++; n = $1; c++ }
	END { printf "flood lines %d max %d out-of-sequence %d\n", c, n, bad }'
for m in sched vfs timers flood fullmap cycle fault; do
	[ "$(loaded $m)" = 0 ] || echo "module $m still loaded"
done
