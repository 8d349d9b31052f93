#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/phases.sh - where a student waits: the time of the edit-grade
# loop, phase by phase (issue #13's "feedback in seconds").
#
#   sh tests/gpu/phases.sh [SRC] [LAB] [EX]
#
# SRC (default solutions) is graded three ways, as a student works:
#   exercise  LAB/EX (default 05-reduction/sum) after its file was touched
#   lab       all of LAB after the same touch
#   all       every lab, nothing touched
# Each is what `make grade` does, step by step (make's own work and the
# build, the GPU check, the grader with its own probe), then `make grade`
# itself end to end, which probes the GPU beside the build (grader
# --probe-only): its make_grade column is less than the steps' total.
# The grader's part is split with results.tsv's phase columns: the
# grader's setup (the bandwidth probe, NVML), the reference runs, and the
# runners' start (GPU and lock), checks (CPU references included) and
# timed rounds. Prints a table (seconds) and writes it to
# $PHASES_OUT/phases.tsv (default build/phases); PHASES_SKIP_ALL=1 leaves
# out the all-labs scenario. Needs a GPU; changes no GPU setting.

set -u
SRC=${1:-solutions}
LAB=${2:-05-reduction}
EX=${3:-sum}
MAKE=${MAKE:-make}
OUTDIR=${PHASES_OUT:-build/phases}
mkdir -p "$OUTDIR"

now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{ printf "%.2f", $1 - $2 }'; }

DEVINFO=$($MAKE --no-print-directory -s print-DEVINFO)
GRADER=$($MAKE --no-print-directory -s print-GRADER)
$MAKE --no-print-directory -s tools > "$OUTDIR/tools.log" 2>&1 || {
	echo "phases: the tools did not build (see $OUTDIR/tools.log)" >&2
	exit 2
}
"$DEVINFO" --check || exit 2

# The runners' phases (results.tsv's "phases" column, name=seconds words),
# summed over the exercises; "other" is the rest of the runners' time
# (starting and ending the processes).
PHASES="init checks prep check naive warmup rounds verify"
tsv_phases() {
	awk -F '\t' -v names="$PHASES" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ ref += $c["ref_s"]; wall += $c["wall_s"]
		  n = split($c["phases"], w, " ")
		  for (i = 1; i <= n; i++) {
			split(w[i], kv, "="); sum[kv[1]] += kv[2]; in_ph += kv[2]
		  } }
		END { printf "%.2f %.2f", ref, wall
		      k = split(names, nm, " ")
		      for (i = 1; i <= k; i++) printf " %.2f", sum[nm[i]]
		      printf " %.2f\n", wall - in_ph }' "$1"
}

printf 'scenario\ttotal\tmake_build\tgpu_check\tgrader_setup\treference' \
	> "$OUTDIR/phases.tsv"
for p in $PHASES other; do printf '\t%s' "$p"; done >> "$OUTDIR/phases.tsv"
printf '\tmake_grade\n' >> "$OUTDIR/phases.tsv"

# one SCENARIO MAKEVARS...: the steps of make grade, timed one by one.
one() {
	scen=$1
	shift
	t0=$(now)
	$MAKE --no-print-directory -s runners SRC="$SRC" "$@" \
		> "$OUTDIR/$scen.build.log" 2>&1
	build=$(since "$t0")
	t1=$(now)
	"$DEVINFO" --check
	check=$(since "$t1")
	args=$($MAKE --no-print-directory -s print-GRADE_ARGS SRC="$SRC" "$@")
	t2=$(now)
	eval "$GRADER $args --tsv $OUTDIR/$scen.tsv" \
		> "$OUTDIR/$scen.grade.log" 2>&1
	grader=$(since "$t2")
	ph=$(tsv_phases "$OUTDIR/$scen.tsv")
	setup=$(echo "$grader $ph" | awk '{ printf "%.2f", $1 - $2 - $3 }')
	total=$(echo "$build $check $grader" | awk '{ printf "%.2f", $1 + $2 + $3 }')
	# and make grade itself, end to end (the reference now cached)
	[ "$scen" = all ] || touch "$FILE"
	t3=$(now)
	$MAKE --no-print-directory grade SRC="$SRC" "$@" \
		> "$OUTDIR/$scen.make.log" 2>&1
	whole=$(since "$t3")
	echo "$scen $total $build $check $setup $ph $whole" | awk '
		{ $7 = ""; $0 = $0; $1 = $1; gsub(/ /, "\t"); print }' \
		>> "$OUTDIR/phases.tsv"
}

FILE=$SRC/$LAB/$EX.cu
[ -f "$FILE" ] || { echo "phases: no $FILE" >&2; exit 2; }
touch "$FILE"
one exercise LAB="$LAB" EX="$EX"
touch "$FILE"
one lab LAB="$LAB"
[ "${PHASES_SKIP_ALL:-0}" = 1 ] || one all

column -t -s "$(printf '\t')" "$OUTDIR/phases.tsv" 2> /dev/null ||
	cat "$OUTDIR/phases.tsv"
cat << 'EOF'
(seconds. total = make_build + gpu_check + the grader; the grader =
 grader_setup (bandwidth probe, NVML) + reference (0: cached) + the
 runners: init (GPU, lock), checks (small sizes), and per benchmark shape
 prep (inputs made), check (the student at that size), naive (its check),
 warmup, rounds (timed), verify (timed outputs checked), other (process
 start and end). make_grade: make grade end to end after the same touch)
EOF
