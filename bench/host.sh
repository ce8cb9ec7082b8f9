# host.sh - the host-side benchmarks of bench/run (sourced by it): pass-1
# speed, build time and module size, ours against stap 4.8.
# Uses from bench/run: ours, stap48, best, calc, result, note, $w, $reps,
# $cold_reps, $rt48, $bench, $TAPSET48.

# Pass 1 over the whole stap 4.8 tapset library: stap parses every library
# file in pass 1, whatever the script; so does ours.
bench_pass1() {
	local o s n
	note "pass 1: parsing $TAPSET48 (best of $reps)"
	# First check that ours really parses all of them, to the same trees:
	# with -v both print every file's parse tree.
	(cd "$w/b" && OURS_TAPSET=$TAPSET48 ours -v -p1 -e 'probe begin {}' \
		>"$w/p1.ours" 2>"$w/p1.ours.err")
	(cd "$w/b" && stap48 -v -p1 -e 'probe begin {}' >"$w/p1.stap" 2>"$w/p1.stap.err")
	n=$(sed -n 's/.*user script and \([0-9]*\) library scripts.*/\1/p' "$w/p1.stap.err")
	if cmp -s "$w/p1.ours" "$w/p1.stap"; then
		result "pass 1: -v -p1 trees identical" yes "${n:-?} files" "yes"
	else
		result "pass 1: -v -p1 trees identical" NO "${n:-?} files" "yes"
		note "pass 1: our -v -p1 output differs from stap's (kept: -k)"
	fi
	o=$(best "$reps" "OURS_TAPSET=$TAPSET48 ours -p1 -e 'probe begin {}'") || return
	s=$(best "$reps" "stap48 -p1 -e 'probe begin {}'") || return
	set -- $o $s
	result "pass 1: tapset library, wall" "$1" "$4" "small fraction" s
	result "pass 1: tapset library, CPU" "$2" "$5" "small fraction" s
	result "pass 1: tapset library, peak memory" "$3" "$6" "<= 1" KB
}

# The module a -p4 run just built: the last line of its stdout names it,
# relative to the directory of the run or, from stap's cache, absolute.
last_ko() {
	local ko
	ko=$(tail -n1 "$w/last.out")
	case $ko in /*) ;; *) ko=$w/b/$ko ;; esac
	[ -f "$ko" ] && echo "$ko"
}

# build_one NAME SCRIPT: -p4 timings of one script; keeps the modules as
# $w/ko/{ours,stap}-NAME.ko for the size section.  Module cache entries of
# both implementations are $SYSTEMTAP_DIR/cache/XX/stap_*: deleting them
# leaves what each keeps per kernel (stap's stapconf and tracequery
# results, our replayed kbuild recipe and file digests).
build_one() {
	local name=$1 script=$2 o s ko
	note "build: $name, ours --disable-cache (best of $reps)"
	o=$(best "$reps" "ours --disable-cache -p4 $script") || return
	if [ "$cold_reps" -gt 0 ]; then
		note "build: $name, stap 4.8 --disable-cache (best of $cold_reps; slow)"
		s=$(best "$cold_reps" "stap48 -R $rt48 --disable-cache -p4 $script") || return
		set -- $o $s
		result "build $name: cold, wall" "$1" "$4" "<= 0.6" s
		result "build $name: cold, CPU" "$2" "$5" "<= 0.6" s
	fi
	# What a user pays for a script not seen before: the per-kernel
	# state is cached from earlier runs, the module is not.
	if ! ls "$w/stap.dir/cache"/*/stapconf_*.h >/dev/null 2>&1; then
		note "build: warming stap 4.8's kernel feature cache (slow)"
		(cd "$w/b" && stap48 -R "$rt48" -p4 "$script" >/dev/null 2>&1)
	fi
	if [ ! -d "$w/ours.dir/cache/recipes" ]; then
		(cd "$w/b" && ours -p4 "$script" >/dev/null 2>&1)
	fi
	note "build: $name, new script, per-kernel caches warm (best of $reps)"
	o=$(best "$reps" "find $w/ours.dir/cache -name 'stap_*' -delete 2>/dev/null; ours -p4 $script") || return
	ko=$(last_ko) && cp "$ko" "$w/ko/ours-$name.ko"
	s=$(best "$reps" "find $w/stap.dir/cache -name 'stap_*' -delete; stap48 -R $rt48 -p4 $script") || return
	ko=$(last_ko) && cp "$ko" "$w/ko/stap-$name.ko"
	set -- $o $s
	result "build $name: new script, wall" "$1" "$4" "<= 0.3, < 1 s" s
	result "build $name: new script, CPU" "$2" "$5" "<= 0.3" s
	result "build $name: peak memory" "$3" "$6" "<= 0.5" KB

	# Cache hits: the same script again (the last runs cached it).
	note "build: $name, cache hits (best of $reps)"
	s=$(best "$reps" "stap48 -R $rt48 -p4 $script") || return
	o=$(best "$reps" "ours -p4 $script") || return
	if [ -z "$(find "$w/ours.dir/cache" -name 'stap_*.ko' 2>/dev/null | head -n1)" ]; then
		result "build $name: cache hit, wall" "(no cache)" "${s%% *}" "<= 1" s
		note "build: ours keeps no module in $w/ours.dir/cache: no module cache?"
		return
	fi
	set -- $o $s
	result "build $name: cache hit, wall" "$1" "$4" "<= 0.05" s
	result "build $name: cache hit, CPU" "$2" "$5" "<= 1" s
}

bench_build() {
	build_one hello "$bench/scripts/hello.stp"
	build_one timers "$bench/scripts/timers.stp"
}

# Module sizes of the same scripts: the file, the file without its DWARF
# (stap 4.8's modules carry none), and text/data/bss as `size` counts them.
bench_size() {
	local name f o s
	for name in hello timers; do
		for f in ours stap; do
			[ -f "$w/ko/$f-$name.ko" ] && continue
			note "size: building $name ($f)"
			if [ $f = ours ]; then
				(cd "$w/b" && ours -p4 "$bench/scripts/$name.stp" >"$w/last.out" 2>/dev/null)
			else
				(cd "$w/b" && stap48 -R "$rt48" -p4 "$bench/scripts/$name.stp" >"$w/last.out" 2>/dev/null)
			fi
			o=$(last_ko) || { note "size: $f cannot build $name"; continue 2; }
			cp "$o" "$w/ko/$f-$name.ko"
		done
		o=$w/ko/ours-$name.ko s=$w/ko/stap-$name.ko
		result "size $name: .ko file" "$(stat -c %s "$o")" "$(stat -c %s "$s")" "<= 1" bytes
		strip -g -o "$o.nodebug" "$o"
		strip -g -o "$s.nodebug" "$s"
		result "size $name: .ko without debug info" \
			"$(stat -c %s "$o.nodebug")" "$(stat -c %s "$s.nodebug")" "<= 1" bytes
		set -- $(size "$o" | awk 'NR == 2 { print $1, $2, $3 }') \
			$(size "$s" | awk 'NR == 2 { print $1, $2, $3 }')
		result "size $name: text" "$1" "$4" "<= 1" bytes
		result "size $name: data" "$2" "$5" "<= 1" bytes
		result "size $name: bss" "$3" "$6" "<= 1" bytes
	done
}

# What a kernel costs the first time a script is built for it, with an
# empty cache: stap 4.8 runs its kernel feature probes (stapconf), ours its
# compile tests (runtime/compat/) and captures kbuild's recipe; both then
# build hello.stp.  The kernels of the matrix other than the default one
# (stap-testbed list) are measured for ours alone: stap 4.8 builds for
# none of them.
bench_kernel() {
	local script=$bench/scripts/hello.stp o s k rel
	note "kernel: first script for the testbed kernel, empty cache, ours (best of $reps)"
	o=$(best "$reps" "rm -rf $w/ours.first; OURS_DIR=$w/ours.first ours -p4 $script") || return
	if [ "$cold_reps" -gt 0 ]; then
		note "kernel: the same, stap 4.8 (best of $cold_reps; slow)"
		s=$(best "$cold_reps" "rm -rf $w/stap.first; STAP48_DIR=$w/stap.first stap48 -R $rt48 -p4 $script") || return
	else
		s="(skipped) (skipped) 0"
	fi
	set -- $o $s
	result "kernel $abi: first script, wall" "$1" "$4" "<= 0.6" s
	result "kernel $abi: first script, CPU" "$2" "$5" "<= 0.6" s
	for k in "$tbdir"/kernels/*/; do
		k=${k%/}
		[ ! -L "$k" ] && [ -s "$k/release" ] || continue
		rel=$(cat "$k/release")
		note "kernel: first script for $rel, empty cache, ours (best of $reps)"
		o=$(best "$reps" "rm -rf $w/ours.k; OURS_DIR=$w/ours.k OURS_KERNEL=$rel ours -p4 $script") || continue
		set -- $o
		result "kernel $rel: first script, wall" "$1" "(cannot)" "-" s
		result "kernel $rel: first script, CPU" "$2" "(cannot)" "-" s
	done
}

# DWARF probes: elaboration against the kernel's debug info.  Ours reads
# its function index of the debug vmlinux (built once per build-id into
# the cache: measured first, with an empty cache directory, then warm);
# stap 4.8 reads the DWARF on every run.  -l 'kernel.function("*")' costs
# stap 4.8 about 4 minutes: it runs once (-c 0 skips it).
bench_dwarf() {
	local o s idx p2='probe kernel.function("vfs_read") { println(pp()) }'
	note "dwarf: our first index of the debug vmlinux, empty cache"
	o=$(best 1 "rm -rf $w/ours.dw; OURS_DIR=$w/ours.dw ours -p2 -e '$p2'") || return
	set -- $o
	idx=$(du -k "$w"/ours.dw/cache/dwarf/*.idx 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	result "dwarf: first index build (-p2), wall" "$1" "(none)" "<= 10 s" s
	result "dwarf: first index build (-p2), CPU" "$2" "(none)" "-" s
	result "dwarf: first index build (-p2), peak memory" "$3" "(none)" "-" KB
	result "dwarf: index size" "$idx" "(none)" "<= 30 MB" KB
	note "dwarf: -p2 kernel.function(\"vfs_read\") (best of $reps)"
	o=$(best "$reps" "OURS_DIR=$w/ours.dw ours -p2 -e '$p2'") || return
	s=$(best "$reps" "stap48 -p2 -e '$p2'") || return
	set -- $o $s
	result "dwarf: -p2 kernel.function(\"vfs_read\"), wall" "$1" "$4" "<= 0.1" s
	result "dwarf: -p2 kernel.function(\"vfs_read\"), peak memory" "$3" "$6" "-" KB
	note "dwarf: -l 'kernel.function(\"*@fs/*.c\")' (best of $reps)"
	o=$(best "$reps" "OURS_DIR=$w/ours.dw ours -l 'kernel.function(\"*@fs/*.c\")'") || return
	s=$(best 1 "stap48 -l 'kernel.function(\"*@fs/*.c\")'") || return
	set -- $o $s
	result "dwarf: -l *@fs/*.c, wall" "$1" "$4" "<= 0.1" s
	result "dwarf: -l *@fs/*.c, peak memory" "$3" "$6" "<= 0.4" KB
	cmp -s <(OURS_DIR=$w/ours.dw ours -l 'kernel.function("*@fs/*.c")' 2>/dev/null) "$w/last.out" &&
		result "dwarf: -l *@fs/*.c identical" yes yes yes ||
		result "dwarf: -l *@fs/*.c identical" NO yes yes
	note "dwarf: -l 'kernel.function(\"*\")' (best of $reps; stap 4.8 once, slow)"
	o=$(best "$reps" "OURS_DIR=$w/ours.dw ours -l 'kernel.function(\"*\")'") || return
	if [ "$cold_reps" -gt 0 ]; then
		s=$(best 1 "stap48 -l 'kernel.function(\"*\")'") || return
	else
		s="(skipped) (skipped) 0"
	fi
	set -- $o $s
	result "dwarf: -l kernel.function(\"*\"), wall" "$1" "$4" "<= 0.02" s
	result "dwarf: -l kernel.function(\"*\"), peak memory" "$3" "$6" "<= 300 MB" KB
}
