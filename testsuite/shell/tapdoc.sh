#!/bin/bash
# tapdoc.sh - the manual a user reaches for: the tapset reference man/tapdoc
# writes from the tapsets' doc comments (a page per public function and
# probe alias), and a page for every "[man error::X]" our messages cite.
# Every example (examples/) is in stapex(3stap) and a run test.
# The public names without a doc comment are exactly those in
# tapdoc.undocumented (the list only shrinks: a new function or alias
# without a doc comment fails here).
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" tapdoc
src=$(cd "$(dirname "$0")/../.." && pwd)
tapdoc=$(dirname "$STAP")/../man/tapdoc
[ -x "$tapdoc" ] || { echo "FAILED: no $tapdoc"; exit 1; }

"$tapdoc" --undocumented "$src/tapsets" >undocumented 2>err ||
	bad "tapdoc --undocumented failed"
diff -u "$src/testsuite/shell/tapdoc.undocumented" undocumented >diff ||
	bad "undocumented public names differ (+ new, - now documented): $(cat diff)"

"$tapdoc" --version test -o pages "$src/tapsets" >out 2>err || bad "tapdoc failed"
for page in function::execname probe::syscall.openat probe::nd_syscall.openat \
	function::user_string2; do
	[ -s "pages/$page.3stap" ] || bad "no page $page.3stap"
done
grep -q '^\.SH VALUES' pages/probe::syscall.openat.3stap ||
	bad "probe::syscall.openat lists no values"
grep -qE '^\.B dfd,?$' pages/probe::nd_syscall.openat.3stap ||
	bad "nd_syscall.openat does not list syscall.openat's dfd"
grep -q '^\.B execname:string ()$' pages/funcs.index || bad "no execname in the index"
grep -q '^\.SS linux/vfs.stp$' pages/probes.index || bad "no vfs.stp in the probe index"

# every example is in stapex's index, installed, and a run test
"$tapdoc" --examples "$src/examples" -o pages >out 2>err || bad "tapdoc --examples failed"
for f in "$src"/examples/*.stp; do
	n=${f##*/}
	grep -qxF ".B ${n//-/\\-}" pages/examples.index || bad "$n is not in stapex's index"
	grep -q "examples/$n" "$src/Makefile.am" || bad "$n is not installed (Makefile.am)"
	[ "$(readlink "$src/testsuite/run/example-${n%.stp}.stp")" = "../../examples/$n" ] ||
		bad "$n has no run test (testsuite/run/example-${n%.stp}.stp linking to it)"
	[ -f "$src/testsuite/run/example-${n%.stp}.out" ] || bad "$n's run test has no golden"
done

# every page a message cites (the tapsets' too) exists and is installed
cited=$(grep -rhoE '\[man [a-z0-9:%_-]+\]' \
	"$src/translator" "$src/runtime" "$src/staprun" "$src/stapio" \
	"$src/tapsets" --include='*.c' --include='*.h' --include='*.stp' |
	sed 's/^\[man //; s/\]$//' | sort -u)
for c in $cited; do
	case $c in
	foo) continue ;;	# stap's "A message like [man foo] means ..."
	*%d) names="${c%%%d}1 ${c%%%d}2 ${c%%%d}3 ${c%%%d}4 ${c%%%d}5" ;;
	*) names=$c ;;
	esac
	for n in $names; do
		case $n in
		*::*) page=man/errors/${n/::/-}.7stap ;;
		*) page=$(cd "$src" && ls man/"$n".[178] 2>/dev/null | head -1) ;;
		esac
		[ -n "$page" ] && [ -s "$src/$page" ] || { bad "[man $n] has no page"; continue; }
		grep -qF "$page" "$src/Makefile.am" || bad "[man $n]: $page is not installed (Makefile.am)"
	done
done

# the pages render without warnings where man(1) is installed
if command -v man >/dev/null; then
	cat "$src/man/stapex.3stap.in" pages/examples.index >pages/stapex.3stap
	for f in "$src"/man/*.[178] "$src"/man/*.3stap "$src"/man/errors/*.7stap pages/stapex.3stap \
		pages/function::execname.3stap pages/probe::syscall.openat.3stap; do
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f" 2>warn >/dev/null
		[ -s warn ] && bad "$f: $(cat warn)"
	done
fi
exit $status
