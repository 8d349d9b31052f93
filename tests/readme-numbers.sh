#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/readme-numbers.sh - the numbers the labs' READMEs derive (sizes,
# intensities, ridge points) against the labs' own code: builds
# tests/readme-numbers.c once per lab that has claims, with that lab's
# C files included (lab.c, its table, and the ex_*.c files of its hooks:
# lab.mk's LAB_SRCS but the answer key), and runs it on the lab's README.
# make test's build
# section runs it; no GPU, no CUDA library (CUDA's headers, for types).
#
#   tests/readme-numbers.sh [ROOT]
#
# reads ROOT/labs/LAB/README.md (default ROOT: the repository), so that
# make test can show the check fails on a copy with a number changed.
#
# Then lab 01's spills rule against ptxas (nvcc, no GPU; about 30 s).
#
# Environment: CC (default cc), CUDA_HOME (default /usr/local/cuda),
# NVCC (default CUDA_HOME/bin/nvcc; skipped where there is none),
# README_ONLY (set: the READMEs alone, not ptxas).
# Exit status: 0 every claim holds; 1 one does not; 2 a build failed.

set -u
root=$(cd "${1:-.}" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
CC=${CC:-cc}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-numbers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
for lab in 01-warps 03-coalescing 04-tiling 07-fusion 08-tensor-cores; do
	n=$(echo "$lab" | sed 's/^0*\([0-9]*\)-.*/\1/')
	# The lab's C files, one #include each (found through -Ilabs/LAB).
	printf 'include labs/%s/lab.mk\nall:\n\t@echo $(filter-out $(ANSWERS),$(filter %%.c,$(LAB_SRCS)))\n' "$lab" |
		${MAKE:-make} --no-print-directory -s -f - all |
		tr ' ' '\n' | sed -n 's/^..*$/#include "&"/p' > "$tmp/$n.lab.c"
	# What the lab's code calls of the harness and CUDA is never called
	# here: each symbol the link misses gets a stub that aborts.
	if ! $CC -std=c11 -O1 -w -D_POSIX_C_SOURCE=200809L -DLAB="$n" \
		-DLAB_C="\"$tmp/$n.lab.c\"" -I"$CUDA_HOME/include" \
		-Icommon -I"labs/$lab" -c -o "$tmp/$n.o" tests/readme-numbers.c \
		> "$tmp/$n.log" 2>&1 ||
	   ! { $CC -o "$tmp/$n" "$tmp/$n.o" -lm 2>&1 |
		sed -n "s/.*undefined reference to \`\([A-Za-z_0-9]*\)'.*/\1/p" |
		sort -u | sed 's/.*/void &(void) { __builtin_trap(); }/' > "$tmp/$n.stubs.c"
	       $CC -w -c -x c -o "$tmp/$n.stubs.o" "$tmp/$n.stubs.c" &&
	       $CC -o "$tmp/$n" "$tmp/$n.o" "$tmp/$n.stubs.o" -lm; } >> "$tmp/$n.log" 2>&1; then
		echo "readme-numbers: $lab: the check does not build:" >&2
		cat "$tmp/$n.log" >&2
		exit 2
	fi
	echo "== $lab"
	"$tmp/$n" "$root/labs/$lab/README.md" || status=1
done
[ -n "${README_ONLY:-}" ] && exit $status

# Lab 01's spills rule against the measurement, with no GPU: ptxas's
# registers for occ_kernels.cu's three bounded kernels on sm_90 must be
# the rule's caps (spills_worked.h), and their stack frames at least the
# rule's least local memory.
nvcc=${NVCC:-$CUDA_HOME/bin/nvcc}
echo "== 01-warps: spills against ptxas"
if ! command -v "$nvcc" > /dev/null 2>&1; then
	echo "skipped: no nvcc"
elif ! "$nvcc" -O3 -arch=sm_90 -std=c++17 -Icommon -Ilabs/01-warps \
		-Xptxas -v -c labs/01-warps/occ_kernels.cu -o "$tmp/occ.o" \
		> "$tmp/ptxas.log" 2>&1; then
	echo "readme-numbers: occ_kernels.cu does not build for sm_90" >&2
	cat "$tmp/ptxas.log" >&2
	exit 2
else
	for k in 1024 640 256; do
		got=$(awk -v k="occ_bound$k" '
			/Compiling entry function/ { on = index($0, k "P") > 0 }
			on && /stack frame/ { frame = $1 }
			on && /Used [0-9]+ registers/ {
				for (i = 1; i <= NF; i++) if ($i == "Used") regs = $(i + 1)
				print regs, frame; exit }' "$tmp/ptxas.log")
		want=$(sed -n "s/^	{ { $k, 1, [0-9]*, 0 }, { \([0-9]*\), [01], \([0-9]*\) } },\$/\1 \2/p" \
			labs/01-warps/spills_worked.h | head -n 1)
		regs=${got% *} frame=${got#* } cap=${want% *} least=${want#* }
		if [ -n "$got" ] && [ -n "$want" ] && [ "$regs" = "$cap" ] &&
		   [ "$frame" -ge "$least" ]; then
			echo "ok: occ_bound$k: ptxas $regs registers, the rule's cap $cap; a $frame-byte frame, at least the rule's $least"
		else
			echo "WRONG: occ_bound$k: ptxas '$got', the rule '$want' (registers, bytes)"
			status=1
		fi
	done
fi
exit $status
