#!/bin/bash
# testbed-job-modules.sh - in a batch, each job loads its own kernel
# modules just before it runs and unloads them after it: its "modules" line
# (a run/ test's NAME.modules) and those its stap module's probes lie in
# (here a kprobe.module("null_blk") probe), so that a job never sees
# another job's modules (run/kprobe-module-load could not fail while
# another test loaded null_blk for the whole boot).  The "staprun" is a
# script that prints which of the two modules are loaded.
# Run by run-tests with $TESTBED (stap-testbed); exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" testbed-job-modules

mkdir batch
"$STAP" -p4 -m nb -e 'probe kprobe.module("null_blk").function("null_queue_rq") { exit() }' \
	>out 2>err || bad "cannot build nb.ko"
mv nb.ko batch/
cat >fake-staprun <<'EOF'
#!/bin/sh
echo "$1:" $(cut -d' ' -f1 /proc/modules | grep -E '^(softdog|null_blk)$' | sort)
EOF
chmod +x fake-staprun
cat >batch/jobs <<EOF
file $w/fake-staprun
run before 30 before
modules softdog:soft_noboot=1
run mods 30 mods
run between 30 between
run probed 30 probed nb.ko
run after 30 after
EOF
SYSTEMTAP_STAPRUN=$w/fake-staprun "$TESTBED" run-batch batch >out 2>err ||
	bad "run-batch failed"
for want in "before:" "mods: softdog" "between:" "probed: null_blk" "after:"; do
	j=${want%%:*}
	[ "$(cat batch/$j.stdout 2>&1)" = "$want" ] ||
		bad "job $j: '$(cat batch/$j.stdout 2>&1)', expected '$want'"
	[ ! -s batch/$j.stderr ] || bad "job $j: stderr: $(cat batch/$j.stderr)"
	[ ! -s batch/$j.kmsg ] || bad "job $j: kernel log: $(cat batch/$j.kmsg)"
done
exit $status
