#!/usr/bin/env python3
"""Decode a gzipped pprof profile with Go's own pprof (go tool pprof -raw,
an independent decoder from Debian's golang-go: it checks the profile as it
parses it) and print, as one JSON object, what the tests compare, exactly
as pprof-decode.cjs does: the samples per leaf function and per stack, the
total, the sample types, the period and the mappings.
Usage: pprof-decode-go.py FILE"""
import json
import os
import re
import subprocess
import sys
import tempfile


def fail(msg):
    sys.stderr.write("pprof-decode-go: %s\n" % msg)
    sys.exit(1)


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        if f.read(2) != b"\x1f\x8b":
            fail("not gzip")
    with tempfile.TemporaryDirectory() as home:  # pprof keeps files in $HOME
        env = dict(os.environ, HOME=home, PPROF_TMPDIR=home)
        p = subprocess.run(["go", "tool", "pprof", "-raw", path], env=env,
                           capture_output=True, text=True)
    if p.returncode != 0:
        fail("go tool pprof: " + (p.stderr.strip() or "exit %d" % p.returncode))
    out = {"sample_types": [], "period_type": None, "period": 0, "total": 0,
           "cpu_ns": 0, "samples": 0, "functions": {}, "stacks": {}, "mappings": []}
    samples, locs = [], {}
    section, last = None, None
    for line in p.stdout.split("\n"):
        if line.startswith("PeriodType: "):
            out["period_type"] = "/".join(line[len("PeriodType: "):].split(" ", 1))
        elif line.startswith("Period: "):
            out["period"] = int(line[len("Period: "):])
        elif line in ("Samples:", "Locations", "Mappings"):
            section, last = line, None
        elif section == "Samples:" and not out["sample_types"] and line.strip():
            out["sample_types"] = line.split()
        elif section == "Samples:":
            m = re.match(r"^\s+(\d+)\s+(\d+): ((?:\d+ )*)$", line)
            if m:
                samples.append((int(m.group(1)), int(m.group(2)),
                                [int(x) for x in m.group(3).split()]))
        elif section == "Locations":
            # "  ID: 0xADDR M=MAPPING NAME :LINE s=START(SYSTEM NAME)", then one line
            # per inlined frame; the first is what the tests compare
            m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ (?:M=\d+ )?(.*) :-?\d+ s=\d+(?:\(.*\))?$", line)
            if m:
                locs[int(m.group(1))] = m.group(2)
        elif section == "Mappings":
            m = re.match(r"^(\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\S*) (\S*) ", line + " ")
            if m:
                out["mappings"].append({"file": m.group(2),
                                        "build_id": "" if m.group(3).startswith("[") else m.group(3)})
    for n, ns, ids in samples:
        if not ids:
            fail("a sample without locations")
        if any(i not in locs for i in ids):
            fail("a sample names a location not in the profile")
        names = [locs[i] for i in ids]
        out["samples"] += 1
        out["total"] += n
        out["cpu_ns"] += ns
        out["functions"][names[0]] = out["functions"].get(names[0], 0) + n
        key = ";".join(reversed(names))
        out["stacks"][key] = out["stacks"].get(key, 0) + n
    print(json.dumps(out, separators=(",", ":")))


main()
