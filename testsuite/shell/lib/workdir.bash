# workdir.bash - sourced by shell/ tests: runs the test in a work directory
# of its own (the current directory, removed at exit along with any
# background job) with its own module cache (SYSTEMTAP_DIR), and gives it
# status (the exit status so far) and bad().
# Usage: . "$(dirname "$0")/lib/workdir.bash" NAME
set -u
w=$(mktemp -d "/tmp/$1.XXXXXX")
trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$w"' EXIT
export SYSTEMTAP_DIR=$w/stapdir
cd "$w" || exit 1
status=0

# bad WHY…: the test fails; show the last run's stdout and stderr
bad() {
	echo "FAILED: $*"
	for f in out err; do
		[ -s "$f" ] && { echo "--- $f"; cat "$f"; }
	done
	status=1
}
