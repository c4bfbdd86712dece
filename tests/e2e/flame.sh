#!/bin/bash
# Flame graphs in batch on the workload with known call paths
# (tests/workloads/callpaths.c: main -> cp_run -> cp_X -> cp_X_mid ->
# cp_X_leaf, X = alpha 50 %, beta 30 %, gamma 20 %):
# --view flame text (a line per depth, segments of proportional width and
# their labelled shares), --format svg (well-formed XML, frame widths by
# samples, a hostile comm escaped), and the usage errors.
. "$(dirname "$0")/lib.sh"

FP="$WORKLOADS/callpaths-fp"
need_built "$TRACETOP" "$FP" "$WORKLOADS/evilcomm"
need_root_perf
need_tool python3 python3

FL="python3 $TT_TMP/fl.py"
cat >"$TT_TMP/fl.py" <<'PY'
"""Check tracetop's flame graph text or SVG against the callpaths workload.

fl.py text FILE: the last refresh's lines; cp_X's segments under cp_run
  split 50/30/20 (by width and by label) within 3 points, cp_X_mid right
  above cp_X with the same extent, every segment inside the one below it.
fl.py svg FILE [COMM]: well-formed XML; every frame's width is its samples'
  share of the root's 1180 pixels; cp_X 50/30/20 of cp_run within 3 points;
  with COMM, a frame titled COMM exists.
Prints what it found; exit 0 when the check passes.
"""
import re
import sys
import xml.etree.ElementTree as ET

WANT = {"alpha": 50.0, "beta": 30.0, "gamma": 20.0}
TOL = 3.0
# a segment ends at the "]" before the next segment, a gap or the line's end:
# labels may hold brackets themselves ("[unknown] 0.1%", "[other]")
SEG = re.compile(r"\[(.*?)\](?=\s*(?:\[|\||$))|\|")


def segments(line):
    """(start, width, name, share or None) of each segment of a depth line."""
    body = line[4:]
    out = []
    for m in SEG.finditer(body):
        text = m.group(1)
        name, share = (text or "").strip(), None
        lm = re.match(r"^(\S+) ([0-9.]+)%$", name)
        if lm:
            name, share = lm.group(1), float(lm.group(2))
        out.append((m.start(), m.end() - m.start(), name, share))
    return out


def text(path):
    blocks, cur = [], []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("flame: "):
            cur = [line]
            blocks.append(cur)
        elif line and cur:
            cur.append(line)
    if not blocks:
        print("no flame output")
        return 1
    rows = [segments(l) for l in blocks[-1][1:]]
    print("refreshes: %d, depth rows: %d" % (len(blocks), len(rows)))
    where = {}
    for d, row in enumerate(rows):
        for s in row:
            where.setdefault(s[2], (d, s))
    if "cp_run" not in where:
        print("no cp_run frame")
        print("\n".join(blocks[-1]))
        return 1
    bad = 0
    rd, run = where["cp_run"]
    for x, want in WANT.items():
        name = "cp_" + x
        if name not in where:
            print("no %s frame" % name)
            bad += 1
            continue
        d, s = where[name]
        by_w = 100.0 * s[1] / run[1]
        by_l = 100.0 * s[3] / run[3] if s[3] is not None and run[3] else None
        print("%s: depth %d, width %d of %d = %.1f%%, label %s%% of %s%% = %s"
              % (name, d, s[1], run[1], by_w, s[3], run[3],
                 "%.1f%%" % by_l if by_l is not None else "-"))
        if d != rd + 1 or abs(by_w - want) > TOL or by_l is None or abs(by_l - want) > TOL:
            bad += 1
        mid = [m for m in rows[d + 1] if m[2] == name + "_mid"] if d + 1 < len(rows) else []
        if not mid or (mid[0][0], mid[0][1]) != (s[0], s[1]):
            print("%s_mid is not right above %s: %s" % (name, name, mid))
            bad += 1
    # nesting: every segment lies inside a segment of the row below it
    for d in range(1, len(rows)):
        for s in rows[d]:
            if not any(p[0] <= s[0] and s[0] + s[1] <= p[0] + p[1] for p in rows[d - 1]):
                print("depth %d: %s at %d+%d is outside every frame below" % (d, s[2], s[0], s[1]))
                bad += 1
    return 1 if bad else 0


def svg(path, comm=None):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print("not well-formed XML: %s" % e)
        return 1
    ns = "{http://www.w3.org/2000/svg}"
    frames = []
    for g in root.iter(ns + "g"):
        title = g.find(ns + "title").text
        rect = g.find(ns + "rect")
        m = re.match(r"^(.*) \(([0-9]+) samples, ([0-9.]+)%\)$", title)
        frames.append((m.group(1), float(rect.get("width")), float(rect.get("data-samples")),
                       float(m.group(2))))
    if not frames:
        print("no frames")
        return 1
    total = frames[0][2]
    print("frames: %d, root: %s (%d samples)" % (len(frames), frames[0][0], total))
    bad = 0
    for name, w, samples, titled in frames:
        if abs(w - 1180.0 * samples / total) > 0.01 or samples != titled:
            print("%s: width %.3f for %d of %d samples" % (name, w, samples, total))
            bad += 1
    named = {}
    for f in frames:
        named.setdefault(f[0], f)
    if "cp_run" in named:
        for x, want in WANT.items():
            f = named.get("cp_" + x)
            share = 100.0 * f[1] / named["cp_run"][1] if f else -1
            print("cp_%s: %.1f%% of cp_run's width" % (x, share))
            if abs(share - want) > TOL:
                bad += 1
    if comm is not None:
        print("frames titled %r: %d" % (comm, sum(1 for f in frames if f[0] == comm)))
        if comm not in named:
            bad += 1
    return 1 if bad else 0


def main():
    if sys.argv[1] == "text":
        return text(sys.argv[2])
    return svg(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)


if __name__ == "__main__":
    sys.exit(main())
PY

# tt ARGS...: tracetop, stopped if it hangs.
tt() {
	timeout -k 5 60 "$TRACETOP" "$@"
}

# check DESC FL-ARGS...: one test from fl.py, its findings as diagnostics.
check() {
	local desc=$1 res status
	shift
	res=$($FL "$@" 2>&1)
	status=$?
	ok $status "$desc"
	diag "$res"
	return $status
}

CALLPATHS_PIDFILE="$TT_TMP/cp.pid" "$FP" 120 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/cp.pid" 5)
[ -n "$pid" ]
ok $? "callpaths-fp started" || bail_out "the workload did not start"

COLUMNS=200 tt -b -g -p "$pid" --view flame -n 2 -d 1.5 >"$TT_TMP/flame.txt" 2>"$TT_TMP/flame.err"
ok $? "-g --view flame exits 0" || diag "$(cat "$TT_TMP/flame.err")"
like "$(head -n 1 "$TT_TMP/flame.txt")" "^flame: .*width: 200 " "--view flame: a title line with the width"
check "--view flame: cp_alpha/beta/gamma 50/30/20 of cp_run (widths and labels, +-3), callers nested" \
	text "$TT_TMP/flame.txt"

tt -b -g -p "$pid" --format svg -n 1 -d 2 -o "$TT_TMP/flame.svg" 2>"$TT_TMP/svg.err"
ok $? "-g --format svg exits 0" || diag "$(cat "$TT_TMP/svg.err")"
check "--format svg: well-formed XML, widths by samples, cp_X 50/30/20 of cp_run (+-3)" \
	svg "$TT_TMP/flame.svg"
is "$(grep -c '<svg ' "$TT_TMP/flame.svg")" 1 "--format svg: one document for the run"

# A comm with an escape sequence and a newline: escaped, still well-formed.
EVIL_PIDFILE="$TT_TMP/evil.pid" "$WORKLOADS/evilcomm" 20 >/dev/null 2>&1 &
bg_pid $!
evil=$(wait_pidfile "$TT_TMP/evil.pid" 5)
tt -b -g -p "$evil" --format svg -n 1 -d 1 -o "$TT_TMP/evil.svg" 2>/dev/null
ok $? "--format svg of a hostile comm exits 0"
check "--format svg: the hostile comm escaped (\\x1b, \\x0a), the XML well-formed" \
	svg "$TT_TMP/evil.svg" 'ev\x1b[31mil\x0ax'
LC_ALL=C grep -q $'\x1b' "$TT_TMP/evil.svg"
ok $((!$?)) "--format svg: no raw escape byte in the file"

usage_error "--view flame without call stacks is a usage error" "needs call stacks: add -g" \
	-b --view flame
usage_error "--format svg without call stacks is a usage error" "needs call stacks: add -g" \
	-b --format svg
usage_error "--format svg is for the top and flame views" "--format svg .*not of --view counters" \
	-b -g --view counters --format svg
usage_error "--view flame prints text or svg" "--view flame prints text or svg" \
	-b -g --view flame --format json
usage_error "--view names flame among its choices" "latency or flame" -b --view flames

done_testing
