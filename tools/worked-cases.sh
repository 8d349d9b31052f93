#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/worked-cases.sh [--check] - the worked cases of the prediction
# exercises, with their rule's answers (instructors only).
#
# A lab whose lab.mk names an answer key (ANSWERS := answers.c: the rule
# of a host exercise, left out of the student handout) ships instead a
# header of worked cases with the rule's answers, which its lab.c grades
# exactly in the handout, where no rule is linked (docs/grading.md,
# "Prediction exercises"): labs/<lab>/<exercise>_worked.h, one for each
# exercise the lab grades by worked cases.
# tools/worked-cases/lab<NN>.c picks a lab's cases (tools/worked-cases.c
# holds their main()); this script builds them once per such lab, against
# that lab's answers.c, and writes the headers into the lab's folder. Run
# it after changing a rule or the cases, and commit the headers with it.
#
#   --check   write nothing: exit 1, naming each, when a committed header
#             is not what the rule gives now (make test runs this)
#
# Environment: CC (default cc), CUDA_HOME (default /usr/local/cuda: the
# labs' headers include cuda_runtime.h, for its types only).
# Exit status: 0 done (or, with --check, all current); 1 a header is
# stale; 2 something failed to build or run.

set -u
cd "$(dirname "$0")/.." || exit 2
check=0
[ "${1:-}" = --check ] && check=1
CC=${CC:-cc}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/worked-cases.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# The labs whose lab.mk names an answer key that is here.
answer_labs() {
	for mk in labs/*/lab.mk; do
		lab=$(basename "$(dirname "$mk")")
		for a in $(sed -n 's/^ANSWERS[[:space:]]*:*=//p' "$mk"); do
			[ -f "labs/$lab/$a" ] && printf '%s %s\n' "$lab" "$a"
		done
	done
}

status=0
answer_labs > "$tmp/labs"
[ -s "$tmp/labs" ] || { echo "worked-cases: no lab.mk names an answer key that is here" >&2; exit 2; }
while read -r lab answers; do
	n=$(echo "$lab" | sed 's/^0*\([0-9]*\)-.*/\1/')
	mkdir -p "$tmp/$lab"
	if ! $CC -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L \
		-DWORKED_LAB="$n" -I"$CUDA_HOME/include" -Icommon -I"labs/$lab" \
		-o "$tmp/$lab/gen" tools/worked-cases.c \
		"tools/worked-cases/lab$(printf %02d "$n").c" "labs/$lab/$answers" \
		common/rng.c -lm > "$tmp/$lab/build.log" 2>&1 ||
	   ! "$tmp/$lab/gen" "$tmp/$lab" > "$tmp/$lab/run.log" 2>&1; then
		echo "worked-cases: $lab: the generator failed:" >&2
		cat "$tmp/$lab/build.log" "$tmp/$lab/run.log" >&2
		exit 2
	fi
	for h in "$tmp/$lab"/*_worked.h; do
		to=labs/$lab/$(basename "$h")
		if cmp -s "$h" "$to"; then
			echo "worked-cases: $to is current"
		elif [ $check -eq 1 ]; then
			echo "worked-cases: $to is not what labs/$lab/$answers gives (tools/worked-cases.sh writes it)"
			status=1
		else
			cp "$h" "$to" && echo "worked-cases: wrote $to ($(grep -c '^	{' "$to") cases)"
		fi
	done
done < "$tmp/labs"
exit $status
