#!/usr/bin/env python3
"""Compare the shares of named functions in two tracetop batch outputs
(one from --engine perf, one from --engine bpf) of the same workload.

usage: engines.py FORMAT PERF-FILE BPF-FILE [--pid PID] [--tol PTS]
                  [--truth-tol PTS] SYMBOL=PCT ...

FORMAT is json, text or folded. For each file the last report's self
shares of the SYMBOLs (json, text: the rows; folded: the stacks ending in
them) are normalised among them to 100; each must be within --tol points
(default 2) of the other file's and within --truth-tol (default 5) of the
expected PCT. With folded, --paths also compares the set of call paths
holding at least 5 % of each (as text, frames joined by ';'). Prints what
it found; exit 0 when both agree.
"""
import argparse
import json
import re
import sys


def last_block(text):
    blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
    return blocks[-1] if blocks else ""


def shares_json(path, syms, pid):
    objs = [json.loads(l) for l in open(path) if l.startswith("{")]
    got = dict.fromkeys(syms, 0.0)
    for r in objs[-1]["rows"]:
        if pid is not None and r["pid"] != pid:
            continue
        if r["symbol"] in got:
            got[r["symbol"]] += r["overhead"]
    return got, objs[-1]


def shares_text(path, syms, pid):
    got = dict.fromkeys(syms, 0.0)
    row = re.compile(r"^\s*(?:[0-9.]+%\s+)?([0-9.]+)%\s+\d+\s+\S+\s+(\d+)\s+.*\[[.k]\] (\S+)$")
    for line in last_block(open(path).read()).splitlines():
        m = row.match(line)
        if not m:
            continue
        if pid is not None and int(m.group(2)) != pid:
            continue
        if m.group(3) in got:
            got[m.group(3)] += float(m.group(1))
    return got, None


def folded(path):
    stacks = {}
    for line in last_block(open(path).read()).splitlines():
        path_, _, n = line.rpartition(" ")
        if path_:
            stacks[path_] = stacks.get(path_, 0) + int(n)
    return stacks


def shares_folded(path, syms, pid):
    got = dict.fromkeys(syms, 0.0)
    for p, n in folded(path).items():
        leaf = p.split(";")[-1]
        if leaf in got:
            got[leaf] += n
    return got, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("format", choices=["json", "text", "folded"])
    ap.add_argument("perf")
    ap.add_argument("bpf")
    ap.add_argument("--pid", type=int)
    ap.add_argument("--tol", type=float, default=2.0)
    ap.add_argument("--truth-tol", type=float, default=5.0)
    ap.add_argument("--paths", action="store_true")
    ap.add_argument("expect", nargs="+")
    a = ap.parse_args()
    want = dict(e.split("=") for e in a.expect)
    want = {k: float(v) for k, v in want.items()}
    fn = {"json": shares_json, "text": shares_text, "folded": shares_folded}[a.format]
    norm = {}
    for name, path in (("perf", a.perf), ("bpf", a.bpf)):
        got, _ = fn(path, list(want), a.pid)
        tot = sum(got.values())
        if tot <= 0:
            print("%s: none of the symbols found in %s" % (name, path))
            return 1
        norm[name] = {k: 100.0 * v / tot for k, v in got.items()}
        print("%s: %s" % (name, ", ".join("%s %.1f%%" % kv for kv in norm[name].items())))
    bad = False
    for k in want:
        d = abs(norm["perf"][k] - norm["bpf"][k])
        t = abs(norm["bpf"][k] - want[k])
        ok = d <= a.tol and t <= a.truth_tol
        bad |= not ok
        print("%s: perf %.1f bpf %.1f (apart %.1f, want <= %.0f; bpf off the truth %.1f) %s" %
              (k, norm["perf"][k], norm["bpf"][k], d, a.tol, t, "ok" if ok else "BAD"))
    if a.paths:
        big = []
        for path in (a.perf, a.bpf):
            st = folded(path)
            tot = sum(st.values()) or 1
            big.append({p for p, n in st.items() if 100.0 * n / tot >= 5})
        print("paths >= 5%%: perf %s; bpf %s" % (sorted(big[0]), sorted(big[1])))
        if big[0] != big[1]:
            print("the call paths differ")
            bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
