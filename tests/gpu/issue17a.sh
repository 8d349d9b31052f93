#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/issue17a.sh - the GPU checks of issue 17, item 2: lab 02's
# lockstep (graded under racecheck and synccheck on every grade). Item 3,
# lab 03's particles, has its own: tests/gpu/particles.sh. One batch, a
# few minutes of GPU time.
#
#   sh tests/gpu/issue17a.sh          (logs to $OUT if set, else build/issue17a)
#
# 1. the solution: PASS with full points (its details must say
#    racecheck and synccheck ran, though SANITIZE= is not set);
# 2. the skeleton: NOT_IMPLEMENTED, 0 points;
# 3. lockstep's solution with compute-sanitizer missing: GRADER_ERROR;
# 4. the broken cases with their expect files (make test's gpu section,
#    restricted to these cases): lockstep-legacy and lockstep-half-fix RACE.
# Ends with a summary; status 1 when a check failed. Needs a GPU.

set -u
MAKE=${MAKE:-make}
OUTDIR=${OUT:-build/issue17a}
mkdir -p "$OUTDIR"
SUMMARY="$OUTDIR/summary.txt"
: > "$SUMMARY"
failed=0

say() { echo "$*" | tee -a "$SUMMARY"; }

# grade NAME SRC LAB EX [make args]: one graded run, its TSV and log kept
grade() {
	name=$1 src=$2 lab=$3 ex=$4
	shift 4
	$MAKE --no-print-directory grade SRC="$src" LAB="$lab" EX="$ex" \
		TSV="$OUTDIR/$name.tsv" JSON="$OUTDIR/$name.json" "$@" \
		> "$OUTDIR/$name.log" 2>&1
}

# want NAME VERDICT [full|zero]: the one row of NAME.tsv has VERDICT (and
# full or zero points)
want() {
	row=$(awk -F '\t' 'NR == 2 { print $3, $4, $5 }' "$OUTDIR/$1.tsv" 2>/dev/null)
	set -- "$1" "$2" "${3:-}" $row
	if [ "${4:-}" = "$2" ] && awk -v p="${5:-x}" -v m="${6:-x}" -v k="$3" \
		'BEGIN { exit !(k == "" || (k == "full" && p + 0 == m + 0 && m != "x") ||
				(k == "zero" && p + 0 == 0 && p != "x")) }'; then
		say "ok    $1: $4 $5/$6"
	else
		say "FAIL  $1: got ${4:-nothing} ${5:-?}/${6:-?}, expected $2 $3 (see $OUTDIR/$1.log)"
		failed=1
	fi
}

nvidia-smi > "$OUTDIR/nvidia-smi.txt" 2>&1
say "issue17a on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1), $(date -u)"

# 1, 2
grade sol-lockstep solutions shfl lockstep
want sol-lockstep PASS full
if grep -q "racecheck and synccheck found nothing" "$OUTDIR/sol-lockstep.log"; then
	say "ok    sol-lockstep: racecheck and synccheck ran without SANITIZE=1"
else
	say "FAIL  sol-lockstep: no 'racecheck and synccheck found nothing' in its details"
	failed=1
fi
grade skel-lockstep labs shfl lockstep
want skel-lockstep NOT_IMPLEMENTED zero

# 3: a grade that cannot run the required tools awards nothing
grade nosan-lockstep solutions shfl lockstep SANITIZER=/nonexistent/compute-sanitizer
want nosan-lockstep GRADER_ERROR zero

# 4: the broken cases, as make test grades them
for glob in 'lockstep-*'; do
	TEST_BROKEN=$glob GPU_SKIP_FULL=1 GPU_NO_SANITIZE=1 \
		$MAKE --no-print-directory test TEST_SECTIONS=gpu \
		> "$OUTDIR/broken-$glob.log" 2>&1
	grep -E '^(PASS|FAIL|SKIP) gpu/broken' "$OUTDIR/broken-$glob.log" | tee -a "$SUMMARY"
	grep -q '^FAIL' "$OUTDIR/broken-$glob.log" && failed=1
done
# The racecheck reports, for the README and a unit test's data
for f in $(find build -path '*02-shfl*' -name 'lockstep.*check.out' 2>/dev/null); do
	cp "$f" "$OUTDIR/$(echo "$f" | tr '/' '_')"
done
cp -r build/test-logs "$OUTDIR/test-logs" 2>/dev/null

say "issue17a: $([ $failed = 0 ] && echo 'all checks passed' || echo 'some checks FAILED')"
exit $failed
