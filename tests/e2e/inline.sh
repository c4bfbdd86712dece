#!/bin/bash
# With debug info, inlined callees show as frames of their own, marked as
# inlined, in folded stacks and in JSON rows. The inline lookups run on the
# worker thread: samples read before its first answers (the first read
# pass, up to 200 ms of them) go without the inlined frames, later ones
# have them. So counts are zeroed every refresh (-z) and the second
# refresh is checked.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3
need_tool addr2line binutils

"$TRACETOP" -b -g -z -d 1 -n 2 --format folded -- "$WORKLOADS/inlines" 3 >"$TT_TMP/f.txt" \
	2>/dev/null
ok $? "folded stacks of a command with inlined functions"
# refresh N of the folded output (blocks separated by blank lines)
block() { awk -v n="$1" 'BEGIN { b = 1 } !NF { b++; next } b == n' "$TT_TMP/f.txt"; }
hot1=$(block 1 | grep -F 'outer_fn;inl_a (inlined);inl_b (inlined)' | awk '{ s += $NF } END { print s + 0 }')
all1=$(block 1 | awk 'NF { s += $NF } END { print s + 0 }')
diag "first refresh, samples through outer_fn;inl_a;inl_b: $hot1 of $all1"
hot=$(block 2 | grep -F 'outer_fn;inl_a (inlined);inl_b (inlined)' | awk '{ s += $NF } END { print s + 0 }')
all=$(block 2 | awk 'NF { s += $NF } END { print s + 0 }')
diag "second refresh, samples through outer_fn;inl_a;inl_b: $hot of $all"
python3 -c "import sys; sys.exit(0 if $all > 0 and $hot / $all > 0.9 else 1)"
ok $? "90 % of the stacks run through the two inlined frames, in order"

"$TRACETOP" -b -g -z -d 1 -n 2 --format json -- "$WORKLOADS/inlines" 3 >"$TT_TMP/j.json" \
	2>/dev/null
python3 - "$TT_TMP/j.json" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1]).readlines()[-1])["rows"]
inl = {r["symbol"]: r for r in rows if r.get("inlined")}
print("# inlined rows:", {k: (v["self"], v["children"]) for k, v in inl.items()})
ok = all(k in inl and inl[k]["children"] > 90 for k in ("inl_a", "inl_b"))
sys.exit(0 if ok else 1)
PY
ok $? "JSON rows for inl_a and inl_b, marked inlined, with their children share"
# Only the objects holding 1 % of a refresh's samples have their debug
# info read for inlined frames: a copy of the program (another object)
# running 0.5 % of the time beside the busy one shows outer_fn alone.
cp "$WORKLOADS/inlines" "$TT_TMP/inlines-cold"
"$TRACETOP" -b -g -z -d 1 -n 4 --format folded -- \
	sh -c "'$TT_TMP/inlines-cold' 5 400 & '$WORKLOADS/inlines' 5; wait" >"$TT_TMP/c.txt" 2>/dev/null
ok $? "folded stacks of a busy and a mostly idle copy of it"
samples_in() { awk -v n="$1" 'BEGIN { b = 1 } !NF { b++; next } b >= n' "$TT_TMP/c.txt" | grep -E "$2" |
	awk '{ s += $NF } END { print s + 0 }'; }
hot=$(samples_in 3 '^inlines;.*outer_fn;inl_a \(inlined\);inl_b \(inlined\)')
hotall=$(samples_in 3 '^inlines;')
cold=$(samples_in 2 '^inlines-cold;.*outer_fn')
coldinl=$(samples_in 2 '^inlines-cold;.*\(inlined\)')
diag "busy: $hot of $hotall through the inlined frames; idle copy: $coldinl of $cold"
python3 -c "import sys; sys.exit(0 if $hotall > 0 and $hot / $hotall > 0.9 else 1)"
ok $? "the busy program's stacks have their inlined frames"
[ "$cold" -ge 5 ] && [ "$coldinl" -eq 0 ]
ok $? "the copy under 1 % of the samples goes without (its debug info unread)"

# Ten levels of inlining (deeper than any fixed cap): the chain addr2line -i
# lists at the hot loop, every level, in order, under the real function.
"$TRACETOP" -b -g -z -d 1 -n 2 --format folded -- "$WORKLOADS/deepinline" 3 >"$TT_TMP/f.txt" \
	2>/dev/null
ok $? "folded stacks of ten inlined levels"
bin="$WORKLOADS/deepinline"
loop=$(nm "$bin" | awk '/ deep_outer$/ { print $1 }')
# addr2line at an address of the loop: innermost first, the real function last
want=$(objdump -d --no-show-raw-insn "$bin" | awk -v f="<deep_outer>:" '
	$2 == f { on = 1; next } on && /sink/ { sub(":", "", $1); print $1; exit }' |
	xargs -I{} addr2line -i -f -e "$bin" 0x{} | awk 'NR % 2' | tac | paste -sd';' |
	sed 's/;/ (inlined);/g; s/^deep_outer (inlined);/deep_outer;/; s/$/ (inlined)/')
diag "addr2line -i: $want"
[ -n "$loop" ] && [ "$(echo "$want" | tr ';' '\n' | grep -c inlined)" -eq 10 ]
ok $? "addr2line lists ten inlined levels at the loop"
hot=$(block 2 | grep -F "$want" | awk '{ s += $NF } END { print s + 0 }')
all=$(block 2 | awk 'NF { s += $NF } END { print s + 0 }')
diag "second refresh, samples through the whole chain: $hot of $all"
python3 -c "import sys; sys.exit(0 if $all > 0 and $hot / $all > 0.9 else 1)"
ok $? "90 % of the stacks run through all ten inlined levels, in addr2line's order"
done_testing
