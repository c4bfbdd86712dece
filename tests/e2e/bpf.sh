#!/bin/bash
# The BPF sampling engine (--engine bpf, issue 16): the same profile as the
# ring path (the split workload's 50/30/20 within 2 points of --engine
# perf's, in JSON, text and folded, without and with -g, and the same call
# paths), the fallback to the rings without the privileges and after a
# load the kernel refuses (its reason said once), loss reported
# when the maps are too small, and nothing left loaded in the kernel after
# an exit, SIGINT, SIGTERM, SIGHUP or SIGKILL.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_root_perf
need_tool python3 python3

SPLIT="$WORKLOADS/split"
ENGINES="python3 $TT_SRCDIR/tests/e2e/engines.py"
EXPECT="split_alpha=50 split_beta=30 split_gamma=20"

start_split 300 # killed at exit
[ -n "$pid" ] || bail_out "the split workload did not start"

# Is BPF here at all? Not built in, or a kernel without it: skip, saying so.
if ! "$TRACETOP" -b -p "$pid" -d 0.2 -n 1 --engine bpf >"$TT_TMP/probe.txt" 2>"$TT_TMP/probe.err"; then
	why=$(grep -m1 -- '--engine bpf' "$TT_TMP/probe.err")
	case "$why" in
	*"not built in"* | *"CONFIG_BPF_SYSCALL"*) tap_skip_all "${why#tracetop: }" ;;
	esac
	bail_out "--engine bpf failed here: $(head -n 3 "$TT_TMP/probe.err")"
fi

# compare NAME FORMAT ARGS...: an --engine perf and an --engine bpf run of
# the same workload at the same time, in FORMAT, with ARGS; their shares
# within 2 points. Side by side, both see the same seconds of the
# workload: on a loaded machine its split itself strays from second to
# second (runs one after the other were 2.6 and 3.7 points apart under
# CI's load, each near the truth). Five seconds of samples keep the
# sampling noise of two runs' difference near a point. A pair that
# disagrees is run once more, and the second pair must agree.
compare() {
	local name=$1 fmt=$2 res st1 st2 extra=() try status ppid
	shift 2
	[ "$fmt" = folded ] && extra=(--paths)
	for try in 1 2; do
		st1=0 st2=0
		"$TRACETOP" -b -p "$pid" -d 1 -n 5 --format "$fmt" --engine perf "$@" \
			>"$TT_TMP/perf.$fmt" 2>"$TT_TMP/perf.err" &
		ppid=$!
		"$TRACETOP" -b -p "$pid" -d 1 -n 5 --format "$fmt" --engine bpf "$@" \
			>"$TT_TMP/bpf.$fmt" 2>"$TT_TMP/bpf.err" || st2=$?
		wait "$ppid" || st1=$?
		res=$($ENGINES "$fmt" "$TT_TMP/perf.$fmt" "$TT_TMP/bpf.$fmt" --pid "$pid" \
			"${extra[@]}" $EXPECT 2>&1)
		status=$?
		[ "$status" -eq 0 ] && break
		diag "try $try: $res"
	done
	[ "$st1" -eq 0 ] && [ "$st2" -eq 0 ]
	ok $? "$name: both engines exit 0" || diag "$(cat "$TT_TMP/perf.err" "$TT_TMP/bpf.err")"
	ok "$status" "$name: perf and bpf agree within 2 points"
	diag "$res"
}

compare "json" json
like "$(cat "$TT_TMP/bpf.json")" '"engine":"bpf","engine_why":"in-kernel aggregation' \
	"json: the bpf run says engine bpf and why"
like "$(cat "$TT_TMP/perf.json")" '"engine":"perf","engine_why":"--engine perf"' \
	"json: the perf run says engine perf"
compare "text" text
like "$(cat "$TT_TMP/bpf.text")" '^engine: bpf \(in-kernel aggregation, no stacks' \
	"text: the engine line"
compare "json -g" json -g
compare "text -g" text -g
like "$(cat "$TT_TMP/bpf.text")" '^ *100\.00% +0\.00% +[0-9]+ +split +[0-9]+ +split +\[\.\] main$' \
	"text -g: main holds all the children time"
compare "folded -g (and its call paths)" folded -g
like "$(cat "$TT_TMP/bpf.folded")" '^split;.*main;run_mix;split_alpha [0-9]+$' \
	"folded -g: main -> run_mix -> split_alpha"

# the system-wide default (auto) takes BPF here, root with a BPF kernel
"$TRACETOP" -b -d 0.5 -n 1 --format json >"$TT_TMP/auto.json" 2>/dev/null
like "$(cat "$TT_TMP/auto.json")" '"engine":"bpf"' "auto: BPF as root"
# DWARF unwinding needs each sample's stack copy: the rings
"$TRACETOP" -b -p "$pid" -d 0.5 -n 1 --call-graph dwarf --format json >"$TT_TMP/dw.json" 2>/dev/null
like "$(cat "$TT_TMP/dw.json")" '"engine":"perf","engine_why":"--call-graph dwarf needs' \
	"auto with --call-graph dwarf: the rings, saying why"
tap_fails "--engine bpf with --call-graph dwarf fails" \
	"$TRACETOP" -b -p "$pid" -d 0.5 -n 1 --call-graph dwarf --engine bpf
like "$(cat "$TT_TMP/tap_ok.out")" 'engine bpf: --call-graph dwarf' "... saying why"

# Without CAP_BPF/CAP_PERFMON/CAP_SYS_ADMIN: auto falls back with a notice,
# --engine bpf fails. User-mode cpu-clock on a command needs no privilege
# (perf_event_paranoid <= 2).
if command -v capsh >/dev/null 2>&1 &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ]; then
	DROP="capsh --drop=cap_sys_admin,cap_bpf,cap_perfmon --"
	$DROP -c "'$TRACETOP' -b -d 1 -e cpu-clock:u -- '$SPLIT' 1" >"$TT_TMP/drop.txt" 2>"$TT_TMP/drop.err"
	ok $? "no CAP_BPF: auto runs (on the rings)"
	like "$(cat "$TT_TMP/drop.txt")" '^engine: perf \(BPF needs root or CAP_BPF\+CAP_PERFMON' \
		"no CAP_BPF: the report says engine perf and why"
	like "$(cat "$TT_TMP/drop.err")" 'BPF engine not used: BPF needs root or CAP_BPF\+CAP_PERFMON.*sampling through the rings' \
		"no CAP_BPF: the notice on stderr"
	like "$(cat "$TT_TMP/drop.txt")" '\[\.\] split_alpha$' "no CAP_BPF: the profile is there"
	$DROP -c "'$TRACETOP' -b -d 1 -e cpu-clock:u --engine bpf -- '$SPLIT' 1" >"$TT_TMP/drop2.txt" 2>"$TT_TMP/drop2.err"
	st=$?
	[ "$st" -ne 0 ]
	ok $? "no CAP_BPF: --engine bpf exits non-zero ($st)"
	like "$(cat "$TT_TMP/drop2.err")" '^tracetop: --engine bpf: BPF needs root or CAP_BPF\+CAP_PERFMON' \
		"no CAP_BPF: --engine bpf says why"
else
	skip "capsh (libcap2-bin) missing or perf_event_paranoid > 2" "fallback without CAP_BPF"
fi

# A load the kernel refuses (maps bigger than it allows): auto says the
# kernel's reason once, beside the event's own fallback notice where the
# default event fell back (no PMU: cycles becomes cpu-clock), and samples
# through the rings; --engine bpf fails saying it.
REFUSE="TRACETOP_BPF_ENTRIES=2000000000"
env $REFUSE "$TRACETOP" -b -p "$pid" -d 0.5 -n 2 --format json >"$TT_TMP/refused.json" \
	2>"$TT_TMP/refused.err"
ok $? "refused load: auto runs"
like "$(cat "$TT_TMP/refused.json")" '"engine":"perf","engine_why":"cannot load BPF program tracetop_profile: a map is bigger than the kernel allows' \
	"refused load: the rings, and the kernel's reason as why"
is "$(grep -c 'BPF engine not used: cannot load BPF program' "$TT_TMP/refused.err")" 1 \
	"refused load: the reason on stderr, once" || diag "$(cat "$TT_TMP/refused.err")"
like "$(cat "$TT_TMP/refused.json")" '"rows":\[.*"symbol":"split_alpha"' "refused load: the profile is there"
if grep -q 'no hardware PMU for cycles' "$TT_TMP/refused.err"; then
	like "$(cat "$TT_TMP/refused.err")" '^tracetop: no hardware PMU for cycles: sampling cpu-clock instead; BPF engine not used: cannot load' \
		"refused load, no PMU: both notices on stderr"
	like "$(cat "$TT_TMP/refused.json")" '"notice":"no hardware PMU for cycles: sampling cpu-clock instead; BPF engine not used: cannot load' \
		"refused load, no PMU: both notices in the report"
else
	skip "this machine has a PMU: the default event needs no fallback" \
		"refused load, no PMU: both notices on stderr"
	skip "this machine has a PMU" "refused load, no PMU: both notices in the report"
fi
tap_fails "refused load: --engine bpf fails" env $REFUSE "$TRACETOP" -b -p "$pid" -d 0.5 -n 1 --engine bpf
like "$(cat "$TT_TMP/tap_ok.out")" '^tracetop: --engine bpf: cannot load BPF program tracetop_profile: a map is bigger' \
	"... saying the kernel's reason"

# Maps too small for the distinct keys and stacks: the samples they cannot
# hold are lost, and said so.
for g in "" "-g"; do
	TRACETOP_BPF_ENTRIES=2 "$TRACETOP" -b -p "$pid" -d 1 -n 2 --engine bpf $g --format json \
		>"$TT_TMP/small.json" 2>/dev/null
	lost=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["total_lost"])' \
		"$TT_TMP/small.json" 2>/dev/null)
	[ "${lost:-0}" -gt 0 ]
	ok $? "maps of 2 entries ${g:-without -g}: lost samples reported ($lost)"
done

# Keys no map size foresaw (every page fault of a fork and exec loop, in
# maps of 4,096 keys): the first refresh loses what overflowed, then the
# counts are read within each refresh and the later ones lose little.
TRACETOP_BPF_ENTRIES=4096 "$TRACETOP" -b -z -d 1 -e page-faults -c 1 --engine bpf --format json -- \
	sh -c 'i=0; while [ $i -lt 3000 ]; do /bin/true; i=$((i+1)); done' \
	>"$TT_TMP/burst.json" 2>"$TT_TMP/burst.err"
ok $? "maps overflowed by a fork and exec loop: exit 0"
set -- $(python3 - "$TT_TMP/burst.json" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
later = r[1:]
got = sum(x["samples"] for x in later)
lost = sum(x["lost"] for x in later)
print(len(r), r[0]["lost"], round(100 * lost / max(got + lost, 1), 1),
      int(any("read every" in x["engine_why"] for x in later)))
PY
)
diag "$1 refreshes, the first lost $2 samples, the later ones ${3}%"
[ "${1:-0}" -ge 3 ] && [ "${2:-0}" -gt 0 ]
ok $? "... the first refresh overflowed the maps and said so ($2 lost)"
# (80 % without the reads within the refresh; a loaded machine's bursts
# may catch a read or two)
python3 -c "import sys; sys.exit(0 if float('${3:-100}') <= 10 else 1)"
ok $? "... the later refreshes, read within the refresh, lost under 10 % (${3}%)"
is "${4:-0}" 1 "... the engine line says how often it reads"

# bpf_ids PID: the BPF program and map ids PID holds ("prog:N", "map:N").
bpf_ids() {
	local f
	for f in /proc/"$1"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*/prog:/p; s/^map_id:[[:space:]]*/map:/p' "$f" 2>/dev/null
	done | sort -u
}

# gone IDS...: none of the ids is still loaded in the kernel.
gone() {
	local id
	for id in "$@"; do
		if command -v bpftool >/dev/null 2>&1; then
			bpftool "${id%%:*}" show id "${id#*:}" >/dev/null 2>&1 && return 1
		else
			grep -qs "^${id%%:*}_id:[[:space:]]*${id#*:}\$" /proc/[0-9]*/fdinfo/* && return 1
		fi
	done
	return 0
}

# left SIGNAL: start tracetop on BPF, note what it loaded, stop it with
# SIGNAL (or let it end: "exit"), and check the kernel let everything go.
left() {
	# "exit" ends after 10 refreshes: 3 s to see what it loaded (with 3,
	# the 1 s between the load and the exit was missed by a niced poll on
	# a loaded machine)
	local sig=$1 tp ids=() n=10
	[ "$sig" = exit ] || n=1000
	"$TRACETOP" -b -p "$pid" -d 0.3 -n "$n" -g --engine bpf >/dev/null 2>&1 &
	tp=$!
	wait_for 5 eval '[ -n "$(bpf_ids '"$tp"')" ]'
	mapfile -t ids < <(bpf_ids "$tp")
	[ "${#ids[@]}" -ge 2 ]
	ok $? "$sig: tracetop holds its program and maps (${ids[*]})"
	[ "$sig" = exit ] || kill -"$sig" "$tp"
	wait "$tp" 2>/dev/null
	wait_for 5 gone "${ids[@]}"
	ok $? "$sig: nothing of it left loaded"
}
for sig in exit INT TERM HUP KILL; do
	left "$sig"
done
# The screen's header says which engine counts and why; after a refused
# load, the notices (the event's and BPF's) and the kernel's reason.
if command -v tmux >/dev/null 2>&1; then
	tui_start eng 160 30 -p "$pid" -d 0.5 --engine bpf
	tmux_wait_text eng 5 'Engine: bpf +\(in-kernel aggregation, no stacks'
	ok $? "the screen's header says Engine: bpf and why" || diag "$(tmux_capture eng)"
	tmux_kill
	tmux_start ref 160 30 env $REFUSE "$TRACETOP" -p "$pid" -d 0.5
	tmux_wait_text ref 5 'Engine: perf +\(cannot load BPF program tracetop_profile: a map is bigger'
	ok $? "refused load: the header says Engine: perf and the kernel's reason" ||
		diag "$(tmux_capture ref)"
	if grep -q 'no hardware PMU for cycles' "$TT_TMP/refused.err"; then
		like "$(tmux_capture ref)" '\(no hardware PMU for cycles; BPF engine not used\)' \
			"refused load, no PMU: the header shows both notices"
	else
		like "$(tmux_capture ref)" '\(BPF engine not used\)' \
			"refused load: the header shows the notice"
	fi
	tmux_kill
else
	skip "tmux is not installed" "the screen's header says Engine: bpf and why"
fi

if ! command -v bpftool >/dev/null 2>&1; then
	diag "bpftool missing: checked that no process holds the ids instead"
fi
done_testing
