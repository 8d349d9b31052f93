#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# setup.sh - Gradescope runs this once, as root, when it builds the
# autograder image, from the unpacked bundle (/autograder/source).
#
# It installs only what a stock Ubuntu image may lack and apt can give:
# make, a C compiler and bubblewrap (the sandbox run_autograder grades
# in). It installs no CUDA: the image must already have the CUDA Toolkit
# (nvcc >= 12, at $CUDA_HOME, default /usr/local/cuda) and, when grading,
# the NVIDIA driver and a GPU; without them it stops here with a message,
# rather than failing every submission later.
#
# Then it builds the grader, the sandbox tool (tools/batch) and, when the
# bundle names the GPU architecture (make gradescope-bundle SM=...), the
# harness and the lab's own code, so that a submission only compiles its
# own files. Whether the container lets bubblewrap make its namespaces is
# known only when grading (run_autograder --sandbox-check says): where it
# does not, each results.json says so, and nothing is graded.

set -euo pipefail
cd "$(dirname "$0")"
unset MAKEFLAGS MFLAGS MAKELEVEL
BUNDLE_SANDBOX=''
# shellcheck source=/dev/null
. ./bundle.conf
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"

missing=()
command -v make > /dev/null || missing+=(make)
command -v gcc > /dev/null || missing+=(gcc libc6-dev)
if [ "$BUNDLE_SANDBOX" != off ]; then
	command -v bwrap > /dev/null || missing+=(bubblewrap)
fi
if [ ${#missing[@]} -gt 0 ]; then
	if command -v apt-get > /dev/null; then
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "${missing[@]}"
	else
		echo "setup.sh: this image lacks ${missing[*]}, and has no apt-get to install them" >&2
		exit 1
	fi
fi
if ! command -v nvcc > /dev/null; then
	echo "setup.sh: no CUDA Toolkit (nvcc) at $CUDA_HOME or on PATH." >&2
	echo "setup.sh: this autograder needs an image with CUDA >= 12 and an NVIDIA GPU." >&2
	exit 1
fi
nvcc --version | tail -n 1

build=$PWD/build
make -C workbook --no-print-directory BUILD="$build" "$build/host/tools/batch/batch"
if [ -n "$SM" ]; then
	make -C workbook --no-print-directory BUILD="$build" SM="$SM" tools
	make -C workbook --no-print-directory BUILD="$build" SM="$SM" \
		${LAB:+LAB="$LAB"} runners SRC=labs
else
	make -C workbook --no-print-directory BUILD="$build" "$build/host/grader/grader"
fi
echo "setup.sh: ready (lab: ${LAB:-all}; GPU architecture: ${SM:-detected when grading};" \
     "sandbox: $([ "$BUNDLE_SANDBOX" = off ] && echo "OFF (UNSANDBOXED)" || echo bubblewrap))"
