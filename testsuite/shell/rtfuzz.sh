#!/bin/bash
# rtfuzz.sh - runtime fuzzing, short: the random scripts of a fixed few
# seeds (testsuite/tools/rtfuzz, rtfuzz-gen) run in one guest boot, each
# ending with its output or stap's clean error, the kernel log clean.  A
# longer run: testsuite/tools/rtfuzz -n 200 (or RTFUZZ_COUNT=200 here);
# a failure names its seed, and rtfuzz SEED runs it alone.
# Run by run-tests with $STAP and $TESTBED; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" rtfuzz

RTFUZZ_DIR=$w/fuzz TESTBED=$TESTBED "$(dirname "$0")/../tools/rtfuzz" \
	-n "${RTFUZZ_COUNT:-8}" -s "${RTFUZZ_FIRST:-1}" || status=1
exit $status
