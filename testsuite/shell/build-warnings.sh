#!/bin/bash
# build-warnings.sh - the runtime and the generated C build warning-free
# against the testbed kernel (stap's own builds use -Werror; ours keep the
# compiler's output in the build log, which -k keeps): scripts that pull in
# most of the runtime, with and without -t, are built with kbuild's make
# (--disable-cache) and their logs must hold no "warning:".
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" build-warnings

# build WHAT OPTIONS… -e SCRIPT: -p4 -k, then the kept build log is checked
build() {
	local what=$1 dir
	shift
	"$STAP" -p4 -k --disable-cache "$@" >out 2>err || { bad "$what: build failed"; return; }
	dir=$(sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' err)
	[ -n "$dir" ] && [ -f "$dir/build.log" ] || { bad "$what: no build log kept"; return; }
	if grep -q 'warning:' "$dir/build.log"; then
		bad "$what: the build warns"
		grep -B2 -A4 'warning:' "$dir/build.log" | head -40
	fi
	rm -rf "$dir"
}

core='global a[100], s, h%, n, w
probe begin { a[1, "x"] = 2; s <<< 3; h[n++] = sprintf("%d %s", n, execname());
	try { println(1 / n) } catch (e) { println(e) }
	if ("abc" =~ "b+") println(matched(0)); println(@hist_log(s)); w = 1;
	foreach ([i, j] in a- limit 3) printf("%d %s %d\n", i, j, a[i, j]) }
probe timer.ms(10) { s <<< gettimeofday_ns() % 7; exit() }
probe end { println(@count(s), @avg(s), strlen(h[0])) }'
build core -e "$core"
build core-timing -t -e "$core"
build kernel -e 'global c
probe kprobe.function("vfs_read") { c[execname(), pid()] <<< 1 }
probe kprobe.function("vfs_read").return { if (returnval() < 0) println(backtrace()) }
probe kernel.trace("sched:sched_switch") { if ($prev->pid == 1) println($$parms$) }
probe syscall.openat { if (pid() == target()) println(argstr) }
probe procfs("x").read { $value = "v" }
probe perf.sw.cpu_clock.sample(1000000) { c["p", 0] <<< 1 }
probe timer.profile { if (user_mode()) println(probefunc()) }
probe end { foreach ([e, p] in c) println(e, p, @sum(c[e, p])); system("true") }'
# no begin or end probe: the runtime's end-probe support is left out
build no-begin-end -e 'probe timer.ms(10) { exit() }'
exit $status
