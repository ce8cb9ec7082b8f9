# guest.sh - transport tests, run as /init's payload inside the testbed guest.
#
# Each test prints "PASS name" or "FAIL name: why" (followed by the captured
# output, indented). run.sh collects these lines from the serial console.
M=/mod/stpfake.ko
D=/sys/kernel/debug/systemtap
P=
# booted with debugfs=off: the transport must fall back to procfs
if grep -q 'debugfs=off' /proc/cmdline; then
	D=/proc/systemtap
	P=procfs/
fi
export SYSTEMTAP_STAPIO=/usr/libexec/ctap/stapio

fail() {
	echo "FAIL $P$1: $2"
	for f in /tmp/out /tmp/err; do
		echo "  --- $f"
		head -c 600 $f 2>/dev/null | sed 's/^/  | /'
	done
}

loaded() {
	grep -cE '^(stpfake|stpsys)' /proc/modules
}

# check NAME RC WANT-STDOUT WANT-STDERR, against /tmp/out /tmp/err and $rc
check() {
	printf '%b' "$3" >/tmp/want_out
	printf '%b' "$4" >/tmp/want_err
	if [ "$rc" != "$2" ]; then fail $1 "exit status $rc, want $2"
	elif ! cmp -s /tmp/out /tmp/want_out; then fail $1 "stdout differs"
	elif ! cmp -s /tmp/err /tmp/want_err; then fail $1 "stderr differs"
	elif [ "$(loaded)" != 0 ]; then fail $1 "module left loaded"
	else echo "PASS ${P}$1"
	fi
}

# expect NAME RC WANT-STDOUT WANT-STDERR COMMAND...
expect() {
	n=$1 r=$2 o=$3 e=$4
	shift 4
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	check $n $r "$o" "$e"
}

# what is running and where it sleeps, when a test is stuck
dump() {
	echo "  --- stuck: $1"
	ps | sed 's/^/  | /'
	sed 's/^/  | /' /proc/modules
	for q in $(ps -o pid,comm | awk '$2 ~ /^stap/ { print $1 }'); do
		echo "  | stack of $q: $(cat /proc/$q/cmdline | tr '\0' ' ')"
		sed 's/^/  |   /' /proc/$q/stack 2>/dev/null
	done
}

# staprun $M mode=wait in the background (its pid in $p), until it printed
# begin; output in /tmp/out and /tmp/err.  The files are emptied before it
# starts: the child truncates them only once it runs, and until then the
# previous test's "begin" would pass for this one's (a signal meant for
# stapio then killed the child before staprun loaded the module:
# stapio-killed found no module, once in four runs).  Status 1 if no begin.
start_wait() {
	start_wait_mode wait
}

# the same with mode=$1 and staprun options $2...
start_wait_mode() {
	mode=$1
	shift
	: >/tmp/out
	: >/tmp/err
	staprun "$@" $M mode=$mode >/tmp/out 2>/tmp/err &
	p=$!
	wait_line /tmp/out begin
}

# wait until file $1 contains line $2 (up to 20 s)
wait_line() {
	i=0
	while ! grep -qx "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 200 ] && { dump "no '$2' in $1"; return 1; }
		usleep 100000
	done
}

# wait for background job $1 (up to 60 s); its status in $rc
finish() {
	i=0
	while kill -0 $1 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 600 ]; then
			dump "pid $1 did not end"
			kill -KILL $1
			break
		fi
		usleep 100000
	done
	wait $1
	rc=$?
}

# a kernel that refuses unsigned modules (booted with lockdown=integrity,
# or module.sig_enforce=1): stap's message, then why and what to do; the
# other checks need a kernel that loads the unsigned test module
sign_fix="  Sign the module with a key the kernel trusts (the kernel's scripts/sign-file, with a certificate\n  enrolled as a machine owner key by mokutil --import), or boot the kernel without"
case " $(cat /proc/cmdline) " in
*" lockdown=integrity "*)
	P=lockdown/
	mount -t securityfs securityfs /sys/kernel/security
	expect unsigned 1 '' \
		"ERROR: Couldn't insert module '$M': Operation not permitted\n  The kernel is locked down (integrity): it loads only modules signed with a key it trusts, and it is not signed.\n$sign_fix lockdown (lockdown=, or Secure Boot off).\n" \
		staprun $M mode=hello
	exit 0 ;;
*" module.sig_enforce=1 "*)
	P=sig_enforce/
	expect unsigned 1 '' \
		"ERROR: Couldn't insert module '$M': Key was rejected by service\n  The kernel enforces module signatures (module.sig_enforce): it loads only modules signed with a key it trusts, and it is not signed.\n$sign_fix module.sig_enforce=1.\n" \
		staprun $M mode=hello
	exit 0 ;;
esac

expect hello 0 'hello world\nsecond line\nend\n' '' staprun $M mode=hello
expect timer-hardirq 0 'timer 1\ntimer 2\ntimer 3\nend\n' '' staprun $M mode=timer
expect error 1 'before error\nend\n' \
	"ERROR: division by 0 near identifier 'x' at <input>:1:20\n" \
	staprun $M mode=error
expect warning 0 'end\n' 'WARNING: this is a warning\n' staprun $M mode=warn
expect warning-w 0 'end\n' '' staprun -w $M mode=warn
# -C always: stap's colours; never, or auto off a terminal: none
expect color-error 1 'before error\nend\n' \
	"\033[01;31m\033[KERROR:\033[m\033[K division by 0 near identifier 'x' at <input>:1:20\n" \
	staprun -C always $M mode=error
expect color-warning 0 'end\n' '\033[00;33m\033[KWARNING:\033[m\033[K this is a warning\n' \
	staprun -C always $M mode=warn
expect color-auto 0 'end\n' 'WARNING: this is a warning\n' staprun -C auto $M mode=warn
SYSTEMTAP_COLORS='warning=01;32' staprun -C always $M mode=warn >/tmp/out 2>/tmp/err
rc=$?
check color-env 0 'end\n' '\033[01;32m\033[KWARNING:\033[m\033[K this is a warning\n'
expect start-fails 1 'end\n' 'ERROR: probe registration failed\n' \
	staprun $M mode=fail
expect missing-file 1 '' \
	"ERROR: Couldn't open module file '/mod/none.ko': No such file or directory\n" \
	staprun /mod/none.ko
echo garbage >/tmp/bad.ko
expect bad-format 1 '' \
	"ERROR: Couldn't insert module '/tmp/bad.ko': Invalid module format\n" \
	staprun /tmp/bad.ko
# bad modules: cut short, random bytes, built for another kernel (the
# kernel refuses them all alike: stap's message, then why for the last)
head -c 3000 $M >/tmp/short.ko
expect bad-truncated 1 '' \
	"ERROR: Couldn't insert module '/tmp/short.ko': Invalid module format\n" \
	staprun /tmp/short.ko
head -c $(($(wc -c <$M) / 2)) $M >/tmp/half.ko
expect bad-half 1 '' \
	"ERROR: Couldn't insert module '/tmp/half.ko': Invalid module format\n" \
	staprun /tmp/half.ko
head -c 20000 /dev/urandom >/tmp/random.ko
expect bad-random 1 '' \
	"ERROR: Couldn't insert module '/tmp/random.ko': Invalid module format\n" \
	staprun /tmp/random.ko
expect other-kernel 1 '' \
	"ERROR: Couldn't insert module '/mod/other.ko': Invalid module format\n  The module was built for kernel $(cat /mod/other.release), not for the running kernel $(uname -r).\n" \
	staprun /mod/other.ko
# (stap 4.8's words: staprun is not setuid root here yet)
# the module checks at start that it runs on the kernel (release and
# build) it was built for: stap 4.8's messages, and no probe runs
v=$(uname -v)
expect version-mismatch 1 '' \
	"ERROR: module version mismatch (#9${v#??} vs $v), release $(uname -r)\n" \
	staprun /mod/version.ko mode=hello
expect release-mismatch 1 '' \
	"ERROR: module release mismatch ($(cat /mod/other.release) vs $(uname -r))\n" \
	staprun /mod/release.ko mode=hello
expect not-root 1 '' \
	'ERROR: The effective user ID of staprun must be set to the root user.\n  Check permissions on staprun and ensure it is a setuid root program.\n' \
	su -s /bin/sh -c "staprun $M" nobody
expect opt-F 1 '' 'ERROR: Relay basedir -F option is invalid for staprun\n' \
	staprun -F 3 $M
SYSTEMTAP_STAPIO=/nonexistent expect no-stapio 1 '' \
	"ERROR: Couldn't run '/nonexistent': No such file or directory\n" \
	staprun $M mode=wait
# the begin probes' output flows while the start goes on (stapio's main
# thread is in STP_CMD_START's write(), a second one relays meanwhile, as
# stap 4.8 reads the output in threads of its own): the start waits for
# this reader to see "begin"
: >/tmp/out
: >/tmp/err
staprun $M mode=slowstart >/tmp/out 2>/tmp/err &
p=$!
wait_line /tmp/out begin && echo 1 >/sys/module/stpfake/parameters/ack
finish $p
check begin-during-start 0 'begin\nacknowledged\nend\n' ''
# a SIGINT during the start (the second thread takes it) stops the script
# once the start is over, after the output so far
: >/tmp/out
: >/tmp/err
staprun $M mode=slowwait >/tmp/out 2>/tmp/err &
p=$!
wait_line /tmp/out begin && kill -INT $p &&
	echo 1 >/sys/module/stpfake/parameters/ack
finish $p
check stop-during-start 0 'begin\nacknowledged\nend\n' ''
# stapio sends STP_CMD_STOP once, whether the script or a signal asks
# first: here a SIGINT stops the script and its end then calls exit()
# (its -v says so each time it sends one)
start_wait_mode endexit -v
kill -INT $p
finish $p
n=$(grep -c 'stapio: stopping the module' /tmp/err)
if [ "$rc" != 0 ]; then fail stop-once "exit status $rc, want 0"
elif [ "$(cat /tmp/out)" != "$(printf 'begin\nend')" ]; then fail stop-once "stdout differs"
elif [ "$n" != 1 ]; then fail stop-once "STP_CMD_STOP sent $n times"
elif [ "$(loaded)" != 0 ]; then fail stop-once "module left loaded"
else echo "PASS ${P}stop-once"
fi
expect param-quoted 0 'text=two words\nend\n' '' staprun $M mode=param 'text=two words'
timeout 60 sh -c "staprun $M mode=ticker | head -n 2" >/tmp/out 2>/tmp/err
rc=$?
check reader-gone 0 'timer 1\ntimer 2\n' ''
expect output-file 0 '' '' staprun -o /tmp/o1 $M mode=hello
printf 'hello world\nsecond line\nend\n' | cmp -s - /tmp/o1 ||
	fail output-file-content "/tmp/o1 differs"

# -o where no file can be made: stap 4.8's message and status, the module
# unloaded (a missing directory as the oracle ran it; a read-only one)
expect output-nodir 1 '' \
	"ERROR: Couldn't open output file /nonexistent/out: No such file or directory\n" \
	staprun -o /nonexistent/out $M mode=hello
mkdir -p /tmp/ro && mount -t tmpfs -o ro tmpfs /tmp/ro
expect output-readonly 1 '' \
	"ERROR: Couldn't open output file /tmp/ro/out: Read-only file system\n" \
	staprun -o /tmp/ro/out $M mode=hello

# -o with strftime(3) patterns
expect output-strftime 0 '' '' staprun -o '/tmp/o-%%-%Y.txt' $M mode=hello
printf 'hello world\nsecond line\nend\n' | cmp -s - "/tmp/o-%-$(date +%Y).txt" ||
	fail output-strftime-content "$(ls /tmp)"

# -S SIZE,N: a new file FILE.I each SIZE MB, only the last N kept
staprun -b 8 -S 1,2 -o /tmp/rot $M mode=flood lines=300000 >/tmp/out 2>/tmp/err
rc=$?
files=$(cd /tmp && ls rot.* | sort -t. -k2 -n | tr '\n' ' ')
# (a file may begin inside a line: the first is not checked)
(cd /tmp && cat $files) | awk '
	NR > 1 && $1 == "line" { if (n && $2 != p + 1) bad = 1; p = $2; n++ }
	{ last = $0 }
	END { exit bad || last != "end" || p != 299999 || n < 100000 }'
ok=$?
if [ $rc = 0 ] && [ $(echo $files | wc -w) = 2 ] && [ $ok = 0 ] && [ ! -e /tmp/rot.0 ]; then
	echo "PASS ${P}switch-files ($files)"
else
	fail switch-files "rc=$rc files=$files ok=$ok"
fi
rm -f /tmp/rot.*

# stap 4.8's staprun: its options and their errors (the usage follows)
first_err() {
	n=$1 want=$2
	shift 2
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	if [ $rc = 1 ] && [ "$(head -n 1 /tmp/err)" = "$want" ] && [ "$(loaded)" = 0 ]; then
		echo "PASS ${P}$n"
	else
		fail $n "rc=$rc"
	fi
}
first_err opt-b "ERROR: Invalid buffer size '0' (should be 1-4095)." staprun -b 0 $M
first_err opt-b-big "ERROR: Invalid buffer size '4096' (should be 1-4095)." staprun -b 4096 $M
first_err opt-C "ERROR: Invalid option 'foo' for -C." staprun -C foo $M
first_err opt-S "ERROR: You have to specify output FILE with '-S' option." staprun -S 1 $M
first_err opt-S-bad "ERROR: Invalid file size option '2,x'." staprun -S 2,x -o /tmp/x $M
first_err opt-T "ERROR: Invalid reader timeout value '0' (should be >= 1)." staprun -T 0 $M
first_err opt-N "ERROR: Invalid target namespaces pid 0 (should be > 0)." staprun -N 0 $M
first_err opt-r "ERROR: Cannot process remote id option '1:'." staprun -r 1: $M
first_err opt-D "ERROR: You have to specify output FILE with '-D' option." staprun -D $M
first_err opt-c-x "ERROR: You can't specify the '-c' and '-x' options together." \
	staprun -c true -x 1 $M
first_err opt-A-L "ERROR: You can't specify the '-A' and '-L' options together." \
	staprun -L -A $M
first_err opt-module "ERROR: Need a module name or path to load." staprun -d
first_err opt-A-params "ERROR: Cannot have module options with attach (-A)." \
	staprun -A $M mode=wait
first_err opt-A-c "ERROR: You can't specify the '-A' and '-c' options together.  The '-c cmd'" \
	staprun -A -c true $M
first_err opt-A-x "ERROR: You can't specify the '-A' and '-x' options together.  The '-x pid'" \
	staprun -A -x 1 $M
first_err opt-D-L "ERROR: You can't specify the '-D' and '-L' options together." \
	staprun -D -L -o /tmp/x $M
first_err opt-A-none "ERROR: Cannot attach to module stpfake control channel; not running?" \
	staprun -A stpfake
expect opt-accepted 0 'hello world\nsecond line\nend\n' '' \
	staprun -u -C never -T 50 -N 1 -r 1:x -b 2 $M mode=hello
staprun -V >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 0 ] && grep -q '^Systemtap module loader/runner (version 4.8' /tmp/err &&
	echo "PASS ${P}opt-V" || fail opt-V "rc=$rc"

# signals: staprun became stapio (as stap's does), which stops the script
for how in INT TERM HUP; do
	start_wait || fail signal-$how "no begin"
	[ "$(cat /proc/$p/comm)" = stapio ] || fail exec-stapio "$(cat /proc/$p/comm)"
	kill -$how $p
	finish $p
	check signal-$how 0 'begin\nend\n' ''
done

# SIGQUIT detaches: the script goes on until staprun -A ends it
start_wait
kill -QUIT $p
finish $p
rp=$rc n=$(loaded)
staprun -A stpfake >/tmp/out2 2>&1 &
q=$!
usleep 500000
kill -INT $q
finish $q
if [ "$n" = 1 ] && [ "$(cat /tmp/out2)" = end ]; then
	rc=$rp
	check sigquit-detach 0 'begin\n' '\nDisconnecting from systemtap module.\nTo reconnect, type "staprun -A stpfake"\n'
else
	fail sigquit-detach "loaded=$n reattached: $(cat /tmp/out2)"
fi

# stapio killed: as with stap, the module stays until staprun -d
start_wait || fail stapio-killed "no begin"
kill -KILL $p
finish $p
n=$(loaded)
staprun -d stpfake
rc=$?
[ "$n" = 1 ] && [ $rc = 0 ] && [ "$(loaded)" = 0 ] && echo "PASS ${P}stapio-killed" ||
	fail stapio-killed "loaded=$n, staprun -d: $rc"

# the control channel takes one reader at a time
start_wait
if cat $D/stpfake/.cmd >/tmp/cat.out 2>&1; then
	fail reopen "second open of .cmd succeeded"
else
	grep -q 'busy' /tmp/cat.out && echo "PASS ${P}reopen-busy" ||
		fail reopen "$(cat /tmp/cat.out)"
fi
kill -INT $p
finish $p
check reopen-then-stop 0 'begin\nend\n' ''

# two copies of one module side by side (-R, as stap runs them when it
# named the module)
staprun -R $M mode=wait >/tmp/a 2>&1 &
a=$!
wait_line /tmp/a begin
staprun -R $M mode=wait >/tmp/b 2>&1 &
b=$!
wait_line /tmp/b begin
n=$(loaded)
kill -INT $a $b
finish $a
ra=$rc
finish $b
rb=$rc
if [ "$n" = 2 ] && [ $ra = 0 ] && [ $rb = 0 ] && [ "$(cat /tmp/a)" = "$(printf 'begin\nend')" ] &&
   [ "$(cat /tmp/b)" = "$(printf 'begin\nend')" ] && [ "$(loaded)" = 0 ]; then
	echo "PASS ${P}two-copies"
else
	cp /tmp/a /tmp/out; cp /tmp/b /tmp/err
	fail two-copies "loaded=$n rc=$ra,$rb"
fi

# two scripts with one name (stap -m NAME twice): the second is refused
# with stap 4.8's words, the first goes on
start_wait
staprun $M mode=hello >/tmp/out2 2>/tmp/err2
r2=$?
kill -INT $p
finish $p
if [ $r2 = 1 ] && [ ! -s /tmp/out2 ] &&
   [ "$(cat /tmp/err2)" = "$(printf "ERROR: Couldn't insert module '$M': File exists\nERROR: Rerun with staprun option '-R' to rename this module.")" ]; then
	check same-name 0 'begin\nend\n' ''
else
	cp /tmp/out2 /tmp/out; cp /tmp/err2 /tmp/err
	fail same-name "second staprun: rc=$r2"
fi

# -o into a full file system: what was written stays (every line in order
# from the first), the failure is said and fails the run, the module goes
mkdir -p /tmp/full && mount -t tmpfs -o size=256k tmpfs /tmp/full
staprun -o /tmp/full/out $M mode=flood lines=100000 >/tmp/out 2>/tmp/err
rc=$?
kept=$(wc -c </tmp/full/out)
if [ $rc = 1 ] && [ "$(head -n 1 /tmp/err)" = "ERROR: Couldn't write to output file /tmp/full/out: No space left on device" ] &&
   [ "$kept" -ge 200000 ] && [ "$(loaded)" = 0 ] &&
   awk '$1 == "line" && $2 != NR - 1 { exit 1 } END { exit NR < 10000 }' /tmp/full/out; then
	echo "PASS ${P}output-full (kept $kept bytes)"
else
	fail output-full "rc=$rc kept=$kept loaded=$(loaded)"
fi
umount /tmp/full
# stdout or stdin closed: no file takes their place; output that cannot be
# written fails the run, a closed stdin is an empty one
expect stdout-closed 1 '' \
	"ERROR: Couldn't write to the standard output: Bad file descriptor\n" \
	sh -c "staprun $M mode=hello >&-"
expect stdin-closed 0 'hello world\nsecond line\nend\n' '' sh -c "staprun $M mode=hello <&-"
# the module removed under load: the kernel refuses while stapio holds it,
# and the script goes on to its end
start_wait
rmmod stpfake >/tmp/rmmod.out 2>&1
r1=$?
n=$(loaded)
kill -INT $p
finish $p
if [ $r1 != 0 ] && [ "$n" = 1 ]; then
	check rmmod-busy 0 'begin\nend\n' ''
else
	fail rmmod-busy "rmmod: $r1 $(cat /tmp/rmmod.out), loaded=$n"
fi

# -c: target() is the command's pid; the script ends with it; status stays 0
staprun -c 'echo pid=$$' $M mode=target >/tmp/out 2>/tmp/err
rc=$?
t=$(sed -n 's/^target=//p' /tmp/out)
if [ $rc = 0 ] && [ -n "$t" ] && [ "$(cat /tmp/out)" = "$(printf 'target=%s\npid=%s\nend' $t $t)" ]; then
	echo "PASS ${P}cmd-target"
else
	fail cmd-target "rc=$rc"
fi
expect cmd-exit3 1 'begin\nend\n' 'WARNING: Child process exited with status 3\n' staprun -c 'sh -c "exit 3"' $M mode=wait
expect cmd-killed 1 'begin\nend\n' 'WARNING: Child process exited with signal 9 (Killed)\n' \
	staprun -c 'kill -9 $$' $M mode=wait
start=$(date +%s)
expect cmd-outlived 0 'hello world\nsecond line\nend\n' '' \
	staprun -c 'sleep 30' $M mode=hello
[ $(($(date +%s) - start)) -lt 10 ] || fail cmd-outlived-time "waited for the command"
ps | grep -q "[s]leep 30" && fail cmd-outlived-kill "the command still runs"

# -x (the output emptied first, as in start_wait)
: >/tmp/out
staprun -x 1 $M mode=target >/tmp/out 2>/tmp/err &
p=$!
wait_line /tmp/out target=1
kill -INT $p
finish $p
check x-target 0 'target=1\nend\n' ''

# -L, -A, -d
# (as stap 4.8's: the output waits for the attach; the note is on stderr)
staprun -L $M mode=wait >/tmp/out 2>/tmp/err
rc=$?
if [ $rc = 0 ] && [ "$(loaded)" = 1 ] && [ ! -s /tmp/out ] &&
   [ "$(cat /tmp/err)" = "$(printf '\nDisconnecting from systemtap module.\nTo reconnect, type "staprun -A stpfake"')" ]; then
	echo "PASS ${P}load-detach"
else
	fail load-detach "rc=$rc loaded=$(loaded)"
fi
staprun -A /mod/stpfake.ko >/tmp/out 2>/tmp/err &
p=$!
usleep 500000
kill -INT $p
finish $p
check attach 0 'begin\nend\n' ''
staprun -L $M mode=wait >/dev/null 2>&1
expect delete 0 '' '' staprun -d stpfake
# (stap 4.8's words and status for a module that is not there)
expect delete-absent 234 '' "ERROR: Cannot attach to module stpfake control channel; not running?\nERROR: 'stpfake' is not a zombie systemtap module.\n" \
	staprun -d stpfake

# -L (stap -F): detached, the data ring is a flight recorder that keeps
# the newest output, whole lines (or whole bulk records), with no loss
# counted; staprun -A shows it and what follows.  ARGS: staprun -A's
# options; the output is in /tmp/out, or merged from -o's per-CPU files.
flight() {
	name=$1
	shift
	n0=$(dmesg | grep -c 'stpfake: late lines written')
	staprun -L -b 1 $M mode=late lines=200000 "$@" >/dev/null 2>&1
	i=0
	while [ "$(dmesg | grep -c 'stpfake: late lines written')" = "$n0" ] &&
	      [ $i -lt 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
	if [ $# = 0 ]; then
		staprun -A stpfake >/tmp/out 2>/tmp/err &
		p=$!
		wait_line /tmp/out 'line 199999'
	else
		staprun -A -o /tmp/fr stpfake >/tmp/out 2>/tmp/err &
		p=$!
		sleep 3
	fi
	kill -INT $p
	finish $p
	[ $# = 0 ] || stap-merge /tmp/fr_cpu* >/tmp/out
	rm -f /tmp/fr_cpu*
	first=$(sed -n 's/^line //p;q' /tmp/out)
	if [ $rc != 0 ] || [ -s /tmp/err ]; then fail $name "rc=$rc"
	elif [ "${first:-0}" = 0 ]; then fail $name "the oldest output was kept"
	elif [ "$(tail -n 2 /tmp/out | tr '\n' ,)" != 'line 199999,end,' ]; then
		fail $name "the newest output is missing"
	elif ! awk -v n=$first '$0 == "end" { exit } $0 != "line " n++ { exit 1 }' /tmp/out; then
		fail $name "lines missing or cut"
	elif [ "$(loaded)" != 0 ]; then fail $name "module left loaded"
	else echo "PASS ${P}$name (kept lines $first-199999)"
	fi
}
flight flight-recorder
flight flight-recorder-bulk _stp_bulkmode=1

# -A on a module a stapio holds: stap 4.8's words
start_wait
staprun -A stpfake >/tmp/out2 2>/tmp/err2
rc=$?
[ $rc = 1 ] && [ "$(cat /tmp/err2)" = "ERROR: Cannot attach to module stpfake control channel; not running?" ] &&
	echo "PASS ${P}attach-busy" || fail attach-busy "rc=$rc $(cat /tmp/err2)"
kill -INT $p
finish $p

# -d '*': every script module no stapio holds goes (a detached one here);
# one whose output a stapio relays stays
staprun -L $M mode=wait >/dev/null 2>&1
expect delete-all 0 '' '' staprun -d '*'
[ "$(loaded)" = 0 ] || fail delete-all "a detached module is still loaded"
start_wait
staprun -d '*'
rc=$?
[ $rc = 0 ] && [ "$(loaded)" = 1 ] && echo "PASS ${P}delete-all-busy" ||
	fail delete-all-busy "rc=$rc loaded=$(loaded)"
kill -INT $p
finish $p

# bulk mode: one file per CPU (FILE_cpuN, or stpd_cpuN without -o) of
# records that stap-merge puts back in order
expect bulk-o 0 '' '' staprun -o /tmp/bulk $M mode=timer _stp_bulkmode=1
ls /tmp/bulk_cpu0 /tmp/bulk_cpu1 >/dev/null 2>&1 || fail bulk-files "$(ls /tmp)"
[ "$(stap-merge /tmp/bulk_cpu* | tr '\n' ,)" = "timer 1,timer 2,timer 3,end," ] ||
	fail bulk-content "$(stap-merge -v /tmp/bulk_cpu*)"
(cd /tmp && staprun $M mode=hello _stp_bulkmode=1) >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 0 ] && [ ! -s /tmp/out ] &&
	[ "$(stap-merge /tmp/stpd_cpu* | tr '\n' ,)" = "hello world,second line,end," ] &&
	echo "PASS ${P}bulk-stpd" || fail bulk-stpd "rc=$rc $(ls /tmp)"
rm -f /tmp/stpd_cpu* /tmp/bulk_cpu*

# floods: every line arrives in order, or the loss is counted exactly
flood() {
	name=$1 lines=$2
	shift 2
	staprun "$@" $M mode=flood lines=$lines >/tmp/out 2>/tmp/err
	rc=$?
	got=$(($(wc -l </tmp/out) - 1))
	lost=$(sed -n 's/^WARNING: There were \([0-9]*\) transport failures\. Try stap -s to increase the buffer size from [0-9]*\.$/\1/p' /tmp/err)
	lost=${lost:-0}
	if [ $rc != 0 ]; then fail $name "rc=$rc"
	elif [ $((got + lost)) != $lines ]; then fail $name "got $got + lost $lost != $lines"
	elif ! awk '$1 == "line" { if (n && $2 <= p) exit 1; p = $2; n++ }' /tmp/out; then
		fail $name "lines out of order"
	elif [ "$(tail -n 1 /tmp/out)" != end ]; then fail $name "end probe output missing"
	else echo "PASS ${P}$name (got $got, lost $lost)"
	fi
}
flood flood 200000
flood flood-small-buffer 400000 -b 1
expect huge-write-dropped 0 'small\nsmall again\nend\n' \
	'WARNING: There were 1 transport failures. Try stap -s to increase the buffer size from 1.\n' \
	staprun -b 1 $M mode=huge

# all CPUs at once into one ring: each CPU's lines stay in order
staprun $M mode=multi lines=100000 >/tmp/out 2>/tmp/err
rc=$?
lost=$(sed -n 's/^WARNING: There were \([0-9]*\) transport failures\. Try stap -s to increase the buffer size from [0-9]*\.$/\1/p' /tmp/err)
got=$(grep -c '^cpu' /tmp/out)
ncpu=$(grep -c ^processor /proc/cpuinfo)
if [ $rc != 0 ]; then fail multi-cpu "rc=$rc"
elif [ $((got + ${lost:-0})) != $((ncpu * 100000)) ]; then fail multi-cpu "got $got lost $lost"
elif ! awk '/^cpu/ { if (($1 in p) && $2 <= p[$1]) exit 1; p[$1] = $2 }' /tmp/out; then
	fail multi-cpu "a CPU's lines are out of order"
else echo "PASS ${P}multi-cpu (got $got, lost ${lost:-0})"
fi

# -D: staprun returns at once, printing the pid of the stapio that keeps
# running in the background (stap 4.8's staprun prints it too)
staprun -D -o /tmp/d $M mode=wait >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 0 ] && [ "$(cat /tmp/out)" = "$(ps | awk '/[s]tapio -D/ { print $1 }')" ] &&
	[ ! -s /tmp/err ] || fail daemon-start "rc=$rc"
wait_line /tmp/d begin || fail daemon "no begin in /tmp/d"
kill -INT $(ps | awk '/[s]tapio -D/ { print $1 }')
i=0
while [ "$(loaded)" != 0 ] && [ $i -lt 100 ]; do usleep 100000; i=$((i + 1)); done
[ "$(cat /tmp/d)" = "$(printf 'begin\nend')" ] && [ "$(loaded)" = 0 ] &&
	echo "PASS ${P}daemon" || fail daemon "$(cat /tmp/d)"

# privileges, as installed: staprun setuid root, run by root and the
# stapusr group only (mode 4754); users in stapusr (or stapsys) load only
# root's modules in /lib/modules/RELEASE/systemtap, stapdev any module;
# each user stops and unloads only their own (stap 4.8's messages)
printf 'stapusr:x:107:usr,sys,dev,other\nstapsys:x:108:sys\nstapdev:x:106:dev\n' >>/etc/group
chown 0:107 /bin/staprun
chmod 4754 /bin/staprun
sysdir=/lib/modules/$(uname -r)/systemtap
mkdir -p $sysdir
cp $M $sysdir/
as() {	# as USER COMMAND: run COMMAND (shell words) as USER, in its groups
	case $1 in
	usr) ids="1001 107" ;;
	sys) ids="1002 108,107" ;;
	dev) ids="1003 106,107" ;;
	other) ids="1004 107" ;;
	*) ids="65534 65534" ;;
	esac
	shift
	runas $ids /bin/sh -c "$*"
}
for u in usr sys dev; do
	expect priv-$u-sysdir 0 'hello world\nsecond line\nend\n' '' \
		as $u staprun $sysdir/stpfake.ko mode=hello
done
expect priv-usr-name 0 'hello world\nsecond line\nend\n' '' as usr staprun stpfake mode=hello
refused="ERROR: Members of the \"stapusr\" and \"stapsys\" groups can only use unsigned modules within\n  the \"$sysdir\" directory.\n"
for u in usr sys; do
	expect priv-$u-elsewhere 255 '' \
		"$refused  Module \"$M\" does not exist within that directory.\nERROR: Unable to verify the signature for the module $M.\n" \
		as $u staprun $M mode=hello
done
expect priv-dev-elsewhere 0 'hello world\nsecond line\nend\n' '' as dev staprun $M mode=hello
as nobody staprun $M mode=hello >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 126 ] && grep -q 'Permission denied' /tmp/err && [ "$(loaded)" = 0 ] &&
	echo "PASS ${P}priv-not-stapusr" || fail priv-not-stapusr "rc=$rc"
chmod o+w $sysdir
expect priv-sysdir-writable 255 '' \
	"$refused  That directory should not be world writable.\nERROR: Unable to verify the signature for the module $sysdir/stpfake.ko.\n" \
	as usr staprun $sysdir/stpfake.ko
chmod o-w $sysdir
chown 1001 $sysdir/stpfake.ko
expect priv-module-owner 255 '' \
	"ERROR: The module \"$sysdir/stpfake.ko\" must be owned by root.\nERROR: Unable to verify the signature for the module $sysdir/stpfake.ko.\n" \
	as usr staprun $sysdir/stpfake.ko
chown 0 $sysdir/stpfake.ko
# a user's stapio stops the script on a signal and unloads it
: >/tmp/out
as usr staprun stpfake mode=wait >/tmp/out 2>/tmp/err &
p=$!
wait_line /tmp/out begin
kill -INT $(ps | awk '/[s]tapio .*stpfake/ { print $1 }')
finish $p
check priv-usr-signal 0 'begin\nend\n' ''
# only the user who loaded a module may attach to it or unload it
as usr staprun -L stpfake mode=wait >/dev/null 2>&1
as other staprun -d stpfake >/tmp/out 2>/tmp/err
rc=$?
n=$(loaded)
[ $rc = 234 ] && [ "$n" = 1 ] && [ "$(cat /tmp/err)" = "$(printf "ERROR: Cannot attach to module stpfake control channel; not running?\nERROR: 'stpfake' is not a zombie systemtap module.")" ] &&
	echo "PASS ${P}priv-other-delete" || fail priv-other-delete "rc=$rc loaded=$n"
as other staprun -A stpfake >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 1 ] && [ "$n" = 1 ] && [ "$(loaded)" = 1 ] &&
	[ "$(cat /tmp/err)" = "ERROR: Cannot attach to module stpfake control channel; not running?" ] &&
	echo "PASS ${P}priv-other-attach" || fail priv-other-attach "rc=$rc loaded=$n"
as other staprun -d "'*'" >/dev/null 2>&1
[ "$(loaded)" = 1 ] && echo "PASS ${P}priv-other-delete-all" ||
	fail priv-other-delete-all "another user's module was unloaded"
expect priv-usr-delete 0 '' '' as usr staprun -d stpfake
# the module's own check at start (stap 4.8's messages and rules): the
# level it was built for (stpsys.ko: stapsys) against the credentials its
# loader passed; staprun passes all for a module of the system module
# directory, whatever its level, and a user's _stp_credentials=N does not
# count; a loader that passes none (insmod) is not believed for stapsys
cp /mod/stpsys.ko $sysdir/
expect priv-usr-stapsys-sysdir 0 'hello world\nsecond line\nend\n' '' \
	as usr staprun $sysdir/stpsys.ko mode=hello
expect priv-usr-stapsys-param 0 'hello world\nsecond line\nend\n' '' \
	as usr staprun $sysdir/stpsys.ko mode=hello _stp_credentials=2
insmod /mod/stpsys.ko mode=hello
expect priv-creds-none 1 '' \
	'ERROR: Unable to verify that you have the required privilege credentials to run this module (stapsys required). You must use staprun version 1.7 or higher.\n' \
	$SYSTEMTAP_STAPIO stpsys
rmmod stpsys 2>/dev/null
insmod /mod/stpsys.ko mode=hello _stp_credentials=2
expect priv-creds-stapusr 1 '' \
	'ERROR: Your privilege credentials (stapusr) are insufficient to run this module (stapsys required).\n' \
	$SYSTEMTAP_STAPIO stpsys
rmmod stpsys 2>/dev/null
chmod 755 /bin/staprun

# the module forced out under load (rmmod -f, last: the kernel frees it
# under its open files): the end probes ran, the output is kept, the run
# fails with a message
start_wait
rmmod -f stpfake
finish $p
check rmmod-force 1 'begin\nend\n' "ERROR: module 'stpfake' was removed while its script ran\n"

# throughput, for information (guest time under TCG: compare ratios only)
uptime_ms() {
	awk '{ printf "%d", $1 * 1000 }' /proc/uptime
}
t0=$(uptime_ms)
staprun $M mode=flood lines=1000000 >/tmp/out 2>/tmp/err
t1=$(uptime_ms)
echo "INFO ${P}flood of 1000000 lines to a file: $((t1 - t0)) ms, got $(wc -l </tmp/out) lines $(cat /tmp/err)"
if dmesg | grep -qE 'WARNING:|BUG:|Oops|general protection|stpfake: cannot'; then
	dmesg | grep -E -A5 'WARNING:|BUG:|Oops|general protection|stpfake' >/tmp/out
	: >/tmp/err
	fail kernel-log "the kernel complained"
else
	echo "PASS ${P}kernel-log-clean"
fi
