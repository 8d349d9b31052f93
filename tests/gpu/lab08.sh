#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/lab08.sh - what lab 08 (tensor cores) needs a GPU for, in one
# batch: the solution graded twice (full marks, the tiers' spread), the
# skeleton (NOT IMPLEMENTED), the ladder steps once each (the shares the
# provisional tiers in labs/08-tensor-cores/lab.c are to be set from),
# make bench (naive, solution, cuBLAS), and the broken cases' verdicts;
# for hgemm, fragments and attention alike.
#
#   sh tests/gpu/lab08.sh            # logs under $OUT (default build/lab08)
#   QUICK=1 sh tests/gpu/lab08.sh    # solutions once, skeletons, attention's
#                                    # broken cases only (about a minute)
#
# About 6 minutes on an H100 (attention's naive takes seconds a shape). Needs a GPU of compute capability 8.0 or
# later; changes no GPU setting.

set -u
MAKE=${MAKE:-make}
OUT=${OUT:-build/lab08}
mkdir -p "$OUT"
status=0

step() { # step NAME COMMAND...: run it, log to $OUT/NAME.log, say how it went
	name=$1
	shift
	echo "== $name: $*"
	if "$@" > "$OUT/$name.log" 2>&1; then
		echo "   ok ($OUT/$name.log)"
	else
		echo "   FAILED, exit $? ($OUT/$name.log)"
		status=1
	fi
}

nvidia-smi --query-gpu=name,compute_cap,clocks.max.sm --format=csv \
	> "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"

# The solution twice and each ladder step once (grader's tables in
# $OUT/calibrate: all.tsv and the summary in calibrate.log). QUICK=1: the
# solutions graded once instead.
if [ -z "${QUICK:-}" ]; then
	step calibrate env CAL_OUT="$OUT/calibrate" MAKE="$MAKE" \
		sh tests/gpu/calibrate.sh 2 08-tensor-cores
	tail -n 20 "$OUT/calibrate.log"
else
	step solutions $MAKE --no-print-directory grade SRC=solutions \
		LAB=tensor-cores TSV="$OUT/solutions.tsv"
	cut -f 2-6 "$OUT/solutions.tsv" 2>/dev/null
fi

# The skeleton: NOT IMPLEMENTED, 0 points.
step skeleton $MAKE --no-print-directory grade SRC=labs LAB=tensor-cores \
	TSV="$OUT/skeleton.tsv"
cut -f 2-6 "$OUT/skeleton.tsv" 2>/dev/null

# make bench: naive, solution and cuBLAS (hgemm at 4096^3, attention at
# 16 heads of 4096). Not with QUICK=1.
if [ -z "${QUICK:-}" ]; then
	step bench $MAKE --no-print-directory bench LAB=tensor-cores
	tail -n 15 "$OUT/bench.log"
fi

# The broken cases, as make test's gpu section grades them.
globs='cheat-08-* tensor-* attention-*'
[ -n "${QUICK:-}" ] && globs='cheat-08-attn-* attention-*'
set -f	# the globs are TEST_BROKEN's, not the shell's
for glob in $globs; do
	step "broken-$(echo "$glob" | tr -d '*-')" $MAKE --no-print-directory \
		test TEST_SECTIONS=gpu GPU_SKIP_FULL=1 GPU_NO_SANITIZE=1 \
		TEST_BROKEN="$glob"
	grep -E '^(PASS|FAIL|SKIP)' "$OUT/broken-$(echo "$glob" | tr -d '*-').log"
done
set +f

# The phases of one grade (a student's wait: seconds, not minutes).
[ -z "${QUICK:-}" ] && for ex in hgemm attention; do
	step "phases-$ex" env PHASES_OUT="$OUT/phases-$ex" PHASES_SKIP_ALL=1 \
		sh tests/gpu/phases.sh solutions 08-tensor-cores "$ex"
	tail -n 12 "$OUT/phases-$ex.log"
done

exit $status
