#!/bin/bash
# golden: stap 4.8 (run as uid 65000 with setpriv on this host: its texts
# for a user in no group, and the first explanation line; the other two
# are ours: stap 4.8's name the compile server, here staprun -P).
# autopriv.sh - a user who is not root and runs a script (-p5) without
# --privilege gets the level of their groups, as stap 4.8 picks it: stapusr
# (its checks then refuse kernel.function), stapsys with stapsys, no change
# with stapdev or below pass 5; a user in none of the groups is told what
# to join.  The choice is explained when the module could not be built.
# Needs root (setpriv); run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" autopriv
chmod 755 "$w"
mkdir -m 777 "$SYSTEMTAP_DIR"
as() {	# as GROUPS (a,b or -) STAP-ARGS...: stap as uid 65000
	local g=$1
	shift
	if [ "$g" = - ]; then set -- --clear-groups "$@"; else set -- --groups="$g" "$@"; fi
	setpriv --reuid=65000 --regid=65000 "$1" env SYSTEMTAP_DIR="$SYSTEMTAP_DIR" \
		SYSTEMTAP_TAPSET="${SYSTEMTAP_TAPSET:-}" SYSTEMTAP_RUNTIME="${SYSTEMTAP_RUNTIME:-}" \
		"$STAP" "${@:2}" >out 2>err
}
[ "$(id -u)" = 0 ] || { echo "autopriv: needs root (setpriv)"; exit 0; }
usr=$(getent group stapusr | cut -d: -f3) sys=$(getent group stapsys | cut -d: -f3)
dev=$(getent group stapdev | cut -d: -f3)
[ -n "$usr" ] && [ -n "$sys" ] && [ -n "$dev" ] ||
	{ echo "autopriv: the host has no stapusr, stapsys and stapdev groups"; exit 0; }
kfn='probe kernel.function("vfs_read") { exit() }'

if as - -e "$kfn"; then bad "no group: accepted"; fi
printf '%s\n' 'You are trying to run systemtap as a normal user.' \
	'You should either be root, or be part of the group "stapusr" and possibly one of the groups "stapsys" or "stapdev".  [man stap]' \
	"Try 'stap --help' for more information." | cmp -s - err || bad "no group: message"

if as "$usr" -e "$kfn"; then bad "stapusr: kernel.function accepted"; fi
grep -q 'error: probe point is not allowed for --privilege=stapusr' err ||
	bad "stapusr: not checked as stapusr"
tail -n3 err | cmp -s - <(printf '%s\n' \
	'--privilege=stapusr was automatically selected because you are a member of the group stapusr.  [man stap]' \
	'For users with the privilege level stapusr, the module created by compiling your script must be built by staprun with the installed translator.  [man staprun]' \
	'staprun -P was automatically selected in order to request compilation by staprun.') ||
	bad "stapusr: explanation"

if as "$sys" -e 'probe begin {'; then bad "stapsys: a parse error accepted"; fi
grep -qxFe '--privilege=stapsys was automatically selected because you are a member of the groups stapusr and stapsys.  [man stap]' err ||
	bad "stapsys: explanation"
grep -qxF 'For users with the privilege level stapsys, the module created by compiling your script must be built by staprun with the installed translator.  [man staprun]' err ||
	bad "stapsys: explanation of the level"

as "$usr" -p2 -e "$kfn" || bad "stapusr -p2: checked as stapusr (only a run is)"
as "$usr,$dev" -p3 -e "$kfn" || bad "stapdev: refused"
! grep -q 'automatically selected' err || bad "stapdev: a level was selected"
exit $status
