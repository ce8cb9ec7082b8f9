#!/bin/bash
# golden: ours (stap 4.8's staprun -N takes the pid before the run, which a
# new namespace's process does not have yet; the values follow its rule:
# ids as PID's pid namespace numbers them, 0 for a task not visible there;
# and its runtime looks process PID up at each ns_*() call, so that one
# gone fails the call with its error).
# target-namespace.sh - staprun -N PID (stap --target-namespace) with PID a
# process in a new pid namespace (busybox unshare in the testbed guest):
# stapio, outside it, is 0 to ns_pid(); a sleep the namespace's shell runs
# has that shell, the namespace's pid 1, as its ns_ppid().  With PID a
# process that exits during the run (the begin probe has it killed), the
# ns_*() calls after that fail: "cannot resolve id in namespace".
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" target-namespace

mkdir batch
"$STAP" -p4 -m ns_t -e 'probe begin { printf("stapio %d\n", ns_pid()) }
probe syscall.nanosleep ?, syscall.clock_nanosleep ? {
	if (execname() == "sleep") { printf("sleep parent %d\n", ns_ppid()); exit() }
}' >out 2>err || { bad "cannot build ns_t.ko"; exit 1; }
mv ns_t.ko batch/
"$STAP" -p4 -m ns_gone -e 'global tpid
probe begin { printf("begin %d\n", ns_pid() == pid()); system(sprintf("kill %d", tpid)) }
probe timer.s(3) { printf("later %d\n", ns_pid()); exit() }' >out 2>err ||
	{ bad "cannot build ns_gone.ko"; exit 1; }
mv ns_gone.ko batch/
cat >ns-staprun <<EOF
#!/bin/sh
if [ "\$1" = gone ]; then	# a sleep its subshell reaps when it is killed
	( sleep 1000 & echo \$! >/tmp/gone.pid; wait ) &
	while [ ! -s /tmp/gone.pid ]; do sleep 1; done
	t=\$(cat /tmp/gone.pid)
	exec $SYSTEMTAP_STAPRUN -N "\$t" ns_gone.ko tpid="\$t"
fi
unshare -p -f sh -c 'while :; do sleep 1; done' &
u=\$!
sleep 1
for p in /proc/[0-9]*; do	# the shell unshare forked (no pgrep here)
	read -r _ _ _ pp _ <\$p/stat && [ "\$pp" = "\$u" ] && c=\${p#/proc/}
done
exec $SYSTEMTAP_STAPRUN -N "\$c" ns_t.ko
EOF
chmod +x ns-staprun
cat >batch/jobs <<EOF
file $SYSTEMTAP_STAPRUN
run ns 60 ns
run gone 60 gone
EOF
SYSTEMTAP_STAPRUN=$w/ns-staprun "$TESTBED" run-batch batch >out 2>err ||
	bad "run-batch failed"
printf 'stapio 0\nsleep parent 1\n' >want
diff -u want batch/ns.stdout || bad "ns_pid(), ns_ppid() in PID's namespace"
echo 'begin 1' >want
diff -u want batch/gone.stdout || bad "ns_pid() after -N's process exited: not an error"
grep -q "^ERROR: cannot resolve id in namespace near identifier 'ns_pid'" batch/gone.stderr ||
	bad "ns_pid() after -N's process exited: not stap's error"
[ $status = 0 ] || { cat out err batch/ns.std* batch/ns.rc batch/gone.std* batch/gone.rc 2>/dev/null; ls batch; }
exit $status
