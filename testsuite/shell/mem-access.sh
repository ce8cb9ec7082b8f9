#!/bin/bash
# mem-access.sh - runtime/stp_mem.h alone calls the kernel's raw primitives
# for memory the module does not own (kernel and user addresses, the user
# buffers of its file operations): the rest of runtime/ and the tapsets,
# embedded C included, go through that header's fault-safe helpers, so
# whether an access may fault or sleep is decided in one place.  Lists
# every line that names a primitive elsewhere.
# Run by run-tests; exit 0 = pass.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
runtime=${SYSTEMTAP_RUNTIME:-$top/runtime}
tapsets=${SYSTEMTAP_TAPSET:-$top/tapsets}
owner=$runtime/stp_mem.h

raw='copy_(from|to)_(kernel|user)(_nofault)?|__copy_(from|to)_user[a-z_]*'
raw+='|raw_copy_(from|to)_user|(__|unsafe_)?(get|put)_user'
raw+='|(__)?(get|put)_kernel_nofault|strncpy_from_(user|kernel)(_nofault)?'
raw+='|strnlen_user(_nofault)?|probe_(kernel|user)_(read|write)'
raw+='|simple_(read_from|write_to)_buffer|(memdup|strndup)_user(_nul)?'
raw+='|clear_user|user_(read_|write_)?access_begin'

# the pattern must still find the primitives where they belong
if ! grep -qE "\b($raw)\b" "$owner"; then
	echo "mem-access: no raw primitive found in $owner (moved? pattern wrong?)"
	exit 1
fi
found=$(grep -rnE "\b($raw)\b" --include='*.c' --include='*.h' \
	--include='*.stp' "$runtime" "$tapsets" | grep -v "^$owner:")
if [ -n "$found" ]; then
	echo "mem-access: raw memory access outside $owner (use its helpers):"
	echo "$found"
	exit 1
fi
exit 0
