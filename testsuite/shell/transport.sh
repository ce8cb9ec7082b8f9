#!/bin/bash
# transport.sh - the transport, staprun and stapio tests of
# testsuite/transport (a fake module driving the real transport in one
# boot of the testbed guest: output, loss counts, signals, -c, -o, -S,
# bulk mode, attach/detach, -d); passes when every one of them passes.
# Run by run-tests; exit 0 = pass.
set -u
dir=${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}
[ -s "$dir/vmlinuz" ] || { echo "transport.sh: no testbed kernel in $dir"; exit 1; }
VMLINUZ=$dir/vmlinuz exec "$(dirname "$0")/../transport/run.sh"
