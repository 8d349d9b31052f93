#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/docs.sh - the numbers the docs quote about a lab come from its
# table, never from a copy: `make docs` writes them, `make test` checks
# them (docs that cannot drift).
#
#   sh tools/docs.sh write   rewrite every generated block in place
#   sh tools/docs.sh check   exit 1, naming each stale block, if any
#                            differs from what write would put there
#
# A generated block is whatever lies between a line
#     <!-- tiers: LAB (make docs writes this table from LAB's lab.c) -->
# and the next line "<!-- end of tiers -->", in any labs/*/README.md,
# docs/*.md or README.md. It becomes a table of LAB's speed exercises:
# correctness points, each tier (a share of the exercise's ideal time on
# the GPU at hand) with its points, and what the ideal is. The table is
# read from the lab's info binary (`info --list`); B (set by the
# Makefile) is the build folder, the binaries are $B/labs/LAB/info.

set -u
B=${B:-build/sm75}
mode=${1:-check}

# The table for lab $1 from its `info --list`, in Markdown.
table() {
	"$B/labs/$1/info" --list | awk '
	$1 == "exercise" { name[++n] = $2; kind[$2] = $3; pc[$2] = $4; nt[$2] = 0 }
	$1 == "tier" { t = ++nt[$2]; share[$2, t] = $3; pts[$2, t] = $4;
		       if (t > most) most = t }
	$1 == "ideal" { ideal[$2] = $3; sp[$2] = $4 }
	END {
		printf "| exercise | correct |"
		for (t = 1; t <= most; t++)
			printf " tier %d%s |", t, t == most ? " (cap)" : ""
		printf " shares of |\n| --- | ---: |"
		for (t = 1; t <= most; t++)
			printf " ---: |"
		printf " --- |\n"
		for (i = 1; i <= n; i++) {
			e = name[i]
			if (kind[e] != "speed")
				continue
			printf "| `%s` | %s |", e, pc[e]
			for (t = 1; t <= most; t++)
				if (t <= nt[e])
					printf " %g%% -> %s |", 100 * share[e, t], pts[e, t]
				else
					printf " |"
			if (ideal[e] == "peer")
				what = "the library peer'"'"'s time (cuBLAS), measured without your code"
			else if (ideal[e] == "instr")
				what = sprintf("the naive'"'"'s time / %g (both bound by instructions), or the speed of light if longer", sp[e])
			else
				what = "the speed of light: its bytes at the read and write rates measured beside it"
			printf " %s |\n", what
		}
	}'
}

# Rewrite file $1's blocks into $2.
render() {
	: > "$2"
	lab="" in_block=0
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"<!-- tiers: "*)
			printf '%s\n' "$line" >> "$2"
			lab=$(printf '%s\n' "$line" | sed 's/^<!-- tiers: \([^ ]*\).*/\1/')
			if [ ! -x "$B/labs/$lab/info" ]; then
				echo "docs: no $B/labs/$lab/info (build the labs first: make runners)" >&2
				return 1
			fi
			table "$lab" >> "$2" || return 1
			in_block=1
			;;
		"<!-- end of tiers -->")
			printf '%s\n' "$line" >> "$2"
			in_block=0
			;;
		*)
			[ "$in_block" = 1 ] || printf '%s\n' "$line" >> "$2"
			;;
		esac
	done < "$1"
	[ "$in_block" = 0 ] || { echo "docs: $1: a tiers block has no end" >&2; return 1; }
}

stale=0
tmp=$(mktemp)
for f in README.md docs/*.md labs/*/README.md; do
	[ -f "$f" ] && grep -q '^<!-- tiers: ' "$f" || continue
	render "$f" "$tmp" || { rm -f "$tmp"; exit 2; }
	cmp -s "$f" "$tmp" && continue
	if [ "$mode" = write ]; then
		cp "$tmp" "$f"
		echo "docs: wrote $f"
	else
		echo "docs: $f is stale: its tiers differ from the lab's table (make docs)"
		diff "$f" "$tmp" | head -n 20
		stale=1
	fi
done
rm -f "$tmp"
exit $stale
