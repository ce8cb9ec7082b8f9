# user.sh - the user section of bench/run (sourced by it): user-space
# probes elaborated against a program's DWARF (issue 14).  The program is
# our own translator (built -g -O2: some 2,600 functions, clones and inline
# instances among them), copied to a fixed path so that both read the same
# file.  Ours indexes its DWARF once per build-id (measured first, empty
# cache), then reads the index; stap 4.8 reads the DWARF on every run.
# Uses from bench/run: ours, stap48, best, result, note, $w, $reps,
# $builddir.

bench_user() {
	local o s bin=$w/ubin p2
	cp "$builddir/translator/stap" "$bin" || return
	p2="probe process(\"$bin\").function(\"*\") { println(pp()) }"
	note "user: our first index of a program's DWARF, empty cache"
	o=$(best 1 "rm -rf $w/ours.ud; OURS_DIR=$w/ours.ud ours -p2 -e '$p2'") || return
	set -- $o
	result "user: -p2 process.function(\"*\"), first" "$2" "(none)" "-" CPU-s
	note "user: -p2 process(\"BIN\").function(\"*\") (best of $reps)"
	o=$(best "$reps" "OURS_DIR=$w/ours.ud ours -p2 -e '$p2'") || return
	s=$(best "$reps" "stap48 -p2 -e '$p2'") || return
	set -- $o $s
	result "user: -p2 process.function(\"*\"), wall" "$1" "$4" "<= 0.2" s
	result "user: -p2 process.function(\"*\"), CPU" "$2" "$5" "<= 0.2" s
	result "user: -p2 process.function(\"*\"), peak memory" "$3" "$6" "-" KB
}
