#!/bin/bash
# Functions that fade below one sample are folded into their process's and
# object's [other functions] row, not dropped: system-wide, the kernel
# functions sampled once or twice beside the split workload (its three
# hot functions never fade) end there; in JSON such a row is marked
# "other" and has no offset, in text it reads [other functions]; the
# workload's split stays what its rows say (its [other functions], if
# any, hold little).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_root_perf

"$WORKLOADS/split" 30 >/dev/null 2>&1 &
pid=$!
bg_pid "$pid"
wait_for 5 grep -qx split "/proc/$pid/comm"

# 12 refreshes of 0.25 s: a function sampled once fades after two
"$TRACETOP" -b -d 0.25 -n 12 -s pid,dso,sym --format json >"$TT_TMP/sys.json" 2>"$TT_TMP/sys.err"
ok $? "system-wide JSON by pid, object and function exits 0" || diag "$(cat "$TT_TMP/sys.err")"
res=$(python3 - "$TT_TMP/sys.json" "$pid" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1]).readlines()[-1])["rows"]
pid = int(sys.argv[2])
other = [r for r in rows if r["symbol"] == "[other functions]"]
keys = [(r["pid"], r["dso"]) for r in other]
mine = {r["symbol"]: r["overhead"] for r in rows if r["pid"] == pid}
hot = sum(v for k, v in mine.items() if k.startswith("split_"))
print(len(other) > 0 and all(r.get("other") is True and "offset" not in r for r in other)
      and len(keys) == len(set(keys)) and hot > 5 * mine.get("[other functions]", 0))
print("[other functions] rows: %d (%s); the workload's: %s" %
      (len(other), sorted(set(r["dso"] for r in other))[:4], sorted(mine.items())[:6]))
PY
)
like "$res" '^True' "faded functions are in one [other functions] row per process and object, marked other, no offset"
diag "$res"

"$TRACETOP" -b -d 0.25 -n 12 -s pid,dso,sym >"$TT_TMP/sys.txt" 2>/dev/null
like "$(cat "$TT_TMP/sys.txt")" '\[[k.]\] \[other functions\]' "text rows read [other functions]"

done_testing
