#!/bin/bash
# kernel-types.sh - type data without a debug vmlinux: a testbed kernel
# laid out without its vmlinux (as a user who has not installed the -dbg
# package has it) types tracepoint arguments and @cast from the BTF inside
# its boot image, and the C pass 3 writes is the same as with the debug
# vmlinux (member offsets included).  A kernel with neither says which
# packages hold them; an image that is not one, or one without BTF, says
# so and names the -dbg package.
# Run by run-tests with $STAP; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" kernel-types

real=${STAP_TESTBED_DIR:-/var/cache/ctap/testbed}
[ -s "$real/vmlinux" ] && [ -s "$real/vmlinuz" ] || { echo "FAILED: no testbed kernel in $real (stap-testbed setup)"; exit 1; }
rel=$(cat "$real/release")
# tb DIR: a testbed state directory with the real one's files but vmlinux
tb() {
	mkdir -p "$1"
	for f in release vmlinuz System.map config modules package-version suite headers root; do
		[ ! -e "$real/$f" ] || ln -s "$real/$f" "$1/$f"
	done
}
cat >t.stp <<'EOS'
probe kernel.trace("sched_switch")
{
	printf("%d %d %d\n", $prev->pid, @cast($next, "task_struct", "kernel")->tgid,
	       @cast($next, "struct task_struct", "kernel")->se->load->weight)
	exit()
}
EOS
STAP_TESTBED_DIR=$real "$STAP" -p3 t.stp >with 2>err || bad "-p3 with the debug vmlinux: exit status $?"
tb nodbg
STAP_TESTBED_DIR=$w/nodbg "$STAP" -p3 t.stp >out 2>err || bad "-p3 without the debug vmlinux: exit status $?"
[ -s out ] && cmp -s with out || bad "-p3 from the image's BTF differs from the debug vmlinux's"

# expect STDERR: pass 2 of t.stp fails (exit 1) with exactly STDERR
expect() {
	STAP_TESTBED_DIR=$w/$tbname "$STAP" -p2 t.stp >out 2>err
	rc=$?
	[ "$rc" = 1 ] || bad "$tbname: exit status $rc, expected 1"
	printf '%s\nPass 2: analysis failed.  [man error::pass2]\n' "$1" >expected
	diff -u expected err >/dev/null || { diff -u expected err; bad "$tbname: not the expected message"; }
}
tb noimage
rm "$w/noimage/vmlinuz"
tbname=noimage expect "stap: error: cannot list the kernel's tracepoints: no type data for kernel $rel: install its debug vmlinux (package linux-image-$rel-dbg) or its image with BTF (package linux-image-$rel)"

tb notimage
rm "$w/notimage/vmlinuz"
echo "not a kernel" >"$w/notimage/vmlinuz"
tbname=notimage expect "stap: error: cannot list the kernel's tracepoints: $w/notimage/vmlinuz is neither a kernel image nor BTF (install its debug vmlinux: package linux-image-$rel-dbg)"

# A bzImage (setup header "HdrS", one setup sector) whose gzip payload is
# an ELF without .BTF: a kernel built without CONFIG_DEBUG_INFO_BTF.
tb nobtf
rm "$w/nobtf/vmlinuz"
gzip -c </bin/true >payload.gz
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
{
	head -c $((0x1f1)) /dev/zero
	printf '\x01'				# setup_sects: 1 (+1)
	head -c $((0x202 - 0x1f2)) /dev/zero
	printf 'HdrS'
	head -c $((0x248 - 0x206)) /dev/zero
	printf "$(le32 0)$(le32 $(stat -c %s payload.gz))"
	head -c $((1024 - 0x250)) /dev/zero
	cat payload.gz
} >"$w/nobtf/vmlinuz"
tbname=nobtf expect "stap: error: cannot list the kernel's tracepoints: $w/nobtf/vmlinuz has no .BTF section (install its debug vmlinux: package linux-image-$rel-dbg)"
exit $status
