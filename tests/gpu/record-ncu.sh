#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/record-ncu.sh - record, on a GPU, the Nsight Compute output the
# unit tests read (tests/unit/test_profile.c), the tables the teaching
# text quotes (docs/nsight-compute.md), and the raw ncu output behind every
# table, so that each number quoted can be derived again.
#
#   sh tests/gpu/record-ncu.sh OUT_DIR [PART...]
#
# PARTs (all three when none is named):
#
#   fixtures  profiles the naive and the solution of 05-reduction/sum,
#             03-coalescing/matvec and 07-fusion/gelu at SEED=1 and copies
#             each run's ncu log and runner record to OUT_DIR as NAME.csv
#             and NAME.result (sum-naive.csv, sum-naive.result,
#             sum-solution.csv, ...), the files tests/profile/ holds. Then
#             tries to provoke a refusal (ERR_NVGPUCTRPERM) by running ncu
#             as an unprivileged user: refused.csv and refused.result when
#             it can, else it says why not.
#   docs      the tables docs/nsight-compute.md quotes: mean_dim0's naive
#             and solution, each of its ladder steps
#             (tests/ladder/03-coalescing/*), and rmsnorm.
#   labs      every speed exercise of labs 01-04 with its naive and its
#             solution, and lab 04's unpadded tile (ladder 1-shared-tile,
#             the bank-conflict hint): the check that each lab's .profile
#             groups give the naive its lesson's hint and the solution none.
#
# Every table goes to OUT_DIR/tables/NAME.txt (what make profile printed)
# and NAME.tsv (every figure), and beside them the ncu log and the runner's
# record of each column that ran: NAME.naive.csv and NAME.naive.result,
# NAME.solution.*, NAME.yours.* (the SRC= code: a ladder step), NAME.peer.*.
# tests/unit/test_profile.c reads such a pair with ncsv_read(); the table
# is made again from them by the same code make profile runs.
#
# Then, to use the recordings:
#
#   cp OUT_DIR/*.csv OUT_DIR/*.result tests/profile/
#   and remove tests/profile/NAME.provisional.* for each NAME recorded.
#
# Needs a GPU, and ncu (NCU=, else PATH, else the CUDA Toolkit). Changes no
# clock or any other GPU setting (ncu runs with --clock-control none).
# MAKE="make -j16" builds faster; BUILD= as for make.

set -u
OUT=${1:?usage: sh tests/gpu/record-ncu.sh OUT_DIR [fixtures] [docs] [labs]}
shift
PARTS=${*:-fixtures docs labs}
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
mkdir -p "$OUT/tables"
stamp="$OUT/.stamp"
status=0

ncu=${NCU:-$(command -v ncu 2>/dev/null)}
for c in /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu; do
	[ -n "$ncu" ] || [ ! -x "$c" ] || ncu=$c
done
export NCU="$ncu"
if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then
	echo "no ncu found (set NCU=/path/to/ncu)" >&2
	exit 2
fi
"$ncu" --version > "$OUT/ncu-version.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv \
	> "$OUT/gpu.txt" 2>&1
date -u +%Y-%m-%d > "$OUT/date.txt"

# profile LOG [make args...]: make profile at SEED=1, its table in LOG.
profile() {
	log=$1
	shift
	$MAKE --no-print-directory profile SEED=1 "$@" > "$log" 2>&1
	if grep -q '^profile: ' "$log"; then
		echo "$(basename "$log" .txt): $(sed -n 's/^profile: //p' "$log" | head -n 1)" >&2
		return 1
	fi
}

# keep NAME: the ncu logs written since the stamp, with their runner
# records, as tables/NAME.COLUMN.csv and .result. A column whose call did
# not run (not implemented, say) has nothing worth keeping.
keep() {
	find "$BUILD" -name '*.ncu.csv' -newer "$stamp" 2>/dev/null |
	while read -r f; do
		res=${f%.ncu.csv}.ncu.result
		grep -qx 'verdict PASS' "$res" 2>/dev/null || continue
		impl=${f%.ncu.csv}
		impl=${impl##*.}
		case $f in
		*/solutions/*) col=solution ;;
		*) if [ "$impl" = student ]; then col=yours; else col=$impl; fi ;;
		esac
		cp "$f" "$OUT/tables/$1.$col.csv"
		cp "$res" "$OUT/tables/$1.$col.result"
		echo "  kept tables/$1.$col.csv: $(grep -c '^"[0-9]' "$f") kernel(s)"
	done
}

# table NAME [make args...]: make profile's table as tables/NAME.txt, every
# figure as tables/NAME.tsv, and the raw output of each column (keep).
table() {
	name=$1
	shift
	: > "$stamp"
	sleep 1 # find -newer compares whole seconds on some filesystems
	if profile "$OUT/tables/$name.txt" PROFILE_TSV="$OUT/tables/$name.tsv" "$@"; then
		echo "table $OUT/tables/$name.txt"
	else
		status=1
	fi
	keep "$name"
}

# record LAB EXERCISE NAME: NAME-naive.* and NAME-solution.* into OUT.
record() {
	lab=$1 ex=$2 name=$3
	if [ ! -f "labs/$lab/$ex.cu" ]; then
		echo "$name: no labs/$lab/$ex.cu here: not recorded" >&2
		status=1
		return
	fi
	table "$name" LAB="$lab" EX="$ex" WITH=naive,solution
	for kind in naive solution; do
		if [ ! -f "$OUT/tables/$name.$kind.csv" ]; then
			echo "$name-$kind: no ncu log was written (see $OUT/tables/$name.txt)" >&2
			status=1
			continue
		fi
		cp "$OUT/tables/$name.$kind.csv" "$OUT/$name-$kind.csv"
		cp "$OUT/tables/$name.$kind.result" "$OUT/$name-$kind.result"
		echo "recorded $OUT/$name-$kind.csv"
	done
}

# refuse: ncu as nobody, where the driver keeps the counters to root.
refuse() {
	runner=$(find "$BUILD" -path "*/labs/05-reduction/sum" -type f | head -n 1)
	params=/proc/driver/nvidia/params
	if [ -z "$runner" ]; then
		echo "refused: no 05-reduction/sum runner built" >&2
		return
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "refused: not root, so ncu cannot be run as another user here;" \
		     "keep tests/profile/refused.provisional.*" >&2
		return
	fi
	if grep -q 'RmProfilingAdminOnly: 0' "$params" 2>/dev/null; then
		echo "refused: this driver lets every user read the counters" \
		     "(RmProfilingAdminOnly: 0), so a refusal cannot be provoked;" \
		     "keep tests/profile/refused.provisional.*" >&2
		return
	fi
	tmp=$(mktemp -d /tmp/wb-refused.XXXXXX)
	cp "$runner" "$tmp/sum"
	chmod -R a+rwX "$tmp"
	set -- env HOME="$tmp" TMPDIR="$tmp" "$ncu" --profile-from-start off \
		--clock-control none --csv --page raw --print-units base \
		--print-kernel-base function --log-file "$tmp/refused.csv" \
		--metrics gpu__time_duration.sum "$tmp/sum" --exercise sum \
		--seed 1 --result "$tmp/refused.result" --mode profile --impl naive
	if command -v setpriv > /dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@" > "$tmp/out" 2>&1
	elif command -v runuser > /dev/null; then
		runuser -u nobody -- "$@" > "$tmp/out" 2>&1
	else
		echo "refused: neither setpriv nor runuser to run as nobody" >&2
		rm -rf "$tmp"
		return
	fi
	if grep -q ERR_NVGPUCTRPERM "$tmp/refused.csv" "$tmp/out" 2>/dev/null; then
		cat "$tmp/refused.csv" > "$OUT/refused.csv"
		grep -q ERR_NVGPUCTRPERM "$OUT/refused.csv" || cat "$tmp/out" >> "$OUT/refused.csv"
		cp "$tmp/refused.result" "$OUT/refused.result" 2>/dev/null ||
			echo "refused: the runner left no record (see $tmp/out)" >&2
		echo "recorded $OUT/refused.csv (ERR_NVGPUCTRPERM as nobody)"
	else
		echo "refused: nobody could read the counters too, or ncu failed" \
		     "otherwise (see $tmp/out); keep tests/profile/refused.provisional.*" >&2
	fi
	rm -rf "$tmp"
}

# ladder LAB EXERCISE STEP: the ladder step's code in the yours column.
ladder() {
	step=tests/ladder/$1/$3
	if [ ! -f "$step/$1/$2.cu" ]; then
		echo "$2-$3: no $step/$1/$2.cu here" >&2
		status=1
		return
	fi
	table "$2-$3" LAB="$1" EX="$2" SRC="$step solutions"
}

for part in $PARTS; do
	case $part in
	fixtures)
		record 05-reduction sum sum
		record 03-coalescing matvec matvec
		record 07-fusion gelu gelu
		refuse ;;
	docs)
		# docs/nsight-compute.md, section 10: mean_dim0, naive to solved.
		table mean_dim0 LAB=03-coalescing EX=mean_dim0 WITH=naive,solution
		for step in tests/ladder/03-coalescing/*/; do
			[ -f "$step/03-coalescing/mean_dim0.cu" ] &&
				ladder 03-coalescing mean_dim0 "$(basename "$step")"
		done
		table rmsnorm LAB=06-rmsnorm EX=rmsnorm WITH=naive,solution ;;
	labs)
		for e in 01-warps:branch 01-warps:trip_count 02-shfl:segment_sum \
			 02-shfl:segment_scan 02-shfl:filter 03-coalescing:matvec \
			 03-coalescing:grayscale 04-tiling:transpose 04-tiling:matmul; do
			table "${e#*:}" LAB="${e%%:*}" EX="${e#*:}" WITH=naive,solution
		done
		ladder 04-tiling transpose 1-shared-tile ;;
	*)
		echo "no part $part (fixtures, docs, labs)" >&2
		exit 2 ;;
	esac
done
rm -f "$stamp"
echo "tables: $OUT/tables/"
exit $status
