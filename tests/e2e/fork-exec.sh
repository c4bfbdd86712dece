#!/bin/bash
# Samples are attributed with the process model as it was when they were
# taken: a shell that forks and execs many short programs must not leave
# their samples unresolved, nor credit the child's pre-exec work to the
# program it became.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

"$TRACETOP" -b -z -d 1 -e page-faults -c 4 --format json -- \
	sh -c 'i=0; while [ $i -lt 1500 ]; do /bin/true; i=$((i+1)); done' \
	>"$TT_TMP/pf.json" 2>"$TT_TMP/pf.err"
ok $? "page-faults of a fork/exec loop"
res=$(python3 - "$TT_TMP/pf.json" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) for r in json.loads(l)["rows"]]
total = sum(r["overhead"] for r in rows) or 1
unknown = sum(r["overhead"] for r in rows if r["dso"] == "[unknown]" or r["comm"] == "[unknown]")
true_rows = [r for r in rows if r["comm"] == "true"]
true_wrong = sum(r["overhead"] for r in true_rows if "libc" not in r["dso"] and "ld-linux" not in r["dso"]
                 and "/true" not in r["dso"] and r["dso"] != "[kernel.kallsyms]")
print(round(100 * unknown / total, 1), len(true_rows), round(true_wrong, 1))
PY
)
set -- $res
diag "unresolved ${1}%, rows of true: $2, rows of true outside its own image: ${3}%"
[ "${2:-0}" -gt 0 ]
ok $? "the exec'd program shows under its own name"
python3 -c "import sys; sys.exit(0 if float('$1') <= 3 else 1)"
ok $? "under 3 % of the samples unresolved (${1}%)"
python3 -c "import sys; sys.exit(0 if float('$3') <= 3 else 1)"
ok $? "the child's pre-exec samples are not credited to the new image (${3}%)"
done_testing
