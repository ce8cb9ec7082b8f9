#!/bin/bash
# kernel-features.sh - the runtime's compatibility layer: pass 4 compiles
# runtime/compat/NAME.c against the target kernel once (-v says so), keeps
# the answers in the cache's features/ (STP_HAVE_NAME for a test that
# compiled, a comment for one that did not), reuses them for the next
# module, and asks again when the tests change; tests a signal stopped
# leave no answers.  The answers of each
# kernel of the matrix are known (below: the features each lacks); a
# kernel without known answers fails the test until they are added.
# Run by run-tests with $STAP; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" kernel-features

runtime=${SYSTEMTAP_RUNTIME:-$(cd "$(dirname "$0")/../../runtime" && pwd)}
cp -r "$runtime" rt
export SYSTEMTAP_RUNTIME=$w/rt
probing() { grep -c "^Pass 4: probing the kernel's API" err; }

# A run whose tests a signal stops (Ctrl-C, SIGPIPE of `stap -vv | head`)
# keeps no answers: make is killed as soon as it starts on the tests.
mkdir tmp
TMPDIR=$w/tmp "$STAP" -v -p4 -e 'probe begin { exit() }' >out 2>err &
pid=$!
for i in $(seq 1200); do
	ls tmp/stap*/features/build.log >/dev/null 2>&1 && break
	sleep 0.05
done
sleep 0.3	# make has started its compiles
for p in $(ps -o pid= --ppid $pid); do kill -TERM $p; done
wait $pid && bad "killed tests: stap succeeded"
grep -q "kernel feature tests in .* were stopped by a signal" err ||
	bad "killed tests: no message"
[ -z "$(ls "$SYSTEMTAP_DIR"/cache/features/ 2>/dev/null)" ] ||
	bad "killed tests: answers kept: $(cat "$SYSTEMTAP_DIR"/cache/features/*)"
# The same when only a compiler is killed and make goes on to its end.
under() {	# under PID: the processes below PID
	ps -e -o pid=,ppid= | awk -v p="$1" '
		{ kid[$2] = kid[$2] " " $1 }
		END { n = split(kid[p], q, " "); for (i = 1; i <= n; i++) {
			print q[i]; m = split(kid[q[i]], r, " ")
			for (j = 1; j <= m; j++) q[++n] = r[j] } }'
}
"$STAP" -vv -p4 -e 'probe begin { exit() }' >out 2>err &
pid=$!
killed=
for i in $(seq 1200); do
	for p in $(under $pid); do
		# a test's own compile (make's cc-option probes at its start
		# run cc1 in features/ too, on /dev/null: killing one of those
		# changes nothing): its source is features/NAME.c, or NAME.c
		# from features/ itself (6.13's kbuild builds an external
		# module from its own directory)
		[ "$(cat /proc/$p/comm 2>/dev/null)" = cc1 ] || continue
		src=$(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null |
			grep -o '[^ ]*[a-z0-9_]\.c ' | head -n 1)
		case $src in
		*/features/*) ;;
		?*) case $(readlink /proc/$p/cwd 2>/dev/null) in
			*/features) ;;
			*) continue ;;
			esac ;;
		*) continue ;;
		esac
		# Stopped first: a cc1 already on its way out would ignore the
		# kill and exit as it would have (its answer then stands, and
		# nothing was killed); only a stopped one surely dies of it.
		kill -STOP $p 2>/dev/null || continue
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ "$(awk '{ print $3 }' /proc/$p/stat 2>/dev/null)" = T ] && break
			sleep 0.01
		done
		if [ "$(awk '{ print $3 }' /proc/$p/stat 2>/dev/null)" = T ]; then
			kill -KILL $p && killed=$p && break 2
		fi
		kill -CONT $p 2>/dev/null
	done
	sleep 0.02
done
[ -n "$killed" ] || bad "killed compile: found no compile of the tests to kill"
wait $pid && bad "killed compile: stap succeeded"
grep -q "kernel feature tests in .* were stopped by a signal" err ||
	bad "killed compile: no message"
[ -z "$(ls "$SYSTEMTAP_DIR"/cache/features/ 2>/dev/null)" ] ||
	bad "killed compile: answers kept: $(cat "$SYSTEMTAP_DIR"/cache/features/*)"

"$STAP" -v -p4 -e 'probe begin { exit() }' >out 2>err || bad "first build: exit status $?"
[ "$(probing)" = 1 ] || bad "first build: not one probing line"
names=$(cd rt/compat && LC_ALL=C ls -- *.c | sed 's/\.c$//' | tr a-z A-Z)
[ -n "$names" ] || bad "no tests in runtime/compat"
rel=$(cat "${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}/release")
kver=$(echo "$rel" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
case $kver in
5.10) lacks="FILEMAP_GET_FOLIO FOLIO_MAPPING_ANON GET_KRETPROBE GET_KRETPROBE_RETADDR
	HRTIMER_SETUP IRQ_WORK_INIT MODULE_MEM PDE_DATA PGTY_SLAB RDMSRQ RSS_PERCPU
	TASK___STATE THREAD_INFO_CPU UPROBE_FILTER_MM UPROBE_HANDLER_DATA
	UPROBE_REGISTER_HANDLE UTSVERSION_H VMA_ITERATOR VMA_LOOKUP" ;;
6.1) lacks="FOLIO_MAPPING_ANON HRTIMER_SETUP MODULE_MEM PGTY_SLAB RDMSRQ RSS_PERCPU
	UPROBE_FILTER_MM UPROBE_HANDLER_DATA UPROBE_REGISTER_HANDLE" ;;
6.12) lacks="BD_PARTNO FOLIO_MAPPING_ANON HRTIMER_SETUP NO_LLSEEK PG_SLAB RDMSRQ STRLCPY
	UPROBE_HANDLER_DATA" ;;
7.2) lacks="BD_PARTNO NO_LLSEEK PG_SLAB STRLCPY" ;;
*) bad "no known answers for kernel $rel (add its features here)"; lacks= ;;
esac
{
	echo "/* stp_features.h - the target kernel's API, by compile tests (runtime/compat/) */"
	echo "#define STP_FEATURES_H 1"
	for n in $names; do
		case " $(echo $lacks) " in
		*" $n "*) echo "/* no STP_HAVE_$n */" ;;
		*) echo "#define STP_HAVE_$n 1" ;;
		esac
	done
} >expected
diff -u expected "$SYSTEMTAP_DIR"/cache/features/*.h || bad "features: not the known answers of $rel"

"$STAP" -v -p4 -e 'probe begin { println(1) exit() }' >out 2>err || bad "second build: exit status $?"
[ "$(probing)" = 0 ] || bad "second build: probed again"

# A feature no kernel has: a new set of tests, asked once more.
printf '%s\n' '/* never_there: a test that cannot compile */' '#error never' >rt/compat/never_there.c
"$STAP" -v -p4 -e 'probe begin { println(2) exit() }' >out 2>err || bad "third build: exit status $?"
[ "$(probing)" = 1 ] || bad "third build: did not probe the new test"
grep -lqx '/\* no STP_HAVE_NEVER_THERE \*/' "$SYSTEMTAP_DIR"/cache/features/*.h ||
	bad "never_there: not reported missing"
exit $status
