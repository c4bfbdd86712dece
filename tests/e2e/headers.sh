#!/bin/bash
# House rules that the compiler can check: every header compiles on its own,
# and nothing outside ui/ includes curses.
. "$(dirname "$0")/lib.sh"

cc=${TT_CC:-cc}
for h in "$TT_SRCDIR"/include/tracetop/*.h; do
	name=${h#"$TT_SRCDIR"/include/}
	out=$(printf '#include "%s"\n' "$name" |
		$cc -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -fsyntax-only -I"$TT_SRCDIR/include" -x c - 2>&1)
	[ -z "$out" ]
	ok $? "$name compiles alone"
	[ -z "$out" ] || diag "$out"
done
curses=$(grep -rlE '#include *[<"](n?curses|ncursesw/)' "$TT_SRCDIR/src" "$TT_SRCDIR/include" || true)
[ -z "$curses" ]
ok $? "src/ and include/ never include curses"
[ -z "$curses" ] || diag "$curses"
done_testing
