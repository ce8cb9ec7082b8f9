# guest.sh - the guest section of bench/run (sourced by it): both
# implementations' modules in ONE boot of the testbed guest, alternately,
# a few rounds; results are medians over the rounds, reported as ratios.
# Uses from bench/run: ours, stap48, result, calc, note, $w, $bench, $rt48,
# $builddir, $tbdir.  Tunables (environment): BENCH_ROUNDS (3),
# BENCH_SPIN (spin-loop iterations), BENCH_CALLS (getppid calls),
# BENCH_DRAIN (seconds of each output run), BENCH_BATCHES (lines printed
# per millisecond by the output runs, one run per value; empty: none),
# BENCH_FLOOD (getppid calls of the flood run, one line each; empty: none),
# BENCH_LINES (the issue 16 output runs, lines50 and guard; empty: none),
# BENCH_KPROBES (the many-kprobes startup, kprobes-many; empty: none),
# BENCH_ICOUNT=1 (qemu -icount: the guest's clock counts instructions, so
# times are instruction counts, steady whatever else the host runs),
# BENCH_IMPLS ("o s": ours and stap 4.8; "o" alone when iterating under
# BENCH_ICOUNT, where stap's figures repeat run to run), BENCH_COSTS (the
# cost benchmarks' keys to run, default all of g_costs).

g_rounds=${BENCH_ROUNDS:-3}
g_spin=${BENCH_SPIN:-100000000}
g_calls=${BENCH_CALLS:-300000}
g_drain=${BENCH_DRAIN:-3}
g_batches=${BENCH_BATCHES-60 180 540}
g_flood=${BENCH_FLOOD-200000}
g_lines=${BENCH_LINES-lines50 guard-lines}
g_kprobes=${BENCH_KPROBES-kprobes-many}
g_benchg_dir=/var/tmp/ctap-bench	# uprobe-cost.stp and sdt-cost.stp name it

# The cost benchmarks: KEY:SCRIPT:WORKLOAD (benchg cost WORKLOAD).
g_costs="timer0:timer-empty:spin timer:timer-cost:spin syscall:syscall-cost:getppid
	kprobe:kprobe-cost:getppid kglobal:kprobe-global:getppid tglobal:trace-global:getppid
	texec:trace-execname:getppid sexec:stat-execname-pid:getppid
	uprobe:uprobe-cost:ucall usdt:sdt-cost:usdt
	kprintf:print-printf:getppid kprint:print-string:getppid"
g_impls=${BENCH_IMPLS:-o s}
if [ -n "${BENCH_COSTS:-}" ]; then
	g_costs=$(for c in $g_costs; do
		case " $BENCH_COSTS " in *" ${c%%:*} "*) echo "$c" ;; esac; done)
fi

# The modules: ours as b_o_NAME.ko, stap 4.8's as b_s_NAME.ko.  stap 4.8
# uses its default cache here (its tracepoint queries are slow the first
# time, and build time is not what this section measures).  Both without
# the overload guard, but for the output flood: under TCG every probe is
# slow enough to trip it.
guest_modules() {
	local name m opts d=$w/root/mod c
	for name in hello $g_kprobes ${g_batches:+output} ${g_flood:+flood} $g_lines $(for c in $g_costs; do c=${c#*:}; echo "${c%:*}"; done); do
		m=${name//-/_}
		opts=-DSTP_NO_OVERLOAD
		# The flood keeps the guard: a probe that can take the only CPU
		# whole would hang the guest (stap 4.8 did, at 1M lines/s).
		[ $name = output ] && opts=-DMAXACTION=10000
		# issue 16's runs keep the guard: what it lets through is the point
		[ $name = lines50 ] && opts=
		[ $name = guard-lines ] && opts=-DMAXACTION=10000
		(cd "$d" && ours $opts -p4 -m "b_o_$m" "$bench/scripts/$name.stp" \
			>/dev/null 2>"$w/g-o-$m.err") ||
			note "guest: ours cannot build $name: $(grep -m1 error "$w/g-o-$m.err")"
		[[ " $g_impls " == *" s "* ]] || continue
		(cd "$d" && env -u SYSTEMTAP_DIR -u SYSTEMTAP_TAPSET -u SYSTEMTAP_RUNTIME \
			"$ORACLE" -r "$abi" -R "$rt48" $opts -p4 -m "b_s_$m" "$bench/scripts/$name.stp" \
			>/dev/null 2>"$w/g-s-$m.err") ||
			note "guest: stap 4.8 cannot build $name: $(grep -m1 -i error "$w/g-s-$m.err")"
	done
}

# copy_prog FILE [DEST]: a host program and its shared libraries.
copy_prog() {
	local f=$1 dest=$w/root${2:-$1} l
	mkdir -p "$(dirname "$dest")"
	cp "$f" "$dest"
	for l in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$w/root$(dirname "$l")"
		cp -L "$l" "$w/root$l"
	done
}

# The guest's /init: for each round, each benchmark for the bare workload
# (where it has one), ours and stap 4.8, in an order that alternates from
# round to round; every result line starts with "@@ BENCH IMPL ROUND".
g_count() { if [ "$1" = spin ]; then echo "$g_spin"; else echo "$g_calls"; fi; }

guest_init() {
	local r i b impls run c m
	cat <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug; mount -t tmpfs tmpfs /tmp
cd /mod
# tag BENCH IMPL ROUND CMD...: prefix each line of CMD's output, then of
# what staprun said on stderr meanwhile (as "@@ BENCH:err IMPL ROUND").
tag() {
	t="@@ \$1 \$2 \$3"; e="@@ \$1:err \$2 \$3"; shift 3
	"\$@" 2>&1 | sed "s/^/\$t /"
	[ -f /tmp/benchg.err ] && sed "s/^/\$e /" /tmp/benchg.err; rm -f /tmp/benchg.err
}
echo BENCH-START
EOF
	for ((r = 1; r <= g_rounds; r++)); do
		impls=$g_impls
		((r % 2)) || impls=$(echo $g_impls | awk '{ for (i = NF; i; i--) printf "%s ", $i }')
		for c in $g_costs; do
			set -- ${c//:/ }
			echo "tag $1 base $r benchg cost $3 $(g_count $3)"
		done
		for i in $impls; do
			if [ $i = o ]; then
				run="env SYSTEMTAP_STAPIO=/ours/stapio /ours/staprun"
			else
				run=/usr/bin/staprun
			fi
			[ -f "$w/root/mod/b_${i}_hello.ko" ] &&
				echo "tag startup $i $r benchg first $run b_${i}_hello.ko"
			[ -n "$g_kprobes" ] && [ -f "$w/root/mod/b_${i}_kprobes_many.ko" ] &&
				echo "tag kprobes $i $r benchg first $run b_${i}_kprobes_many.ko"
			for c in $g_costs; do
				set -- ${c//:/ }
				m=b_${i}_${2//-/_}.ko
				[ -f "$w/root/mod/$m" ] &&
					echo "tag $1 $i $r benchg cost $3 $(g_count $3) $run $m"
			done
			[ -n "$g_flood" ] && [ -f "$w/root/mod/b_${i}_flood.ko" ] &&
				echo "tag flood $i $r benchg flood $g_flood $run b_${i}_flood.ko"
			for b in $g_lines; do
				m=b_${i}_${b//-/_}.ko
				[ -f "$w/root/mod/$m" ] &&
					echo "tag ${b//-/} $i $r benchg drain 30 $run $m"
			done
			for b in $g_batches; do
				[ -f "$w/root/mod/b_${i}_output.ko" ] &&
					echo "tag output$b $i $r benchg drain $g_drain $run b_${i}_output.ko batch=$b"
			done
		done
	done
	echo 'echo BENCH-DONE; poweroff -f'
}

# median: of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Per-round values "BENCH IMPL VALUE" from the console log into $w/g.vals.
guest_values() {
	awk -v calls="$g_calls" '
	$1 != "@@" { next }
	{ bench = $2; impl = $3; round = $4; $1 = $2 = $3 = $4 = ""
	  n = split($0, kv, " ")
	  for (i = 1; i <= n; i++) { split(kv[i], p, "="); val[p[1]] = p[2] } }
	bench == "startup" && val["rc"] == 0 {
		print "first", impl, val["first_ns"] / 1e6
		print "total", impl, val["total_ns"] / 1e6 }
	bench == "kprobes" && val["rc"] == 0 {
		print "kprobes_first", impl, val["first_ns"] / 1e6
		print "kprobes_total", impl, val["total_ns"] / 1e6 }
	bench ~ /^timer/ || bench == "syscall" || bench ~ /^kprobe|global$|exec$/ ||
	bench == "uprobe" || bench == "usdt" || bench ~ /^kprint/ {
		if (impl == "base" && val["ns"] != "") base[bench, round] = val["ns"]
		else if (kv[1] == "out:") { hits[bench, impl, round] = val["hits"]
			el[bench, impl, round] = val["elapsed_ns"] }
		else if (val["ns"] > 0 && val["rc"] == 0) {
			ns[bench, impl, round] = val["ns"]
			print bench "_kticks", impl, val["sys"] + val["irq"] + val["softirq"] } }
	bench ~ /^output|^flood$|^lines50$|^guardlines$/ && val["lines"] != "" {
		print bench "_lines", impl, val["lines"]
		print bench "_rate", impl, val["rate"]
		print bench "_lost", impl, val["lost"]; seen[bench, impl] = 1 }
	bench ~ /^output[0-9]+:err|^flood:err|^lines50:err|^guardlines:err/ && /overhead/ {
		sub(/:err/, "", bench); stopped[bench, impl]++ }
	{ delete val }
	END {
		for (k in seen) {
			split(k, p, SUBSEP); print p[1] "_stopped", p[2], stopped[k] + 0
		}
		for (k in ns) {
			split(k, p, SUBSEP); b = p[1]; i = p[2]; r = p[3]
			if (!((b, r) in base)) continue
			extra = ns[k] - base[b, r]
			if (b !~ /^timer/) {
				print b, i, extra / calls
				print b "_hits", i, hits[k] + 0
			} else if (el[k] > 0 && hits[k] > 0) {
				# hits while the workload ran, at the rate the probe
				# counted them over its whole life
				print b, i, extra / (hits[k] * ns[k] / el[k])
				print b "_rate", i, hits[k] * 1e9 / el[k]
			}
		}
	}' "$w/console.txt" >"$w/g.vals"
}

# guest_row KEY METRIC GOAL UNIT
guest_row() {
	local o s
	o=$(awk -v k="$1" '$1 == k && $2 == "o" { print $3 }' "$w/g.vals" | median)
	s=$(awk -v k="$1" '$1 == k && $2 == "s" { print $3 }' "$w/g.vals" | median)
	[ -n "$o$s" ] || return 0
	o=${o:+$(printf '%.6g' "$o")} s=${s:+$(printf '%.6g' "$s")}
	result "$2" "${o:-(failed)}" "${s:-(failed)}" "$3" "$4"
}

bench_guest() {
	local vmlinuz=$tbdir/vmlinuz
	[ -f "$vmlinuz" ] || { note "guest: no $vmlinuz; skipped"; return; }
	# the kernel's own qemu when the testbed has one (as testsuite/
	# transport/run.sh: the host's 7.2 corrupts 6.12's registers under TCG)
	local qemu=${QEMU:-${STAP_TESTBED_QEMU:-}}
	[ -z "$qemu" ] && [ -x "$tbdir/qemu" ] && qemu=$tbdir/qemu
	qemu=${qemu:-qemu-system-x86_64}
	command -v "$qemu" >/dev/null || { note "guest: no qemu; skipped"; return; }
	mkdir -p "$w"/root/{bin,mod,proc,sys,dev,tmp,etc,ours}
	# benchg first: the uprobe scripts probe it, at the path it has on
	# the host and in the guest alike
	mkdir -p "$g_benchg_dir"
	cc -static -O2 -I"$bench/../includes" -o "$g_benchg_dir/benchg" "$bench/guest.c" ||
		{ note "guest: cannot build benchg"; return; }
	copy_prog "$g_benchg_dir/benchg"
	ln -sf "$g_benchg_dir/benchg" "$w/root/bin/benchg"	# one inode
	note "guest: building the modules"
	guest_modules
	cp /bin/busybox "$w/root/bin/"
	copy_prog "$builddir/staprun/staprun" /ours/staprun
	copy_prog "$builddir/stapio/stapio" /ours/stapio
	copy_prog /usr/bin/staprun
	copy_prog /usr/lib/systemtap/stapio
	guest_init >"$w/root/init"
	chmod +x "$w/root/init"
	(cd "$w/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$w/initrd.gz"
	note "guest: booting ($g_rounds rounds)"
	# One CPU: the timer probe and the workload it slows down must share it.
	local icount=
	[ "${BENCH_ICOUNT:-0}" = 1 ] && icount="-icount shift=0"
	timeout 1200 "$qemu" -accel tcg $icount -cpu max -m 1024 -smp 1 -nographic \
		-no-reboot -kernel "$vmlinuz" -initrd "$w/initrd.gz" \
		-append "console=ttyS0 panic=-1 quiet" </dev/null >"$w/console.log" 2>&1
	tr -d '\r' <"$w/console.log" | sed 's/^.*\(@@ \)/\1/' >"$w/console.txt"
	grep -q BENCH-DONE "$w/console.txt" || note "guest: the guest did not finish (see -k, console.log)"
	# What staprun said, and the output runs, for the record.
	grep -E '^@@ [a-z0-9]+:err ' "$w/console.txt" | grep -v 'symbol table missing' >&2
	grep -E '^@@ (output[0-9]+|flood|lines50|guardlines) ' "$w/console.txt" >&2
	guest_values
	guest_row first "startup: staprun to first output" "<= 1" ms
	guest_row total "startup: staprun start to exit" "<= 1" ms
	if [ -n "$g_kprobes" ]; then
		guest_row kprobes_first "1,712 kprobes: staprun to first output" "<= 1" ms
		guest_row kprobes_total "1,712 kprobes: staprun start to exit" "<= 1" ms
	fi
	guest_row timer0 "timer.us(100) hits++: cost per hit" "<= 0.5" ns
	guest_row timer0_rate "timer.us(100) hits++: hits per second" "~ 1" /s
	guest_row timer "timer.us(100) array+aggr: cost per hit" "<= 0.5" ns
	guest_row timer_rate "timer.us(100) array+aggr: hits per sec" "~ 1" /s
	guest_row syscall "sys_enter array+aggr: cost per hit" "<= 0.5" ns
	guest_row syscall_hits "sys_enter array+aggr: hits (calls $g_calls)" "~ 1" ""
	guest_row syscall_kticks "sys_enter array+aggr: kernel ticks" "<= 1" ""
	guest_row kprobe "kprobe getppid array+aggr: cost per hit" "<= 0.5" ns
	guest_row kprobe_hits "kprobe getppid: hits (calls $g_calls)" "~ 1" ""
	guest_row kglobal "kprobe getppid hits++: cost per hit" "<= 0.5" ns
	guest_row kglobal_hits "kprobe getppid hits++: hits" "~ 1" ""
	guest_row tglobal "sys_enter hits++: cost per hit" "<= 0.5" ns
	guest_row tglobal_hits "sys_enter hits++: hits" "~ 1" ""
	guest_row texec "sys_enter [execname()]++: cost per hit" "<= 0.5" ns
	guest_row texec_hits "sys_enter [execname()]++: benchg hits" "~ 1" ""
	guest_row sexec "sys_enter [execname(),pid()]<<<1: cost/hit" "<= 0.5" ns
	guest_row sexec_hits "sys_enter [execname(),pid()]<<<1: hits" "~ 1" ""
	guest_row uprobe "uprobe on a function hits++: cost per hit" "<= 0.5" ns
	guest_row uprobe_hits "uprobe on a function hits++: hits" "~ 1" ""
	guest_row usdt "SDT marker hits++: cost per hit" "<= 0.5" ns
	guest_row usdt_hits "SDT marker hits++: hits" "~ 1" ""
	guest_row kprintf "kprobe getppid printf a line: cost per hit" "<= 0.5" ns
	guest_row kprintf_hits "kprobe getppid printf a line: hits" "~ 1" ""
	guest_row kprint "kprobe getppid print a string: cost per hit" "<= 0.5" ns
	guest_row kprint_hits "kprobe getppid print a string: hits" "~ 1" ""
	case " $g_lines " in *" lines50 "*)
		guest_row lines50_lines "timer.us(100) 50 lines/hit 3 s: received" "~ 1" lines
		guest_row lines50_lost "timer.us(100) 50 lines/hit 3 s: lost" "0" lines
		guest_row lines50_stopped "timer.us(100) 50 lines/hit: guard stops" "0" "" ;;
	esac
	case " $g_lines " in *" guard-lines "*)
		guest_row guardlines_rate "400 lines/hit until the guard: lines/s" ">= 2" /s
		guest_row guardlines_lines "400 lines/hit until the guard: lines" ">= 2" lines
		guest_row guardlines_stopped "400 lines/hit: guard stops" "1" "" ;;
	esac
	if [ -n "$g_flood" ]; then
		guest_row flood_rate "flood (a line per syscall): lines/s received" ">= 1" /s
		guest_row flood_lost "flood ($g_flood lines): lost" "<= 1" lines
	fi
	for b in $g_batches; do
		guest_row "output${b}_rate" "output ${b}k lines/s offered: received" ">= 1" /s
		guest_row "output${b}_lost" "output ${b}k lines/s offered: lost" "<= 1" lines
		guest_row "output${b}_stopped" "output ${b}k: runs the guard stopped" "0" ""
	done
}
