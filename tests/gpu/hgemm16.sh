#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/hgemm16.sh - issue #16's hgemm measurements, in one batch: the
# candidates for a faster solution and the re-worked ladder steps, each
# graded in full (every size checked, 4096^3 timed against cuBLAS).
#
#   sh tests/gpu/hgemm16.sh          # logs under $OUT (default build/hgemm16)
#
# 1. tests/gpu/calibrate.sh 2 08-tensor-cores: solutions/ graded twice
#    (the spread), then every step under tests/ladder/08-tensor-cores/
#    once: 1-wmma, 2-mma-sync and 3-cp-async (padded rows now), and the
#    candidates 5-cand-a, 6-cand-b, 7-cand-c. The summary's %SOL column is
#    each one's share of cuBLAS; its verdict must be PASS.
# 2. The two candidates whose pipeline is new (6-cand-b, 7-cand-c: the
#    barrier moved to a tile's last k-step) graded again with SANITIZE=1:
#    compute-sanitizer memcheck, racecheck and synccheck at the small
#    sizes. A race between the cp.async stages and ldmatrix shows as RACE.
#
# About 4 to 5 minutes on an H100, much of it compiling. Needs compute
# capability 8.0 or later; changes no GPU setting. Status 0 when every
# grade ran and every candidate and step passed.

set -u
MAKE=${MAKE:-make}
OUT=${OUT:-build/hgemm16}
mkdir -p "$OUT"
status=0

nvidia-smi --query-gpu=name,compute_cap,clocks.sm,clocks.max.sm \
	--format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"

echo "== calibrate: solutions x2, each lab 08 ladder step x1"
if ! env CAL_OUT="$OUT/calibrate" MAKE="$MAKE" \
	sh tests/gpu/calibrate.sh 2 08-tensor-cores > "$OUT/calibrate.log" 2>&1
then
	echo "   FAILED ($OUT/calibrate.log)"
	status=1
fi
cat "$OUT/calibrate.log"
# Registers and spills of each build, as the grade logs print them.
grep -H "kernel hgemm" "$OUT"/calibrate/*.log 2>/dev/null
# Every line of hgemm must say PASS.
if awk -F '\t' '$3 == "hgemm" && $4 != "PASS" { bad = 1 } END { exit !bad }' \
	"$OUT/calibrate/all.tsv" 2>/dev/null; then
	echo "   a step or candidate did not PASS (see above)"
	status=1
fi

for d in 6-cand-b 7-cand-c; do
	echo "== sanitizers: $d"
	$MAKE --no-print-directory grade \
		SRC="tests/ladder/08-tensor-cores/$d solutions" \
		LAB=tensor-cores EX=hgemm SANITIZE=1 \
		TSV="$OUT/sanitize-$d.tsv" > "$OUT/sanitize-$d.log" 2>&1
	cut -f 2-4 "$OUT/sanitize-$d.tsv" 2>/dev/null | tail -n +2
	grep -iE "racecheck|memcheck|synccheck|hazard" "$OUT/sanitize-$d.log" |
		head -n 8
	awk -F '\t' 'NR > 1 && $2 == "hgemm" && $3 == "PASS" { ok = 1 }
		     END { exit !ok }' "$OUT/sanitize-$d.tsv" 2>/dev/null ||
		status=1
done

exit $status
