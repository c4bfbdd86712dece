#!/bin/bash
# The man page documents every option of --help, and nothing more.
. "$(dirname "$0")/lib.sh"
need_built

man="$TT_SRCDIR/man/tracetop.1"
help=$("$TRACETOP" --help)
opts=$(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
[ -n "$opts" ]
ok $? "--help lists long options"
for o in $opts; do
	grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$man"
	ok $? "man page documents $o"
done
# every option the man page's OPTIONS section names exists in --help
manopts=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man" | grep -oE '\\-\\-[a-z][a-z\\-]+' |
	sed 's/\\-/-/g' | sort -u)
for o in $manopts; do
	printf '%s\n' "$opts" | grep -qx -- "$o"
	ok $? "$o from the man page exists"
done
# the KEYS section is the key map itself
"$TRACETOP" --help-keys >"$TT_TMP/keys"
sed -n '/keys-begin/,/keys-end/p' "$man" | sed '1,2d;$d' | sed '$d' | sed 's/\\e/\\/g' >"$TT_TMP/mankeys"
diff "$TT_TMP/keys" "$TT_TMP/mankeys" >"$TT_TMP/keys.diff"
ok $? "the man page's KEYS section matches the key map (--help-keys)"
[ -s "$TT_TMP/keys.diff" ] && diag "$(cat "$TT_TMP/keys.diff")"
done_testing
