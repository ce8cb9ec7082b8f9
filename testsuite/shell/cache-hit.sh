#!/bin/bash
# cache-hit.sh - the module cache: a second identical -p4 uses the cached
# module without running kbuild; -m is part of the key and still leaves
# NAME.ko, named NAME, in the current directory; -D changes the key;
# --disable-cache neither reads nor writes the cache.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" cache-hit
script='probe begin { println("from the cache") }'

# p4 OPTIONS…: one stap -v -p4 run of the script, output in out and err.
p4() {
	"$STAP" -v -p4 "$@" -e "$script" >out 2>err || bad "stap $* failed"
}

built() { grep -q '^Pass 4: compiled C into' err && ! grep -q 'using cached' err; }

p4
built || bad "first build: not compiled"
first=$(cat out)
case $first in
"$SYSTEMTAP_DIR"/cache/??/stap_*.ko) [ -s "$first" ] || bad "$first missing" ;;
*) bad "first build printed '$first', not a module in the cache" ;;
esac
p4
grep -qx "Pass 4: using cached $first" err || bad "second build: no cache hit"
grep -q '^Pass 4: compiled' err && bad "second build compiled again"
[ "$(cat out)" = "$first" ] || bad "second build printed another module"

p4 -m cache_named
built || bad "-m: a named module reused the unnamed one"
p4 -m cache_named
grep -q '^Pass 4: using cached .*/cache_named_.*\.ko$' err || bad "-m: no cache hit"
[ "$(cat out)" = cache_named.ko ] || bad "-m: printed '$(cat out)'"
grep -aq '^name=cache_named$' <(tr '\0' '\n' <cache_named.ko) ||
	bad "-m: cache_named.ko is not named cache_named"

p4 -DMAXACTION=77
built || bad "-D: the module of another -D was reused"

n=$(find "$SYSTEMTAP_DIR/cache" -name '*.ko' | wc -l)
p4 --disable-cache
built || bad "--disable-cache: not compiled"
[ "$(find "$SYSTEMTAP_DIR/cache" -name '*.ko' | wc -l)" = "$n" ] ||
	bad "--disable-cache: wrote into the cache"
exit $status
