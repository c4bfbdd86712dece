#!/bin/bash
# Run-queue and block I/O latency in the kernel (--engine bpf: BPF on BTF
# tracepoints) against the same pairing in user space (--engine perf):
# - three CPU hogs on two CPUs (taskset): each engine gives three hog
#   processes run-queue waits adding up to 0.5 s or more; an idler's p50
#   is near zero under both; the notice says where the times were paired;
# - -p: only that process's runq rows (the filter map in the kernel);
# - 200 O_DIRECT writes to a loop device: the same count of requests
#   under both engines (skipped, saying why, without loop devices);
# - without CAP_BPF, auto falls back to the perf path with a notice
#   saying so and why, and --engine bpf exits non-zero saying why.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/waiters"
need_tool python3 python3
need_tool taskset util-linux
need_root_perf
[ -e /sys/kernel/btf/vmlinux ] || tap_skip_all "no /sys/kernel/btf/vmlinux: BTF tracepoints need kernel BTF"
"$TRACETOP" -b --view latency --latency-kinds runq --engine bpf -d 0.2 -n 1 >/dev/null \
	2>"$TT_TMP/probe.err" ||
	tap_skip_all "BPF cannot run here: $(head -c 200 "$TT_TMP/probe.err")"

W="$WORKLOADS/waiters"

# FIELDS: every field of the rows ROWS (a python list) holds together:
# max >= p99 >= p50 >= min; the histogram, log2 buckets in order, holds
# every value, its first bucket's low at most the min, the max in its
# last; the total between count x min and count x max.
FIELDS='all(r["max_ns"] >= r["p99_ns"] >= r["p50_ns"] >= r["min_ns"] and sum(c for lo, c in r["hist"]) == r["count"] > 0 and [lo for lo, c in r["hist"]] == sorted(set(lo for lo, c in r["hist"])) and all(lo & (lo - 1) == 0 and c > 0 for lo, c in r["hist"]) and r["hist"][0][0] <= r["min_ns"] and r["hist"][-1][0] <= r["max_ns"] < 2 * max(r["hist"][-1][0], 1) and r["count"] * r["min_ns"] <= r["total_ns"] <= r["count"] * r["max_ns"] for r in ROWS)'
# BAD: the first rows of ROWS whose fields do not (for a diag)
ONCPU='of("oncpu")' BIO_ROWS='of("bio")'
BAD="[{k: r[k] for k in ('kind', 'name', 'count', 'min_ns', 'p50_ns', 'p99_ns', 'max_ns', 'total_ns', 'hist')} for r in ROWS if not ${FIELDS/ for r in ROWS)/ for r in [r])}][:2]"

# q FILE EXPR: EXPR over the last JSON report (j) of FILE and its rows.
q() {
	python3 - "$@" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
j = reps[-1] if reps else {}
rows = j.get("rows", [])
of = lambda k: [r for r in rows if r["kind"] == k]
print(eval(sys.argv[2]))
PY
}

# The rings' path (--engine perf) against what the kernel withholds from
# perf: tracetop counts every context switch with perf's own counter (a
# counting context-switches event per CPU) and says in the notice how
# many never reached the rings, without a lost record. The kernel does
# that to every perf user, not tracetop's rings alone: on this VM's 6.18
# kernel, at times (for minutes, then not), nothing written while CPU 1
# runs its idle task reaches any perf ring. Measured side by side over
# 2 s: a raw BPF tracepoint on sched_switch counted 355 switches out of
# CPU 1's idle task, `perf record -a -e sched:sched_switch` got none of
# them (CPU 0's idle: 402 and 334, the rest within perf's start-up), and
# perf's counting context-switches event counted them all; `perf record`
# then got 1 of the idler's 20 wakeups, as tracetop did. A check of the
# idler or of "nothing lost" is skipped only when the notice says so,
# naming the count; anything else short fails.
# withheld FILE: the notice's "N of M context switches", or nothing.
withheld() {
	q "$1" 'j.get("sched_notice") or ""' | grep -o '[0-9]* of [0-9]* context switches (perf.s counter) never reached the rings'
}

HOGS='[r for r in rows if r["kind"] == "runq" and r["name"] == "hog" and r["count"] > 0 and r["p50_ns"] > 0]'
for e in bpf perf; do
	"$TRACETOP" -b --engine $e --view latency --latency-kinds runq --format json -- \
		taskset -c 0,1 "$W" hogs 3 2 >"$TT_TMP/hogs-$e.json" 2>"$TT_TMP/hogs-$e.err"
	ok $? "$e: --latency-kinds runq -- 3 hogs on 2 CPUs: exit 0"
	[ -s "$TT_TMP/hogs-$e.err" ] && diag "$(head -c 400 "$TT_TMP/hogs-$e.err")"
	is "$(q "$TT_TMP/hogs-$e.json" "len($HOGS)")" 3 "$e: three hog processes with run-queue waits"
	within "$(q "$TT_TMP/hogs-$e.json" "sum(r['total_ns'] for r in $HOGS)")" \
		500000000 100000000000 "$e: the hogs waited for a CPU for 0.5 s or more in all"
	is "$(q "$TT_TMP/hogs-$e.json" "${FIELDS//ROWS/rows}")" True \
		"$e: every runq row's count, p50_ns, p99_ns, max_ns and hist hold together"
	lost="$(q "$TT_TMP/hogs-$e.json" 'j["lost"]')"
	held="$(withheld "$TT_TMP/hogs-$e.json")"
	if [ "$lost" != 0 ] && [ -n "$held" ]; then
		skip "the kernel withheld records from perf ($held)" "$e: nothing lost"
	else
		is "$lost" 0 "$e: nothing lost"
	fi
	# the largest: one hog preempted briefly by another busy process has a small p50
	hog_p50="$(q "$TT_TMP/hogs-$e.json" "max(r['p50_ns'] for r in $HOGS)")"
	"$TRACETOP" -b --engine $e --view latency --latency-kinds runq --format json -- "$W" idle 2 \
		>"$TT_TMP/idle-$e.json" 2>/dev/null
	ok $? "$e: an idler: exit 0"
	# a switch-in after a block with no wakeup seen is counted unpaired
	diag "$e: idler rows $(q "$TT_TMP/idle-$e.json" '[(r["count"], r["p50_ns"]) for r in rows if r["name"] == "idler"]'), unpaired $(q "$TT_TMP/idle-$e.json" 'j.get("unpaired")')"
	idled="$(q "$TT_TMP/idle-$e.json" 'sum(r["count"] for r in rows if r["name"] == "idler")')"
	held="$(withheld "$TT_TMP/idle-$e.json")"
	if [ "$idled" -lt 15 ] 2>/dev/null && [ -n "$held" ]; then
		why="the kernel withheld the idler's records from perf ($idled of 20 counted; $held)"
		skip "$why" "$e: the idler's 20 wakeups are counted"
		skip "$why" "$e: the idler's p50 is near zero"
		continue
	fi
	[ "$idled" -ge 15 ] 2>/dev/null
	ok $? "$e: the idler's 20 wakeups are counted ($idled)"
	within "$(q "$TT_TMP/idle-$e.json" 'max([r["p50_ns"] for r in rows if r["name"] == "idler"] or [None])')" \
		0 "$(idle_bound "$hog_p50")" \
		"$e: the idler's p50 is near zero: under a quarter of the busiest hog's ($hog_p50 ns) or 200 us, and 5 ms"
done
like "$(q "$TT_TMP/hogs-bpf.json" 'j["sched_notice"]')" '^run-queue times in the kernel' \
	"bpf: the notice says the times were paired in the kernel"
like "$(q "$TT_TMP/hogs-perf.json" 'j["sched_notice"]')" \
	'^run-queue times paired in user space: a ring record per context switch.*--engine perf' \
	"perf: the notice says they were paired in user space, what it costs and why"

# BTF tracepoints share nothing with perf users of the same tracepoints:
# the perf path still gets every record while a BPF run is attached
"$TRACETOP" -b --engine bpf --view latency --latency-kinds runq --format json -d 4 -n 1 \
	>"$TT_TMP/both-bpf.json" 2>/dev/null &
bpid=$!
bg_pid $bpid
sleep 0.5
"$TRACETOP" -b --engine perf --view latency --latency-kinds runq --format json -- \
	taskset -c 0,1 "$W" hogs 3 2 >"$TT_TMP/both-perf.json" 2>/dev/null
ok $? "perf beside a BPF run: exit 0"
is "$(q "$TT_TMP/both-perf.json" "len($HOGS)")" 3 \
	"perf beside a BPF run: three hog processes with run-queue waits"
wait $bpid
ok $? "the BPF run beside it: exit 0"
# (at least: a parallel test may run hogs of its own)
within "$(q "$TT_TMP/both-bpf.json" "len([r for r in rows if r['name'] == 'hog' and r['count'] > 0])")" 3 1000 \
	"the BPF run, system-wide, saw the three hogs too"

# -p: the kernel's filter keeps that process only
"$W" idle 3 &
ipid=$!
bg_pid $ipid
sleep 0.3
"$TRACETOP" -b --engine bpf --view latency --latency-kinds runq --format json -p $ipid -d 1.5 -n 1 \
	>"$TT_TMP/p.json" 2>"$TT_TMP/p.err"
ok $? "bpf: -p an idler: exit 0"
is "$(q "$TT_TMP/p.json" "sorted(set((r['kind'], r['pid']) for r in rows))")" \
	"[('runq', $ipid)]" "bpf: -p: its runq rows, no other process's"

# block I/O: the same requests counted by both engines
LOOP=
if [ ! -e /dev/loop-control ] || ! command -v losetup >/dev/null 2>&1; then
	skip "no /dev/loop-control or losetup: loop devices unavailable here" "bio under both engines"
else
	truncate -s 16M "$TT_TMP/disk.img"
	LOOP="$(losetup -f --show "$TT_TMP/disk.img" 2>"$TT_TMP/losetup.err")" || LOOP=
	[ -n "$LOOP" ] || skip "cannot attach a loop device: $(head -c 200 "$TT_TMP/losetup.err")" \
		"bio under both engines"
fi
if [ -n "$LOOP" ]; then
	at_exit "losetup -d '$LOOP'"
	NAME="${LOOP#/dev/}"
	BIO="sum(r['count'] for r in rows if r['kind'] == 'bio' and r['name'] == '$NAME')"
	for e in bpf perf; do
		"$TRACETOP" -b --engine $e --view latency --latency-kinds bio --format json -- \
			"$W" dio "$LOOP" 200 >"$TT_TMP/bio-$e.json" 2>/dev/null
		ok $? "$e: --latency-kinds bio -- 200 O_DIRECT writes to $LOOP: exit 0"
		within "$(q "$TT_TMP/bio-$e.json" "$BIO")" 200 210 \
			"$e: $NAME: the 200 writes counted (a flush or a few more allowed)"
		is "$(q "$TT_TMP/bio-$e.json" "len([r for r in rows if r['name'] == '$NAME'])")" 1 "$e: $NAME: one row"
		is "$(q "$TT_TMP/bio-$e.json" "${FIELDS//ROWS/$BIO_ROWS}")" True \
			"$e: every bio row's count, p50_ns, p99_ns, max_ns and hist hold together" ||
			diag "$(q "$TT_TMP/bio-$e.json" "${BAD//ROWS/$BIO_ROWS}")"
	done
	is "$(q "$TT_TMP/bio-bpf.json" "$BIO")" "$(q "$TT_TMP/bio-perf.json" "$BIO")" \
		"$NAME: the same count of requests under both engines"
	like "$(q "$TT_TMP/bio-bpf.json" 'j["sched_notice"]')" '^block I/O times in the kernel' \
		"bpf: the block I/O notice says in the kernel"
fi

# Without CAP_BPF (CAP_PERFMON kept: the tracepoints still open)
if without_bpf "$TT_TMP/drop.json" \
	"'$TRACETOP' -b --view latency --latency-kinds runq --format json -- taskset -c 0,1 '$W' hogs 3 1" \
	'latency run-queue times paired in user space.*not in the kernel: .*BPF needs root or CAP_BPF' \
	"'$TRACETOP' -b --engine bpf --view latency --latency-kinds runq -d 0.2 -n 1"; then
	is "$(q "$TT_TMP/drop.json" "len($HOGS)")" 3 "no CAP_BPF: the three hogs' waits still measured"
fi

done_testing
