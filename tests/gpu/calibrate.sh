#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/calibrate.sh - the measurements tiers are set from.
#
#   sh tests/gpu/calibrate.sh [RUNS] [LAB]
#
# Grades solutions/ RUNS times back to back (default 5), then every step of
# the ladders under tests/ladder/<lab>/<step>/ (intermediate versions, one
# idea each; LAB, a full lab folder name, limits both to one lab)
# once, and prints each exercise's speedups, their spread, and the tier each
# run reached. A tier that differs between runs of the same code is marked
# FLIPPED: the tiers must then move away from the measured speedups.
# Needs a GPU. Nothing here changes a clock or any other GPU setting.

set -u
RUNS=${1:-5}
LAB=${2:-}
MAKE=${MAKE:-make}
OUTDIR=${CAL_OUT:-build/calibrate}
mkdir -p "$OUTDIR"

grade_once() { # grade_once SRC NAME [LAB [EX]]: one graded run, its TSV kept
	lab=${3:-$LAB} ex=${4:-}
	$MAKE --no-print-directory grade SRC="$1" ${lab:+LAB=$lab} ${ex:+EX=$ex} \
		TSV="$OUTDIR/$2.tsv" JSON="$OUTDIR/$2.json" > "$OUTDIR/$2.log" 2>&1
	[ -s "$OUTDIR/$2.tsv" ] || { echo "grading $1 failed: see $OUTDIR/$2.log" >&2; return 1; }
}

: > "$OUTDIR/all.tsv"
i=1
while [ "$i" -le "$RUNS" ]; do
	grade_once solutions "solutions-$i" || exit 1
	awk -F '\t' -v s=solutions 'NR > 1 { print s "\t" $0 }' "$OUTDIR/solutions-$i.tsv" >> "$OUTDIR/all.tsv"
	i=$((i + 1))
done
# Each step grades only the exercises it has a file for (EX=), the rest of
# its lab is not rebuilt or graded.
for f in tests/ladder/${LAB:-*}/*/*/*.cu; do
	[ -f "$f" ] || continue
	ex=$(basename "$f" .cu) step=${f%/*/*.cu}
	lab=$(basename "$(dirname "$step")") name=$(basename "$step")
	grade_once "$step solutions" "ladder-$lab-$name-$ex" "$lab" "$ex" || exit 1
	awk -F '\t' -v s="ladder/$name" -v l="$lab" 'NR > 1 && $1 == l { print s "\t" $0 }' \
		"$OUTDIR/ladder-$lab-$name-$ex.tsv" >> "$OUTDIR/all.tsv"
done

# all.tsv: source, then results.tsv's columns: lab exercise verdict points
# max speedup time naive peer gbps pct tier ... share ($18) ...
awk -F '\t' '
{
	key = $1 "\t" $2 "/" $3
	if (!(key in n)) { order[++k] = key; min[key] = $7; max[key] = $7 }
	n[key]++; sp[key] = sp[key] sprintf(" %.2f", $7)
	if ($7 < min[key]) min[key] = $7
	if ($7 > max[key]) max[key] = $7
	tiers[key] = tiers[key] " " $13
	if (n[key] == 1) first[key] = $13; else if ($13 != first[key]) flip[key] = 1
	gb[key] = $11; pc[key] = 100 * $18; v[key] = $4
}
END {
	printf "%-22s %-20s %-8s %8s %8s %6s %6s %5s  %s\n", "source", "exercise",
	       "verdict", "min", "max", "spread", "GB/s", "%SOL", "tiers (speedups)"
	for (i = 1; i <= k; i++) {
		split(order[i], p, "\t")
		printf "%-22s %-20s %-8s %7.2fx %7.2fx %5.1f%% %6.0f %4.0f%%  %s (%s)%s\n",
		       p[1], p[2], v[order[i]], min[order[i]], max[order[i]],
		       (min[order[i]] > 0 ? 100 * (max[order[i]] - min[order[i]]) / min[order[i]] : 0),
		       gb[order[i]], pc[order[i]], tiers[order[i]], sp[order[i]],
		       (order[i] in flip ? "  FLIPPED" : "")
	}
}' "$OUTDIR/all.tsv"
