#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/docs.sh - the numbers the docs quote about a lab come from its
# table, never from a copy: `make docs` writes them, `make test` checks
# them (docs that cannot drift).
#
#   sh tools/docs.sh write [FILE...]  rewrite every generated block in place
#   sh tools/docs.sh check [FILE...]  exit 1, naming each stale block, if
#                                     any differs from what write would
#                                     put there
#
# FILEs default to README.md, docs/*.md and labs/*/README.md. A generated
# block is whatever lies between a line
#     <!-- KIND: LAB (make docs writes this table from LAB's lab.c) -->
# and the next line "<!-- end of KIND -->"; LAB is a lab's folder name, or
# "all" for every lab, one after the other. KIND is
#   tiers   LAB's speed exercises: correctness points, each tier (a share
#           of the exercise's ideal time on the GPU at hand) with its
#           points, and what the ideal is
#   rules   the technique rules: exercise, must or must not, what, why
#   limits  every exercise: its points, its time limit, its benchmark size
#   help    (LAB is "make") what `make help` prints: the Makefile's header,
#           with the default build folders
# A marker line inside a fenced code block (``` lines) is an example,
# left as it is. The tables are read from each lab's info binary
# (`info --list`, `info --rules`); B (set by the Makefile) is the build
# folder, the binaries are $B/labs/LAB/info.

set -u
B=${B:-build/sm75}
mode=${1:-check}
[ $# -eq 0 ] || shift

# The tiers of lab $1 from its `info --list`, in Markdown.
tiers_table() {
	"$B/labs/$1/info" --list | awk '
	$1 == "exercise" { name[++n] = $2; kind[$2] = $3; pc[$2] = $4; nt[$2] = 0 }
	$1 == "tier" { t = ++nt[$2]; share[$2, t] = $3; pts[$2, t] = $4;
		       if (t > most) most = t }
	$1 == "ideal" { ideal[$2] = $3; sp[$2] = $4 }
	END {
		# (cap): the top tier, in the header where every exercise has
		# as many tiers, else in each exercise'"'"'s own last cell
		same = 1
		for (i = 1; i <= n; i++)
			if (kind[name[i]] == "speed" && nt[name[i]] != most)
				same = 0
		printf "| exercise | correct |"
		for (t = 1; t <= most; t++)
			printf " tier %d%s |", t, same && t == most ? " (cap)" : ""
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
					printf " %g%% -> %s%s |", 100 * share[e, t], pts[e, t],
					       !same && t == nt[e] ? " (cap)" : ""
				else
					printf " |"
			if (ideal[e] == "peer")
				what = "the library peer'"'"'s time (cuBLAS), measured without your code"
			else if (ideal[e] == "instr")
				what = sprintf("the naive'"'"'s time / %g (both bound by instructions), or the speed of light if longer", sp[e])
			else if (ideal[e] == "limit")
				what = "the lab'"'"'s limit kernel: the least instruction work the task needs, without divergence, timed beside it, or the speed of light if longer"
			else if (ideal[e] == "roof")
				what = "the roofline: its FLOPs at the compute peak (tensor cores or fp32 FMA) measured beside it, or its bytes at the memory probe'"'"'s rate if longer"
			else
				what = "the speed of light: its bytes at the memory probe'"'"'s rate, read and written in one kernel beside it"
			printf " %s |\n", what
		}
	}'
}

# The technique rules of lab $1 (`info --rules`: tab-separated), a row
# each; $2 = 1 prints the header first.
rules_table() {
	[ "$2" = 1 ] && printf '| exercise | rule | what | why |\n| --- | --- | --- | --- |\n'
	"$B/labs/$1/info" --rules | awk -F '\t' -v lab="$1" '
	# Markdown would read these as emphasis or cell borders
	function md(s) { gsub(/[*_|]/, "\\\\&", s); return s }
	{
		split($1, w, " ")
		printf "| `%s/%s` | %s | %s | %s |\n", lab, w[2],
		       w[3] == "must" ? "must contain" : "must not contain",
		       md($2), md($3)
	}'
}

# Every exercise of lab $1 (`info --list`): points, time limit, benchmark
# size; $2 = 1 prints the header first.
limits_table() {
	[ "$2" = 1 ] && printf '| exercise | points (correct + speed) | time limit | timed at |\n| --- | ---: | ---: | --- |\n'
	"$B/labs/$1/info" --list | awk -v lab="$1" '
	$1 == "exercise" { name[++n] = $2; pts[$2] = $4 + $5; pc[$2] = $4;
			   ps[$2] = $5; lim[$2] = $6 }
	$1 == "bench" { size[$2] = $3 }
	END {
		for (i = 1; i <= n; i++) {
			e = name[i]
			printf "| `%s/%s` | %g (%g + %g) | %g s | %s |\n", lab, e,
			       pts[e], pc[e], ps[e], lim[e],
			       e in size && size[e] != "-" ? size[e] : "not timed"
		}
	}'
}

# `make help` as a code block, with the default folders whatever the
# caller's environment says.
help_block() {
	printf '```\n'
	env -u MAKEFLAGS -u MAKELEVEL -u BUILD -u DIST ${MAKE:-make} -s \
		--no-print-directory help || return 1
	printf '```\n'
}

# The block KIND ($1) for LAB ($2: a lab, or all).
block() {
	[ "$1" != help ] || { help_block; return; }
	if [ "$2" = all ]; then
		set -- "$1" $(for d in labs/*/lab.mk; do basename "$(dirname "$d")"; done)
	else
		set -- "$1" "$2"
	fi
	kind=$1 first=1
	shift
	for l; do
		if [ ! -x "$B/labs/$l/info" ]; then
			echo "docs: no $B/labs/$l/info (build the labs first: make runners)" >&2
			return 1
		fi
		case $kind in
		tiers) tiers_table "$l" ;;
		rules) rules_table "$l" "$first" ;;
		limits) limits_table "$l" "$first" ;;
		esac || return 1
		first=0
	done
}

# Rewrite file $1's blocks into $2.
render() {
	: > "$2"
	kind="" code=0
	while IFS= read -r line || [ -n "$line" ]; do
		# A marker inside a fenced code block is an example, not a block
		# (docs/adding-a-lab.md shows a lab's README whole).
		if [ -z "$kind" ]; then
			case ${line#"${line%%[! ]*}"} in '```'*) code=$((1 - code)) ;; esac
			if [ "$code" = 1 ]; then
				printf '%s\n' "$line" >> "$2"
				continue
			fi
		fi
		case $line in
		"<!-- tiers: "* | "<!-- rules: "* | "<!-- limits: "* | "<!-- help: "*)
			printf '%s\n' "$line" >> "$2"
			kind=$(printf '%s\n' "$line" | sed 's/^<!-- \([a-z]*\):.*/\1/')
			arg=$(printf '%s\n' "$line" | sed 's/^<!-- [a-z]*: \([^ ]*\).*/\1/')
			block "$kind" "$arg" >> "$2" || return 1
			;;
		"<!-- end of $kind -->")
			printf '%s\n' "$line" >> "$2"
			kind=""
			;;
		*)
			[ -n "$kind" ] || printf '%s\n' "$line" >> "$2"
			;;
		esac
	done < "$1"
	[ -z "$kind" ] || { echo "docs: $1: a $kind block has no end" >&2; return 1; }
}

stale=0
tmp=$(mktemp)
[ $# -gt 0 ] || set -- README.md docs/*.md labs/*/README.md
for f; do
	[ -f "$f" ] && grep -Eq '^<!-- (tiers|rules|limits|help): ' "$f" || continue
	render "$f" "$tmp" || { rm -f "$tmp"; exit 2; }
	cmp -s "$f" "$tmp" && continue
	if [ "$mode" = write ]; then
		cp "$tmp" "$f"
		echo "docs: wrote $f"
	else
		echo "docs: $f is stale: a block differs from the labs' tables (make docs)"
		diff "$f" "$tmp" | head -n 20
		stale=1
	fi
done
rm -f "$tmp"
exit $stale
