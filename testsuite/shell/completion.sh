#!/bin/bash
# golden: ours (stap 4.8's completion script is its own; these are the
# completions this build offers).  completion.sh - bash completion for stap
# (completion/stap): options from stap --help, probe points from the
# families' shapes and the tapset's aliases, a point's argument from stap -l,
# functions inside -e, after "probe" the points.  bash-completion's helpers
# are stood in for (it may not be installed), the rest is the real script.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" completion
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir bin && ln -s "$STAP" bin/stap
export PATH=$w/bin:$PATH
_init_completion() {
	cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
}
_filedir() { COMPREPLY=(FILES); }
compopt() { :; }
complete() { :; }
. "$src/completion/stap"

# complete WORD…: COMPREPLY for the last word, one per line, sorted
complete_words() {
	COMP_WORDS=(stap "$@") COMP_CWORD=$#
	COMPREPLY=()
	_stap
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
want() {	# want WHAT EXPECTED-LINES ACTUAL-LINES
	[ "$2" = "$3" ] || bad "$1: got [$3], expected [$2]"
}
want "--tm" "--tmpdir=" "$(complete_words --tm)"
want "--dump-probe-t" "--dump-probe-types" "$(complete_words --dump-probe-t)"
want "--prolog" "--prologue-searching" "$(complete_words --prolog)"
want "--sys" "$(printf '%s\n' --sysenv= --sysroot=)" "$(complete_words --sys)"
want "--target-n" "--target-namespace=" "$(complete_words --target-n)"
want "--check-v" "--check-version" "$(complete_words --check-v)"
want "-p" "$(printf '%s\n' 1 2 3 4 5)" "$(complete_words -p '')"
want "-l kernel.fu" 'kernel.function("' "$(complete_words -l kernel.fu)"
want "-l vfs.read" "$(printf '%s\n' vfs.read vfs.read.return vfs.readv vfs.readv.return)" \
	"$(complete_words -l vfs.read)"
want "-L kernel.function(\"vfs_read" \
	"$(printf '%s\n' 'kernel.function("vfs_read")' 'kernel.function("vfs_readlink")' 'kernel.function("vfs_readv")')" \
	"$(complete_words -L 'kernel.function("vfs_read')"
want "-e 'probe timer.m" "$(printf '%s\n' 'probe timer.ms(' 'probe timer.msec(')" \
	"$(complete_words -e 'probe timer.m')"
want "-e '...execn" 'probe begin { println(execname' \
	"$(complete_words -e 'probe begin { println(execn')"
want "script" "FILES" "$(complete_words scr)"
exit $status
