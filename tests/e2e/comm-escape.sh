#!/bin/bash
# A command name with control characters reaches neither the terminal nor
# a file raw: it is printed escaped, in text and in JSON.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

EVIL_PIDFILE="$TT_TMP/evil.pid" "$WORKLOADS/evilcomm" 20 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/evil.pid" 5)
[ -n "$pid" ]
ok $? "workload with a hostile name started"
# wait until the kernel has the new name
wait_for 5 grep -q x "/proc/$pid/comm"

"$TRACETOP" -b -p "$pid" -d 0.5 -n 2 >"$TT_TMP/t.txt" 2>&1
ok $? "text report"
! grep -q $'\x1b' "$TT_TMP/t.txt"
ok $? "text: no raw ESC"
like "$(cat "$TT_TMP/t.txt")" 'ev\\x1b\[31mil\\x0ax' "text: name escaped"

"$TRACETOP" -b -p "$pid" -d 0.5 -n 2 --format json >"$TT_TMP/j.json" 2>"$TT_TMP/j.err"
! grep -q $'\x1b' "$TT_TMP/j.json" "$TT_TMP/j.err"
ok $? "json: no raw ESC"
python3 - "$TT_TMP/j.json" "$pid" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1]).readlines()[-1])["rows"]
names = {r["comm"] for r in rows if r["pid"] == int(sys.argv[2])}
print("# names:", names)
sys.exit(0 if "ev\\x1b[31mil\\x0ax" in names else 1)
PY
ok $? "json: valid, name escaped"
done_testing
