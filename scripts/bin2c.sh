#!/bin/sh
# Write a C file holding binary file $2 as the array $1 (and $1_len), with
# od and awk only (xxd is not on a minimal Debian): the build embeds the
# BPF object this way.
set -eu
name="$1"
file="$2"
printf '/* Generated from %s by scripts/bin2c.sh; do not edit. */\n' "$(basename "$file")"
printf '#include <stddef.h>\n\n'
printf 'const unsigned char %s[] __attribute__((aligned(8))) = {\n' "$name"
od -An -v -tu1 "$file" | awk '
{
	line = "\t"
	for (i = 1; i <= NF; i++)
		line = line $i ","
	print line
	n += NF
}
END {
	if (n == 0)
		print "\t0,"
}'
printf '};\n'
printf 'const size_t %s_len = %s;\n' "$name" "$(wc -c <"$file" | tr -d ' ')"
