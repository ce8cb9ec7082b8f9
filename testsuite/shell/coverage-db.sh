#!/bin/bash
# golden: stap 4.8 (its $SYSTEMTAP_DIR/RELEASE.db after the same runs, rows
# of the user's script in insertion order).
# coverage-db.sh - stap -q adds the program's probe points (each derived
# probe its own point, then every point of the aliases and the user probe it
# came through), probe locals, functions and globals, and the probes stap
# synthesizes, to the table counts of $SYSTEMTAP_DIR/RELEASE.db; a second
# run adds to the counts.  -p1 leaves the table empty; a failing pass 2
# writes nothing.  Built without SQLite, -q says so.  Private functions and
# globals, the script's and a tapset's (also in a probe point's condition),
# are named as stap names them in C:
# __private_FILE_NAME, FILE the declaring file as given with every
# character but letters and digits made '_' (the tapset's rows checked by
# name only: their lines are those of our own indent.stp).  @entry's entry
# probe adds no point of its own.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" coverage-db
mkdir -p "$SYSTEMTAP_DIR"

cat >cov.stp <<'STP'
global hits, count = 1, seen
probe tick = timer.ms(10), timer.ms(20) { t = 1 }
probe tick2 = tick { }
function double(n) { return 2 * n }
function unused() { return 0 }
probe tick2 if (count) {
	hits[t, execname()] <<< double(t)
	seen = 1
}
probe begin, end { msg = "x"; println(msg) }
STP

if ! "$STAP" -V 2>&1 | grep -q '^enabled features:.*LIBSQLITE3'; then
	"$STAP" -q -p2 cov.stp >out 2>err || bad "-q without SQLite: failed"
	grep -q "tapset coverage is not recorded" err || bad "-q without SQLite: no message"
	exit $status
fi
command -v python3 >/dev/null || { echo "SKIP: no python3 to read the database"; exit 0; }

dump() {
	python3 - "$1" cov.stp <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute("select sql from sqlite_master order by name"):
    print(r[0])
for r in db.execute("select * from counts where file = ? order by rowid", (sys.argv[2],)):
    print('|'.join(map(str, r)))
PY
}

# rows FILE [TYPE]: the table's rows of script FILE (of that type only)
rows() {
	python3 - "$db" "$1" "${2:-}" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute("select * from counts where file = ? and (? = '' or type = ?) order by rowid",
                    (sys.argv[2], sys.argv[3], sys.argv[3])):
    print('|'.join(map(str, r)))
PY
}

"$STAP" -q -p2 -e 'probe begin { g = f() }' >out 2>err && bad "pass-2 error: accepted"
[ -z "$(ls "$SYSTEMTAP_DIR"/*.db 2>/dev/null)" ] || bad "pass-2 error: a database was written"

"$STAP" -q -p1 cov.stp >out 2>err || bad "-q -p1: failed"
db=$(ls "$SYSTEMTAP_DIR"/*.db 2>/dev/null)
case $db in *.db) ;; *) bad "-q -p1: no RELEASE.db in \$SYSTEMTAP_DIR" ;; esac
[ "$(dump "$db" | wc -l)" = 2 ] || bad "-q -p1: rows recorded"

for i in 1 2; do
	"$STAP" -q -p2 cov.stp >out 2>err || bad "-q -p2 run $i: failed"
done
dump "$db" >got
cat >want <<'ROWS'
CREATE TABLE counts (file text, line integer, col integer, type text, name text, parent text, compiled integer, executed integer)
CREATE UNIQUE INDEX tokens on counts (file, line, col, type, name)
cov.stp|2|14|1|timer.ms(10) if (__global_count)||6|0
cov.stp|2|28|1|timer.ms(20) if (__global_count)||6|0
cov.stp|3|15|1|tick if (count)||4|0
cov.stp|6|7|1|tick2 if (count)||4|0
cov.stp|2|43|3|t||4|0
cov.stp|7|10|3|execname||4|0
cov.stp|10|7|1|begin||6|0
cov.stp|10|14|1|end||6|0
cov.stp|10|20|3|msg||4|0
cov.stp|1|7|1|begin||4|0
cov.stp|1|7|1|end||8|0
cov.stp|2|11|3|__idx0||2|0
cov.stp|2|18|3|__idx1||2|0
cov.stp|4|10|2|__global_double__overload_0||2|0
cov.stp|1|8|4|__global_hits||2|0
cov.stp|1|25|4|__global_seen||2|0
cov.stp|1|14|4|__global_count||2|0
ROWS
diff want got >out || bad "the table after two -q -p2 runs differs from stap 4.8's"

cat >priv.stp <<'STP'
private global pg = 3
private function pf(x) { return x + pg }
probe begin { println(thread_indent(1), execname(), pf(1)) }
probe timer.s(1) if (pg) { }
STP
"$STAP" -q -p2 ./priv.stp >out 2>err || bad "-q -p2 of private names: failed"
rows ./priv.stp >got
python3 - "$db" >>got <<'PY'
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for f, t, n in db.execute("select file, type, name from counts where file like '%/indent.stp' and name like '__private%' order by rowid"):
    print(f.rsplit('/', 1)[1], t, n.replace("__private_" + re.sub('[^A-Za-z0-9]', '_', f), "__private_TAPSET"), sep='|')
PY
cat >want <<'ROWS'
./priv.stp|3|7|1|begin||2|0
./priv.stp|3|41|3|execname||1|0
./priv.stp|4|7|1|timer.s(1) if (__private___priv_stp_pg)||2|0
./priv.stp|1|7|1|begin||2|0
./priv.stp|2|18|2|__private___priv_stp_pf__overload_0||1|0
./priv.stp|1|16|4|__private___priv_stp_pg||1|0
indent.stp|2|__private_TAPSET__generic_indent__overload_0
indent.stp|2|__private_TAPSET__generic_indent_depth__overload_0
indent.stp|4|__private_TAPSET__indent_counters
indent.stp|4|__private_TAPSET__indent_timestamps
ROWS
diff want got >out || bad "private functions' and globals' rows differ from stap 4.8's"

# an overload is numbered among the declared functions of its name, used
# or not
cat >ov.stp <<'STP'
function f(x) { return x }
function f(x, y) { return x + y }
probe begin { println(f(1, 2)) }
STP
"$STAP" -q -p2 ./ov.stp >out 2>err || bad "-q -p2 of an overload: failed"
rows ./ov.stp >got
cat >want <<'ROWS'
./ov.stp|3|7|1|begin||2|0
./ov.stp|2|10|2|__global_f__overload_1||1|0
ROWS
diff want got >out || bad "an overload's row differs from stap 4.8's"

# @entry's synthesized entry probe has no point of its own (stap 4.8
# crashes here: ours, checked for its points only)
echo 'probe kprobe.function("vfs_read").return { println(@entry(tid())) }' >entry.stp
"$STAP" -q -p2 ./entry.stp >out 2>err || bad "-q -p2 with @entry: failed"
rows ./entry.stp 1 >got
echo './entry.stp|1|7|1|kprobe.function("vfs_read").return||2|0' >want
diff want got >out || bad "-q with @entry: the probe's rows differ"
exit $status
