#!/bin/bash
# golden: ours (stap 4.8 cannot: its stapusr users need a compile server,
# which staprun -P stands in for; its option-refusal text is stap 4.8's).
# staprun-build.sh - a user in stapusr runs a script of their own: their
# stap (level picked by autopriv.c) has staprun -P, setuid root, build it
# as root with the installed translator and run that module (here in the
# testbed); the user cannot pass what would lift the checks, ask for a
# level their groups do not give, or have root read a file for them (their
# script, or a program or module it names), and the build directory goes.  staprun is installed for the test in its
# work directory (root:stapusr 4754), the "installed translator" beside it
# a wrapper running this tree's with its tapsets.
# Needs root (setpriv) and the testbed; run by run-tests with $STAP set.
. "$(dirname "$0")/lib/workdir.bash" staprun-build
top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "staprun-build: needs root (setpriv)"; exit 0; }
usr=$(getent group stapusr | cut -d: -f3)
[ -n "$usr" ] || { echo "staprun-build: the host has no stapusr group"; exit 0; }
chmod 755 "$w"
mkdir -m 777 "$SYSTEMTAP_DIR"
mkdir bin
gcc -O2 -std=gnu11 -Wall -I"$top/runtime/transport" -I"$top/staprun" \
	-DBINDIR="\"$w/bin\"" -DPKGLIBEXECDIR="\"$top/stapio\"" -o bin/staprun \
	"$top"/staprun/{staprun,modload,opts,privilege,build}.c || exit 1
chown "root:$usr" bin/staprun && chmod 4754 bin/staprun
printf '#!/bin/sh\nexec env SYSTEMTAP_TAPSET=%s/tapsets SYSTEMTAP_RUNTIME=%s/runtime %s "$@"\n' \
	"$top" "$top" "$STAP" >bin/stap
chmod 755 bin/stap
as() {	# as COMMAND...: as uid 65000 in stapusr
	setpriv --reuid=65000 --regid=65000 --groups="$usr" env \
		SYSTEMTAP_DIR="$SYSTEMTAP_DIR" SYSTEMTAP_TAPSET="$top/tapsets" \
		SYSTEMTAP_RUNTIME="$top/runtime" SYSTEMTAP_STAPRUN="$w/bin/staprun" \
		SYSTEMTAP_STAPIO="$top/stapio/stapio" SYSTEMTAP_STAP="$STAP" "$@" >out 2>err
}
before=$(ls -d /tmp/staprun.* 2>/dev/null | wc -l)

printf 'probe begin { printf("hello %%s from %%s\\n", @1, execname()) }\n' >hello.stp
chmod 644 hello.stp
if [ -n "${TESTBED:-}" ] || [ -s "${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}/vmlinuz" ]; then
	# (-T's timer goes with the script)
	as timeout 300 "$STAP" -T 1 hello.stp world || bad "stapusr: the script did not run"
	[ "$(cat out)" = "hello world from stapio" ] || bad "stapusr: its output"
fi

printf 'probe kernel.function("vfs_read") { exit() }\n' >kfn.stp
if as bin/staprun -P stapusr kfn.stp; then bad "staprun -P stapusr: kernel.function built"; fi
grep -q 'error: probe point is not allowed for --privilege=stapusr' err ||
	bad "staprun -P stapusr: kernel.function not refused by the translator"
if as bin/staprun -P stapsys hello.stp; then bad "staprun -P stapsys: built for a stapusr user"; fi
[ "$(cat err)" = "ERROR: Your privilege credentials are insufficient to build a module for --privilege=stapsys." ] ||
	bad "staprun -P stapsys: message"
if as bin/staprun -P stapdev hello.stp; then bad "staprun -P stapdev: built for a stapusr user"; fi
[ "$(cat err)" = "ERROR: Your privilege credentials are insufficient to build a module for --privilege=stapdev." ] ||
	bad "staprun -P stapdev: message"
if as bin/staprun -P stapusr -E -g hello.stp; then bad "staprun -P -E -g: accepted"; fi
[ "$(cat err)" = "ERROR: You can't specify -g when --privilege=stapusr is specified." ] ||
	bad "staprun -P -E -g: message"
# an argument that looks like an option stays an argument ($1)
printf 'probe begin { if (@1 != "-g") error("not an argument"); exit() }\n%%{ %%}\n' >guru.stp
chmod 644 guru.stp
if as bin/staprun -P stapusr -a -g guru.stp; then bad "staprun -P -a -g: guru mode"; fi
grep -q 'embedded code in unprivileged script; need stap -g' err ||
	bad "staprun -P -a -g: the argument became an option"
if as bin/staprun -P stapusr /etc/shadow; then bad "staprun -P /etc/shadow: read"; fi
[ "$(cat err)" = "ERROR: Couldn't open script file '/etc/shadow': Permission denied" ] ||
	bad "staprun -P /etc/shadow: message"
# root's translator reads a file the script names only if the user may:
# a program in a directory of root's (0700) is refused as one that is not
# there, in the same words (nothing says it exists)
mkdir -m 700 hidden
printf 'struct x { int y; } v;\nint main(void) { return v.y; }\n' |
	gcc -g -x c -o hidden/prog - || bad "cannot compile hidden/prog"
printf 'int lib_fn(void) { return 1; }\n' |
	gcc -g -shared -fPIC -x c -o hidden/lib.so - || bad "cannot compile hidden/lib.so"
for d in hidden absent; do
	printf 'probe process("%s/%s/prog").function("*") { exit() }\n' "$w" $d >$d.stp
	printf 'probe begin { println(@cast(0, "struct x", "%s/%s/prog")->y) }\n' "$w" $d >$d-cast.stp
	printf 'probe process("/bin/sh").library("%s/%s/lib.so").function("*") { exit() }\n' "$w" $d >$d-lib.stp
	chmod 644 $d.stp $d-cast.stp $d-lib.stp
	for s in $d $d-cast $d-lib; do
		if as bin/staprun -P stapusr $s.stp; then bad "staprun -P $s: built"; fi
		sed "s|$w/$d/|DIR/|g; s/stap_u[0-9_]*/MOD/g" err >$s.err
	done
done
grep -q 'matches no probe' absent.err || bad "staprun -P absent: $(cat absent.err)"
cmp -s hidden.err absent.err ||
	bad "staprun -P hidden: not refused as a missing program: $(diff hidden.err absent.err)"
cmp -s hidden-lib.err absent-lib.err ||
	bad "staprun -P hidden library: not refused as a missing one: $(diff hidden-lib.err absent-lib.err)"
cmp -s hidden-cast.err absent-cast.err ||
	bad "staprun -P hidden @cast: not refused as a missing module: $(diff hidden-cast.err absent-cast.err)"
[ "$(ls -d /tmp/staprun.* 2>/dev/null | wc -l)" = "$before" ] || bad "a build directory was left"
exit $status
