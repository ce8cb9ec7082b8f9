#!/bin/bash
# setup.sh - set up a fresh Debian 12 machine, build, install and try it out.
#
#   ./setup.sh           install the build dependencies and the testbed
#                        (qemu + Debian's cloud kernel), build, make install,
#                        and run a script end to end
#   ./setup.sh --check   the same, then run the test suite (make check)
#
# Run as root from the top of the source tree.  Rerunning is cheap: what is
# installed and current is left alone.
set -euo pipefail

cd "$(dirname "$0")"
check=
for a in "$@"; do
	case $a in
	--check) check=1 ;;
	-h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "setup.sh: unknown option $a (try --help)" >&2; exit 1 ;;
	esac
done

step() { echo "==> $*"; }

if [ "$(id -u)" != 0 ]; then
	echo "setup.sh: run me as root (I install packages with apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

# lz4, zstd and xz-utils: stap reads a kernel's BTF from its boot image,
# compressed with one of them, when its debug vmlinux is not installed.
# libsqlite3-dev: stap -q's tapset coverage database.
build_deps=(gcc make autoconf automake flex bison libdw-dev libelf-dev
	pkg-config lz4 zstd xz-utils libsqlite3-dev)
missing=()
for p in "${build_deps[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	step "installing build dependencies: ${missing[*]}"
	apt-get update -q >/dev/null
	apt-get install -q -y --no-install-recommends "${missing[@]}" >/dev/null
fi

step "setting up the testbed (qemu, busybox, the Debian cloud kernel)"
bash testbed/stap-testbed.in setup

step "building"
autoreconf -fi
./configure -q ${PREFIX:+--prefix="$PREFIX"}
make -s -j"$(nproc)"
step "installing (make install)"
make -s install >/dev/null

step "running a script: stap -e 'probe begin { println(\"hello, world\") exit() }'"
prefix=$(sed -n "s/^prefix = //p" Makefile)
"$prefix/bin/stap" -e 'probe begin { println("hello, world") exit() }'

if [ -n "$check" ]; then
	step "running the test suite (make check)"
	make -s check
fi
