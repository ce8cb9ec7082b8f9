#!/bin/sh
# copy-tree.sh SRC DEST [MODE] - copy a source tree (runtime/, tapsets/,
# testsuite/) for make install and make dist, leaving out what a build
# leaves in it: objects, kbuild files, dependency dirs, executables built
# from its C files, and the test suite's scratch output.
set -e
src=$1 dest=$2 mode=${3:-644}
[ -d "$src" ] || exit 0
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
cd "$src"
find . \( -name .deps -o -name out -o -name .git \) -prune -o -type f -print |
while read -r f; do
	case $f in
	*.o|*.a|*.ko|*.mod|*.mod.c|*.cmd|*.dirstamp|*/modules.order|*/Module.symvers|*.log|*.trs)
		continue ;;
	esac
	# Programs built in place (unit tests) are not sources.
	if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = "177ELF" ]; then
		continue
	fi
	d=$dest/$(dirname "$f")
	mkdir -p "$d"
	if [ -x "$f" ]; then m=755; else m=$mode; fi
	cp "$f" "$d/" && chmod "$m" "$d/$(basename "$f")"
done
