#!/bin/sh
# run.sh - test the transport, staprun and stapio in the testbed guest.
#
# Builds the fake module (stpfake.c, in place of a generated one) against the
# testbed kernel's headers, links staprun and stapio statically, packs them
# with busybox into an initramfs, boots the testbed kernel under qemu (TCG)
# and runs guest.sh there. Prints the guest's PASS/FAIL/INFO lines; exits 1
# if anything failed or the guest did not finish.
#   KDIR=...     kbuild directory (default: as pass 4 finds it, see
#                translator/kernel/kernel.c: the testbed kernel's root, where
#                make runs chrooted; else its headers; else /usr/src's)
#   VMLINUZ=...  kernel image (default: the testbed's, else from the image
#                .deb in /tmp or apt)
#   QEMU=...     qemu binary (default: as testbed.c picks it: the kernel's
#                own "qemu" beside its image, else the host's)
#   KEEP=1       keep the work directory and print its path
#   GUEST=FILE   run FILE in the guest instead of guest.sh
#   BOOTS="..."  extra kernel arguments, one boot per word ("-" for none)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/testsuite/transport
work=$(mktemp -d /tmp/stp-transport.XXXXXX)
[ -n "$KEEP" ] || trap 'rm -rf "$work"' EXIT

# the testbed's kernel (stap-testbed setup), else the cloud kernel's ABI
tb=${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}
if [ -s "$tb/release" ] && [ -s "$tb/vmlinuz" ]; then
	abi=$(cat "$tb/release")
	VMLINUZ=${VMLINUZ:-$tb/vmlinuz}
else
	abi=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -1)
fi
[ -n "$abi" ] || { echo "run.sh: cannot resolve the testbed kernel ABI" >&2; exit 1; }
# (a kernel set up by stap-testbed setup --kernel has a root of its own
# Debian release, whose compiler kbuild must run, or its headers unpacked,
# and a newer qemu: the host's 7.2 corrupts 6.12's registers under TCG)
src=/usr/src/linux-headers-$abi
kroot=
if [ -z "$KDIR" ] && [ -f "$tb/root$src/Makefile" ]; then
	kroot=$tb/root
	KDIR=$src
elif [ -z "$KDIR" ] && [ -f "$tb/headers$src/Makefile" ]; then
	KDIR=$tb/headers$src
fi
KDIR=${KDIR:-$src}
QEMU=${QEMU:-${STAP_TESTBED_QEMU:-}}
if [ -z "$QEMU" ] && [ -x "$tb/qemu" ] && [ -s "$tb/vmlinuz" ] &&
	[ "${VMLINUZ:-$tb/vmlinuz}" = "$tb/vmlinuz" ]; then
	QEMU=$tb/qemu
fi
QEMU=${QEMU:-qemu-system-x86_64}
if [ -z "$VMLINUZ" ]; then
	deb=$(ls /tmp/linux-image-${abi}_*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		(cd "$work" && apt-get download -q "linux-image-$abi" >/dev/null)
		deb=$(ls "$work"/linux-image-${abi}_*.deb | head -1)
	fi
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "./boot/vmlinuz-$abi"
	VMLINUZ=$work/boot/vmlinuz-$abi
fi

# make in KDIR; in the kernel's root when it has one, chrooted in a mount
# namespace of its own that sees the work directory and the runtime at
# their own paths (as translator/build/kbuild.c enters it)
kmake() {
	[ -n "$kroot" ] || { make "$@"; return; }
	unshare -m sh -c '
		r=$1 w=$2 rt=$3
		shift 3
		mount --make-rprivate / &&
		mount -t tmpfs -o mode=1777 tmpfs "$r/tmp" || exit 1
		for d in /dev /proc "$w" "$rt"; do
			mkdir -p "$r$d" && mount --rbind "$d" "$r$d" || exit 1
		done
		exec chroot "$r" make "$@"' kmake "$kroot" "$work" "$top/runtime" "$@"
}

# the module, built as a generated one would be: with the kernel's
# features found by the runtime's compile tests, as pass 4 finds them
# (translator/build/features.c)
mkdir -p "$work/mod" "$work/features"
cp "$here/stpfake.c" "$here/stpsys.c" "$here/Kbuild" "$work/mod/"
cp "$top"/runtime/compat/*.c "$work/features/"
names=$(cd "$work/features" && ls -- *.c | sed 's/\.c$//')
echo "obj-m := $(printf '%s.o ' $names)" >"$work/features/Kbuild"
kmake -s -k -C "$KDIR" M="$work/features" $(printf '%s.o ' $names) >/dev/null 2>&1 || true
{
	echo '#define STP_FEATURES_H 1'
	for n in $names; do
		[ ! -f "$work/features/$n.o" ] ||
			echo "#define STP_HAVE_$(echo "$n" | tr a-z A-Z) 1"
	done
} >"$work/mod/stp_features.h"
kmake -s -C "$KDIR" M="$work/mod" STP_RUNTIME="$top/runtime" modules >"$work/kbuild.log" 2>&1 ||
	{ cat "$work/kbuild.log"; exit 1; }
if grep -q 'warning:' "$work/kbuild.log"; then
	cat "$work/kbuild.log"
	echo "FAIL module-build: warnings"
	build_warn=1
fi

root=$work/root
mkdir -p "$root/bin" "$root/mod" "$root/usr/libexec/ctap" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp" "$root/etc"
cflags="-static -O2 -std=gnu11 -Wall -I$top/runtime/transport -I$top/staprun"
gcc $cflags -DPKGLIBEXECDIR='"/usr/libexec/ctap"' -o "$root/bin/staprun" \
	"$top/staprun/staprun.c" "$top/staprun/modload.c" "$top/staprun/opts.c" \
	"$top/staprun/privilege.c" "$top/staprun/build.c"
gcc $cflags -pthread -DBINDIR='"/bin"' -o "$root/usr/libexec/ctap/stapio" \
	"$top/stapio/stapio.c" "$top/stapio/relay.c" "$top/stapio/input.c" \
	"$top/staprun/opts.c" "$top/staprun/modload.c"
gcc $cflags -o "$root/bin/stap-merge" "$top/staprun/stap-merge.c"
gcc $cflags -o "$root/bin/runas" "$here/runas.c"
cp /bin/busybox "$root/bin/busybox"
cp "$work/mod/stpfake.ko" "$work/mod/stpsys.ko" "$root/mod/"
# the same module as if built for another kernel (guest.sh's other-kernel):
# its vermagic's release and SMP changed, the length kept (with modversions
# the kernel compares only what follows the release: it refuses this one,
# as it refuses a module stap -r 6.12 built)
other=9${abi#?}
perl -pe "s/vermagic=\Q$abi\E SMP /vermagic=$other XMP /" "$work/mod/stpfake.ko" >"$root/mod/other.ko"
echo "$other" >"$root/mod/other.release"
# the module's own check at start (guest.sh's kernel-mismatch): the same
# module as if built for another build of this release (UTS_VERSION "#1
# SMP ..." made "#9 SMP ..."), or, as if forced in, for another release
# (the release the module compares, not its vermagic's)
perl -0777 -pe 's/#1 SMP /#9 SMP /' "$work/mod/stpfake.ko" >"$root/mod/version.ko"
perl -0777 -pe "s/(?<=\0)\Q$abi\E(?=\0)/$other/g" "$work/mod/stpfake.ko" >"$root/mod/release.ko"
cp "${GUEST:-$here/guest.sh}" "$root/guest.sh"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
# (the firmware's escape sequences end the console's first line: the
# guest's first PASS or FAIL line must start a line of its own)
echo
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >/etc/passwd
sh /guest.sh
echo "GUEST-DONE"
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"

# once as usual, once with debugfs disabled so the procfs fallback is used
# then two boots that refuse unsigned modules (guest.sh checks only that)
boots=${BOOTS:-"- debugfs=off lockdown=integrity module.sig_enforce=1"}
for append in $boots; do
	[ "$append" = - ] && append= || append=" $append"
	timeout 600 "$QEMU" -accel tcg -cpu max -m 1024 -smp 2 -nographic \
		-no-reboot -kernel "$VMLINUZ" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 quiet no_timer_check$append" >>"$work/console.log" 2>&1 || true
done
tr -d '\r' <"$work/console.log" | grep -E '^(PASS|FAIL|INFO|  )' || true
[ -n "$KEEP" ] && echo "work directory: $work"
[ "$(grep -c '^GUEST-DONE' "$work/console.log")" = $(echo $boots | wc -w) ] ||
	{ echo "FAIL a guest did not finish"; exit 1; }
[ -z "$build_warn" ] || exit 1
! tr -d '\r' <"$work/console.log" | grep -qE '^FAIL|Oops|BUG:|WARNING: CPU'
