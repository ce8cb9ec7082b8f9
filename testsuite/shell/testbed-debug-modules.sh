#!/bin/bash
# testbed-debug-modules.sh - 'stap-testbed setup' (and setup --kernel)
# keeps the modules' debug files of the kernel's -dbg package in
# TESTBED/debug-modules, laid out as modules/kernel (where module("M")
# probes read them, translator/kernel/kernel.c): null_blk's is there, of
# the same build as the null_blk.ko the guest loads, with its DWARF (debug
# sections compressed) naming null_queue_rq.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-debug-modules

tb=${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}
dbg=$tb/debug-modules/drivers/block/null_blk/null_blk.ko
ko=$tb/modules/kernel/drivers/block/null_blk/null_blk.ko
build_id() { readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: //p'; }

[ -d "$tb/debug-modules" ] || bad "$tb/debug-modules is missing: run stap-testbed setup"
[ -s "$dbg" ] || bad "no debug file for null_blk at $dbg"
if [ -s "$dbg" ]; then
	[ -n "$(build_id "$dbg")" ] && [ "$(build_id "$dbg")" = "$(build_id "$ko")" ] ||
		bad "null_blk's debug file is of build '$(build_id "$dbg")', its module of '$(build_id "$ko")'"
	readelf -SW "$dbg" | grep -q ' \.debug_info .* C ' ||
		bad "null_blk's .debug_info is missing or not compressed"
	readelf --debug-dump=info "$dbg" 2>/dev/null | grep -q 'DW_AT_name.*: null_queue_rq$' ||
		bad "null_blk's DWARF does not name null_queue_rq"
fi
exit $status
