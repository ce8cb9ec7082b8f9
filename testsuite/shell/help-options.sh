#!/bin/bash
# golden: stap 4.8 (help-options.stap48: the options its --help names).
# help-options.sh - every option stap 4.8's --help names is named in ours
# and taken by our command line (not "unknown option", not a missing
# argument): it works, or it is refused saying what to do instead.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" help-options
src=$(cd "$(dirname "$0")/../.." && pwd)

# an argument for each option that takes one
declare -A arg=(
	[--compatible]==4.0 [--download-debuginfo]==no [--modinfo]==a=b
	[--privilege]==stapdev [--prologue-searching]==never
	[--remote]==host [--runtime]==kernel [--sysenv]==A=b
	[--sysroot]==/ [--target-namespace]==1 [--tmpdir]==$w
	[--trust-servers]==ssl [--use-server]==host
	[--use-server-on-error]==no [--vp]=' 1' [-B]=' a=b' [-D]=' A'
	[-E]=' probe end {}' [-G]=' a=1' [-I]=" $w" [-L]=' begin'
	[-R]=" $w" [-S]=' 1' [-T]=' 1' [-a]=' x86_64' [-c]=' true'
	[-d]=' /bin/sh' [-e]=' probe begin {}' [-l]=' begin' [-m]=' m'
	[-o]=" $w/o" [-p]=' 1' [-r]=' 6.1' [-s]=' 1' [-x]=' 1'
)
"$STAP" --help >help 2>err || bad "--help failed"
while read -r opt; do
	case $opt in '#'*) continue ;; esac
	grep -qE -- "(^|[[:space:]])$opt([^a-z0-9-]|\$)" help ||
		bad "$opt: not in stap --help"
	a=${arg[$opt]-}
	words=("$opt")
	case $a in
	=*) words=("$opt$a") ;;
	' '*) words=("$opt" "${a# }") ;;
	esac
	"$STAP" "${words[@]}" -p1 -e 'probe begin {}' >out 2>err </dev/null
	if grep -qE "unknown option|needs an argument|unrecognized" err; then
		bad "${words[*]}: not taken"
	fi
done <"$src/testsuite/shell/help-options.stap48"
exit $status
