#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/stability.sh - do the tiers hold still? (docs/grading.md, 8)
#
#   sh tests/gpu/stability.sh [RUNS] [LAB]
#
# Grades solutions/ RUNS times back to back (default 5; LAB, a lab's folder
# name, limits it to one lab) and prints, for every exercise graded, the
# speedup of each run, their spread ((max - min) / min), the tier each run
# reached, and FLIPPED when runs of the same code reached different tiers.
# Ends with "stability: no tier flipped in N runs" and status 0, or lists
# what flipped, and what did not pass with full points (a solution that is
# SUSPICIOUS, fails a technique rule, or is below its top tier), with
# status 1. Needs a GPU; changes no clock or other GPU setting. Files go to
# build/stability/ (or STAB_OUT).

set -u
RUNS=${1:-5}
LAB=${2:-}
MAKE=${MAKE:-make}
OUTDIR=${STAB_OUT:-build/stability}

if [ ! -d solutions ]; then
	echo "stability: no solutions/ here (the student handout)" >&2
	exit 2
fi
mkdir -p "$OUTDIR"
: > "$OUTDIR/all.tsv"
i=1
while [ "$i" -le "$RUNS" ]; do
	$MAKE --no-print-directory grade SRC=solutions ${LAB:+LAB=$LAB} \
		TSV="$OUTDIR/run-$i.tsv" JSON="$OUTDIR/run-$i.json" > "$OUTDIR/run-$i.log" 2>&1
	if [ ! -s "$OUTDIR/run-$i.tsv" ]; then
		echo "stability: run $i failed: see $OUTDIR/run-$i.log" >&2
		exit 2
	fi
	# run, lab/exercise, verdict, points, max, speedup, tier, technique
	awk -F '\t' -v run="$i" '
		NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
		{ print run "\t" $1 "/" $2 "\t" $col["verdict"] "\t" $col["points"] "\t" \
			$col["max_points"] "\t" $col["speedup"] "\t" $col["tier"] "\t" \
			("technique" in col ? $col["technique"] : "-") }' \
		"$OUTDIR/run-$i.tsv" >> "$OUTDIR/all.tsv"
	echo "run $i of $RUNS: $(grep -c . "$OUTDIR/run-$i.tsv") lines, $(tail -n 1 "$OUTDIR/run-$i.log")" >&2
	i=$((i + 1))
done

awk -F '\t' -v runs="$RUNS" '
{
	ex = $2
	if (!(ex in n)) { order[++k] = ex; lo[ex] = $6; hi[ex] = $6 }
	n[ex]++
	sp[ex] = sp[ex] sprintf(" %.2f", $6)
	tiers[ex] = tiers[ex] " " $7
	if ($6 < lo[ex]) lo[ex] = $6
	if ($6 > hi[ex]) hi[ex] = $6
	if (n[ex] == 1) first[ex] = $7
	else if ($7 != first[ex]) flip[ex] = 1
	if ($3 != "PASS" || $4 != $5) short[ex] = short[ex] " run" $1 ":" $3 "(" $4 "/" $5 ", technique " $8 ")"
}
END {
	printf "%-28s %8s %8s %7s  %-12s %s\n", "exercise", "min", "max", "spread",
	       "tiers", "speedups"
	for (i = 1; i <= k; i++) {
		ex = order[i]
		printf "%-28s %7.2fx %7.2fx %6.1f%%  %-12s%s%s\n", ex, lo[ex], hi[ex],
		       (lo[ex] > 0 ? 100 * (hi[ex] - lo[ex]) / lo[ex] : 0), tiers[ex],
		       sp[ex], ex in flip ? "  FLIPPED" : ""
		if (ex in flip) flipped = flipped " " ex
		if (ex in short) bad = bad "\n  " ex ":" short[ex]
	}
	if (flipped == "" && bad == "") {
		printf "stability: no tier flipped in %d runs\n", runs
		exit 0
	}
	if (flipped != "")
		printf "stability: FLIPPED in %d runs:%s\n", runs, flipped
	if (bad != "")
		printf "stability: not full marks:%s\n", bad
	exit 1
}' "$OUTDIR/all.tsv"
