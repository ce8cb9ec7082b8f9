#!/bin/bash
# golden: stap 4.8 (where its -p3 places each probe of these programs).
# prologue-searching.sh - where a process().function probe goes: by
# default (auto) past the prologue of a function built without -O;
# --prologue-searching=never at its entry (its symbol's address); -P and
# --prologue-searching (always) where auto puts it, in -O0 and -O2 code
# alike (stap 4.8 -P moves none of these).
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" prologue-searching
u=/var/tmp/ctap-uprobes

# offset OPTIONS... : the .offset of the one probe in the -p3 C
offset() {
	"$STAP" -p3 "$@" >out 2>err || { bad "stap $* failed"; return; }
	sed -n 's/.*\.offset = \(0x[0-9a-f]*\)ULL.*/\1/p' out | head -n1
}
pp() {
	echo "probe process(\"$u/$1\").function(\"$2\") { print(1) }"
}

entry=$(printf '0x%x' "0x$(nm "$u/uvars-O0" | awk '$3 == "walk" { print $1 }')")
auto=$(offset -e "$(pp uvars-O0 walk)")
[ -n "$auto" ] && [ $((auto)) -gt $((entry)) ] ||
	bad "auto: -O0 walk at $auto, not past its entry $entry"
[ "$(offset --prologue-searching=never -e "$(pp uvars-O0 walk)")" = "$entry" ] ||
	bad "never: -O0 walk not at its entry $entry"
[ "$(offset -P -e "$(pp uvars-O0 walk)")" = "$auto" ] || bad "-P: -O0 walk moved"
o2=$(offset -e "$(pp uvars main)")
[ "$(offset --prologue-searching -e "$(pp uvars main)")" = "$o2" ] ||
	bad "always: -O2 main moved from $o2"
[ "$(offset --prologue-searching=auto -e "$(pp uvars main)")" = "$o2" ] ||
	bad "auto: -O2 main moved from $o2"
exit $status
