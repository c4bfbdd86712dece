#!/bin/bash
# House rules that the compiler can check: every header (public, and the
# private *-impl.h beside their .c files) compiles on its own, nothing
# outside ui/ includes curses, only the stream module libtraceevent and
# only the sym-demangle adapter libiberty.
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
for h in "$TT_SRCDIR"/src/*.h; do
	[ -e "$h" ] || continue
	name=${h#"$TT_SRCDIR"/}
	out=$(printf '#include "%s"\n' "$name" |
		$cc -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -fsyntax-only -I"$TT_SRCDIR/include" \
			-I"$TT_SRCDIR" -x c - 2>&1)
	[ -z "$out" ]
	ok $? "$name compiles alone"
	[ -z "$out" ] || diag "$out"
done
curses=$(grep -rlE '#include *[<"](n?curses|ncursesw/)' "$TT_SRCDIR/src" "$TT_SRCDIR/include" || true)
[ -z "$curses" ]
ok $? "src/ and include/ never include curses"
[ -z "$curses" ] || diag "$curses"
traceevent=$(grep -rlE '#include *[<"](traceevent/|event-parse)' "$TT_SRCDIR/src" "$TT_SRCDIR/include" \
	"$TT_SRCDIR/ui" | grep -vE '/src/stream[^/]*$' || true)
[ -z "$traceevent" ]
ok $? "only the stream module includes libtraceevent"
[ -z "$traceevent" ] || diag "$traceevent"
iberty=$(grep -rlE '#include *[<"](libiberty/|demangle\.h|libiberty\.h)' "$TT_SRCDIR/src" \
	"$TT_SRCDIR/include" "$TT_SRCDIR/ui" | grep -vE '/src/sym-demangle\.c$' || true)
[ -z "$iberty" ]
ok $? "only the sym-demangle adapter includes libiberty"
[ -z "$iberty" ] || diag "$iberty"
done_testing
