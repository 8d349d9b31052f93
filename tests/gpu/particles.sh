#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/particles.sh - the GPU checks of lab 03's particles (issue 17,
# item 3: the student chooses the layout, the grader packs the data). One
# batch, about three minutes of GPU time; plain make grade only (no make
# test: it needs cmocka).
#
#   sh tests/gpu/particles.sh     (logs to $OUT if set, else build/particles)
#
# 1. the solution (SoA): PASS with full points;
# 2. the skeleton: NOT_IMPLEMENTED, 0 points;
# 3. the broken cases tests/broken/coalesce-particles-*: the verdict their
#    expect file gives (WRONG; COMPILE_ERROR for the missing layout), and
#    the unknown layout's message naming the valid ones;
# 4. the calibration: the solution twice, the ladder steps 3-particles-aos
#    (the best AoS kernel) and 4-particles-aosoa once each; a table of
#    time, naive, ideal and share of each, for the tiers in lab.c and the
#    table of labs/03-coalescing/README.md, section 13 (TODO-MEASURE).
# Ends with a summary; status 1 when a check failed. Needs a GPU.

set -u
MAKE=${MAKE:-make}
OUTDIR=${OUT:-build/particles}
mkdir -p "$OUTDIR"
SUMMARY="$OUTDIR/summary.txt"
: > "$SUMMARY"
failed=0

say() { echo "$*" | tee -a "$SUMMARY"; }

# grade NAME SRC: particles graded once from SRC, its TSV and log kept
grade() {
	$MAKE --no-print-directory grade SRC="$2" LAB=coalescing EX=particles \
		TSV="$OUTDIR/$1.tsv" JSON="$OUTDIR/$1.json" \
		> "$OUTDIR/$1.log" 2>&1
}

# col NAME COLUMN: that column of NAME.tsv's particles row (by the header)
col() {
	awk -F '\t' -v c="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$2 == "particles" && k { print $k }' "$OUTDIR/$1.tsv" 2>/dev/null
}

# want NAME VERDICT [full|zero]
want() {
	v=$(col "$1" verdict) p=$(col "$1" points) m=$(col "$1" max_points)
	if [ "$v" = "$2" ] && awk -v p="${p:-x}" -v m="${m:-x}" -v k="${3:-}" \
		'BEGIN { exit !(k == "" || (k == "full" && p + 0 == m + 0 && m != "x") ||
				(k == "zero" && p + 0 == 0 && p != "x")) }'; then
		say "ok    $1: $v ${p:-?}/${m:-?}"
	else
		say "FAIL  $1: got ${v:-nothing} ${p:-?}/${m:-?}, expected $2 ${3:-} (see $OUTDIR/$1.log)"
		failed=1
	fi
}

nvidia-smi > "$OUTDIR/nvidia-smi.txt" 2>&1
say "particles on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1), $(date -u)"

# 1, 2
grade sol-1 solutions
want sol-1 PASS full
grade skel labs
want skel NOT_IMPLEMENTED zero

# 3
for d in tests/broken/coalesce-particles-*/; do
	case=$(basename "$d")
	grade "$case" "tests/broken/$case solutions"
	want "$case" "$(awk '$1 == "03-coalescing/particles" { print $2 }' "$d/expect")"
done
if grep -q "PARTICLES_AOS (0), PARTICLES_SOA (1) or PARTICLES_AOSOA (2)" \
	"$OUTDIR/coalesce-particles-unknown-layout.log"; then
	say "ok    coalesce-particles-unknown-layout: names the valid layouts"
else
	say "FAIL  coalesce-particles-unknown-layout: no message naming the layouts"
	failed=1
fi

# 4
grade sol-2 solutions
want sol-2 PASS full
grade ladder-aos "tests/ladder/03-coalescing/3-particles-aos solutions"
want ladder-aos PASS
grade ladder-aosoa "tests/ladder/03-coalescing/4-particles-aosoa solutions"
want ladder-aosoa PASS
say ""
say "run             time_us  naive_us  ideal_us  speedup  share   tier  points"
for r in sol-1 sol-2 ladder-aos ladder-aosoa; do
	say "$(printf '%-14s %8s %9s %9s %8s %6s %6s %7s' "$r" \
		"$(col $r time_us)" "$(col $r naive_us)" "$(col $r ideal_us)" \
		"$(col $r speedup)" "$(col $r share)" "$(col $r tier)" \
		"$(col $r points)")"
done
say "tier speedups here: $(col sol-1 tier_speedups)"
say "the naive's share: $(awk -v i="$(col sol-1 ideal_us)" -v n="$(col sol-1 naive_us)" \
	'BEGIN { if (n > 0) printf "%.3f", i / n; else print "?" }')"
# AoS cannot pass 20 / 36 of the speed of light: no speed points
if awk -v p="$(col ladder-aos points)" 'BEGIN { exit !(p != "" && p + 0 == 40) }'; then
	say "ok    ladder-aos: no speed points (the layout's ceiling)"
else
	say "FAIL  ladder-aos: $(col ladder-aos points) points; AoS should earn only the 40 for correctness"
	failed=1
fi

say "particles: $([ $failed = 0 ] && echo 'all checks passed' || echo 'some checks FAILED')"
exit $failed
