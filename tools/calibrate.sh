#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/calibrate.sh - make calibrate: speedups on this GPU, and tiers
# proposed from them as a ready-to-use course settings file.
#
#   1. tests/gpu/calibrate.sh grades solutions/ RUNS times and every ladder
#      step once, into OUT/all.tsv, and prints its table;
#   2. the naive code is graded against itself twice: each exercise with a
#      wrapper under tests/calibrate/naive/<lab>/<exercise>.cu (one that
#      calls the naive entry point) adds "naive" rows to all.tsv;
#   3. the grader proposes tiers from all.tsv (grader/calibrate.c) and the
#      proposal is written to OUT/course.conf, whole or not at all.
#
# Environment (set by the Makefile): RUNS, LAB, COURSE, OUT, GRADER, B,
# MAKE. Needs a GPU; changes no clock or any other GPU setting.

set -u
RUNS=${RUNS:-5}
LAB=${LAB:-}
OUT=${OUT:-build/calibrate}
MAKE=${MAKE:-make}
NAIVE_DIR=tests/calibrate/naive
NAIVE_RUNS=2

mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1)
echo "calibrating on ${gpu:-this GPU}: solutions x $RUNS, naive x $NAIVE_RUNS," \
     "ladder steps x 1 (files in $OUT)"
CAL_OUT=$OUT sh tests/gpu/calibrate.sh "$RUNS" "$LAB" || exit 1

# Rows of a results.tsv whose exercise has a naive wrapper, as all.tsv rows.
naive_rows() {
	tail -n +2 "$1" | while IFS="$(printf '\t')" read -r lab ex rest; do
		[ -f "$NAIVE_DIR/$lab/$ex.cu" ] && printf 'naive\t%s\t%s\t%s\n' "$lab" "$ex" "$rest"
	done
}

if [ -d "$NAIVE_DIR" ]; then
	i=1
	while [ "$i" -le "$NAIVE_RUNS" ]; do
		# The skeletons fill in where no wrapper exists; those rows
		# (NOT IMPLEMENTED) are dropped, so the status is not checked.
		$MAKE --no-print-directory grade SRC="$NAIVE_DIR labs" ${LAB:+LAB=$LAB} \
			TSV="$OUT/naive-$i.tsv" JSON="$OUT/naive-$i.json" > "$OUT/naive-$i.log" 2>&1
		[ -s "$OUT/naive-$i.tsv" ] || { echo "grading the naive wrappers failed: see $OUT/naive-$i.log" >&2; exit 1; }
		naive_rows "$OUT/naive-$i.tsv" >> "$OUT/all.tsv"
		i=$((i + 1))
	done
fi

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
echo
cat "$OUT/course.conf"
echo
echo "proposed course settings: $OUT/course.conf"
echo "check them, then grade with: make grade COURSE=$OUT/course.conf"
[ "$rc" -eq 0 ]
