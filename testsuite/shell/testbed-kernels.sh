#!/bin/bash
# testbed-kernels.sh - the kernel matrix without the network: in a testbed
# directory laid out as 'stap-testbed setup --kernel' leaves it (a default
# kernel, kernels/ABI with headers/ or root/, kernels/NAME -> ABI),
# 'stap-testbed list' shows each kernel once with its names, and
# 'stap -r NAME' resolves a matrix name, an ABI, and the default kernel's
# release to the right kernel (its release and .config seen by %( %)
# conditions); an unknown name fails at once with the names it knows.
# Downloading kernels (setup --kernel) needs the registry: not tested here.
# Run by run-tests with $STAP and $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-kernels

tb=$w/tb
export STAP_TESTBED_DIR=$tb
mkdir -p "$tb/kernels"
echo 6.1.0-99-cloud-amd64 >"$tb/release"
echo 6.1.999-1 >"$tb/package-version"
# kernel ABI VERSION SUITE TREE: a matrix kernel whose build tree is TREE
# (headers or root), with a .config saying CONFIG_CTAP_TREE_TREE=y
kernel() {
	local k=$tb/kernels/$1 src
	src=$k/$4/usr/src/linux-headers-$1
	mkdir -p "$src"
	echo "$1" >"$k/release"
	echo "$2" >"$k/package-version"
	echo "$3" >"$k/suite"
	echo "all:" >"$src/Makefile"
	echo "CONFIG_CTAP_TREE_$4=y" >"$src/.config"
}
kernel 9.9.9+deb99-cloud-amd64 9.9.9-1~bpo99+1 bookworm-backports headers
kernel 4.4.0-1-cloud-amd64 4.4.4-1 bullseye root
kernel 8.8.0-1-cloud-amd64 8.8.8-1 sid headers
ln -s 9.9.9+deb99-cloud-amd64 "$tb/kernels/9.9"
ln -s 8.8.0-1-cloud-amd64 "$tb/kernels/unstable"
ln -s 8.8.0-1-cloud-amd64 "$tb/kernels/newest"

"$TESTBED" list >out 2>err || bad "list: exit status $?"
cat >expected <<'EOF'
NAME               RELEASE                          VERSION                BUILD
default            6.1.0-99-cloud-amd64             6.1.999-1              host
-                  4.4.0-1-cloud-amd64              4.4.4-1                bullseye root
newest,unstable    8.8.0-1-cloud-amd64              8.8.8-1                host
9.9                9.9.9+deb99-cloud-amd64          9.9.9-1~bpo99+1        host
EOF
diff -u expected out || bad "list: not the expected table"

"$TESTBED" setup --kernel 7.7 >out 2>err
rc=$?
[ "$rc" = 1 ] || bad "setup --kernel 7.7: exit status $rc, expected 1"
[ "$(cat err)" = "stap-testbed: error: unknown kernel '7.7': use 5.10, 6.12, unstable (or newest), or an exact ABI such as 6.12.95+deb12-cloud-amd64" ] ||
	bad "setup --kernel 7.7: not the expected message"

# r NAME: the release and CONFIG_CTAP_TEST stap -r NAME sees, at pass 1
r() {
	"$STAP" -r "$1" -p1 -e '%( kernel_vr == "9.9.9+deb99-cloud-amd64" %? probe begin { } %)
%( kernel_vr == "8.8.0-1-cloud-amd64" %? probe end { } %)
%( kernel_vr == "4.4.0-1-cloud-amd64" %? probe error { } %)
%( kernel_vr == "6.1.0-99-cloud-amd64" %? probe never { } %)
%( CONFIG_CTAP_TREE_root == "y" %? probe timer.s(4) { } %)' >out 2>err ||
		bad "-r $1: exit status $?"
	grep '^probe' out | tr '\n' ' '
}
# (-p1 prints "probe begin{", the probes one a line)
[ "$(r 9.9)" = "probe begin{ " ] || bad "-r 9.9: $(r 9.9)"
[ "$(r 9.9.9+deb99-cloud-amd64)" = "probe begin{ " ] || bad "-r ABI: $(r 9.9.9+deb99-cloud-amd64)"
[ "$(r unstable)" = "probe end{ " ] || bad "-r unstable: $(r unstable)"
[ "$(r 4.4.0-1-cloud-amd64)" = "probe error{ probe timer.s(4){ " ] || bad "-r root kernel: $(r 4.4.0-1-cloud-amd64)"
[ "$(r 6.1.0-99-cloud-amd64)" = "probe never{ " ] || bad "-r default: $(r 6.1.0-99-cloud-amd64)"

"$STAP" -r 7.7 -p4 -e 'probe begin { exit() }' >out 2>err
rc=$?
[ "$rc" = 1 ] || bad "-r 7.7: exit status $rc, expected 1"
grep -qxF "stap: error: no kernel build tree for 7.7: install linux-headers-7.7, or set the kernel up in the testbed ('stap-testbed setup --kernel 7.7'), or use -r DIR" err ||
	bad "-r 7.7: not the expected message"
exit $status
