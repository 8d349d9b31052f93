#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/lab08.sh - what lab 08 (tensor cores) needs a GPU for, in one
# batch: the solution graded twice (full marks, the tiers' spread), the
# skeleton (NOT IMPLEMENTED), the ladder steps once each (the shares the
# provisional tiers in labs/08-tensor-cores/lab.c are to be set from),
# make bench (naive, solution, cuBLAS), and the broken cases' verdicts.
#
#   sh tests/gpu/lab08.sh            # logs under $OUT (default build/lab08)
#
# About 4 minutes on an H100. Needs a GPU of compute capability 8.0 or
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
# $OUT/calibrate: all.tsv and the summary in calibrate.log).
step calibrate env CAL_OUT="$OUT/calibrate" MAKE="$MAKE" \
	sh tests/gpu/calibrate.sh 2 08-tensor-cores
tail -n 20 "$OUT/calibrate.log"

# The skeleton: NOT IMPLEMENTED, 0 points.
step skeleton $MAKE --no-print-directory grade SRC=labs LAB=tensor-cores \
	TSV="$OUT/skeleton.tsv"
cut -f 2-6 "$OUT/skeleton.tsv" 2>/dev/null

# make bench: naive, solution and cuBLAS at 4096^3.
step bench $MAKE --no-print-directory bench LAB=tensor-cores
tail -n 15 "$OUT/bench.log"

# The broken cases, as make test's gpu section grades them.
for glob in 'cheat-08-*' 'tensor-*'; do
	step "broken-$(echo "$glob" | tr -d '*-')" $MAKE --no-print-directory \
		test TEST_SECTIONS=gpu GPU_SKIP_FULL=1 GPU_NO_SANITIZE=1 \
		TEST_BROKEN="$glob"
	grep -E '^(PASS|FAIL|SKIP)' "$OUT/broken-$(echo "$glob" | tr -d '*-').log"
done

# The phases of one grade (a student's wait: seconds, not minutes).
step phases env PHASES_OUT="$OUT/phases" PHASES_SKIP_ALL=1 \
	sh tests/gpu/phases.sh solutions 08-tensor-cores hgemm
tail -n 12 "$OUT/phases.log"

exit $status
