#!/bin/bash
# layers.sh - the translator's layers point one way.  Reads every
# #include "…" in translator/ and testbed/ and fails, listing each offender,
# when a file includes a header of a folder above its own (util <- dwarf <-
# ast <- kernel <- parse <- elab <- emit <- probes <- build <- run; session.h and
# version.h from anywhere; main.c and cmdline.c on top), when the translator
# reaches testbed/ other than through run/ and testbed/testbed.h, when a
# probe family (probes/*.c) includes more than probes/family.h, or when two
# files include each other's headers (X.c includes Y.h and Y.c includes X.h;
# a grammar X.y or scanner X.l counts as X).  Generated parsers and scanners
# are read through their .y and .l.
# Run by run-tests; exit 0 = pass.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

# Every source file, generated ones (X.c or X.h beside X.y or X.l, and the
# fast_X.c made from X.y) left out.
sources() {
	local f stem
	for f in translator/*.[ch] translator/*/*.[chyl] testbed/*.[ch]; do
		[ -e "$f" ] || continue
		stem=${f%.*}
		case $f in
		*.[ch])
			[ -e "$stem.y" ] || [ -e "$stem.l" ] && continue
			case ${stem##*/} in
			fast_*)
				[ -e "${stem%/*}/${stem##*/fast_}.y" ] && continue
			esac
		esac
		echo "$f"
	done
}

# FILE LINE INCLUDED, one line per #include "…"
sources | xargs awk '
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		s = $0
		sub(/^[^"]*"/, "", s)
		sub(/".*/, "", s)
		print FILENAME, FNR, s
	}' >/tmp/layers.$$ || exit 1
trap 'rm -f /tmp/layers.$$' EXIT

awk '
	BEGIN {
		n = split("util dwarf ast kernel parse elab emit probes build run", f)
		for (i = 1; i <= n; i++)
			level[f[i]] = i
		level["testbed"] = n + 0.5	# beside run/, reached from it
		level["top"] = n + 1		# main.c, cmdline.c
	}
	# The layer of a file (translator/FOLDER/…, testbed/…, translator/…)
	function layer_of(path,    p) {
		if (path ~ /^testbed\//)
			return "testbed"
		p = path
		sub(/^translator\//, "", p)
		if (p !~ /\//)
			return "top"
		sub(/\/.*/, "", p)
		return p
	}
	# The module of a file or included header: its path without extension
	function module_of(path) {
		sub(/\.[chyl]$/, "", path)
		return path
	}
	FNR == NR {
		has_source[module_of($0)] = 1
		next
	}
	{
		file = $1; line = $2; inc = $3
		from = layer_of(file)
		if (inc == "session.h" || inc == "version.h")
			next
		split(inc, part, "/")
		to = part[1]
		if (!(to in level))
			next		# runtime/ or build headers
		where = file ":" line ": #include \"" inc "\""
		if (to == "testbed" && from != "testbed") {
			if (from != "run" || inc != "testbed/testbed.h") {
				print where ": the translator reaches testbed/ only from run/, through testbed/testbed.h"
				bad = 1
			}
		} else if (level[to] > level[from]) {
			print where ": " to "/ is above " from "/"
			bad = 1
		} else if (file ~ /^translator\/probes\/[^\/]*\.c$/ &&
			   inc != "probes/family.h") {
			print where ": a probe family includes probes/family.h only"
			bad = 1
		}
		# A header without a .c of its own (ast_new.h) belongs to the
		# files that include it; its includes make no circle.
		a = module_of((to == "testbed" ? "" : "translator/") inc)
		m = module_of(file)
		if (file ~ /\.h$/ && !(m in has_source))
			next
		if (a != m && !((m, a) in edge)) {
			edge[m, a] = where
			order[++nedge] = m SUBSEP a
		}
	}
	END {
		for (i = 1; i <= nedge; i++) {
			split(order[i], e, SUBSEP)
			if (e[1] < e[2] && ((e[2], e[1]) in edge)) {
				print edge[e[1], e[2]] " and " \
					edge[e[2], e[1]] ": include each other"
				bad = 1
			}
		}
		exit bad
	}' <(sources | grep -v '\.h$') /tmp/layers.$$
