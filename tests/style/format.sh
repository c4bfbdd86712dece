#!/bin/bash
# The tree is formatted by its own .clang-format: every C file under src/,
# ui/, include/, tests/ and bench/ is exactly what clang-format makes of it.
# Formatting differs between clang-format major versions: the tree follows
# Debian 12's (14); with another one this check skips, naming it.
. "$(dirname "$0")/../e2e/lib.sh"
need_tool clang-format clang-format
FORMAT_MAJOR=14

version=$(clang-format --version | sed -nE 's/.*version ([0-9]+)\..*/\1/p')
[ "$version" = "$FORMAT_MAJOR" ] ||
	tap_skip_all "clang-format $version is not $FORMAT_MAJOR, the version the tree follows"

cd "$TT_SRCDIR" || bail_out "no source tree at $TT_SRCDIR"
for dir in src ui include tests bench; do
	bad=()
	while IFS= read -r f; do
		clang-format --style=file "$f" | cmp -s - "$f" || bad+=("$f")
	done < <(find "$dir" -name '*.[ch]' -type f | sort)
	[ "${#bad[@]}" -eq 0 ]
	ok $? "$dir/: formatted by .clang-format" ||
		diag "not formatted (clang-format -i FILE): ${bad[*]}"
done
done_testing
