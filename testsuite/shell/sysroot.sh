#!/bin/bash
# golden: stap 4.8 (its -p2 listing of the same probes with the same
# sysroot, its -p1 with the sysroot's kernel .config; the pass-5 line is ours: stap 4.8 reads the probed program's
# debug info the same way, and $a, $b are the call's arguments; the --ldd
# libraries are ours: stap 4.8 runs this machine's loader on the target's
# program, which finds no library only the sysroot has, and packs none).
# sysroot.sh - --sysroot=DIR: a program that exists only under DIR (a copy
# made here) is probed by its target path: by path, by bare name on
# --sysenv's PATH (looked up inside DIR), and through an absolute symbolic
# link inside DIR (followed inside DIR, also for -d); without --sysroot it
# is not found.  --ldd packs the libraries the sysroot's loader would load.
# With -r RELEASE the kernel's build tree (.config) is the sysroot's.
# Pass 5 runs it in the testbed guest at its target path (-c).
# Run by run-tests with $STAP set (and SYSTEMTAP_STAPRUN); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" sysroot
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 0; }

mkdir -p sr/usr/bin sr/bin
cat >prog.c <<'C'
int add(int a, int b) { return a + b; }
int main(int argc, char **argv) { (void)argv; return add(argc, 2) != 3; }
C
gcc -g -O0 -fdebug-prefix-map="$PWD"=/src -o sr/usr/bin/sysroot-prog prog.c ||
	{ bad "gcc failed"; exit 1; }
ln -s /usr/bin/sysroot-prog sr/bin/sp
[ ! -e /usr/bin/sysroot-prog ] || { echo "SKIP: /usr/bin/sysroot-prog exists here"; exit 0; }

cat >want <<'P2'
# probes
process("/usr/bin/sysroot-prog").function("add@/src/prog.c:1") /* pc=.dynamic+0x1133 */ /* <- process("/usr/bin/sysroot-prog").function("add@/src/prog.c:1") */
P2
for p in /usr/bin/sysroot-prog sysroot-prog /bin/sp; do
	"$STAP" --sysroot=sr --sysenv=PATH=/bin:/usr/bin -p2 \
		-e "probe process(\"$p\").function(\"add\") { println(\$a) }" >out 2>err ||
		bad "process(\"$p\"): failed"
	# (stap 4.8 also lists the accessor of \$a, which -p2 here does not)
	grep -v '^__private\|^  \|^# functions' out | sed 's|pc=\.dynamic+0x[0-9a-f]*|pc=.dynamic+0x1133|' >got
	diff -u want got || bad "process(\"$p\"): -p2 differs"
done

"$STAP" -p2 -e 'probe process("/usr/bin/sysroot-prog").function("add") {}' >out 2>err &&
	bad "without --sysroot: the program was found"

# -r RELEASE (not a testbed kernel): its build tree is the sysroot's
mkdir -p sr/lib/modules/6.1.0-sysroot/build
printf 'CONFIG_SYSROOT_TEST=y\nCONFIG_MODULES=y\n' >sr/lib/modules/6.1.0-sysroot/build/.config
touch sr/lib/modules/6.1.0-sysroot/build/Makefile sr/lib/modules/6.1.0-sysroot/build/Module.symvers
cond='%( CONFIG_SYSROOT_TEST == "y" %? probe begin {} %: probe end {} %)'
"$STAP" --sysroot=sr -r 6.1.0-sysroot -p1 -e "$cond" >out 2>err || bad "-r RELEASE: failed"
printf '# parse tree dump\n# file <input>\nprobe begin{\n}\n\n' >want
diff -u want out || bad "-r RELEASE: the sysroot's .config was not read"
"$STAP" -r 6.1.0-sysroot -p1 -e "$cond" >out 2>err
grep -q '^probe begin' out && bad "-r RELEASE without --sysroot: the sysroot's .config was read"

# --ldd: the libraries the program loads as the sysroot's loader finds them
# (DT_NEEDED, transitively: one in a directory of the sysroot's
# /etc/ld.so.conf, through an include, one in /usr/lib), not as this
# machine's ldd does
mkdir -p sr/opt/srlib sr/usr/lib sr/etc/ld.so.conf.d
echo 'int sr2(int x) { return x + 1; }' >lib2.c
printf 'int sr2(int);\nint sr1(int x) { return sr2(x) * 2; }\n' >lib1.c
printf 'int sr1(int);\nint main(void) { return !sr1(1); }\n' >ldd.c
gcc -shared -fPIC -o sr/usr/lib/libsr2.so lib2.c &&
	gcc -shared -fPIC -o sr/opt/srlib/libsr1.so lib1.c -Lsr/usr/lib -lsr2 &&
	gcc -g -o sr/usr/bin/sysroot-ldd ldd.c -Lsr/opt/srlib -lsr1 -Wl,--allow-shlib-undefined ||
	{ bad "gcc of the libraries failed"; exit 1; }
echo 'include ld.so.conf.d/*.conf' >sr/etc/ld.so.conf
echo '/opt/srlib	# the test library' >sr/etc/ld.so.conf.d/sr.conf
"$STAP" --sysroot=sr --ldd -p3 \
	-e 'probe process("/usr/bin/sysroot-ldd").function("main") { print_ubacktrace() }' >out 2>err ||
	bad "--ldd: -p3 failed"
grep -o '"/[^"]*\.so[^"]*"' out | sort -u >got
printf '"/opt/srlib/libsr1.so"\n"/usr/lib/libsr2.so"\n' >want
diff -u want got || bad "--ldd: not the sysroot's libraries"

"$STAP" --sysroot=sr -d /bin/sp -c /usr/bin/sysroot-prog \
	-e 'probe process("/usr/bin/sysroot-prog").function("add") { printf("%d %d %s %s\n", $a, $b, pp(), usymname(uaddr())) }' >out 2>err ||
	bad "pass 5: failed"
echo '1 2 process("/usr/bin/sysroot-prog").function("add@/src/prog.c:1") add' >want
diff -u want out || bad "pass 5: output differs"
grep -q 'missing unwind/symbol data' err && bad "-d /bin/sp: not read inside the sysroot"
exit $status
