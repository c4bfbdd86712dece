#!/bin/bash
# Every pane recorded and replayed in batch: the split workload (a copy
# under a name of its own, run from a directory moved away afterwards)
# recorded for 10 s with -g, counters, a tracepoint, a uprobe on one of
# its functions and syscall latency, once per view (top, counters, trace,
# probes, latency, system), each run printing its view live; each
# recording replayed in that view gives the same intervals with the same
# rows and values (within rounding: shares to 0.01 points; counts, hits,
# percentiles, trace entries and system numbers exactly); every recording
# replays in every view; a copy replays without the binaries as user
# nobody, --annotate included (the recorded code and source lines).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_root_perf
need_tool python3 python3
need_tool setpriv util-linux
TFS=/sys/kernel/tracing
[ -w "$TFS/uprobe_events" ] || tap_skip_all "no writable uprobe_events in tracefs (CONFIG_UPROBE_EVENTS, root)"

mkdir -p "$TT_TMP/bin"
BIN="$TT_TMP/bin/viewsplit"
cp "$WORKLOADS/split" "$BIN"
VIEWS="top counters trace probes latency system"

# live VIEW: 10 refreshes of 1 s of VIEW as JSON, recorded into rec.VIEW
live() {
	"$TRACETOP" -b -g -d 1 -n 10 --format json --view "$1" -w "$TT_TMP/rec.$1" \
		--counters task-clock,page-faults,context-switches -T sched:sched_switch \
		--probe "$BIN:split_beta" --latency-kinds syscall -- "$BIN" 12 \
		>"$TT_TMP/live.$1" 2>"$TT_TMP/live.$1.err"
}

# two views at a time: the comparisons are within each run
set -- $VIEWS
while [ $# -gt 0 ]; do
	pids=()
	for v in "$1" "${2:-}"; do
		[ -n "$v" ] || continue
		live "$v" &
		pids+=("$!:$v")
	done
	for pv in "${pids[@]}"; do
		wait "${pv%%:*}"
		ok $? "live --view ${pv#*:} -w exits 0" || diag "$(head -c 600 "$TT_TMP/live.${pv#*:}.err")"
	done
	shift 2 2>/dev/null || shift $#
done
bid=$(readelf -n "$BIN" 2>/dev/null | awk '/Build ID/ { print $3 }')
mv "$TT_TMP/bin" "$TT_TMP/gone"

# each recording in its own view, the binaries gone
for v in $VIEWS; do
	"$TRACETOP" -r "$TT_TMP/rec.$v" -b --format json >"$TT_TMP/rep.$v" 2>"$TT_TMP/rep.$v.err"
	ok $? "-r rec.$v -b (its recorded view: $v) exits 0" || diag "$(cat "$TT_TMP/rep.$v.err")"
done

cat >"$TT_TMP/same.py" <<'PY'
import json, sys
view, live_p, rep_p = sys.argv[1:4]
def load(p):
    return [o for o in (json.loads(l) for l in open(p) if l.strip()) if o.get("view") == view]
live, rep = load(live_p), load(rep_p)
bad = []
def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))
if view == "trace":
    # the live run prints entries as they settle, a replay per interval:
    # the same entries in the same order
    key = lambda r: (r["ts"], r["cpu"], r["pid"], r["tid"], r["event"],
                     json.dumps(r.get("fields"), sort_keys=True), tuple(r.get("stack", [])))
    a = [key(r) for o in live for r in o["rows"]]
    b = [key(r) for o in rep for r in o["rows"]]
    print("entries: live %d, replay %d" % (len(a), len(b)))
    if not a or a != b:
        bad.append("the entries differ")
    sys.exit(1 if bad else 0)
print("intervals: live %d, replay %d" % (len(live), len(rep)))
if len(live) < 8 or len(live) != len(rep):
    bad.append("interval count")
for i, (a, b) in enumerate(zip(live, rep)):
    if view == "top":
        ra = {(r["comm"], r["dso"], r["symbol"]): r for r in a["rows"]}
        rb = {(r["comm"], r["dso"], r["symbol"]): r for r in b["rows"]}
        if a["samples"] != b["samples"] or set(ra) != set(rb):
            bad.append("interval %d: rows or samples" % i)
        for k in ra:
            if k in rb and not abs(ra[k]["overhead"] - rb[k]["overhead"]) <= 0.01:
                bad.append("interval %d: %s share %s vs %s" % (i, k, ra[k]["overhead"], rb[k]["overhead"]))
    elif view == "counters":
        ra = {(r["event"], r["scope"]): r for r in a["rows"]}
        rb = {(r["event"], r["scope"]): r for r in b["rows"]}
        if set(ra) != set(rb) or not ra:
            bad.append("interval %d: rows" % i)
        for k in ra:
            for f in ("value", "rate", "total", "share"):
                if k in rb and f in ra[k] and not close(ra[k][f], rb[k].get(f, -1), 1e-6):
                    bad.append("interval %d: %s %s" % (i, k, f))
    elif view == "probes":
        ra = {r["name"]: r for r in a["rows"]}
        rb = {r["name"]: r for r in b["rows"]}
        if set(ra) != set(rb) or not any(r["hits"] > 0 for r in ra.values()):
            bad.append("interval %d: rows or no hits" % i)
        for k in ra:
            if k in rb and (ra[k]["hits"] != rb[k]["hits"] or not close(ra[k]["rate"], rb[k]["rate"], 1e-6)):
                bad.append("interval %d: %s hits" % (i, k))
    elif view == "latency":
        ra = {(r["kind"], r["name"], r["pid"]): r for r in a["rows"]}
        rb = {(r["kind"], r["name"], r["pid"]): r for r in b["rows"]}
        if set(ra) != set(rb) or not ra:
            bad.append("interval %d: rows" % i)
        for k in ra:
            for f in ("count", "errors", "p50_ns", "p99_ns", "max_ns", "hist"):
                if k in rb and ra[k].get(f) != rb[k].get(f):
                    bad.append("interval %d: %s %s" % (i, k, f))
    elif view == "system":
        for f in a:
            if f != "time" and a[f] != b.get(f):
                bad.append("interval %d: %s" % (i, f))
print("; ".join(bad[:5]) or "same")
sys.exit(1 if bad else 0)
PY
for v in $VIEWS; do
	res=$(python3 "$TT_TMP/same.py" "$v" "$TT_TMP/live.$v" "$TT_TMP/rep.$v" 2>&1)
	ok $? "--view $v: the replay has the live intervals' rows and values"
	diag "$res"
done

# every recording holds every pane's part: each replays in every view
# (the profile's, top and flame, only where the run sampled: --view top)
for rec in $VIEWS; do
	fails=""
	for v in $VIEWS; do
		"$TRACETOP" -r "$TT_TMP/rec.$rec" -b --view "$v" --format json >"$TT_TMP/x.json" \
			2>"$TT_TMP/x.err" && [ -s "$TT_TMP/x.json" ] || fails="$fails $v"
	done
	if [ "$rec" = top ]; then
		"$TRACETOP" -r "$TT_TMP/rec.$rec" -b --view flame >"$TT_TMP/x.txt" 2>&1 &&
			grep -q 'split_alpha' "$TT_TMP/x.txt" || fails="$fails flame"
	fi
	is "$fails" "" "the recording of --view $rec replays in every view"
done
like "$(python3 -c '
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print(" ".join(sorted(r["name"] for r in o["rows"] if r["hits"] > 0)))' "$TT_TMP/rep.probes")" \
	'tracetop_[0-9]+:split_beta' "the uprobe on split_beta has its hits in the replay"

# a copy, replayed as user nobody without the binaries
pub=$(mktemp -d /tmp/tt-rec.XXXXXX)
at_exit "rm -rf '$pub'"
cp "$TRACETOP" "$pub/tracetop" && cp "$TT_TMP/rec.top" "$pub/copy.ttr" &&
	chmod 755 "$pub" "$pub/tracetop" && chmod 644 "$pub/copy.ttr"
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if ! "${nobody[@]}" "$pub/tracetop" --version >/dev/null 2>"$TT_TMP/nobody"; then
	for t in "as nobody: replays" "as nobody: same rows" "as nobody: --annotate" \
		"as nobody: every view"; do
		skip "user nobody cannot run programs here: $(head -n 1 "$TT_TMP/nobody")" "$t"
	done
else
	(cd "$pub" && "${nobody[@]}" ./tracetop -r copy.ttr -b --format json >"$TT_TMP/nob.json" \
		2>"$TT_TMP/nob.err" </dev/null)
	ok $? "as nobody: a copy replays without the binaries" || diag "$(cat "$TT_TMP/nob.err")"
	cmp -s "$TT_TMP/nob.json" "$TT_TMP/rep.top"
	ok $? "as nobody: the same rows as root's replay"
	(cd "$pub" && "${nobody[@]}" ./tracetop -r copy.ttr -b --annotate split_alpha \
		>"$TT_TMP/nob.ann" 2>"$TT_TMP/nob.ann.err" </dev/null)
	st=$?
	hot=$(awk '/^annotate: split_alpha/ { on = 1 } on && /^ +[0-9]+\.[0-9]+ │ +[0-9a-f]+:/ { print $1 }' \
		"$TT_TMP/nob.ann" | sort -rn | head -n 1)
	[ "$st" -eq 0 ] && grep -q '^annotate: split_alpha ' "$TT_TMP/nob.ann" &&
		grep -q 'split\.c:[0-9]\+ SPLIT_FN(split_alpha' "$TT_TMP/nob.ann" &&
		[ -n "$hot" ] && python3 -c "import sys; sys.exit(float('$hot') < 5)"
	ok $? "as nobody: --annotate split_alpha from the recorded code and source (hottest line $hot %)" ||
		diag "$(head -c 800 "$TT_TMP/nob.ann"; cat "$TT_TMP/nob.ann.err")"
	fails=""
	for v in counters trace probes latency system; do
		(cd "$pub" && "${nobody[@]}" ./tracetop -r copy.ttr -b --view $v >/dev/null \
			2>"$TT_TMP/nob.$v" </dev/null) || fails="$fails $v"
	done
	is "$fails" "" "as nobody: every view replays"
fi
[ -n "$bid" ] && "$TRACETOP" -r "$TT_TMP/rec.top" -b --format pprof -o "$TT_TMP/p.pb.gz" 2>/dev/null &&
	zcat "$TT_TMP/p.pb.gz" | grep -aq "$bid"
ok $? "the pprof of the recording names the gone binary's build-id"
done_testing
