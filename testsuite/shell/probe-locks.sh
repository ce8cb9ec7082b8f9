#!/bin/bash
# golden: ours (stap 4.8 takes no lock for a[k] <<< v, whose per-CPU maps lock themselves; the other locks are stap 4.8's).
# probe-locks.sh - the lock each probe takes on each global (-p3's probe
# table), as stap 4.8 chooses them: none for a probe that touches no
# global; shared (0) for a read, exclusive (1) for a write; an aggregate
# is shared for x <<< v (each CPU adds to its own record) and exclusive
# when read (reading merges the CPUs into one scratch record) or deleted;
# globals used by called functions count, transitively.  (stap 4.8 takes
# no lock at all for a[k] <<< v: its per-CPU maps lock themselves; ours
# take the shared lock.)  Run by run-tests with $STAP set; exit 0 = pass.
set -u
w=$(mktemp -d /tmp/probe-locks.XXXXXX)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
cat >t.stp <<'STP'
global n, a, s, t
function total() { return @sum(s) }
function bump() { a[0]++ }
function outer() { bump() }
probe begin { n = 1 }
probe timer.ms(1) { s <<< n; t[1] <<< 2 }
probe timer.ms(2) { a[n]++ }
probe timer.ms(3) { println(total()) }
probe timer.ms(4) { outer() }
probe timer.ms(5) { delete s }
probe timer.ms(6) { println("no globals") }
probe end { println(a[1]) foreach (k in t) println(k) }
STP
"$STAP" -p3 t.stp >out.c 2>err || { cat err; exit 1; }
# One line per probe: its index, then GLOBAL=MODE for each lock.
awk '/^static const struct stp_lock_spec stp_locks_/ {
	p = $5; sub(/^stp_locks_/, "", p); sub(/\[\]$/, "", p); next }
     p != "" && /^\t\{ &g[0-9]+_/ {
	g = $2; sub(/^&g[0-9]+_/, "", g); sub(/_lock,$/, "", g); m = $3; sub(/[,}].*$/, "", m)
	line[p] = line[p] " " g "=" m; next }
     /^};/ { p = "" }
     /\.locks = NULL/ { none++ }
     END { for (i = 0; i < 8; i++) print i ":" (i in line ? line[i] : " none") }' out.c >got
cat >want <<'EOF2'
0: n=1
1: n=0 s=0 t=0
2: n=0 a=1
3: s=1
4: a=1
5: s=1
6: none
7: t=1 a=0
EOF2
diff -u want got
