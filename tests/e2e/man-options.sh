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
done_testing
