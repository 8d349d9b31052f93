#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/class-run.sh - the measured class run: a class of N synthetic
# submissions (default 100) made from the project's corpus, graded with
# make batch in the sandbox on one GPU and on two, and without the sandbox
# (SANDBOX=off), each run timed; throughput, per-student time and what
# failed go to DEST/summary.txt (docs/batch-grading.md section 9 quotes
# it).
#
#   sh tests/gpu/class-run.sh DEST
#
# The class, for the course of CLASS_EXERCISES (default 05-reduction/sum,
# one fast timed exercise): honest submissions (solutions/, the ladder
# steps of tests/ladder/, tests/honest/'s cases), each of tests/broken/'s
# cases that has the exercise (wrong answers, crashes, endless loops,
# cheats and hostile programs), the skeleton, wrong file names, an empty
# folder, a broken upload; as folders, .tar.gz and (with zip) .zip. The
# honest kinds repeat until the class has N; a repeat differs by a comment
# line, so that it is a submission of its own (fingerprint).
#
# The runs (RUNS, default "box1 box2 off1"; box2 is left out where fewer
# than two GPUs are visible):
#   box1  SANDBOX=require GPUS=<first GPU>
#   box2  SANDBOX=require GPUS=<first two>
#   off1  SANDBOX=off     GPUS=<first GPU>  (the lock is not taken twice:
#         a deadlock here leaves every student "not graded")
# Each run grades the whole class into DEST/<run>/ within its share of
# TOTAL_S (default 450 s, building the shared objects included): a run past
# its share is interrupted (SIGINT; make batch keeps what is finished), and
# its throughput is what it graded in the time it had. So the script ends
# within TOTAL_S plus a minute, whatever the GPU.
#
# Environment: BWRAP=/path/to/bwrap (a bubblewrap that is not on PATH),
# N, CLASS_EXERCISES, RUNS, TOTAL_S, TIMEOUT (the grader's cap per run,
# default 10 s: an endless loop costs that), JOBS, MAKE, BUILD; BUILD_ONLY=1
# tries the script without a GPU (builds and checks; honest means BUILT).
# Exit status: 0 every run graded something and nothing was left "not
# graded" except by the time limit; 1 otherwise (a run graded nobody, a
# student failed to grade, an honest one did not PASS: the summary says
# which); 2 the class could not be made.

set -u
[ $# -eq 1 ] || { echo "usage: sh $0 DEST" >&2; exit 2; }
: "${MAKE:=make}" "${BUILD:=build}" "${N:=100}" "${TOTAL_S:=450}" "${TIMEOUT:=10}"
: "${CLASS_EXERCISES:=05-reduction/sum}"
: "${RUNS:=box1 box2 off1}"
mkdir -p "$1" && dest=$(cd "$1" && pwd) || exit 2
subs=$dest/submissions
sum=$dest/summary.txt
rm -rf "$subs" "$dest"/box1 "$dest"/box2 "$dest"/off1
mkdir -p "$subs" || exit 2
stage=$(mktemp -d) || exit 2
trap 'rm -rf "$stage"' EXIT
: > "$sum"

if [ -n "${BWRAP:-}" ]; then
	[ -x "$BWRAP" ] || { echo "class-run: BWRAP=$BWRAP is not a program" >&2; exit 2; }
	mkdir -p "$stage/bin" && ln -s "$BWRAP" "$stage/bin/bwrap"
	PATH=$stage/bin:$PATH
	export PATH
fi
say() { echo "$*" | tee -a "$sum"; }

# ---- the class ----------------------------------------------------------

kinds=$stage/kinds   # "ID-PREFIX HONEST(1/0) FILE" per line
: > "$kinds"
first=${CLASS_EXERCISES%% *}
for ex in $CLASS_EXERCISES; do
	[ -f "solutions/$ex.cu" ] || { echo "class-run: no solutions/$ex.cu" >&2; exit 2; }
done
# One exercise's honest and broken files: the other exercises are the
# solutions.
for c in tests/broken/*/; do
	c=$(basename "$c")
	[ -f "tests/broken/$c/$first.cu" ] && echo "broken-$c 0 tests/broken/$c/$first.cu" >> "$kinds"
done
nbroken=$(wc -l < "$kinds" | tr -d ' ')
honest=$stage/honest
: > "$honest"
echo "solution 1 solutions/$first.cu" >> "$honest"
for step in tests/ladder/"${first%/*}"/*/; do
	[ -f "$step$first.cu" ] && echo "ladder-$(basename "$step") 1 $step$first.cu" >> "$honest"
done
for h in tests/honest/*/; do
	[ -f "$h$first.cu" ] && grep -q "^$first PASS" "${h}expect" 2> /dev/null &&
		echo "honest-$(basename "$h") 1 $h$first.cu" >> "$honest"
done

# make_sub ID KIND FILE [NOTE]: a submission of the solutions with FILE
# for the first exercise; KIND dir, tgz or zip.
make_sub() {
	d=$stage/s/$1
	rm -rf "$d"
	mkdir -p "$d"
	for ex in $CLASS_EXERCISES; do
		mkdir -p "$d/labs/${ex%/*}"
		cp "solutions/$ex.cu" "$d/labs/$ex.cu"
	done
	cp "$3" "$d/labs/$first.cu"
	[ -n "${4:-}" ] && printf '\n// %s\n' "$4" >> "$d/labs/$first.cu"
	case $2 in
	zip) if command -v zip > /dev/null; then
		(cd "$d" && zip -q -r "$subs/$1.zip" .)
	     else
		tar -czf "$subs/$1.tar.gz" -C "$d" labs
	     fi ;;
	tgz) tar -czf "$subs/$1.tar.gz" -C "$d" labs ;;
	*) cp -R "$d" "$subs/$1" ;;
	esac
}

k=0
next_id() { k=$((k + 1)); id=$(printf 's%03d-%s' $k "$1"); }
kind_of() { case $((k % 4)) in 0) echo zip ;; 1) echo tgz ;; *) echo dir ;; esac; }
expect_file=$dest/expected-honest
: > "$expect_file"
while read -r name h f; do
	next_id "$name"
	make_sub "$id" "$(kind_of)" "$f"
done < "$kinds"
next_id skeleton; make_sub "$id" dir "labs/$first.cu"
next_id wrong-names; mkdir -p "$subs/$id"
cp "solutions/$first.cu" "$subs/$id/$(basename "$first" | sed 's/^./\U&/').cu"
next_id empty; mkdir -p "$subs/$id"; echo "out of time" > "$subs/$id/README.md"
next_id broken-upload; head -c 2000 "solutions/$first.cu" > "$subs/$id.zip"
nother=$k
r=0
while [ "$k" -lt "$N" ]; do
	r=$((r + 1))
	line=$(sed -n "$(( (r - 1) % $(wc -l < "$honest") + 1 ))p" "$honest")
	set -- $line
	next_id "$1"
	make_sub "$id" "$(kind_of)" "$3" "copy $r"
	echo "$id" >> "$expect_file"
done
n=$(ls "$subs" | wc -l | tr -d ' ')
[ "$n" -ge "$N" ] || { echo "class-run: only $n submissions made" >&2; exit 2; }
{
	echo "# The measured class run (tests/gpu/class-run.sh)."
	echo "course = class-run"
	echo "assignment = class-run"
	echo "exercises = $CLASS_EXERCISES"
} > "$dest/course.conf"

gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2> /dev/null | tr -d ' ' | tr '\n' ' ')
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1)
set -- $gpus
ngpu=$#
g1=${1:-0}
g2=${1:-0},${2:-}
say "class-run: $n submissions ($(( n - nbroken - 4 )) honest: $(wc -l < "$honest" | tr -d ' ') kinds repeated; $nbroken of tests/broken/'s cases; a skeleton, wrong names, an empty folder, a broken upload), course: $CLASS_EXERCISES"
say "machine: ${ngpu} GPU(s) ${gpu_name:-none}, $(nproc 2> /dev/null || echo '?') CPUs; bwrap: $(command -v bwrap || echo none); $(date -u '+%Y-%m-%d %H:%M UTC')"

# ---- the shared objects, once -------------------------------------------

t0=$(date +%s)
if ! $MAKE --no-print-directory batch-prepare SUBMISSIONS="$subs" \
	COURSE="$dest/course.conf" BUILD="$BUILD" > "$dest/prepare.log" 2>&1; then
	say "FAIL make batch-prepare (the end of $dest/prepare.log:)"
	tail -n 20 "$dest/prepare.log" | tee -a "$sum"
	exit 2
fi
say "the shared objects built in $(( $(date +%s) - t0 )) s (once for every run)"

# ---- the runs -----------------------------------------------------------

[ "$ngpu" -ge 2 ] || RUNS=$(echo "$RUNS" | sed 's/box2//')
nruns=$(echo "$RUNS" | wc -w | tr -d ' ')
[ "$nruns" -ge 1 ] || { say "no run to make"; exit 2; }
left=$((TOTAL_S - ($(date +%s) - t0)))
[ $left -gt 60 ] || left=60
fail=0

# field FILE KEY: a meta line's value
field() { sed -n "s/^$2 //p" "$1" 2> /dev/null | head -n 1; }

# stats: mean, median and max of the numbers on stdin
stats() {
	sort -n | awk '{ x[NR] = $1; s += $1 }
		END { if (NR == 0) { print "-"; exit }
		      m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
		      printf "mean %.1f s, median %.1f s, max %.1f s", s / NR, m, x[NR] }'
}

one_run() {
	run=$1 budget=$2
	case $run in
	box1) sb=require g=$g1 ;;
	box2) sb=require g=$g2 ;;
	off1) sb=off g=$g1 ;;
	*) say "unknown run $run"; return ;;
	esac
	out=$dest/$run
	t0=$(date +%s)
	timeout -s INT -k 60 "$budget" $MAKE --no-print-directory batch \
		SUBMISSIONS="$subs" OUT="$out" COURSE="$dest/course.conf" \
		SANDBOX=$sb GPUS=$g TIMEOUT="$TIMEOUT" BUILD="$BUILD" \
		${JOBS:+JOBS=$JOBS} ${BUILD_ONLY:+BUILD_ONLY=1} > "$dest/$run.log" 2>&1
	rc=$?
	wall=$(( $(date +%s) - t0 ))
	graded=0 notg=0 builds="" grades=""
	: > "$stage/b" ; : > "$stage/g"
	for d in "$out"/students/*/; do
		[ -f "$d/meta" ] || continue
		graded=$((graded + 1))
		field "$d/meta" build_s >> "$stage/b"
		field "$d/meta" grade_s >> "$stage/g"
	done
	failed=$(ls "$out/failed" 2> /dev/null | wc -l | tr -d ' ')
	cut=""
	[ $rc -eq 124 ] || [ $rc -eq 130 ] || [ $rc -eq 2 ] && [ $graded -lt $n ] &&
		cut=" (stopped at its $budget s share: $((n - graded)) left ungraded)"
	say ""
	say "== $run: SANDBOX=$sb GPUS=$g, $n submissions"
	say "make batch: exit status $rc, $wall s wall$cut"
	if [ $graded -gt 0 ] && [ $wall -gt 0 ]; then
		say "graded: $graded in $wall s: $(awk -v g=$graded -v w=$wall 'BEGIN { printf "%.1f students/min, %.2f s per student", g * 60 / w, w / g }')"
	else
		say "graded: none"
		fail=1
	fi
	say "per student, build: $(stats < "$stage/b")"
	say "per student, grade (GPU): $(stats < "$stage/g")"
	if [ -f "$out/verdicts.csv" ]; then
		say "verdicts of $first: $(awk -F, -v e="$first" '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == e) c = i; next }
			c { n[$c == "" ? "not graded" : $c]++ }
			END { for (v in n) printf "%s %d, ", v, n[v] }' "$out/verdicts.csv" | sed 's/, $//')"
		bad=""
		while read -r s; do
			v=$(awk -F, -v s="$s" -v e="$first" '
				NR == 1 { for (i = 1; i <= NF; i++) if ($i == e) c = i; next }
				$1 == s { print $c }' "$out/verdicts.csv")
			[ -z "$v" ] || [ "$v" = PASS ] ||
				{ [ -n "${BUILD_ONLY:-}" ] && [ "$v" = BUILT ]; } ||
				bad="$bad $s:$v"
		done < "$expect_file"
		[ -z "$bad" ] || { say "honest copies not PASS:$bad"; fail=1; }
	fi
	if [ "$failed" -gt 0 ]; then
		say "not graded (failed/): $failed:"
		for f in "$out"/failed/*/why; do
			say "  $(basename "$(dirname "$f")"): $(head -c 300 "$f")"
		done
		fail=1
	fi
	if [ "$sb" = require ] && [ -f "$out/summary.txt" ] &&
	   ! grep -q 'Every submission was built and run in the sandbox' "$out/summary.txt"; then
		say "the summary does not say every submission was sandboxed"
		fail=1
	fi
	grep -i 'deadlock\|waiting for it' "$dest/$run.log" | head -n 3 | sed 's/^/  log: /' | tee -a "$sum"
}

# Shares of the time left: box1 the most.
for run in $RUNS; do
	case $run in
	box1) w=45 ;; box2) w=30 ;; *) w=25 ;;
	esac
	total_w=$(( ${total_w:-0} + w ))
done
for run in $RUNS; do
	case $run in
	box1) w=45 ;; box2) w=30 ;; *) w=25 ;;
	esac
	one_run "$run" $(( left * w / total_w ))
done
say ""
[ $fail -eq 0 ] && say "class-run: every run graded, nothing failed" ||
	say "class-run: something above needs a look"
exit $fail
