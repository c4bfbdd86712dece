#!/bin/bash
# Usage: tests/summary.sh BUILDDIR
# Adds up the ":test-result:" lines of every .trs file under BUILDDIR/tests
# (written by automake's test harness), prints the log of each test that
# failed, and ends with exactly one line "N passed, N failed, N skipped".
# Exits 1 when anything failed, and counts "no results at all" as a failure.
set -euo pipefail

LOG_CAP=200
passed=0
failed=0
skipped=0

# Print log file $1 with ESC made visible, at most LOG_CAP lines (head + tail).
show_log() {
	local log="$1" n half
	if [ ! -f "$log" ]; then
		echo "(no log file $log)"
		return 0
	fi
	n="$(wc -l <"$log")"
	half=$((LOG_CAP / 2))
	if [ "$n" -le "$LOG_CAP" ]; then
		sed 's/\x1b/^[/g' "$log"
	else
		head -n "$half" "$log" | sed 's/\x1b/^[/g'
		echo "... ($((n - LOG_CAP)) lines left out) ..."
		tail -n "$half" "$log" | sed 's/\x1b/^[/g'
	fi
}

# Count the results of one .trs file; print its log when something failed.
count_trs() {
	local trs="$1" p f s
	read -r p f s < <(awk '
		$1 == ":test-result:" {
			if ($2 == "PASS" || $2 == "XFAIL") p++
			else if ($2 == "SKIP") s++
			else f++
		}
		END { printf "%d %d %d\n", p, f, s }' "$trs")
	if [ $((p + f + s)) -eq 0 ]; then
		f=1 # an empty .trs means the test never finished
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	if [ "$f" -gt 0 ]; then
		echo "==================== FAILED: ${trs%.trs} ($f)"
		show_log "${trs%.trs}.log"
		echo "===================="
	fi
}

# Walk BUILDDIR/tests and print the totals.
main() {
	local dir="${1:?usage: summary.sh BUILDDIR}" trs found=0
	if [ -d "$dir/tests" ]; then
		while IFS= read -r -d '' trs; do
			found=1
			count_trs "$trs"
		done < <(find "$dir/tests" -name '*.trs' -type f -print0 | sort -z)
	fi
	if [ "$found" -eq 0 ]; then
		echo "no test results (.trs files) under $dir/tests: did make check run?"
		failed=$((failed + 1))
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}

main "$@"
