#!/bin/sh
# SPDX-License-Identifier: MIT
#
# grader/doctor.sh - what this machine has for the workbook, and for
# anything missing, what to do. Called by `make doctor` with the nvcc and
# devinfo paths (devinfo "": make found no GPU here and built none) and
# the build folder. Read-only: it changes nothing. Exit status 1 when an
# item is MISSING (what make check needs: nvcc, a C compiler), 0
# otherwise; no GPU here is not MISSING, since make check needs none.

NVCC=${1:-nvcc}
DEVINFO=${2:-}
BUILDDIR=${3:-}
problems=0

ok()   { printf '  %-18s %s\n' "$1" "$2"; }
miss() { printf '  %-18s MISSING: %s\n' "$1" "$2"; problems=$((problems + 1)); }
note() { printf '  %-18s not found: %s\n' "$1" "$2"; }
# text on the lines below an entry, folded to fit 80 columns
indent() { printf '%s\n' "$1" | fold -s -w 72 | sed 's/ *$//; s/^/      /'; }

echo "To grade (required):"
if command -v "$NVCC" > /dev/null 2>&1; then
	ok nvcc "$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p') ($(command -v "$NVCC"))"
else
	miss nvcc "install the CUDA Toolkit >= 12"
	indent "from https://developer.nvidia.com/cuda-downloads, or if it is installed elsewhere, set CUDA_HOME=/path/to/cuda"
fi
ok make "$(make --version | head -n 1)"
if command -v "${CC:-cc}" > /dev/null 2>&1; then
	ok "C compiler" "$("${CC:-cc}" --version | head -n 1)"
else
	miss "C compiler" "install gcc (Debian/Ubuntu: sudo apt-get install build-essential)"
fi

[ -z "$BUILDDIR" ] || ok "build folder" "$BUILDDIR/ (BUILD= moves it)"

echo "The GPU (make grade needs one; make check and make test do not):"
gpu=0
if [ -n "$DEVINFO" ] && [ -x "$DEVINFO" ]; then
	if out=$("$DEVINFO" 2>&1); then
		echo "$out" | sed 's/^/  /'
		gpu=1
	else
		note GPU "none usable here"
		indent "$out"
	fi
else
	note GPU "none here (none in nvidia-smi, no /dev/nvidia0)"
fi
[ $gpu -eq 1 ] ||
	indent "make grade needs an NVIDIA GPU of compute capability >= 7.5 and its driver: run it where there is one (LAUNCH=\"ssh gpu-host\" from here: make help). Here, make check builds and checks your exercises and grades the host ones."
if command -v nvidia-smi > /dev/null 2>&1; then
	ok nvidia-smi "$(nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem,temperature.gpu \
		--format=csv,noheader 2>/dev/null | head -n 1 | sed 's/^/driver /')"
fi

echo "To profile and check (optional):"
# The toolkit's folder, and its version as NVIDIA's Debian packages name
# it (13-0 for CUDA 13.0).
nvcc_path=$(command -v "$NVCC" 2>/dev/null)
cuda_bin=$(dirname "${nvcc_path:-/usr/local/cuda/bin/nvcc}")
cuda_ver=$("$NVCC" --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1-\2/p')
for tool in ncu compute-sanitizer cuobjdump; do
	case $tool in
	ncu) pkg=cuda-nsight-compute what="Nsight Compute (make profile)" ;;
	compute-sanitizer) pkg=cuda-sanitizer what="the sanitizers (SANITIZE=1; lab 02's lockstep)" ;;
	cuobjdump) pkg=cuda-cuobjdump what="the SASS technique rules" ;;
	esac
	p=$(command -v "$tool" 2>/dev/null)
	[ -n "$p" ] || { [ -x "$cuda_bin/$tool" ] && p=$cuda_bin/$tool; }
	[ -n "$p" ] || [ "$tool" != ncu ] ||
		p=$(ls -d "$cuda_bin"/../nsight-compute*/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n 1)
	if [ -n "$p" ]; then
		ok "$tool" "$p"
	else
		note "$tool" "$what"
		indent "a separate part of the CUDA Toolkit: not in $cuda_bin, nor on PATH. Select it in the toolkit's runfile, or install it from NVIDIA's apt repository:"
		printf '        sudo apt-get install %s\n' "$pkg-${cuda_ver:-X-Y}"
	fi
done

echo "To run make test (optional for students):"
if pkg-config --exists cmocka jansson 2>/dev/null; then
	ok "cmocka, jansson" "cmocka $(pkg-config --modversion cmocka), jansson $(pkg-config --modversion jansson)"
else
	note "cmocka, jansson" "sudo apt-get install libcmocka-dev libjansson-dev pkg-config"
fi

if [ "$problems" -ne 0 ]; then
	echo "$problems thing(s) to fix before make check or make grade (MISSING above)."
	exit 1
elif [ $gpu -eq 1 ]; then
	echo "Ready: make grade"
else
	echo "Ready: make check here (no GPU); make grade on a GPU machine"
fi
