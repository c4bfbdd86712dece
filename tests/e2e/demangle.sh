#!/bin/bash
# C++ names demangled everywhere a batch report shows them, on a workload
# with namespaces, templates, a lambda and an inlined functor
# (tests/workloads/cxxnames.cpp, built here with g++): the hot function's
# name equals c++filt's demangling of its mangled name (from nm) in the
# text report, in JSON's "symbol" (with the mangled one in "raw"), in
# folded stacks as perf script's c++filt -p form (no parameters), for the
# inlined functor too (its DWARF linkage name); --annotate and --probe
# take the demangled names; --probe refuses a name that fits no function.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_root_perf
need_tool g++ g++
need_tool c++filt binutils
need_tool nm binutils
need_tool readelf binutils
need_tool python3 python3

BIN="$TT_TMP/cxxnames"
g++ -O2 -g -fno-omit-frame-pointer -o "$BIN" "$TT_SRCDIR/tests/workloads/cxxnames.cpp" \
	>"$TT_TMP/cc.out" 2>&1 || bail_out "cannot build cxxnames: $(cat "$TT_TMP/cc.out")"

RAW=$(nm "$BIN" | awk '$3 ~ /4spinI/ { print $3 }')
FULL=$(c++filt "$RAW")
QUAL=$(c++filt -p "$RAW")
# the functor inlined into spin: only DWARF knows its (linkage) name
INL_RAW=$(readelf --debug-dump=info "$BIN" | grep -o '_ZNK2tt6shapes5Mixercl[A-Za-z0-9_]*' | head -n 1)
INL_QUAL=$(c++filt -p "$INL_RAW")
diag "raw: $RAW" "full: $FULL" "qualified: $QUAL" "inlined: $INL_RAW = $INL_QUAL"
is "$QUAL" "tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>" \
	"the hot function is the member template (c++filt -p)"

# field FILE EXPR: a Python expression over the JSON objects of FILE
# (objs, last; row(name): last's row whose symbol is name).
field() {
	python3 - "$@" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
last = objs[-1] if objs else {}
def row(name):
    return next((r for r in last.get("rows", []) if r.get("symbol") == name), {})
print(eval(sys.argv[2]))
PY
}

# -- text: the full name in the Symbol column, the hottest row
timeout 60 "$TRACETOP" -b -n 2 -d 1 -- "$BIN" 3 >"$TT_TMP/text.out" 2>"$TT_TMP/text.err"
ok $? "tracetop -b -- cxxnames exits 0"
is "$(grep -F "[.] $FULL" "$TT_TMP/text.out" | tail -n 1 | sed 's/.*\[\.\] //')" "$FULL" \
	"text report: the hot function as c++filt prints it"

# -- JSON: symbol demangled, raw mangled
timeout 60 "$TRACETOP" -b -n 2 -d 1 --format json -- "$BIN" 3 >"$TT_TMP/top.json" \
	2>"$TT_TMP/top.err"
ok $? "--format json exits 0"
is "$(field "$TT_TMP/top.json" 'last["rows"][0]["symbol"]')" "$FULL" \
	"JSON: the hottest row's symbol is c++filt's name"
is "$(field "$TT_TMP/top.json" 'row(sys.argv[3])["raw"]' "$FULL")" "$RAW" \
	"JSON: raw holds the mangled name"
is "$(field "$TT_TMP/top.json" 'all("raw" not in r for r in last["rows"] if r["kernel"])')" \
	"True" "JSON: no raw for names that are not mangled (the kernel's)"

# -- folded: perf script's names (c++filt -p), ';' only between frames
rerun_until 30 ";$INL_QUAL \\(inlined\\) [0-9]+\$" "$TT_TMP/folded.out" \
	timeout 60 "$TRACETOP" -b -n 2 -d 1 -g --format folded -- "$BIN" 3
ok $? "--format folded -g exits 0"
line=$(grep -F ";$QUAL " "$TT_TMP/folded.out" | grep -F ";main;" | head -n 1)
like "$line" "^cxxnames;.*;main;[^;]+ [0-9]+\$" "folded: a stack ends in main -> the hot function"
is "$(printf '%s\n' "$line" | sed -E 's/ [0-9]+$//; s/.*;//')" "$QUAL" \
	"folded: the hot function's frame is c++filt -p's name, whole"
like "$(cat "$TT_TMP/folded.out")" ";$(printf '%s' "$QUAL" | sed 's/[][\.*^$()+?{}|]/\\&/g');$(printf '%s' "$INL_QUAL" | sed 's/[][\.*^$()+?{}|]/\\&/g') \\(inlined\\) [0-9]+\$" \
	"folded: the inlined functor under it, by its demangled linkage name"

# -- --annotate by the qualified and the bare name
timeout 60 "$TRACETOP" -b -n 2 -d 1 --annotate "$QUAL" -- "$BIN" 3 >"$TT_TMP/ann.out" \
	2>"$TT_TMP/ann.err"
ok $? "--annotate QUALIFIED-NAME exits 0"
diag "$(cat "$TT_TMP/ann.err")"
is "$(grep '^annotate: ' "$TT_TMP/ann.out" | sed 's/^annotate: //; s/  object: .*//')" "$FULL" \
	"the annotation's header names the function in full"
timeout 60 "$TRACETOP" -b -n 2 -d 1 --format json --annotate 'tt::shapes::Accumulator::spin' \
	-- "$BIN" 3 >"$TT_TMP/ann.json" 2>"$TT_TMP/ann.json.err"
ok $? "--annotate with the bare name (no template arguments) exits 0"
is "$(python3 -c 'import json,sys; a=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(a["symbol"], "|", a["raw"])' "$TT_TMP/ann.json")" \
	"$FULL | $RAW" "annotate JSON: symbol in full, raw mangled"

# -- --probe by demangled names
ADDR=$(nm "$BIN" | awk -v r="$RAW" '$3 == r { print $1 }' | sed 's/^0*//')
timeout 30 "$TRACETOP" --probe-vars "$BIN:\"$FULL\"" >"$TT_TMP/vars.out" 2>&1
ok $? "--probe-vars BIN:\"full name\" resolves"
like "$(cat "$TT_TMP/vars.out")" "at 0x0*$ADDR:" "at the hot function's address"
timeout 60 "$TRACETOP" -b --view probes --format json -n 1 -d 2 \
	--probe "$BIN:\"tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>\"%return" \
	-- "$BIN" 2 >"$TT_TMP/probes.json" 2>"$TT_TMP/probes.err"
ok $? "--probe BIN:\"qualified name\"%return exits 0"
diag "$(cat "$TT_TMP/probes.err")"
python3 - "$TT_TMP/probes.json" "$BIN" "$FULL" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) if l.startswith("{") for r in json.loads(l).get("rows", [])]
want = sys.argv[2] + ":tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>%return"
good = [r for r in rows if r.get("target") == want and r.get("hits", 0) > 0 and
        r.get("name", "").endswith(":tt_shapes_Accumulator_spin__return")]
print("# rows:", [(r.get("name"), r.get("target"), r.get("hits")) for r in rows])
sys.exit(0 if good else 1)
PY
ok $? "the uretprobe on the demangled name counts hits, named after the bare name, its target as typed"
timeout 30 "$TRACETOP" --probe-vars "$BIN:tt::shapes::Accumulator<unsigned long, 3>::spin" \
	>"$TT_TMP/blank.out" 2>&1
[ $? -eq 2 ] && grep -q "quote a function name with blanks" "$TT_TMP/blank.out"
ok $? "a name with a blank, unquoted: a usage error that says to quote it"
timeout 30 "$TRACETOP" --probe-vars "$BIN:tt::shapes::Nothing::spin" >"$TT_TMP/none.out" 2>&1
[ $? -ne 0 ] && grep -q "no function 'tt::shapes::Nothing::spin'" "$TT_TMP/none.out"
ok $? "a demangled name that fits no function is refused by name"
done_testing
