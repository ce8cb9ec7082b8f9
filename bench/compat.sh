# bench/compat.sh - sourced by bench/run: the "compat" section.
#
# What probing a kernel's API costs, alone: the first build for a kernel
# with an empty feature cache, less the same build with it warm.  Ours
# compiles runtime/compat/'s tests (CACHE/features/KEY.h), stap 4.8 its
# stapconf probes (CACHE/XX/stapconf_*.h); everything else each keeps
# per kernel (our kbuild recipe, stap's tracepoint queries) stays warm and
# the module is rebuilt both times (CACHE/XX/stap_* deleted).  Then ours
# alone for each other kernel stap-testbed list shows (stap 4.8 builds for
# none of them: "(cannot)").

# compat_cost N DIR-VAR CMD FEATURES-GLOB: "wall CPU" of CMD's first build
# with DIR's feature cache emptied, less its build with it warm (the best
# of N each); DIR-VAR names the cache directory's variable (OURS_DIR or
# STAP48_DIR), set for CMD.
compat_cost() {
	local n=$1 var=$2 cmd=$3 glob=$4 dir=$w/compat.dir cold warm
	rm -rf "$dir"
	eval "$var=$dir $cmd" >/dev/null 2>&1 || return 1	# the rest warm
	cold=$(best "$n" "find $dir/cache \\( -name 'stap_*' -o -path '$glob' \\) -delete 2>/dev/null; $var=$dir $cmd") || return 1
	warm=$(best "$n" "find $dir/cache -name 'stap_*' -delete 2>/dev/null; $var=$dir $cmd") || return 1
	set -- $cold $warm
	echo "$(calc "$1 - $4") $(calc "$2 - $5")"
}

bench_compat() {
	local script=$bench/scripts/hello.stp tests o s k rel
	tests=$(ls "$top"/runtime/compat/*.c | wc -l)
	note "compat: the API probes for $abi, ours ($tests compile tests, best of $reps)"
	o=$(compat_cost "$reps" OURS_DIR "ours -p4 $script" '*/features/*') || return
	if [ "$cold_reps" -gt 0 ]; then
		note "compat: the same, stap 4.8's stapconf (best of $cold_reps; slow)"
		s=$(compat_cost "$cold_reps" STAP48_DIR "stap48 -R $rt48 -p4 $script" '*/stapconf_*') || return
	else
		s="(skipped) (skipped)"
	fi
	set -- $o $s
	result "compat $abi: API probes, wall" "$1" "$3" "<= 0.6" s
	result "compat $abi: API probes, CPU" "$2" "$4" "<= 0.6" s
	for k in "$tbdir"/kernels/*/; do
		k=${k%/}
		[ ! -L "$k" ] && [ -s "$k/release" ] || continue
		rel=$(cat "$k/release")
		note "compat: the API probes for $rel, ours (best of $reps)"
		o=$(compat_cost "$reps" OURS_DIR "OURS_KERNEL=$rel ours -p4 $script" '*/features/*') || continue
		set -- $o
		result "compat $rel: API probes, wall" "$1" "(cannot)" "-" s
		result "compat $rel: API probes, CPU" "$2" "(cannot)" "-" s
	done
}
