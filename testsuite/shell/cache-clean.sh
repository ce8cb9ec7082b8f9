#!/bin/bash
# golden: stap 4.8 for the cleaner's -vv messages and when it runs (its
# --clean-cache on a cache of its own: the settings files created, the
# interval counted from cache_clean_interval_s's modification time, which
# a cleaning touches, the removed files listed oldest entry first); ours
# for the runtime's objects, DWARF indexes and file digests (stap 4.8 keeps
# none; its cleaner removes the least recently used modules first, as this
# one does with these counted among them).
# cache-clean.sh - the cache's size limit (cache_mb_limit) counts the
# runtime's objects (CACHE/rtlib/KEY.o and KEY.cmd), the DWARF indexes
# (dwarf/BUILDID.idx) and the file digests (stamps/HASH) with the modules,
# and --clean-cache removes the least recently used entries first,
# whatever their kind, until the cache is under its limit; an object and
# its .cmd go together, a store under way (KEY.tmpPID, HASH.tmpXXXXXX,
# BUILDID.idx.PID.tmp) stays, and so does an index a running stap holds
# (a shared flock), however old: the next run would have to rebuild it.
# As stap 4.8, it cleans only once cache_clean_interval_s seconds have
# passed since the last cleaning (or since that file was created).
# A build keeps the runtime's object there (its replayed compile works);
# one that takes it from the cache marks it used, and so with the file
# digests it reads.  A run that reads a DWARF index marks it used and
# holds it until it exits: a cleaning meanwhile keeps it.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" cache-clean
c=$SYSTEMTAP_DIR/cache

"$STAP" -vv --clean-cache >out 2>err || bad "--clean-cache in a new cache failed"
sed 's/reached [01] s/reached 0 s/' err >got
cat >want <<EOF
Cache limit file $c/cache_mb_limit missing, creating default.
Cache clean interval file $c/cache_clean_interval_s missing, creating default.
Cache cleaning skipped, interval not reached 0 s / 300 s.
EOF
diff -u want got >out || bad "--clean-cache in a new cache: not stap's messages"
mkdir -p "$c/rtlib" "$c/aa" "$c/bb" "$c/stamps" "$c/dwarf"

# fake NAME KiB AGE: a file of KiB kibibytes last modified AGE ago
fake() {
	head -c "$(($2 * 1024))" /dev/zero >"$c/$1"
	touch -d "$3 ago" "$c/$1"
}
fake rtlib/old.o 1536 '3 days'
fake rtlib/old.cmd 1 '3 days'
fake aa/stap_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.ko 1024 '2 days'
fake rtlib/new.o 600 '1 day'
fake rtlib/new.cmd 1 '1 day'
fake bb/stap_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.ko 600 '1 hour'
fake rtlib/new.tmp123 1 '4 days'
fake stamps/0123 1 '4 days'
fake stamps/0456.tmpAbCdEf 1 '4 days'
fake dwarf/held.idx 512 '5 days'
fake dwarf/old.idx 512 '60 hours'
fake dwarf/new.idx.123.tmp 1 '5 days'
echo 2 >"$c/cache_mb_limit"
# held.idx, the oldest, is in use (as a stap holds the index it reads)
flock -s "$c/dwarf/held.idx" sleep 600 &
for i in $(seq 50); do
	flock -n -x "$c/dwarf/held.idx" true || break
	sleep 0.1
done

"$STAP" -vv --clean-cache >out 2>err || bad "--clean-cache within the interval failed"
grep -q '^Cache cleaning skipped, interval not reached [01] s / 300 s\.$' err ||
	bad "--clean-cache within the interval: not skipped"
[ -e "$c/rtlib/old.o" ] || bad "--clean-cache within the interval removed files"

echo 0 >"$c/cache_clean_interval_s"
"$STAP" -vv --clean-cache >out 2>err || bad "--clean-cache failed"
sed 's/reached [01] s/reached 0 s/' err >got
cat >want <<EOF
Cleaning cache, interval reached 0 s > 0 s.
Cache cleaning successful, removed entries: 
  $c/stamps/0123
  $c/rtlib/old.cmd
  $c/rtlib/old.o
  $c/dwarf/old.idx
  $c/aa/stap_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.ko
EOF
diff -u want got >out || bad "--clean-cache: not stap's messages"
(cd "$c" && find . -type f ! -name '.*' ! -name 'cache_*' | sort) >got
cat >want <<'LIST'
./bb/stap_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.ko
./dwarf/held.idx
./dwarf/new.idx.123.tmp
./rtlib/new.cmd
./rtlib/new.o
./rtlib/new.tmp123
./stamps/0456.tmpAbCdEf
LIST
diff -u want got >out || bad "--clean-cache under a 2 MiB limit kept other files"
kill %1
wait 2>/dev/null

# A real build keeps the runtime's object (on a kernel whose kbuild
# commands replay); the next build takes it and marks it used.
echo 256 >"$c/cache_mb_limit"
rm -f "$c"/rtlib/*
"$STAP" -vv -p4 -e 'probe begin { println("one") }' >out 2>err || bad "first -p4 failed"
if grep -q "kbuild's commands cannot be replayed" err; then
	echo "SKIP (part): kbuild's commands do not replay for this kernel"
	exit $status
fi
grep -q "^Building with kbuild's commands failed" err &&
	bad "the replayed build failed (the runtime's object did not compile?)"
obj=$(ls "$c"/rtlib/*.o 2>/dev/null | head -1)
[ -n "$obj" ] || { bad "no runtime object kept in the cache"; exit $status; }
touch -d '2 days ago' "$obj" "$c"/stamps/*
"$STAP" -p4 -e 'probe begin { println("two") }' >out 2>err || bad "second -p4 failed"
[ -n "$(find "$obj" -mmin -60)" ] || bad "the runtime's object taken from the cache was not marked used"
[ -n "$(find "$c/stamps" -type f -mmin -60)" ] || bad "the file digests read were not marked used"

# A program's DWARF index: marked used when read, kept while a stap that
# read it runs (this one blocked writing its -p2 output into a full pipe),
# removed by the next cleaning once it has exited.
printf 'int main(void) { return 0; }\n' >prog.c
gcc -g -o prog prog.c || { bad "cannot compile a program"; exit $status; }
p2='probe process("./prog").function("main") { println(pp()) }'
"$STAP" -p2 -e "$p2" >out 2>err || bad "-p2 of a process probe failed"
idx=$(ls "$c"/dwarf/*.idx 2>/dev/null | head -1)
[ -n "$idx" ] || { bad "no DWARF index kept in the cache"; exit $status; }
touch -d '2 days ago' "$idx"
echo 0 >"$c/cache_mb_limit"
{ head -c 65536 /dev/zero; "$STAP" -p2 -e "$p2" 2>err; } | {
	held=0
	for i in $(seq 300); do
		if ! flock -n -x "$idx" true; then held=1; break; fi
		sleep 0.1
	done
	[ $held = 1 ] || echo "not held"
	"$STAP" --clean-cache 2>&1
	[ -e "$idx" ] || echo "removed while in use"
	cat >/dev/null
} >got
[ -s got ] && bad "an index in use: $(cat got)"
[ -n "$(find "$idx" -mmin -60)" ] || bad "the DWARF index read was not marked used"
"$STAP" --clean-cache >out 2>err || bad "--clean-cache failed"
[ -e "$idx" ] && bad "the index no stap holds stayed over a 0 MiB limit"
exit $status
