#!/bin/bash
# kmodules-record.sh - the kernel modules a script's probes lie in are
# recorded in the module stap builds (.modinfo ctap_modules=…, which the
# testbed guest loads before the script: run/kprobe-module-load): a
# kprobe.module's module ('-' as '_'), a module's tracepoint provider;
# a wildcard records nothing (module("*") probes the loaded modules, as
# stap's: the guest must not load every module of the kernel), nor does a
# module built into the kernel, or none.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" kmodules-record

# rec SCRIPT: the ctap_modules entry of SCRIPT's generated C, as a sorted list
rec() {
	"$STAP" -p3 -e "global n $1" >out 2>err || bad "-p3 '$1': exit status $?"
	sed -n 's/^MODULE_INFO(ctap_modules, "\(.*\)");$/\1/p' out | tr , '\n' | sort | tr '\n' ' '
}

[ "$(rec 'probe kprobe.module("null-blk").function("null_queue_rq") { n++ }')" = "null_blk " ] ||
	bad "kprobe.module: '$(rec 'probe kprobe.module("null-blk").function("null_queue_rq") { n++ }')'"
# (5.10's catalog has no module tracepoints)
tp=$("$STAP" -l 'kernel.trace("sunrpc:*")' 2>/dev/null | head -1)
[ -z "$tp" ] || [ "$(rec "probe $tp { n++ }")" = "sunrpc " ] ||
	bad "module tracepoint: '$(rec "probe $tp { n++ }")'"
[ "$(rec 'probe kprobe.module("nfsv[34]").function("f") { n++ } probe kprobe.module("null_blk").function("f").return { n++ } probe kprobe.module("*").function("f") { n++ }')" = "null_blk " ] ||
	bad "wildcards: '$(rec 'probe kprobe.module("nfsv[34]").function("f") { n++ } probe kprobe.module("null_blk").function("f").return { n++ } probe kprobe.module("*").function("f") { n++ }')'"
[ -z "$(rec 'probe kprobe.module("ext4").function("f") { n++ } probe kprobe.function("vfs_read") { n++ } probe kernel.trace("sched:sched_switch") { n++ }')" ] ||
	bad "built-in module or the kernel: '$(rec 'probe kprobe.module("ext4").function("f") { n++ } probe kprobe.function("vfs_read") { n++ } probe kernel.trace("sched:sched_switch") { n++ }')'"
grep -q 'ctap_modules' out && bad "a script probing no module records ctap_modules"
exit $status
