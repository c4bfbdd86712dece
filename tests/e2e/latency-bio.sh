#!/bin/bash
# Block I/O latency (--view latency --latency-kinds bio): a loop device
# over a file in $TT_TMP takes 200 O_DIRECT 4 KiB writes at distinct
# offsets (waiters dio); its row (kind bio, named after the device)
# counts them (and the fsync's flush, at most a few more), every request
# paired (issue -> complete), with a histogram holding each. Skips, saying
# why, where loop devices cannot be made (a chroot or container without
# /dev/loop-control).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/waiters"
need_tool python3 python3
need_tool losetup mount
need_root_perf
tp=/sys/kernel/tracing
[ -d $tp/events ] || tp=/sys/kernel/debug/tracing
[ -d $tp/events/block/block_rq_issue ] ||
	tap_skip_all "no block tracepoints (tracefs not mounted or kernel without them)"
[ -e /dev/loop-control ] || tap_skip_all "no /dev/loop-control: loop devices unavailable here"

truncate -s 16M "$TT_TMP/disk.img"
LOOP="$(losetup -f --show "$TT_TMP/disk.img" 2>"$TT_TMP/losetup.err")" ||
	tap_skip_all "cannot attach a loop device: $(head -c 200 "$TT_TMP/losetup.err")"
at_exit "losetup -d '$LOOP'"
NAME="${LOOP#/dev/}"

"$TRACETOP" -b --view latency --latency-kinds bio --format json -- \
	"$WORKLOADS/waiters" dio "$LOOP" 200 >"$TT_TMP/bio.json" 2>"$TT_TMP/bio.err"
ok $? "--latency-kinds bio -- 200 O_DIRECT writes to $LOOP: exit 0"
[ -s "$TT_TMP/bio.err" ] && diag "$(head -c 400 "$TT_TMP/bio.err")"

# row EXPR: EXPR over the device's row (r) in the last report, None without one
row() {
	python3 - "$TT_TMP/bio.json" "$NAME" "$1" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = reps[-1]["rows"] if reps else []
r = next((r for r in rows if r["kind"] == "bio" and r["name"] == sys.argv[2]), None)
print(eval(sys.argv[3]) if r is not None else None)
PY
}
within "$(row 'r["count"]')" 200 210 "$NAME: the 200 writes counted (a flush or a few more allowed)"
is "$(row 'sum(c for lo, c in r["hist"]) == r["count"]')" True "$NAME: the histogram holds every request"
is "$(row 'r["max_ns"] >= r["p99_ns"] >= r["p50_ns"] > 0')" True "$NAME: 0 < p50 <= p99 <= max"
is "$(row 'r["pid"]')" 0 "$NAME: a device's row belongs to no process (pid 0)"
is "$(python3 -c '
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print(all(r["kind"] == "bio" for r in rep["rows"]))' "$TT_TMP/bio.json")" True "only bio rows"

"$TRACETOP" -b --view latency --latency-kinds bio -- "$WORKLOADS/waiters" dio "$LOOP" 50 \
	>"$TT_TMP/bio.txt" 2>/dev/null
ok $? "text: exit 0"
like "$(cat "$TT_TMP/bio.txt")" "^@bio\\[$NAME, - 0\\]:\$" "text: the device's histogram title"

done_testing
