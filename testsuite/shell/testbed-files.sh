#!/bin/bash
# testbed-files.sh - output files that staprun writes itself come back from
# the testbed guest as a run on this machine would leave them: stap -b's
# per-CPU files (stpd_cpuN, or FILE_cpuN with -o, in -o's directory), the
# files -o FILE -S SIZE,COUNT rotates through (only the last COUNT kept),
# switch_file() moving -o FILE on to FILE.1, and the same from staprun on
# a module built with -p4; an -o directory
# that does not exist is an error before the guest boots.
# Run by run-tests with $STAP set (and SYSTEMTAP_STAPRUN); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-files
export STAP_TESTBED=1
merge=$(dirname "$STAP")/../staprun/stap-merge
hello='probe begin { printf("hello\n") printf("world\n") exit() }'

# stap -b: one file per CPU of the guest, merged back in order
"$STAP" -b -e "$hello" >out 2>err || bad "-b: exit status $?"
[ -e stpd_cpu0 ] && [ -e stpd_cpu1 ] || bad "-b: no stpd_cpu0/stpd_cpu1 here"
[ "$("$merge" stpd_cpu0 stpd_cpu1)" = "$(printf 'hello\nworld')" ] ||
	bad "-b: stap-merge gives '$("$merge" stpd_cpu0 stpd_cpu1)'"
[ -s out ] && bad "-b: output on stdout too"

# -b -o DIR/FILE: FILE_cpuN in DIR
mkdir sub
"$STAP" -b -o sub/out.txt -e "$hello" >out 2>err || bad "-b -o: exit status $?"
[ "$("$merge" sub/out.txt_cpu0 sub/out.txt_cpu1)" = "$(printf 'hello\nworld')" ] ||
	bad "-b -o: sub/out.txt_cpuN missing or wrong"

# -o into a directory that does not exist
"$STAP" -b -o nosuch/out.txt -e "$hello" >out 2>err
rc=$?
[ $rc = 1 ] || bad "missing directory: exit status $rc, expected 1"
grep -qx 'stap: error: cannot open output file nosuch/out.txt: No such file or directory' err ||
	bad "missing directory: no error naming it"

# -S 1,3: about 4 MB of lines, rotated every MB: rot.1 … rot.3 are kept and
# end with the last line printed
"$STAP" -o rot -S 1,3 -e 'global n
probe timer.ms(1) {
	for (i = 0; i < 100; i++)
		printf("%0100d\n", n++)
	if (n > 40000)
		exit()
}' >out 2>err || bad "-S: exit status $?"
[ "$(ls rot.*)" = "$(printf 'rot.1\nrot.2\nrot.3')" ] ||
	bad "-S: files $(ls rot.* | tr '\n' ' '), expected rot.1 rot.2 rot.3"
[ "$(tail -n1 rot.3)" = "$(printf '%0100d' 40099)" ] ||
	bad "-S: rot.3 ends with '$(tail -n1 rot.3 | cut -c90-)'"

# switch_file() (SIGUSR2 to stapio): -o sw goes on in sw.1, as with stap
"$STAP" -o sw -e 'probe begin { println("first"); switch_file() }
probe timer.ms(500) { println("second"); exit() }' >out 2>err ||
	bad "switch_file: exit status $?"
[ "$(ls sw*)" = "$(printf 'sw\nsw.1')" ] ||
	bad "switch_file: files $(ls sw* | tr '\n' ' '), expected sw sw.1"
[ "$(cat sw)/$(cat sw.1)" = "first/second" ] ||
	bad "switch_file: sw holds '$(cat sw)', sw.1 '$(cat sw.1)'"

# staprun on a bulk-mode module built with -p4 -m
"$STAP" -p4 -b -m tb_bulk -e "$hello" >out 2>err || bad "-p4 -b: exit status $?"
rm -f stpd_cpu*
"$SYSTEMTAP_STAPRUN" tb_bulk.ko >out 2>err || bad "staprun bulk: exit status $?"
[ "$("$merge" stpd_cpu0 stpd_cpu1)" = "$(printf 'hello\nworld')" ] ||
	bad "staprun bulk: stpd_cpuN missing or wrong"
exit $status
