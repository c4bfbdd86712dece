#!/usr/bin/env python3
"""compare.py - tracetop vs perf top, from the shared harness's results.

  bench/compare.py [--bench-dir DIR] [--max-other N] [--check] RUNDIR [RUNDIR...]

RUNDIR holds <label>/rep<N>.json (+ rep<N>.final.txt) written by
measure.py (bench/run.sh puts them in bench/results/run-*/). Labels are
paired by what follows the tool name: perf-top-F4000 <-> tracetop-F4000.

For each pair it prints a markdown table, median [min, max] over the kept
repetitions, of steady and whole-run CPU % of one core, peak RSS, time to
first row, workload slowdown, samples/s, lost samples and the user-space
CPU cost per sample; then the ratios tracetop / perf top of the medians
(< 1: tracetop is cheaper / faster) and the accuracy of the leaf shares
(alpha/beta/gamma normalized to 100, expected 50/30/20).

Repetitions with other_cpu_pct > --max-other (10) or a foreign perf_event
holder are dropped (and the slowdown rows also skip reps whose workload
rate before and after differ by more than --max-prepost, 5 %), with the same rule as the harness's report.py, whose
loader and formatting are imported from --bench-dir (default: the shared
harness) so both tools read results the same way.

--check prints nothing useful but exits 1 if a repetition of a paired
label died early or never showed a stage row, or a pair has no kept rep.
"""
import argparse
import os
import re
import statistics
import sys

TOOLS = ("perf-top", "tracetop")
# A third tool measured in the same runs (bench/run.sh TOOLS=...), shown
# beside the pair when present: the public in-kernel aggregation reference.
EXTRA_TOOLS = ("bpftrace",)

# tracetop's headers (the harness parses only perf top's format):
#   text frames: "event: cpu-clock  samples/s: 7990  samples: 15980  lost: 0 (total 0)  ..."
#   TUI:         "Event: cpu-clock  (...)  Samples/s: 7978  Lost: 0"
TT_RATE_RE = re.compile(r"samples/s:\s*(\d+(?:\.\d+)?)", re.I)
TT_LOST_RE = re.compile(r"lost:\s*(\d+)(?:\s*\(total\s*(\d+)\))?", re.I)


def import_harness(bench_dir):
    """report.py of the harness (load(), m3()); no bytecode in read-only dirs."""
    sys.dont_write_bytecode = True
    sys.path.insert(0, bench_dir)
    try:
        import report  # noqa: E402  (the harness's report.py)
    except ImportError as e:
        raise SystemExit(f"compare.py: cannot import report.py from {bench_dir}: {e}")
    finally:
        sys.path.pop(0)
    return report


def keep_rep(r, max_other):
    """report.py's rule: a quiet machine and no other sampler."""
    return (r.get("other_cpu_pct") or 0) <= max_other and not r.get("foreign_perf_event_holders")


def final_screen(rundir, r):
    try:
        with open(os.path.join(rundir, r["label"], f"rep{r['rep']}.final.txt")) as f:
            return f.read()
    except OSError:
        return ""


def add_derived(rundir, r):
    """Fill samples/s and lost for tracetop's header format, and the
    user-space CPU cost per sample."""
    if r.get("samples_per_s") is None:
        # tracetop prints the rate of the last refresh; the final screen may
        # show the tail of the previous frame above it, so take the last one.
        rates = TT_RATE_RE.findall(final_screen(rundir, r))
        if rates:
            r["samples_per_s"] = float(rates[-1])
            r["samples_per_s_source"] = "final screen samples/s"
    if r.get("lost_final") is None:
        lost = TT_LOST_RE.findall(final_screen(rundir, r))
        if lost:
            last, total = lost[-1]
            r["lost_final"] = [int(last), int(total or last)]
    set_cost(r, r.get("samples_per_s"))
    return r


def set_cost(r, sps):
    """User-space CPU per sample: steady CPU seconds / samples in that time."""
    cpu = r.get("cpu_pct_steady_schedstat")
    r["us_per_sample"] = (cpu / 100.0 / sps * 1e6) if sps and cpu is not None else None


def repname(r):
    return f"rep{r['rep']}" if isinstance(r["rep"], int) else r["rep"]


def short_cmd(reps):
    """The command line with the binary's directory left out."""
    argv = reps[0]["cmd"].split()
    return " ".join([os.path.basename(argv[0])] + argv[1:])


def stable(r, max_prepost):
    """The workload ran at the same rate before and after the profiler."""
    d = r.get("pre_post_diff_pct")
    return d is not None and abs(d) <= max_prepost


def med(reps, key):
    v = [r.get(key) for r in reps if r.get(key) is not None]
    return statistics.median(v) if v else None


def ratio(a, b):
    if a is None or b is None:
        return "n/a"
    if b == 0:
        return "inf" if a else "1"
    return f"{a / b:.2f}"


def lost_str(reps):
    out = []
    for r in reps:
        lo = r.get("lost_final")
        # perf top: [lost, total events]; tracetop: [last refresh, total]
        out.append(str(lo[-1] if r["label"].startswith("tracetop") else lo[0]) if lo else "-")
    return "/".join(out)


def accuracy(reps):
    """Per rep: normalized alpha/beta/gamma leaf shares (self column)."""
    cells = []
    for r in reps:
        ls = (r.get("shares_final") or {}).get("leaf_self")
        cells.append("/".join(f"{x:.1f}" for x in ls["normalized_pct"]) if ls else "-")
    return cells


def acc_error(reps):
    """Median over reps of the largest |normalized share - expected| (points)."""
    errs = []
    for r in reps:
        ls = (r.get("shares_final") or {}).get("leaf_self")
        if ls:
            errs.append(max(abs(a - b) for a, b in zip(ls["normalized_pct"], (50, 30, 20))))
    return statistics.median(errs) if errs else None


ROWS = [  # (heading, key, decimals)
    ("CPU % of one core, steady (5 s..end)", "cpu_pct_steady_schedstat", 2),
    ("CPU % of one core, whole run", "cpu_pct_schedstat", 2),
    ("CPU s, whole run", "cpu_schedstat_s", 3),
    ("user-space CPU µs / sample (steady)", "us_per_sample", 2),
    ("peak RSS MiB (VmHWM)", "rss_peak_mib", 1),
    ("time to first stage row s", "time_to_first_row_s", 2),
    ("workload slowdown % (steady)", "slowdown_steady_pct", 1),
    ("workload slowdown % (whole)", "slowdown_pct", 1),
    ("samples/s", "samples_per_s", 0),
    ("threads", "threads", 0),
    ("exit after SIGTERM s", "exit_after_sigterm_s", 2),
    ("tmux server CPU %", "tmux_server_cpu_pct", 2),
    ("other CPU % (noise)", "other_cpu_pct", 1),
]

RATIOS = [  # (heading, key)
    ("CPU steady", "cpu_pct_steady_schedstat"),
    ("CPU whole run", "cpu_pct_schedstat"),
    ("RSS", "rss_peak_mib"),
    ("time to first row", "time_to_first_row_s"),
    ("µs / sample", "us_per_sample"),
]

RATIO_KEYS = {k for _, k in RATIOS}


def pairs_of(data):
    """{config: {tool: label}} for configs that have both tools (and any
    extra tool measured with them)."""
    cfg = {}
    for lab in data:
        for t in TOOLS + EXTRA_TOOLS:
            if lab.startswith(t + "-"):
                cfg.setdefault(lab[len(t) + 1:], {})[t] = lab
    return {c: v for c, v in sorted(cfg.items(), key=lambda kv: (len(kv[0]), kv[0]), reverse=True)
            if all(t in v for t in TOOLS)}


EXTRA_ROWS = [  # (heading, key, decimals): what a tool without a screen has
    ("CPU % of one core, steady (5 s..end)", "cpu_pct_steady_schedstat", 2),
    ("CPU % of one core, whole run", "cpu_pct_schedstat", 2),
    ("peak RSS MiB (VmHWM)", "rss_peak_mib", 1),
    ("workload slowdown % (steady)", "slowdown_steady_pct", 1),
]


def extra_table(name, xs, raw_xs, pt, tt, spt, stt, max_prepost, m3):
    """The extra tool beside perf top and tracetop: CPU, RSS, slowdown."""
    sxs = [r for r in xs if stable(r, max_prepost)]
    print(f"Beside `{short_cmd(raw_xs)}` (n={len(xs)}):")
    print()
    print(f"| metric | {name} | perf top | tracetop | tracetop / {name} |")
    print("|---|---|---|---|---|")
    for head, key, nd in EXTRA_ROWS:
        x, p, t = (sxs, spt, stt) if key.startswith("slowdown") else (xs, pt, tt)
        if key.startswith("slowdown"):
            head += f" (n={len(x)}/{len(p)}/{len(t)})"
        rt = ratio(med(t, key), med(x, key)) if key in RATIO_KEYS else ""
        print(f"| {head} | {m3([r.get(key) for r in x], nd)} | {m3([r.get(key) for r in p], nd)} "
              f"| {m3([r.get(key) for r in t], nd)} | {rt} |")
    print()


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rundir", nargs="+",
                   help="results dir(s); several are pooled (same binaries and settings only)")
    p.add_argument("--bench-dir", default=os.environ.get("BENCH_WORK", "/work/shared/bench"),
                   help="harness dir to import report.py from")
    p.add_argument("--max-other", type=float, default=10.0,
                   help="drop reps where other processes used more than this %% of a core")
    p.add_argument("--max-prepost", type=float, default=5.0,
                   help="slowdown rows: only reps whose workload rates before and after "
                        "the profiler differ by at most this many %%")
    p.add_argument("--check", action="store_true",
                   help="exit 1 if a rep died, never showed a row, or a pair has no kept rep")
    a = p.parse_args()

    report = import_harness(a.bench_dir)
    m3 = report.m3
    raw = {}
    for d in a.rundir:
        for lab, reps in report.load(d).items():
            for r in reps:
                add_derived(d, r)
                if len(a.rundir) > 1:  # name reps run-x/rep3 when pooling
                    r["rep"] = f"{os.path.basename(os.path.normpath(d))}/rep{r['rep']}"
            raw.setdefault(lab, []).extend(reps)
    pairs = pairs_of(raw)
    if not pairs:
        raise SystemExit(f"compare.py: no perf-top-X / tracetop-X label pairs in {' '.join(a.rundir)}")

    if a.check:
        bad = []
        for labs in pairs.values():
            for lab in (labs[t] for t in TOOLS):
                for r in raw[lab]:
                    if r.get("died_after_s") is not None:
                        bad.append(f"{lab} {repname(r)}: died after {r['died_after_s']} s")
                    elif r.get("time_to_first_row_s") is None:
                        bad.append(f"{lab} {repname(r)}: no stage row on screen")
                if not any(keep_rep(r, a.max_other) for r in raw[lab]):
                    bad.append(f"{lab}: no repetition on a quiet machine")
        for b in bad:
            print(b, file=sys.stderr)
        sys.exit(1 if bad else 0)

    data, dropped = {}, {}
    for lab, reps in raw.items():
        data[lab] = [r for r in reps if keep_rep(r, a.max_other)]
        dropped[lab] = [f"{repname(r)} (other {r.get('other_cpu_pct')} %"
                        + (", foreign sampler" if r.get("foreign_perf_event_holders") else "") + ")"
                        for r in reps if not keep_rep(r, a.max_other)]

    print(f"Results: {', '.join(f'`{d}`' for d in a.rundir)}. Median [min, max] over the kept repetitions; "
          f"reps with other_cpu_pct > {a.max_other:g} or a foreign perf_event holder dropped: "
          + ("; ".join(f"{l}: {', '.join(v)}" for l, v in dropped.items() if v) or "none") + ".")
    print(f"Slowdown rows use only the reps whose workload rate before and after the profiler "
          f"differ by <= {a.max_prepost:g} % (n = perf top/tracetop).")
    print()
    for config, labs in pairs.items():
        pt, tt = data[labs["perf-top"]], data[labs["tracetop"]]
        # tracetop's text frames do not clip long rows to the terminal width,
        # so wrapped rows can push its header (samples/s) off the final
        # screen. Both tools sample the same event at the same rate in the
        # same run, so use perf top's median rate for those reps (marked).
        pt_sps = med(pt, "samples_per_s")
        borrowed = [r for r in tt if r.get("samples_per_s") is None and pt_sps]
        for r in borrowed:
            set_cost(r, pt_sps)
        print(f"### {config}: `{short_cmd(raw[labs['perf-top']])}` vs `{short_cmd(raw[labs['tracetop']])}`")
        print()
        print(f"| metric | perf top (n={len(pt)}) | tracetop (n={len(tt)}) | tracetop / perf top |")
        print("|---|---|---|---|")
        # Slowdown compares the workload's rate with its own rate before and
        # after; if those two differ a lot, something else ran then and the
        # baseline is wrong (other_cpu_pct only covers the profiler's run).
        spt = [r for r in pt if stable(r, a.max_prepost)]
        stt = [r for r in tt if stable(r, a.max_prepost)]
        for head, key, nd in ROWS:
            p, t = (spt, stt) if key.startswith("slowdown") else (pt, tt)
            if key.startswith("slowdown"):
                head += f" (n={len(spt)}/{len(stt)})"
            rt = ratio(med(t, key), med(p, key)) if key in RATIO_KEYS else ""
            print(f"| {head} | {m3([r.get(key) for r in p], nd)} | {m3([r.get(key) for r in t], nd)} | {rt} |")
        print(f"| lost samples (per rep) | {lost_str(pt)} | {lost_str(tt)} | |")
        if borrowed:
            print(f"| (tracetop header off screen: µs/sample of "
                  f"{', '.join(repname(r) for r in borrowed)} uses perf top's {pt_sps:.0f} samples/s) | | | |")
        ms, mp = med(stt, "slowdown_steady_pct"), med(spt, "slowdown_steady_pct")
        ds = "n/a" if ms is None or mp is None else f"{ms - mp:+.1f}"
        print(f"| slowdown difference, points (tracetop - perf top) | | | {ds} |")
        print()
        print("Ratios of medians, tracetop / perf top (< 1 = tracetop better): "
              + ", ".join(f"{h} **{ratio(med(tt, k), med(pt, k))}**" for h, k in RATIOS) + ".")
        print()
        for x in EXTRA_TOOLS:
            if x in labs:
                extra_table(x, data[labs[x]], raw[labs[x]], pt, tt, spt, stt, a.max_prepost, m3)
        print("Accuracy, final screen, leaf self shares alpha/beta/gamma normalized "
              "(expected 50/30/20), per rep; worst error median in points:")
        print()
        print("| tool | per rep | worst error (median) |")
        print("|---|---|---|")
        for name, reps in (("perf top", pt), ("tracetop", tt)):
            e = acc_error(reps)
            print(f"| {name} | {', '.join(accuracy(reps))} | {'n/a' if e is None else f'{e:.1f}'} |")
        print()


if __name__ == "__main__":
    main()
