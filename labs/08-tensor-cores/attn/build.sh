#!/bin/sh
# SPDX-License-Identifier: MIT
#
# build.sh - build lab 08's standalone attention test (attn_test).
#
#   sh labs/08-tensor-cores/attn/build.sh          SM of the GPU here, else 75
#   SM=90 sh labs/08-tensor-cores/attn/build.sh    for sm_90 (H100, H200)
#   sh labs/08-tensor-cores/attn/build.sh run      build, then run the test
#
# The binary goes to build/attn/sm$SM/attn_test under the repository root
# (ATTN_OUT=dir elsewhere). ATTN_SOLUTION=file.cu builds another fused
# kernel in its place (tests/gpu/attention.sh's planted bugs).
# At SM < 80 the fused kernel builds as a trap (it needs bf16 mma.sync and
# cp.async) and the test skips (exit 77) on such a GPU. Flags follow the
# Makefile's: -O3 -lineinfo for CUDA, C11 -Wall -Wextra for C, with
# -Werror here since nothing else builds these files yet.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
NVCC=${NVCC:-nvcc}
CC=${CC:-gcc}

if [ -z "${SM:-}" ]; then
	SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader \
		2>/dev/null | head -n 1 | tr -d ' .' || true)
	SM=${SM:-75}
fi
out=${ATTN_OUT:-$root/build/attn/sm$SM}
sol=${ATTN_SOLUTION:-$here/attention_solution.cu}
mkdir -p "$out"

nvflags="-O3 -lineinfo -std=c++17 -gencode arch=compute_$SM,code=sm_$SM"
nvflags="$nvflags -I$root/common -I$here -Xcompiler -Wall,-Wextra,-Werror"
cflags="-O2 -g -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L"

for f in attention_solution attention_naive attention_peer attn_test; do
	src="$here/$f.cu"
	[ "$f" = attention_solution ] && src=$sol
	echo "nvcc $src (sm_$SM)"
	# shellcheck disable=SC2086
	$NVCC $nvflags -Xptxas -v -c "$src" -o "$out/$f.o" \
		> "$out/$f.log" 2>&1 || { cat "$out/$f.log"; exit 1; }
done
# Registers and spills of the fused kernel, for the record.
grep -A3 "attn_fwd" "$out/attention_solution.log" | grep -E "Compiling|Used|spill" || true

$CC $cflags -c "$here/attention_ref.c" -o "$out/attention_ref.o"
$CC $cflags -I"$root/common" -I/usr/local/cuda/include \
	-c "$root/common/standalone.c" -o "$out/standalone.o"
# shellcheck disable=SC2086
$NVCC $nvflags -o "$out/attn_test" "$out/attention_solution.o" \
	"$out/attention_naive.o" "$out/attention_peer.o" "$out/attn_test.o" \
	"$out/attention_ref.o" "$out/standalone.o" -lcublas -lpthread
echo "built $out/attn_test"

if [ "${1:-}" = run ]; then
	exec "$out/attn_test"
fi
