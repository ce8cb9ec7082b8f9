#!/bin/bash
# golden: stap 4.8 (its staprun -r N:URI run of the same script in the
# testbed guest).
# staprun-remote.sh - staprun -r N:URI hands N and URI to the module, which
# remote_id() and remote_uri() return (stap --remote's swarm index and
# host); a module built by stap -p4, run by staprun (in the testbed).
# Run by run-tests with $STAP set (and SYSTEMTAP_STAPRUN); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" staprun-remote

"$STAP" -p4 -m remote_t -e 'probe begin { printf("%d %s\n", remote_id(), remote_uri()) exit() }' >out 2>err ||
	bad "-p4: failed"
"$SYSTEMTAP_STAPRUN" -r 7:node-a.example remote_t.ko >out 2>err || bad "staprun -r: failed"
echo '7 node-a.example' >want
diff -u want out >/dev/null || bad "staprun -r 7:node-a.example: remote_id() remote_uri()"
exit $status
