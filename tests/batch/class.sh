#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/batch/class.sh - generate a class of 13 submissions and grade it:
# the end-to-end check of make batch, on a GPU or (--build-only) without.
#
#   sh tests/batch/class.sh [--build-only] [DIR]
#
# DIR (default $BUILD/batch-class) gets submissions/, graded/ (the batch's
# output: gradebook.csv, verdicts.csv, summary.txt, students/) and a
# listener on the host's loopback that the malicious submission tries to
# reach. Prints the class summary, the gradebook, the verdicts and a
# comparison with tests/batch/expected; then checks that the malicious
# submission reached nothing: no connection to the listener, its
# neighbour's file unchanged, nothing written into the results.
# Exit status 0 when all of that holds. Environment: MAKE, BUILD, CC,
# SANDBOX (passed to make batch), JOBS.
#
# On a GPU this takes a few minutes: 13 students, two exercises each,
# timed; frank's endless loop waits out TIMEOUT=30.

set -u
build_only=""
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi
: "${MAKE:=make}" "${BUILD:=build}" "${CC:=cc}"
dir=${1:-$BUILD/batch-class}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 2
rm -rf "$dir/submissions" "$dir/graded" "$dir/listen.out"
fail=0

$CC -O2 -o "$dir/listen" tests/batch/listen.c || exit 2
"$dir/listen" 1800 > "$dir/listen.out" &
listener=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ -s "$dir/listen.out" ] && break
	sleep 0.5
done
port=$(head -n 1 "$dir/listen.out")

sh tests/batch/make-class.sh "$dir/submissions" "$dir/graded" "$port" || exit 2
$MAKE --no-print-directory batch SUBMISSIONS="$dir/submissions" \
	OUT="$dir/graded" LAB=05-reduction TIMEOUT=30 BUILD="$BUILD" \
	${build_only:+BUILD_ONLY=1} ${SANDBOX:+SANDBOX=$SANDBOX} \
	${JOBS:+JOBS=$JOBS}
rc=$?
kill "$listener" 2> /dev/null
wait "$listener" 2> /dev/null
[ $rc -eq 0 ] || { echo "class: make batch ended with status $rc"; fail=1; }

echo
echo "== summary: $dir/graded/summary.txt"
cat "$dir/graded/summary.txt" 2> /dev/null
echo
echo "== gradebook: $dir/graded/gradebook.csv"
cat "$dir/graded/gradebook.csv" 2> /dev/null
echo
echo "== verdicts: $dir/graded/verdicts.csv"
cat "$dir/graded/verdicts.csv" 2> /dev/null
echo
echo "== against tests/batch/expected"
sh tests/batch/compare.sh ${build_only:+--build-only} tests/batch/expected \
	"$dir/graded" || fail=1

echo
echo "== what the malicious submission (mallory) reached"
n=$(grep -c '^connection' "$dir/listen.out")
if [ "$n" -eq 0 ]; then
	echo "ok   the listener on the host's 127.0.0.1:$port got no connection"
else
	echo "FAIL the listener on the host's 127.0.0.1:$port got $n connection(s)"
	fail=1
fi
if cmp -s "$dir/submissions/alice/05-reduction/sum.cu" solutions/05-reduction/sum.cu; then
	echo "ok   alice's submission is unchanged"
else
	echo "FAIL alice's submission was changed"
	fail=1
fi
if [ -e "$dir/graded/students/pwned-by-mallory" ]; then
	echo "FAIL mallory wrote into the results"
	fail=1
else
	echo "ok   nothing was written into the results"
fi
grep -h 'probe:' "$dir/graded/students/mallory/logs/05-reduction/"sum.* 2> /dev/null |
	sed -n 's/^.*\(probe: [^"]*\).*$/     \1/p' | sort -u
[ $fail -eq 0 ] && echo "class: everything as expected" || echo "class: FAILED"
exit $fail
