#!/bin/bash
# testbed-path.sh - the whole user path through stap's pass 5 and staprun
# on a kernel that cannot load modules (each run boots the testbed guest,
# unlike run/ tests, which share one boot): stdout and the exit status come
# back; a runtime error reaches stderr and fails the run; Ctrl-C (SIGINT to
# stap) ends the script with its end probes run; -c runs the command in the
# guest, target() is its pid, its output is the user's; a module built with
# -p4 -m runs under staprun, with var=value setting a global; a guest
# kernel panic is named; STAP_TESTBED_MODULES loads modules in the guest;
# stdin reaches input probes.
# Run by run-tests with $STAP set (and SYSTEMTAP_STAPRUN); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-path
export STAP_TESTBED=1

# expect WHAT RC OUT: the last run's exit status and exact stdout
expect() {
	[ "$rc" = "$2" ] || bad "$1: exit status $rc, expected $2"
	[ "$(cat out)" = "$3" ] || bad "$1: stdout '$(cat out)', expected '$3'"
}

"$STAP" -e 'probe begin { println("hello, world") exit() }' >out 2>err
rc=$?
expect "hello" 0 "hello, world"
[ -s err ] && bad "hello: stderr not empty"

"$STAP" -e 'probe begin { println("before") error("boom") }' >out 2>err
rc=$?
expect "error()" 1 "before"
grep -qx 'ERROR: boom' err || bad "error(): no 'ERROR: boom' on stderr"
grep -qx 'Pass 5: run failed.  \[man error::pass5\]' err ||
	bad "error(): no pass 5 failure message"

# STAP_TESTBED_MODULES: the guest loads modules (and what they depend on)
# before the script starts; a module that does not exist is an error
STAP_TESTBED_MODULES=softdog:soft_noboot=1 "$STAP" -e 'probe begin { system("grep -o ^softdog /proc/modules") }
probe timer.s(1) { exit() }' >out 2>err
rc=$?
expect "STAP_TESTBED_MODULES" 0 'softdog'
STAP_TESTBED_MODULES=nosuchmod "$STAP" -e 'probe begin { exit() }' >out 2>err
rc=$?
expect "STAP_TESTBED_MODULES=nosuchmod" 1 ""
grep -q "^stap: error: no module 'nosuchmod' in " err ||
	bad "STAP_TESTBED_MODULES=nosuchmod: no error naming it"

# -v: stap's pass lines only; staprun gets stap's -v level less one
"$STAP" -v -e 'probe begin { println("hello, world") exit() }' >out 2>err
rc=$?
expect "-v" 0 "hello, world"
grep -v '^Pass [1-5]: ' err && bad "-v: stderr has more than pass lines"
grep -q '^Pass 5: run completed in ' err || bad "-v: no pass 5 line"

# Ctrl-C: the script runs until interrupted, then its end probe prints.
"$STAP" -e 'probe begin { println("armed") } probe end { println("ended") }' \
	>out 2>err &
pid=$!
for _ in $(seq 600); do
	grep -q armed out 2>/dev/null && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
expect "SIGINT" 0 "armed
ended"

# -c: the command runs in the guest once probes are armed; the script ends
# when it exits (run/ tests cover a command that fails).  Its program comes
# from the host (here the host's /bin/sh, which takes the guest's /bin/sh
# place), yet the guest's own init still runs under busybox: under the
# host's dash it died now and then ("Attempted to kill init!").
"$STAP" -c '/bin/sh -c "echo from-the-command; readlink /proc/1/exe"' \
	-e 'probe end { printf("target %s\n", target() > 0 ? "set" : "unset") }' \
	>out 2>err
rc=$?
expect "-c" 0 "from-the-command
/bin/busybox
target set"

# A guest kernel that goes down is reported as such, in one message.
"$STAP" -g -e 'function boom() %{ panic("ctap test"); %} probe begin { boom() }' \
	>out 2>err
rc=$?
expect "panic" 1 ""
[ "$(cat err)" = "stap: error: the testbed guest stopped before its job ended: the guest kernel reported \"Kernel panic - not syncing: ctap test\"; rerun with -k to keep the guest's console log
Pass 5: run failed.  [man error::pass5]" ] || bad "panic: stderr"

# input probes read stap's stdin (stap has staprun relay it, -i): piped in
# here, it is copied into the guest whole
printf 'one\ntwo\n' | "$STAP" -e 'probe input.line { printf("<%s>", line) }
probe timer.s(2) { exit() }' >out 2>err
rc=$?
expect "input.line" 0 "<one
><two
>"

# -p4 -m NAME, then staprun NAME.ko var=value
"$STAP" -p4 -m tb_staprun \
	-e 'global g = 1 probe begin { printf("g=%d\n", g) exit() }' >out 2>err
rc=$?
expect "-p4 -m" 0 "tb_staprun.ko"
[ -s tb_staprun.ko ] || bad "-p4 -m: no tb_staprun.ko"
"${SYSTEMTAP_STAPRUN:-staprun}" tb_staprun.ko g=42 >out 2>err
rc=$?
expect "staprun var=value" 0 "g=42"
exit $status
