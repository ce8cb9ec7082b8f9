#!/bin/sh
# run-fuzz.sh - build the pass-1 fuzzer with clang and run it for a while.
#
# Usage: testsuite/fuzz/run-fuzz.sh [SECONDS] [BUILDDIR]
# SECONDS defaults to 60; BUILDDIR (default: the source tree) must hold a
# configured, built tree (its translator/parse/lexer.c, parser.c and config.h).
# The corpus starts from testsuite/parse/*.stp and grows in
# $FUZZ_DIR (default /tmp/ctap-fuzz-parse); crashes are left there too.
set -e
secs=${1:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${2:-$src}" && pwd)
dir=${FUZZ_DIR:-/tmp/ctap-fuzz-parse}
command -v clang >/dev/null || { echo "run-fuzz.sh: clang is needed (apt-get install clang)" >&2; exit 1; }
[ -f "$build/translator/parse/parser.c" ] || { echo "run-fuzz.sh: build the tree first (make)" >&2; exit 1; }
mkdir -p "$dir/corpus"
cp "$src"/testsuite/parse/*.stp "$dir/corpus/" 2>/dev/null || true
t=$src/translator b=$build/translator
clang -g -O1 -fsanitize=fuzzer,address,undefined -std=gnu11 \
	-I"$t" -I"$b" -I"$build" -I"$src/runtime" -DPKGDATADIR='"/nonexistent"' \
	-DPKGLIBEXECDIR='"/nonexistent"' \
	-o "$dir/fuzz_parse" "$src/testsuite/fuzz/fuzz_parse.c" \
	"$t/util/arena.c" "$t/util/diag.c" "$t/util/src.c" "$t/util/fileio.c" \
	"$t/kernel/kernel.c" "$t/kernel/kconfig.c" "$t/parse/preproc.c" \
	"$t/parse/ppcond.c" "$t/parse/parse_help.c" "$t/parse/errors.c" \
	"$t/ast/ast.c" "$t/ast/op.c" "$t/ast/dump.c" \
	"$t/parse/parse_pass.c" "$t/parse/listpat.c" "$t/parse/histcheck.c" \
	"$t/ast/ast_walk.c" \
	"$src/runtime/format.c" "$b/parse/lexer.c" "$b/parse/parser.c" \
	"$b/parse/fast_parser.c"
cd "$dir"
exec ./fuzz_parse -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-print_final_stats=1 corpus
