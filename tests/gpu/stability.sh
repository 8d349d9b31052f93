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
# reached, and FLIPPED when runs of the same code reached different tiers;
# then the range of the scored share of the speed of light, and OUTSIDE
# when one run's share falls outside the interval another run's report
# stated for it (the noise the report claims is smaller than the noise
# between runs).
# Ends with "stability: no tier flipped in N runs" and status 0, or lists
# what flipped, and what did not pass with full points (a solution that is
# SUSPICIOUS, fails a technique rule, or is below its top tier), with
# status 1. Needs a GPU; changes no clock or other GPU setting. Files go to
# build/stability/ (or STAB_OUT). STAB_FIRST=K numbers the runs from K and
# adds them to the runs already in STAB_OUT (runs split over GPU sessions,
# each starting from an idle GPU); the summary covers all of them.

set -u
RUNS=${1:-5}
LAB=${2:-}
MAKE=${MAKE:-make}
OUTDIR=${STAB_OUT:-build/stability}

if [ ! -d solutions ]; then
	echo "stability: no solutions/ here (the student handout)" >&2
	exit 2
fi
FIRST=${STAB_FIRST:-1}
mkdir -p "$OUTDIR"
[ "$FIRST" -gt 1 ] || : > "$OUTDIR/all.tsv"
i=$FIRST
LAST=$((FIRST + RUNS - 1))
while [ "$i" -le "$LAST" ]; do
	t0=$(date +%s)
	$MAKE --no-print-directory grade SRC=solutions ${LAB:+LAB=$LAB} \
		TSV="$OUTDIR/run-$i.tsv" JSON="$OUTDIR/run-$i.json" > "$OUTDIR/run-$i.log" 2>&1
	if [ ! -s "$OUTDIR/run-$i.tsv" ]; then
		echo "stability: run $i failed: see $OUTDIR/run-$i.log" >&2
		exit 2
	fi
	# run, lab/exercise, verdict, points, max, speedup, tier, technique,
	# share of the speed of light and the interval the report states
	awk -F '\t' -v run="$i" '
		function c(name) { return name in col ? $col[name] : "-" }
		NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
		{ print run "\t" $1 "/" $2 "\t" c("verdict") "\t" c("points") "\t" \
			c("max_points") "\t" c("speedup") "\t" c("tier") "\t" \
			c("technique") "\t" c("share") "\t" c("share_lo") "\t" \
			c("share_hi") }' \
		"$OUTDIR/run-$i.tsv" >> "$OUTDIR/all.tsv"
	echo "run $i of $LAST: $(grep -c . "$OUTDIR/run-$i.tsv") lines in $(($(date +%s) - t0)) s, $(tail -n 1 "$OUTDIR/run-$i.log")" >&2
	i=$((i + 1))
done

awk -F '\t' -v runs="$LAST" '
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
	# the share and the interval the report stated for it, per run
	sh[ex, n[ex]] = $9; slo[ex, n[ex]] = $10; shi[ex, n[ex]] = $11
}
# Is every run'"'"'s share inside every other run'"'"'s stated interval?
function outside(ex,    i, j) {
	for (i = 1; i <= n[ex]; i++)
		for (j = 1; j <= n[ex]; j++)
			if (sh[ex, j] != "-" && slo[ex, i] != "-" &&
			    (sh[ex, j] + 0 < slo[ex, i] - 1e-4 || sh[ex, j] + 0 > shi[ex, i] + 1e-4))
				return 1
	return 0
}
END {
	printf "%-22s %7s %7s %6s %-11s %-13s %s\n", "exercise", "min", "max",
	       "spread", "tiers", "share range", "speedups"
	for (i = 1; i <= k; i++) {
		ex = order[i]
		smin = smax = ""
		for (j = 1; j <= n[ex]; j++) {
			if (sh[ex, j] == "-") continue
			if (smin == "" || sh[ex, j] + 0 < smin) smin = sh[ex, j] + 0
			if (smax == "" || sh[ex, j] + 0 > smax) smax = sh[ex, j] + 0
		}
		printf "%-22s %6.2fx %6.2fx %5.1f%% %-11s %-13s%s%s%s\n", ex, lo[ex], hi[ex],
		       (lo[ex] > 0 ? 100 * (hi[ex] - lo[ex]) / lo[ex] : 0), tiers[ex],
		       smin == "" ? " -" : sprintf(" %.1f-%.1f%%", 100 * smin, 100 * smax),
		       sp[ex], ex in flip ? "  FLIPPED" : "",
		       outside(ex) ? "  OUTSIDE" : ""
		if (ex in flip) flipped = flipped " " ex
		if (ex in short) bad = bad "\n  " ex ":" short[ex]
		if (outside(ex)) noisy = noisy " " ex
	}
	if (flipped == "" && bad == "" && noisy == "") {
		printf "stability: no tier flipped in %d runs; every share inside every run'"'"'s stated interval\n", runs
		exit 0
	}
	if (flipped != "")
		printf "stability: FLIPPED in %d runs:%s\n", runs, flipped
	if (noisy != "")
		printf "stability: a share outside another run'"'"'s stated interval (OUTSIDE):%s\n", noisy
	if (bad != "")
		printf "stability: not full marks:%s\n", bad
	exit 1
}' "$OUTDIR/all.tsv"
