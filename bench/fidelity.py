#!/usr/bin/env python3
"""Name fidelity of tracetop against perf, from bench/fidelity.sh's results.

Usage:
    bench/fidelity.py RUN_DIR                 every workload under RUN_DIR
    bench/fidelity.py WORKLOAD_DIR...         these workloads
    options: --top N (15), --no-details, --markdown (only the table),
             --keep-versions (see normalization)

A workload dir (RUN_DIR/NAME) holds one repN/ dir per window (bench/fidelity.sh
REPS=N), whose samples are pooled; each repN/ holds:
    meta.env          key=value lines: label, note, pids, skipped (reason), ...
    perf-script.txt   `perf script -F pid,ip,sym,dso -G` of the perf record
                      run: one line per sample, "PID IP SYMBOL (DSO)"
    tracetop.json     `tracetop -b -z --format json -d D -n N` of the same
                      window: N reports (one by default), zeroed each time, whose
                      rows ("samples", "symbol", "dso") are added up
(a dir with these files directly in it is read as a single window).

What is compared, per workload (self time only: the symbol of each sample's
own instruction pointer, call stacks are not used):

* unresolved share: samples whose symbol is unresolved, in % of all the
  tool's samples. perf: symbol "[unknown]" (or a bare hex address);
  tracetop: symbol starting with "[unknown]".
* mangled share: samples whose shown name is still a linkage name, in % of
  all samples: it starts with "_Z" (C++/legacy Rust) or "_R" (Rust v0), or
  it contains "::h" + 16 hex digits (legacy Rust demangled without dropping
  the hash).
* top-N overlap: the N (15) resolved names with the most self samples in
  perf vs in tracetop (samples summed over processes and DSOs by name; ties
  by name), and how many of perf's are among tracetop's. Unresolved samples
  are left out of both rankings, so that a function tracetop cannot name
  counts as a miss. If perf has fewer than N resolved names, it is "K of M"
  with M the number perf has. Also shown: how many of perf's top N names
  tracetop shows at all (any rank), which tells a name tracetop lacks from a
  rank swap near the cut (shares of ~1 % move by +-15 % between two
  profilers sampling the same 10 s independently).

Names are compared as shown, after this normalization only:
  1. leading/trailing blanks dropped, runs of blanks made one space;
  2. argument lists: perf shows demangled C++ without them
     ("ns::f<int>", as c++filt -p). If one tool shows argument lists (at
     least half of its qualified, non-JIT names end with one) and the other
     does not, that tool's non-JIT names lose them: the trailing "(...)"
     with any " const"/"&"/"noexcept" after it, " [clone .x]" suffixes, and
     a leading return type ("double ns::f<int>(int)" -> "ns::f<int>"),
     which is exactly what c++filt -p prints. Names from perf maps (JIT:
     DSO "/tmp/perf-N.map" or "[JIT] ...") keep theirs: both tools read
     the same file and Java's map names do have argument lists.
  3. symbol versions dropped: "hypot@@GLIBC_2.35" and "cfree@GLIBC_2.2.5"
     become "hypot" and "cfree" (perf prints the versioned name a library's
     symbol table holds; tracetop may not). "@plt" is not a version and
     stays. --keep-versions compares with versions (a stricter reading).
  Nothing else: "@plt", ".isra.0", ".cold" and the like are kept, and when
  the two tools pick different names for one address (aliases such as
  __memmove_avx_unaligned_erms / __memcpy_avx_unaligned_erms) that counts
  as a miss: the details list every miss, to tell these apart.

The bar (issue 14): tracetop's unresolved share <= perf's + 0.5 points, and
the overlap misses at most one name (>= 14 of 15).

The details after the table give, per workload: perf's top N with tracetop's
share and rank of each name, the names only tracetop ranks there, the
unresolved samples by DSO, the difference of the unresolved shares beside
its sampling noise (two binomial standard errors: the tools sample
independently, so on a stripped binary with 15 % unresolved the two shares
differ by up to ~1 point by chance in a 10 s window), and, when tracetop
shows mangled names, the overlap it would have if they went through
c++filt -p (a diagnostic, not the measure). Exit status: 0 if every
measured workload meets the bar, 1 if one does not, 2 on a usage or input
error. The mangled share has no bar of its own (it shows in the overlap).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

TOP_N = 15
UNRESOLVED_SLACK = 0.5  # percentage points
OVERLAP_MISSES = 1  # allowed misses in the top-N

MANGLED_RE = re.compile(r"^_[ZR]|::h[0-9a-f]{16}(?![0-9a-f])")
HEX_RE = re.compile(r"^(0x)?[0-9a-f]+$", re.I)
# "PID IP SYMBOL (DSO)": SYMBOL may contain blanks and parentheses (C++
# templates, Java signatures); the DSO is the last parenthesized group.
PERF_LINE_RE = re.compile(r"^\s*(\d+)\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)\s*$")


class Profile:
    """Self samples of one tool: Counter of (name, jit) -> samples."""

    def __init__(self, tool):
        self.tool = tool
        self.by_name = Counter()  # (name, is_jit) -> samples
        self.total = 0
        self.unresolved = 0
        self.mangled = 0
        self.unresolved_dso = Counter()  # DSO -> unresolved samples
        self.notes = []

    def add(self, name, dso, samples, unresolved):
        name = " ".join(name.split())
        self.total += samples
        if unresolved:
            self.unresolved += samples
            self.unresolved_dso[dso or "?"] += samples
            return
        if is_mangled(name):
            self.mangled += samples
        self.by_name[(name, is_jit_dso(dso))] += samples

    def pct(self, n):
        return 100.0 * n / self.total if self.total else 0.0

    def merge(self, other):
        """Pool another run's samples into this one."""
        self.by_name.update(other.by_name)
        self.unresolved_dso.update(other.unresolved_dso)
        self.total += other.total
        self.unresolved += other.unresolved
        self.mangled += other.mangled
        self.notes += other.notes


def is_mangled(name):
    return bool(MANGLED_RE.search(name))


def is_jit_dso(dso):
    dso = dso or ""
    return bool(re.search(r"/perf-\d+\.map$", dso)) or dso.startswith("[JIT]")


def perf_unresolved(sym):
    return sym in ("", "[unknown]") or sym.startswith("[unknown]") or bool(HEX_RE.match(sym))


def read_perf(path):
    p = Profile("perf")
    bad = 0
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            m = PERF_LINE_RE.match(line)
            if not m:
                # "PID IP SYMBOL" with no DSO, or an unexpected layout
                parts = line.split(None, 2)
                if len(parts) >= 2 and parts[0].isdigit():
                    sym = parts[2].strip() if len(parts) > 2 else ""
                    p.add(sym, "", 1, perf_unresolved(sym))
                else:
                    bad += 1
                continue
            sym, dso = m.group(3).strip(), m.group(4)
            p.add(sym, dso, 1, perf_unresolved(sym))
    if bad:
        p.notes.append("%d perf script lines not understood" % bad)
    return p


def read_tracetop(path):
    p = Profile("tracetop")
    with open(path, errors="replace") as f:
        text = f.read()
    # One JSON object per report. bench/fidelity.sh runs tracetop with -z
    # (counts zeroed at each refresh): each report covers its own interval,
    # and with -d D -n N their rows add up to the whole window.
    reports = []
    dec = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = dec.raw_decode(text, i)
        if isinstance(obj, dict) and "rows" in obj:
            reports.append(obj)
    if not reports:
        raise ValueError("%s: no report with rows" % path)
    header = 0
    for rep in reports:
        for r in rep["rows"]:
            sym = r.get("symbol") or ""
            p.add(sym, r.get("dso", ""), int(r.get("samples", 0)), sym == "" or sym.startswith("[unknown]"))
        header += rep.get("samples") or 0
        if rep.get("lost"):
            p.notes.append("tracetop lost %s samples" % rep["lost"])
    if header != p.total:
        p.notes.append("tracetop headers say %d samples, rows sum to %d" % (header, p.total))
    if len(reports) > 1:
        p.notes.append("%d tracetop reports added up" % len(reports))
    return p


# ---- argument lists --------------------------------------------------------

_QUALS_RE = re.compile(r"\)(\s*(const|volatile|&&|&|noexcept))+\s*$")
_CLONE_RE = re.compile(r"(\s*\[clone [^\]]*\])+\s*$")


def _match_open(s, close):
    """Index of the "(" that opens the ")" at s[close], or -1."""
    depth = 0
    for i in range(close, -1, -1):
        if s[i] == ")":
            depth += 1
        elif s[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def strip_params(name):
    """'double ns::f<int>(int) const [clone .isra.0]' -> 'ns::f<int>', as c++filt -p.

    A name without a trailing argument list is returned unchanged.
    """
    core = _QUALS_RE.sub(")", _CLONE_RE.sub("", name))
    if not core.endswith(")"):
        return name
    open_i = _match_open(core, len(core) - 1)
    if open_i <= 0:
        return name
    head = core[:open_i].rstrip()
    if not head or head.endswith("operator"):  # "operator()" itself, no argument list
        return name
    # A leading return type ("double ns::f<int>"): the last blank outside all
    # brackets, unless it belongs to an operator ("operator new",
    # "operator unsigned long").
    op = max(head.rfind("operator "), head.rfind("::operator"))
    depth, cut = 0, -1
    for i, c in enumerate(head):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == " " and depth == 0 and (op < 0 or i < op):
            cut = i
    return head[cut + 1:] if cut >= 0 else head


def has_params(name):
    return strip_params(name) != name


def shows_params(prof):
    """True if most of prof's qualified non-JIT names carry an argument list."""
    names = [n for (n, jit) in prof.by_name if not jit and "::" in n and not is_mangled(n)]
    if not names:
        return False
    return sum(1 for n in names if has_params(n)) * 2 >= len(names)


VERSION_RE = re.compile(r"@@?(?!plt$)[A-Za-z_][A-Za-z0-9_.]*$")
KEEP_VERSIONS = False  # --keep-versions


def normalize(name, jit, strip):
    """The name compared: without argument lists if strip (not for JIT
    names), without a symbol version unless --keep-versions."""
    if strip and not jit:
        name = strip_params(name)
    if not KEEP_VERSIONS and not jit:
        name = VERSION_RE.sub("", name)
    return name


def ranked(prof, strip=False):
    """[(name, samples)] by samples desc, name asc, after normalization."""
    c = Counter()
    for (name, jit), n in prof.by_name.items():
        c[normalize(name, jit, strip)] += n
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))


def cxxfilt_p(names):
    """Demangle as perf shows names (c++filt -p, legacy Rust hash dropped), for the diagnostic only."""
    exe = shutil.which("c++filt")
    if not exe or not names:
        return None
    try:
        out = subprocess.run([exe, "-p"], input="\n".join(names) + "\n", capture_output=True,
                             text=True, timeout=30, check=True).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return None
    # legacy Rust: c++filt keeps the "::h<hash>" that perf drops
    return {n: re.sub(r"::h[0-9a-f]{16}$", "", d) for n, d in zip(names, out)}


# ---- one workload -------------------------------------------------------------


def read_meta(d):
    meta = {}
    path = os.path.join(d, "meta.env")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    meta[k.strip()] = v
    meta.setdefault("label", os.path.basename(os.path.normpath(d)))
    return meta


def rep_dirs(d):
    """The repetitions of a workload dir (repN/ with a meta.env), or [d] itself."""
    reps = []
    if os.path.isdir(d):
        for n in os.listdir(d):
            m = re.match(r"rep(\d+)$", n)
            if m and os.path.exists(os.path.join(d, n, "meta.env")):
                reps.append((int(m.group(1)), os.path.join(d, n)))
    return [p for _, p in sorted(reps)] or [d]


def is_workload_dir(d):
    return any(os.path.exists(os.path.join(r, f)) for r in rep_dirs(d) for f in ("meta.env", "tracetop.json"))


class Result:
    """One workload: its repetitions' samples pooled, and the comparison."""

    def __init__(self, d, top_n):
        self.dir = d
        self.top_n = top_n
        reps = rep_dirs(d)
        metas = [read_meta(r) for r in reps]
        self.meta = metas[0]
        self.label = self.meta["label"] if reps[0] != d or "label" in self.meta else os.path.basename(d)
        self.error = ""
        ran = [(r, m) for r, m in zip(reps, metas) if not m.get("skipped")]
        self.skipped = "" if ran else metas[0].get("skipped", "")
        self.reps_failed = [(os.path.basename(r), m["skipped"]) for r, m in zip(reps, metas) if m.get("skipped")]
        self.reps = len(ran)
        self.pids = [m.get("pids", "") for _, m in ran]
        if ran:
            self.meta = ran[0][1]
        if self.skipped:
            return
        self.perf, self.tt = Profile("perf"), Profile("tracetop")
        for r, _ in ran:
            try:
                self.perf.merge(read_perf(os.path.join(r, "perf-script.txt")))
                self.tt.merge(read_tracetop(os.path.join(r, "tracetop.json")))
            except (OSError, ValueError) as e:
                self.error = str(e)
                return
        if not self.perf.total or not self.tt.total:
            self.error = "no samples (perf %d, tracetop %d)" % (self.perf.total, self.tt.total)
            return
        pp, tp = shows_params(self.perf), shows_params(self.tt)
        self.strip_perf, self.strip_tt = pp and not tp, tp and not pp
        self.perf_rank = ranked(self.perf, self.strip_perf)
        self.tt_rank = ranked(self.tt, self.strip_tt)
        self.perf_top = [n for n, _ in self.perf_rank[:top_n]]
        self.tt_top = [n for n, _ in self.tt_rank[:top_n]]
        self.overlap = len(set(self.perf_top) & set(self.tt_top))
        # perf's top names that tracetop shows at all, whatever their rank:
        # tells missing names from rank swaps (sampling noise at ~1 %)
        tt_all = {n for n, _ in self.tt_rank}
        self.named = sum(1 for n in self.perf_top if n in tt_all)
        self.ref_n = len(self.perf_top)
        self.unres_tt = self.tt.pct(self.tt.unresolved)
        self.unres_perf = self.perf.pct(self.perf.unresolved)
        self.ok_unres = self.unres_tt <= self.unres_perf + UNRESOLVED_SLACK + 1e-9
        self.ok_overlap = self.overlap >= self.ref_n - OVERLAP_MISSES
        self.ok = self.ok_unres and self.ok_overlap

    def unres_noise(self):
        """Two standard errors of the difference of the two unresolved shares
        (binomial, in points): the two tools sample independently."""
        var = 0.0
        for p in (self.perf, self.tt):
            q = p.unresolved / p.total
            var += q * (1 - q) / p.total
        return 200.0 * var ** 0.5

    @property
    def measured(self):
        return not self.skipped and not self.error

    def cxxfilt_overlap(self):
        """Overlap if tracetop's mangled names went through c++filt -p."""
        mangled = [n for n, _ in self.tt_rank if is_mangled(n)]
        if not mangled:
            return None
        dm = cxxfilt_p(mangled)
        if dm is None:
            return None
        c = Counter()
        for n, k in self.tt_rank:
            c[dm.get(n, n)] += k
        top = [n for n, _ in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:self.top_n]]
        return len(set(self.perf_top) & set(top))


# ---- output -------------------------------------------------------------------


def fmt_pct(x):
    return "%.2f" % x if x < 10 else "%.1f" % x


def table(results, top_n):
    lines = [
        "| workload | samples, tracetop / perf | unresolved %%, tracetop / perf | mangled %%, tracetop / perf "
        "| top-%d overlap | of them named by tracetop at all | bar |" % top_n,
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        if r.skipped:
            lines.append("| %s | – | – | – | – | – | skipped: %s |" % (r.label, r.skipped))
            continue
        if r.error:
            lines.append("| %s | – | – | – | – | – | error: %s |" % (r.label, r.error))
            continue
        why = []
        if not r.ok_unres:
            why.append("unresolved +%.2f pt" % (r.unres_tt - r.unres_perf))
        if not r.ok_overlap:
            why.append("overlap")
        lines.append("| %s | %d / %d | %s / %s | %s / %s | %d of %d | %d | %s |" % (
            r.label, r.tt.total, r.perf.total, fmt_pct(r.unres_tt), fmt_pct(r.unres_perf),
            fmt_pct(r.tt.pct(r.tt.mangled)), fmt_pct(r.perf.pct(r.perf.mangled)),
            r.overlap, r.ref_n, r.named, "pass" if r.ok else "FAIL (%s)" % ", ".join(why)))
    return "\n".join(lines)


def short(name, width=90):
    return name if len(name) <= width else name[:width - 1] + "…"


def details(r):
    out = ["", "### %s" % r.label]
    if r.meta.get("note"):
        out.append("note: %s" % r.meta["note"])
    if r.skipped or r.error:
        out.append("skipped: %s" % r.skipped if r.skipped else "error: %s" % r.error)
        return "\n".join(out)
    out.append("windows pooled: %d; pids: %s" % (r.reps, " | ".join(r.pids)))
    for rep, why in r.reps_failed:
        out.append("%s not counted: %s" % (rep, why))
    out.append("unresolved: tracetop - perf = %+.2f points, sampling noise (2 sigma) +-%.2f" % (
        r.unres_tt - r.unres_perf, r.unres_noise()))
    norm = [] if KEEP_VERSIONS else ["symbol versions dropped"]
    if r.strip_tt:
        norm.append("tracetop's argument lists stripped")
    if r.strip_perf:
        norm.append("perf's argument lists stripped")
    out.append("normalization: %s" % ("; ".join(norm) if norm else "blanks only"))
    for p in (r.perf, r.tt):
        for n in p.notes:
            out.append("%s: %s" % (p.tool, n))
    for p in (r.tt, r.perf):
        if p.unresolved:
            out.append("%s's unresolved samples by DSO: %s" % (p.tool, ", ".join(
                "%s %.2f %%" % (d, p.pct(k)) for d, k in p.unresolved_dso.most_common(4))))
    cf = r.cxxfilt_overlap()
    if cf is not None:
        out.append("overlap if tracetop's mangled names went through c++filt -p: %d of %d" % (cf, r.ref_n))
    tt_pos = {n: i for i, (n, _) in enumerate(r.tt_rank)}
    tt_cnt = dict(r.tt_rank)
    out.append("")
    out.append("  #  perf %%   tracetop %%  tt rank  name (perf's top %d)" % r.top_n)
    for i, (n, k) in enumerate(r.perf_rank[:r.top_n]):
        j = tt_pos.get(n)
        mark = " " if n in r.tt_top else "✗"
        out.append("%3d %6.2f   %10s  %7s %s %s" % (
            i + 1, r.perf.pct(k), "%.2f" % r.tt.pct(tt_cnt[n]) if n in tt_cnt else "–",
            str(j + 1) if j is not None else "–", mark, short(n)))
    extra = [n for n in r.tt_top if n not in set(r.perf_top)]
    if extra:
        out.append("  in tracetop's top %d only:" % r.top_n)
        for n in extra:
            out.append("      %6.2f %%  %s" % (r.tt.pct(tt_cnt[n]), short(n, 110)))
    return "\n".join(out)


def workload_dirs(args):
    dirs = []
    for a in args:
        if is_workload_dir(a):
            dirs.append(a)
            continue
        order_file = os.path.join(a, "order.txt")
        if os.path.exists(order_file):
            with open(order_file) as f:
                names = [l.strip() for l in f if l.strip()]
        else:
            names = sorted(os.listdir(a))
        for n in names:
            sub = os.path.join(a, n)
            if os.path.isdir(sub) and is_workload_dir(sub):
                dirs.append(sub)
    return dirs


def main(argv=None):
    ap = argparse.ArgumentParser(description="Name fidelity of tracetop vs perf (bench/fidelity.sh's results).")
    ap.add_argument("dirs", nargs="+", help="a run dir, or workload dirs")
    ap.add_argument("--top", type=int, default=TOP_N, help="names compared (default %(default)s)")
    ap.add_argument("--markdown", action="store_true", help="print only the table")
    ap.add_argument("--no-details", action="store_true", help="no per-workload top-N listing")
    ap.add_argument("--keep-versions", action="store_true",
                    help="compare names with their symbol versions (hypot@@GLIBC_2.35)")
    a = ap.parse_args(argv)
    global KEEP_VERSIONS
    KEEP_VERSIONS = a.keep_versions
    dirs = workload_dirs(a.dirs)
    if not dirs:
        print("fidelity.py: no workload results in %s" % " ".join(a.dirs), file=sys.stderr)
        return 2
    results = [Result(d, a.top) for d in dirs]
    print(table(results, a.top))
    measured = [r for r in results if r.measured]
    failed = [r for r in measured if not r.ok]
    if not a.markdown:
        print()
        print("Bar: unresolved share <= perf's + %.1f points and top-%d overlap >= %d of %d on every workload." % (
            UNRESOLVED_SLACK, a.top, a.top - OVERLAP_MISSES, a.top))
        verdict = "NOTHING MEASURED" if not measured else "FAIL" if failed else "PASS"
        print("Verdict: %s (%d measured, %d pass, %d fail, %d skipped or broken)." % (
            verdict, len(measured), len(measured) - len(failed), len(failed), len(results) - len(measured)))
        if not a.no_details:
            for r in results:
                print(details(r))
    return 1 if failed or not measured else 0


if __name__ == "__main__":
    sys.exit(main())
