#!/usr/bin/env python3
"""Check a tracetop JSON report against a known split of CPU time.

usage: shares.py FILE [--pid PID] [--comm COMM] [--min-coverage PCT]
                 SYMBOL=PCT ...

Reads the last JSON object of FILE, adds up the overhead of the rows naming
each SYMBOL (restricted to a pid or command when given), normalises the
shares among the symbols to 100 and checks each within +-TOL points
(--tol, default 5). --min-coverage: the symbols must hold at least PCT of
all the (filtered) overhead. Prints what it found; exit 0 when it matches.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--pid", type=int)
    ap.add_argument("--comm")
    ap.add_argument("--tol", type=float, default=5.0)
    ap.add_argument("--min-coverage", type=float, default=0.0)
    ap.add_argument("expect", nargs="+")
    a = ap.parse_args()

    objs = [json.loads(l) for l in open(a.file) if l.strip()]
    if not objs:
        print("no JSON report in", a.file)
        return 1
    rep = objs[-1]
    want = {}
    for e in a.expect:
        sym, pct = e.split("=")
        want[sym] = float(pct)
    got = dict.fromkeys(want, 0.0)
    total = 0.0
    for r in rep["rows"]:
        if a.pid is not None and r["pid"] != a.pid:
            continue
        if a.comm is not None and r["comm"] != a.comm:
            continue
        total += r["overhead"]
        if r["symbol"] in got:
            got[r["symbol"]] += r["overhead"]
    covered = sum(got.values())
    print("reports: %d, samples in last: %d, rows: %d" %
          (len(objs), rep["samples"], len(rep["rows"])))
    print("raw: " + ", ".join("%s %.1f%%" % (k, v) for k, v in got.items()),
          "(filtered total %.1f%%)" % total)
    if covered <= 0:
        print("none of the symbols was found")
        return 1
    bad = False
    for k, v in got.items():
        norm = 100.0 * v / covered
        flag = abs(norm - want[k]) <= a.tol
        bad |= not flag
        print("%s: %.1f%% (want %.0f +-%.0f) %s" %
              (k, norm, want[k], a.tol, "ok" if flag else "WRONG"))
    if total > 0 and 100.0 * covered / total < a.min_coverage:
        print("coverage %.1f%% < %.1f%%" % (100.0 * covered / total, a.min_coverage))
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
