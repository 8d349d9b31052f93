#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/calibrate.sh - make calibrate: shares of the speed of light on this
# GPU, and tiers proposed from them as the calibration of this GPU model
# (calibrations/<model>.conf, which make grade finds by itself).
#
#   1. tests/gpu/calibrate.sh grades solutions/ RUNS times and every ladder
#      step once, into OUT/all.tsv, and prints its table;
#   2. the grader proposes tiers from all.tsv (grader/score/calibrate.c) and the
#      proposal is written to OUT/course.conf, whole or not at all, and
#      installed as calibrations/<model>.conf.
#
# Environment (set by the Makefile): RUNS, LAB, COURSE, OUT, GRADER, B,
# MAKE. Needs a GPU; changes no clock or any other GPU setting.

set -u
RUNS=${RUNS:-5}
LAB=${LAB:-}
OUT=${OUT:-build/calibrate}
MAKE=${MAKE:-make}

mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1)
echo "calibrating on ${gpu:-this GPU}: solutions x $RUNS, ladder steps x 1" \
     "(files in $OUT)"
CAL_OUT=$OUT sh tests/gpu/calibrate.sh "$RUNS" "$LAB" || exit 1

# The naive's own share of the speed of light comes from the solutions'
# rows (speedup / share); its noise is in the paired intervals, so the
# naive is no longer graded against itself here.
{
	echo "course = tiers calibrated on ${gpu:-this GPU}, $(date -u +%Y-%m-%d)"
	"$GRADER" --labs labs --build "$B/solutions" ${LAB:+--lab "$LAB"} \
		${COURSE:+--course "$COURSE"} --propose-tiers "$OUT/all.tsv"
} > "$OUT/course.conf.tmp"
rc=$?
# The grader's status is that of the last command of the group: 0 every
# timed exercise got tiers, 1 some did not (their reasons are in the file).
if [ "$rc" -gt 1 ]; then
	rm -f "$OUT/course.conf.tmp"
	echo "no proposal: the grader could not read $OUT/all.tsv" >&2
	exit 1
fi
mv "$OUT/course.conf.tmp" "$OUT/course.conf"
# The calibration of this GPU model: make grade finds it by itself on a GPU
# of the same name (grader/cmd/cmd_start.c), unless COURSE= is given.
slug=$(printf '%s' "${gpu:-unknown}" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9][^a-z0-9]*/-/g; s/^-//; s/-$//')
mkdir -p calibrations
cp "$OUT/course.conf" "calibrations/$slug.conf"
echo
cat "$OUT/course.conf"
echo
echo "proposed tiers: $OUT/course.conf, installed as calibrations/$slug.conf:"
echo "make grade on a ${gpu:-GPU of this model} uses them by itself from now on"
echo "(delete the file to go back to the labs' own tiers; COURSE= still wins)."
[ "$rc" -eq 0 ]
