#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/gpu/class-batch.sh - the acceptance run of make batch: a class of
# 24 submissions of two labs (05-reduction and 07-fusion), graded under one
# course file in the sandbox, and everything an instructor takes away
# from it checked against each other.
#
#   sh tests/gpu/class-batch.sh DEST
#
# The class is made from what the repository has: the solutions, the
# skeletons, tests/broken's cases, tests/ladder's steps, a compile error,
# a .zip, a .tar.gz, a submission with wrong file names (Sum.cu), one
# with nothing usable, a broken upload and one with extra files. The course file (DEST/course.conf) names the two
# labs' exercises it grades (CLASS_EXERCISES, default
# "05-reduction/sum 07-fusion/gelu": two timed exercises a student keep
# a class of 24 within a few minutes of one GPU).
#
# Then make batch SUBMISSIONS=... COURSE=... SANDBOX=require, timed, and
# the checks:
#   - every student's verdicts are the expected ones (a broken case's
#     expect file, or expect-static without a GPU; solutions and ladder
#     steps PASS; skeletons NOT_IMPLEMENTED; a file not handed in
#     COMPILE_ERROR);
#   - gradebook.csv, verdicts.csv and scores.csv list the same students,
#     and each scores.csv score is the gradebook's total (build-only:
#     none, "built only" in its status);
#   - each student has report.txt and results.json; the report's table
#     shows the gradebook's verdict for each exercise, and results.json's
#     score is the scores.csv score;
#   - the near-miss file names got "did you mean".
# The gradebook, the CSVs, the summary, the audit list and every student's
# report.txt and results.json are copied under DEST (DEST/graded/...),
# with the wall time in DEST/wall-time.txt.
#
# Environment: BUILD_ONLY=1 builds and checks without a GPU (CI runs it
# so: verdicts BUILT, COMPILE_ERROR, REJECTED; no points); MAKE, BUILD,
# JOBS, SANDBOX (default require; off grades UNSANDBOXED, for a machine
# that cannot make a sandbox), CLASS_EXERCISES, TIMEOUT (default 30).
# Exit status 0 when every check holds, 1 when one does not, 2 when the
# class could not be made.

set -u
[ $# -eq 1 ] || { echo "usage: sh $0 DEST" >&2; exit 2; }
: "${MAKE:=make}" "${BUILD:=build}" "${SANDBOX:=require}" "${TIMEOUT:=30}"
: "${CLASS_EXERCISES:=05-reduction/sum 07-fusion/gelu}"
BUILD_ONLY=${BUILD_ONLY:-}
mkdir -p "$1" && dest=$(cd "$1" && pwd) || exit 2
work=$dest/work
subs=$work/submissions
out=$work/graded
rm -rf "$work" "$dest/graded"
mkdir -p "$subs" || exit 2
stage=$(mktemp -d) || exit 2
trap 'rm -rf "$stage"' EXIT
expected=$dest/expected
: > "$expected"
fail=0

# ---- the class ----------------------------------------------------------

# expect STUDENT LAB/EX VERDICT: what the gradebook must say (the verdict
# on a GPU; without one, what a build reaches).
expect() {
	v=$3
	if [ -n "$BUILD_ONLY" ]; then
		case $v in
		COMPILE_ERROR|REJECTED) ;;
		NOT_IMPLEMENTED) v=SKELETON ;; # its WB_TODO, seen unrun
		*) v=BUILT ;;
		esac
	fi
	echo "$1 $2 $v" >> "$expected"
}

# verdict_of CASE LAB/EX: a broken case's expected verdict (expect-static
# without a GPU, where the case has one).
verdict_of() {
	f=tests/broken/$1/expect
	[ -n "$BUILD_ONLY" ] && [ -f "tests/broken/$1/expect-static" ] &&
		f=tests/broken/$1/expect-static
	awk -v e="$2" '$1 == e { print $2; exit }' "$f"
}

# graded: the course's exercises, "lab/ex" words
graded() { echo "$CLASS_EXERCISES"; }

# put DIR LAB/EX FILE: FILE as DIR/labs/LAB/EX.cu
put() {
	mkdir -p "$1/labs/${2%/*}" && cp "$3" "$1/labs/$2.cu"
}

# student ID KIND [LAB/EX=FILE...]: a submission of the solutions, with
# the files given in their place; KIND: dir, zip, tgz. Every graded
# exercise not given is the solution.
student() {
	id=$1 kind=$2
	shift 2
	d=$stage/$id
	mkdir -p "$d"
	for g in $(graded); do
		put "$d" "$g" "solutions/$g.cu"
	done
	for a in "$@"; do
		put "$d" "${a%%=*}" "${a#*=}"
	done
	case $kind in
	dir) cp -R "$d" "$subs/$id" ;;
	zip) (cd "$d" && zip -q -r "$subs/$id.zip" .) ;;
	tgz) tar -czf "$subs/$id.tar.gz" -C "$d" labs ;;
	esac
}

# One broken case or ladder step for each graded exercise it covers.
make_class() {
	for ex in $(graded); do
		[ -f "solutions/$ex.cu" ] || { echo "class: no solutions/$ex.cu" >&2; return 1; }
	done
	student s01-solutions dir
	for ex in $(graded); do expect s01-solutions "$ex" PASS; done
	student s02-zip zip
	for ex in $(graded); do expect s02-zip "$ex" PASS; done
	student s03-tarball tgz
	for ex in $(graded); do expect s03-tarball "$ex" PASS; done
	set --
	for ex in $(graded); do set -- "$@" "$ex=labs/$ex.cu"; done
	student s04-skeletons zip "$@"
	for ex in $(graded); do expect s04-skeletons "$ex" NOT_IMPLEMENTED; done
	# Wrong file names, flat: Sum.cu for sum.cu. Nothing is taken.
	mkdir -p "$subs/s05-wrong-names"
	for ex in $(graded); do
		n=${ex#*/}
		cp "solutions/$ex.cu" "$subs/s05-wrong-names/$(echo "$n" | cut -c1 | tr a-z A-Z)$(echo "$n" | cut -c2-).cu"
		expect s05-wrong-names "$ex" COMPILE_ERROR
	done
	mkdir -p "$subs/s06-nothing"
	echo "I ran out of time" > "$subs/s06-nothing/README.md"
	for ex in $(graded); do expect s06-nothing "$ex" COMPILE_ERROR; done
	# An upload that went wrong (not a zip), and a working copy with
	# everything in it: only the exercise files count.
	head -c 2000 "solutions/${CLASS_EXERCISES%% *}.cu" > "$subs/s07-broken-upload.zip"
	for ex in $(graded); do expect s07-broken-upload "$ex" COMPILE_ERROR; done
	student s08-extras dir
	echo "all:" > "$subs/s08-extras/Makefile"
	echo "notes" > "$subs/s08-extras/notes.txt"
	mkdir -p "$subs/s08-extras/.github/workflows"
	echo "on: push" > "$subs/s08-extras/.github/workflows/classroom.yml"
	for ex in $(graded); do expect s08-extras "$ex" PASS; done
	k=9
	for c in compile-error wrong-answer host-segfault out-of-bounds nan-output \
		 side-stream cheat-05-zeros cheat-05-syscall cheat-05-library \
		 illegal-address no-tail-guard fused-no-tail cheat-07-library \
		 softmax-no-max cheat-07-zeros; do
		for ex in $(graded); do
			[ -f "tests/broken/$c/$ex.cu" ] || continue
			id=$(printf 's%02d-%s' $k "$c")
			kind=dir
			[ $((k % 3)) -eq 0 ] && kind=zip
			[ $((k % 3)) -eq 1 ] && kind=tgz
			student "$id" $kind "$ex=tests/broken/$c/$ex.cu"
			for e in $(graded); do
				if [ "$e" = "$ex" ]; then
					expect "$id" "$e" "$(verdict_of "$c" "$e")"
				else
					expect "$id" "$e" PASS
				fi
			done
			k=$((k + 1))
		done
	done
	# Ladder steps: tests/ladder/<lab>/<step>/<lab>/<exercise>.cu
	for ex in $(graded); do
		for step in tests/ladder/"${ex%/*}"/*/; do
			[ -f "$step$ex.cu" ] || continue
			id=$(printf 's%02d-ladder-%s' $k "$(basename "$step")")
			student "$id" dir "$ex=$step$ex.cu"
			for e in $(graded); do expect "$id" "$e" PASS; done
			k=$((k + 1))
		done
	done
	echo "class: $(ls "$subs" | wc -l | tr -d ' ') submissions in $subs"
}

if ! make_class; then
	echo "class-batch: the class could not be made" >&2
	exit 2
fi
n=$(ls "$subs" | wc -l | tr -d ' ')
if [ "$n" -lt 20 ]; then
	echo "class-batch: only $n submissions (20 or more wanted)" >&2
	exit 2
fi

{
	echo "# The acceptance class (tests/gpu/class-batch.sh)."
	echo "course = class-batch acceptance"
	echo "assignment = class-batch"
	echo "exercises = $CLASS_EXERCISES"
} > "$dest/course.conf"

# ---- the batch ----------------------------------------------------------

t0=$(date +%s)
$MAKE --no-print-directory batch SUBMISSIONS="$subs" OUT="$out" \
	COURSE="$dest/course.conf" SANDBOX="$SANDBOX" TIMEOUT="$TIMEOUT" \
	BUILD="$BUILD" ${BUILD_ONLY:+BUILD_ONLY=1} ${JOBS:+JOBS=$JOBS} \
	> "$dest/batch.log" 2>&1
rc=$?
t1=$(date +%s)
wall=$((t1 - t0))
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1)
echo "$n submissions, $(echo "$CLASS_EXERCISES" | wc -w | tr -d ' ') exercises each, SANDBOX=$SANDBOX${BUILD_ONLY:+, build-only}: make batch took ${wall} s (building included) on ${gpu:-no GPU}, $(nproc 2> /dev/null || echo '?') CPUs" |
	tee "$dest/wall-time.txt"
if [ $rc -ne 0 ]; then
	echo "FAIL make batch ended with status $rc (the end of $dest/batch.log:)"
	tail -n 30 "$dest/batch.log"
	fail=1
fi

# ---- the checks ---------------------------------------------------------

# cell CSV STUDENT COLUMN: a CSV's value (no quoted commas in these ids)
cell() {
	awk -F, -v s="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == s && k { print $k }' "$1"
}

check() {
	if [ "$1" = ok ]; then
		echo "ok   $2"
	else
		echo "FAIL $2"
		fail=1
	fi
}

bad=""
while read -r s ex want; do
	have=$(cell "$out/verdicts.csv" "$s" "$ex")
	[ "$have" = "$want" ] || bad="$bad $s:$ex:$have(want:$want)"
done < "$expected"
check "$([ -z "$bad" ] && echo ok)" "every verdict as expected ($(wc -l < "$expected" | tr -d ' ') of them)${bad:+:$bad}"

ids() { awk -F, 'NR > 1 { print $1 }' "$1" | sort; }
same=ok
for f in verdicts.csv scores.csv; do
	[ "$(ids "$out/gradebook.csv")" = "$(ids "$out/$f")" ] || same=""
done
[ "$(ids "$out/gradebook.csv" | wc -l | tr -d ' ')" -eq "$n" ] || same=""
check "$same" "gradebook.csv, verdicts.csv and scores.csv list the same $n students"

bad=""
for s in $(ids "$out/gradebook.csv"); do
	total=$(cell "$out/gradebook.csv" "$s" total)
	score=$(cell "$out/scores.csv" "$s" score)
	if [ -n "$BUILD_ONLY" ]; then
		# no points: nothing in scores.csv an import could take
		[ -z "$score" ] && [ "$(cell "$out/scores.csv" "$s" status)" = \
			"built only: no points (not for an import)" ] || bad="$bad $s:scored"
		score=0
	else
		[ -n "$score" ] && [ "$score" = "$total" ] || bad="$bad $s"
	fi
	r=$out/students/$s/report.txt
	j=$out/students/$s/results.json
	if [ ! -f "$r" ] || [ ! -f "$j" ]; then
		bad="$bad $s:no-report"
		continue
	fi
	jscore=$(sed -n 's/^  "score": \([0-9.e+-]*\),$/\1/p' "$j" | head -n 1)
	awk -v a="$jscore" -v b="$score" 'BEGIN { exit !(a + 0 == b + 0) }' ||
		bad="$bad $s:json-score-$jscore"
	for ex in $(graded); do
		v=$(cell "$out/verdicts.csv" "$s" "$ex" | tr _ ' ')
		grep -q "^$ex  *$v " "$r" || bad="$bad $s:$ex:report-not-$v"
	done
done
check "$([ -z "$bad" ] && echo ok)" "each scores.csv score is the gradebook's total and results.json's score; each report.txt shows the gradebook's verdicts${bad:+:$bad}"

check "$(grep -q 'did you mean 05-reduction/sum.cu?' "$out/students/s05-wrong-names/report.txt" 2> /dev/null && echo ok)" \
	"the wrong file names got 'did you mean'"
if [ "$SANDBOX" != off ]; then
	check "$(grep -q 'Every submission was built and run in the sandbox' "$out/summary.txt" 2> /dev/null && echo ok)" \
		"every submission was graded in the sandbox (SANDBOX=$SANDBOX)"
fi

# ---- what is kept -------------------------------------------------------

mkdir -p "$dest/graded/students"
for f in gradebook.csv verdicts.csv scores.csv summary.txt audit.tsv; do
	cp "$out/$f" "$dest/graded/" 2> /dev/null
done
for d in "$out"/students/*/; do
	s=$(basename "$d")
	mkdir -p "$dest/graded/students/$s"
	cp "$d/report.txt" "$d/results.json" "$dest/graded/students/$s/" 2> /dev/null
done
echo
cat "$out/summary.txt" 2> /dev/null
echo
echo "kept: $dest/graded/ (gradebook.csv, verdicts.csv, scores.csv, summary.txt, audit.tsv, students/<id>/report.txt and results.json); $dest/wall-time.txt"
[ $fail -eq 0 ] && echo "class-batch: everything as expected" || echo "class-batch: FAILED"
exit $fail
