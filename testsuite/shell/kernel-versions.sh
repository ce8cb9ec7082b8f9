#!/bin/bash
# kernel-versions.sh - the runtime and the tapsets' embedded C adapt to the
# kernel's API through runtime/compat/'s compile tests and stp_compat.h,
# never through its version number: no LINUX_VERSION_CODE or
# KERNEL_VERSION outside runtime/compat/ (a backported change breaks a
# version test, not a feature test).  Lists every line that has one.
# Run by run-tests; exit 0 = pass.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
runtime=${SYSTEMTAP_RUNTIME:-$top/runtime}
tapsets=${SYSTEMTAP_TAPSET:-$top/tapsets}

[ -d "$runtime/compat" ] || { echo "kernel-versions: no $runtime/compat"; exit 1; }
found=$(grep -rnE '\b(LINUX_VERSION_CODE|KERNEL_VERSION)\b' --include='*.c' \
	--include='*.h' --include='*.stp' --include='*.stpm' "$runtime" "$tapsets" |
	grep -v "^$runtime/compat/")
if [ -n "$found" ]; then
	echo "kernel-versions: a kernel version test outside runtime/compat/ (add a compile test there and a name in stp_compat.h):"
	echo "$found"
	exit 1
fi
exit 0
