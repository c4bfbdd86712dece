#!/bin/bash
# Rust names demangled in batch reports, for both manglings: the workload
# tests/workloads/rsnames.rs built here with rustc's default (legacy)
# mangling and with -C symbol-mangling-version=v0 (stable since Rust 1.59;
# Debian 12 has 1.63). The hot function's name in the text report, JSON
# ("symbol", with "raw") and folded stacks equals c++filt's demangling of
# its mangled name (from nm) without the legacy ::h<hash> and v0's crate
# [disambiguators], which is what rustfilt prints; --annotate takes it.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_root_perf
need_tool rustc rustc
need_tool c++filt binutils
need_tool nm binutils
need_tool python3 python3

# rustfilt-style: c++filt, then the hash and the disambiguators cut.
rustfilt_style() {
	c++filt "$1" | sed -E 's/::h[0-9a-f]{16}$//; s/\[[0-9a-f]+\]//g'
}

# check NAME MANGLING-ERE RUSTC-FLAGS...: build, profile, compare.
check() {
	local name=$1 ere=$2 bin="$TT_TMP/$1" raw full out
	shift 2
	if ! rustc -O -g -C force-frame-pointers=yes "$@" -o "$bin" \
		"$TT_SRCDIR/tests/workloads/rsnames.rs" >"$TT_TMP/$name.cc" 2>&1; then
		skip "this rustc cannot build it: $(head -n 3 "$TT_TMP/$name.cc")" "$name: build"
		return
	fi
	raw=$(nm "$bin" | awk '$3 ~ /4spin/ { print $3 }' | head -n 1)
	if ! [[ "$raw" =~ $ere ]]; then
		skip "rustc $(rustc --version | cut -d' ' -f2) mangles spin as '$raw' here" \
			"$name: mangling"
		return
	fi
	full=$(rustfilt_style "$raw")
	diag "$name: $raw -> $full"
	out="$TT_TMP/$name"
	timeout 60 "$TRACETOP" -b -n 2 -d 1 -- "$bin" 3 >"$out.text" 2>"$out.err"
	is "$(grep -F "[.] $full" "$out.text" | tail -n 1 | sed 's/.*\[\.\] //')" "$full" \
		"$name: text report names spin as rustfilt does"
	timeout 60 "$TRACETOP" -b -n 2 -d 1 --format json -- "$bin" 3 >"$out.json" 2>"$out.err"
	is "$(python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read().splitlines()[-1])["rows"][0]; print(r["symbol"], "|", r.get("raw"))' "$out.json")" \
		"$full | $raw" "$name: JSON symbol demangled, raw mangled"
	timeout 60 "$TRACETOP" -b -n 2 -d 1 -g --format folded -- "$bin" 3 >"$out.folded" \
		2>"$out.err"
	like "$(cat "$out.folded")" "^$name;.*;$(printf '%s' "$full" | sed 's/[][\.*^$()+?{}|]/\\&/g') [0-9]+\$" \
		"$name: folded stacks end in spin, named whole"
	timeout 60 "$TRACETOP" -b -n 2 -d 1 --annotate "$full" -- "$bin" 3 >"$out.ann" 2>"$out.err"
	is "$(grep '^annotate: ' "$out.ann" | sed 's/^annotate: //; s/  object: .*//')" "$full" \
		"$name: --annotate takes the demangled name"
}

check rs-legacy '^_ZN.*17h[0-9a-f]{16}E$'
check rs-v0 '^_R' -C symbol-mangling-version=v0
done_testing
