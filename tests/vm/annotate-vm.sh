#!/bin/bash
# In the VM (tests/vm/run.sh): a kernel function annotated from /proc/kcore,
# which Debian's kernel has (this machine's does not): the hottest kernel
# function under dd disassembles, carries the samples and says where its
# bytes came from.
. "$(dirname "$0")/lib.sh"

[ -r /proc/kcore ] || tap_skip_all "no /proc/kcore in this kernel"
is "$(config_is CONFIG_PROC_KCORE)" y "CONFIG_PROC_KCORE=y"

dd_cmd=(dd if=/dev/zero of=/dev/null bs=64k count=200000)
"$TRACETOP" -b -d 2 -n 1 -- "${dd_cmd[@]}" >"$TT_TMP/top.txt" 2>/dev/null
ok $? "a profile of dd"
# the first kernel row: "... [kernel.kallsyms]  [k] SYMBOL"
ksym=$(sed -nE 's/.*\[kernel\.kallsyms\] +\[k\] ([A-Za-z0-9_.]+)$/\1/p' "$TT_TMP/top.txt" | head -n 1)
[ -n "$ksym" ]
ok $? "a kernel function is sampled under dd (${ksym:-none})"

"$TRACETOP" -b -d 2 -n 1 --annotate "$ksym" -- "${dd_cmd[@]}" >"$TT_TMP/a.txt" 2>"$TT_TMP/a.err"
ok $? "--annotate $ksym exits 0" || diag "$(cat "$TT_TMP/a.err")"
diag "$(head -n 3 "$TT_TMP/a.txt")"
"$TRACETOP" -b -d 2 -n 1 --annotate "$ksym" --format json -- "${dd_cmd[@]}" >"$TT_TMP/a.json" 2>/dev/null
grep -q '"from":"/proc/kcore"' "$TT_TMP/a.json"
ok $? "the bytes came from /proc/kcore"
grep -q '"kernel":true' "$TT_TMP/a.json"
ok $? "marked as kernel code"
n=$(grep -cE '^ *[0-9]+\.[0-9]+ *│? *[0-9a-f]+: ' "$TT_TMP/a.txt")
[ "${n:-0}" -gt 0 ]
ok $? "instructions carry their share of the samples ($n with samples)"
sum=$(sed -nE 's/^ *([0-9]+\.[0-9]+) *│? *[0-9a-f]+: .*/\1/p' "$TT_TMP/a.txt" | awk '{ s += $1 } END { printf "%.1f", s }')
awk -v s="$sum" 'BEGIN { exit !(s > 99 && s < 101) }'
ok $? "the shares add up to 100 ($sum)"

done_testing
