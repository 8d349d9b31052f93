#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/attention.sh - lab 08's standalone attention on a GPU (#16).
#
#   sh tests/gpu/attention.sh [SEED]
#
# Builds labs/08-tensor-cores/attn/attn_test for the GPU here (cc >= 8.0),
# replays the fused kernel's lane arithmetic on the CPU (emulate.py), then
# runs attn_test twice with different seeds: the fused kernel, the naive
# eager path and the cuBLAS eager path against the double-precision CPU
# reference at awkward sizes (seq 1, 31, 33, 100, 257, 384; dim 64 and 128;
# causal and not; inputs up to 12), and, in the first run, the benchmark
# (batch 4, heads 16, seq 4096; dim 64, 128; causal and not: ms, TFLOP/s,
# fused's speedup over each path; every output spot-checked). The second
# run checks only; then the fused kernel's checks under compute-sanitizer
# memcheck and racecheck; then six planted bugs, each of which the checks
# must catch: no scale, a causal mask one key late, no max subtraction
# (exact in real arithmetic: only the large inputs overflow it), no
# rescale, the last partial tile dropped, V not transposed; last, two
# steps back for the ladder, checked and timed (fused only): without the
# swizzle, and without causal tile skipping. About 3 to 5 minutes on an
# H100, most of it compiling.
#
# Logs go to $OUT (if set) or build/attn/: gpu.log, build.log,
# emulate.log, run1.log, run2.log, memcheck.log, racecheck.log,
# mutants/NAME.log, steps/NAME.log. Status 0 when everything passed, 77 when the GPU is
# older than cc 8.0, 1 otherwise.

set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$here/build/attn}
seed=${1:-$(date +%s)}
mkdir -p "$out"
cd "$here" || exit 1

nvidia-smi --query-gpu=name,compute_cap,clocks.sm,clocks.max.sm,temperature.gpu \
	--format=csv > "$out/gpu.log" 2>&1 || true
if ! sh labs/08-tensor-cores/attn/build.sh > "$out/build.log" 2>&1; then
	echo "attention: build failed"; tail -n 30 "$out/build.log"; exit 1
fi
grep -E "Used|spill" "$out/build.log"
bin=$(sed -n 's/^built //p' "$out/build.log")

status=0
python3 labs/08-tensor-cores/attn/emulate.py > "$out/emulate.log" 2>&1 || status=1
tail -n 1 "$out/emulate.log"

"$bin" "$seed" > "$out/run1.log" 2>&1
rc=$?
[ "$rc" = 77 ] && { cat "$out/run1.log"; exit 77; }
[ "$rc" = 0 ] || status=1
grep -E "FAIL|mismatch|checks:|bench|shape|x4096|WRONG|all outputs|error" "$out/run1.log" | head -n 60

ATTN_CHECK_ONLY=1 "$bin" $((seed + 1)) > "$out/run2.log" 2>&1 || status=1
grep -E "checks:|FAIL" "$out/run2.log" | head -n 20

# The fused kernel under compute-sanitizer: out-of-bounds accesses
# (memcheck) and shared-memory races between the cp.async stages and
# their readers (racecheck). Check sizes only: small and quick.
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$san" ]; then
	for tool in memcheck racecheck; do
		ATTN_CHECK_ONLY=1 ATTN_IMPL=fused "$san" --tool "$tool" \
			--error-exitcode 9 "$bin" "$seed" > "$out/$tool.log" 2>&1 ||
			status=1
		echo "$tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" \
			"$out/$tool.log" | tail -n 1)"
	done
else
	echo "compute-sanitizer not found: memcheck and racecheck skipped"
fi
# Planted bugs: each must fail the checks (a check that cannot fail
# proves nothing). name|sed expression on attention_solution.cu.
mutants='no-scale|s/(float)(M_LOG2E \/ sqrt((double)dim))/(float)M_LOG2E/
causal-plus-one|s/causal \&\& key > qry)/causal \&\& key > qry + 1)/
no-max|s/base = mnew == -INFINITY ? 0.0f : mnew;/base = 0.0f;/; s/alpha = exp2f(m\[r\] - base);/alpha = 1.0f;/
no-rescale|s/alpha = exp2f(m\[r\] - base);/alpha = 1.0f;/
last-tile-dropped|s/int ntiles = (seq + BC - 1) \/ BC;/int ntiles = seq > BC ? seq \/ BC : 1;/
v-not-transposed|s/ldmatrix_x4_trans(b, vs/ldmatrix_x4(b, vs/'
mdir="$out/mutants"
mkdir -p "$mdir"
# Built side by side; the loop runs in a subshell, so it waits for them.
echo "$mutants" | { while IFS='|' read -r name expr; do
	sed "$expr" labs/08-tensor-cores/attn/attention_solution.cu > "$mdir/$name.cu"
	if cmp -s "$mdir/$name.cu" labs/08-tensor-cores/attn/attention_solution.cu; then
		echo "mutant $name: the edit did not apply" > "$mdir/$name.build.log"
		continue
	fi
	ATTN_SOLUTION="$mdir/$name.cu" ATTN_OUT="$mdir/$name" \
		sh labs/08-tensor-cores/attn/build.sh > "$mdir/$name.build.log" 2>&1 &
done; wait; }
for name in $(echo "$mutants" | cut -d'|' -f1); do
	if [ ! -x "$mdir/$name/attn_test" ]; then
		echo "mutant $name: not built ($(tail -n 1 "$mdir/$name.build.log"))"
		status=1
		continue
	fi
	ATTN_CHECK_ONLY=1 ATTN_IMPL=fused "$mdir/$name/attn_test" "$seed" \
		> "$mdir/$name.log" 2>&1
	rc=$?
	if [ "$rc" = 1 ]; then
		echo "mutant $name: caught ($(grep -c FAIL "$mdir/$name.log") failing lines)"
	else
		echo "mutant $name: NOT caught (status $rc)"
		status=1
	fi
done

# Steps back from the solution, for the README's ladder: each must still
# be right (checks) and is timed alone (fused only) at the benchmark shape.
steps='no-swizzle|s/return row \* dim + ((((col >> 3) ^ (row \& 7))) << 3) + (col \& 7);/return row * dim + col;/
no-causal-skip|s#ntiles = min(ntiles, (q0 + BR - 1) / BC + 1);#(void)0; /* all key tiles */#'
sdir="$out/steps"
mkdir -p "$sdir"
echo "$steps" | { while IFS='|' read -r name expr; do
	sed "$expr" labs/08-tensor-cores/attn/attention_solution.cu > "$sdir/$name.cu"
	cmp -s "$sdir/$name.cu" labs/08-tensor-cores/attn/attention_solution.cu &&
		continue
	ATTN_SOLUTION="$sdir/$name.cu" ATTN_OUT="$sdir/$name" \
		sh labs/08-tensor-cores/attn/build.sh > "$sdir/$name.build.log" 2>&1 &
done; wait; }
for name in $(echo "$steps" | cut -d'|' -f1); do
	if [ ! -x "$sdir/$name/attn_test" ]; then
		echo "step $name: not built"
		status=1
		continue
	fi
	ATTN_IMPL=fused "$sdir/$name/attn_test" "$seed" > "$sdir/$name.log" 2>&1 ||
		status=1
	echo "step $name: $(tail -n 1 "$sdir/$name.log")"
	grep -E "x4096x" "$sdir/$name.log"
done

echo "attention: $( [ "$status" = 0 ] && echo passed || echo FAILED ) (logs in $out)"
exit "$status"
