#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/batch/compare.sh - does a batch's gradebook hold the expected
# verdicts?
#
#   sh tests/batch/compare.sh [--build-only] EXPECTED OUT [STUDENT...]
#
# EXPECTED  lines "student lab/exercise VERDICT" (tests/batch/expected);
#           "student probe NOTHING": that student's probe ran and got
#           nothing (its .out on a GPU; its compiler log with --build-only
#           or when the file was REJECTED, and so never run); not checked
#           for a student graded UNSANDBOXED (SANDBOX=off)
# OUT       the batch's output folder (verdicts.csv, students/)
# With --build-only, verdicts that only a GPU can reach read BUILT (an
# untouched skeleton, NOT_IMPLEMENTED when run, reads SKELETON)
# (COMPILE_ERROR and REJECTED are decided before running).
# Prints one line per student; exit status 0 when every line holds.

set -u
build_only=0
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi
[ $# -ge 2 ] || { echo "usage: $0 [--build-only] EXPECTED OUT [STUDENT...]" >&2; exit 2; }
expected=$1 out=$2
shift 2
only=" ${*:-all} "
csv=$out/verdicts.csv
[ -f "$csv" ] || { echo "compare: no $csv" >&2; exit 1; }

# got STUDENT EXERCISE: the verdict in verdicts.csv ("" if none)
got() {
	awk -F, -v s="$1" -v e="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == e) c = i; next }
		$1 == s && c { print $c }' "$csv"
}

# probe STUDENT: "" when its probe ran and got nothing, else why not
# (a REJECTED file never runs: then its compile-time probe, as without a
# GPU)
probe() {
	if [ $build_only = 1 ] || [ "$(got "$1" 05-reduction/sum)" = REJECTED ]; then
		log=$out/students/$1/logs/05-reduction/sum.log
		ran="probe: compile-time"
	else
		log=$out/students/$1/logs/05-reduction/sum.out
		ran="probe: ran"
	fi
	if [ ! -f "$log" ]; then
		echo "no $log"
	elif ! grep -q "$ran" "$log"; then
		echo "the probe did not run ($log)"
	elif grep -q "probe: .*GOT" "$log"; then
		grep "probe: .*GOT" "$log" | sed 's/^.*probe: /GOT /' | head -n 3 | tr '\n' ';'
	fi
}

bad=0 good=0
for student in $(awk '!/^#/ && NF { print $1 }' "$expected" | uniq); do
	case $only in *" all "*|*" $student "*) ;; *) continue ;; esac
	line="" miss=""
	while read -r s ex want _; do
		[ "$s" = "$student" ] || continue
		if [ "$ex" = probe ] &&
		   grep -q '^sandbox none' "$out/students/$s/meta" 2> /dev/null; then
			# Without a sandbox (SANDBOX=off) the probe gets what it
			# asks for: there is nothing to check.
			line="$line, probe not checked (UNSANDBOXED)"
			continue
		fi
		if [ "$ex" = probe ]; then
			why=$(probe "$s")
			if [ -n "$why" ]; then
				miss="$miss; probe: $why"
			else
				line="$line, probe got nothing"
			fi
			continue
		fi
		if [ $build_only = 1 ]; then
			case $want in
			COMPILE_ERROR|REJECTED) ;;
			NOT_IMPLEMENTED) want=SKELETON ;; # its WB_TODO, seen unrun
			*) want=BUILT ;;
			esac
		fi
		have=$(got "$s" "$ex")
		if [ "$have" = "$want" ]; then
			line="$line, ${ex#*/} $have"
		else
			miss="$miss; ${ex#*/}: got ${have:-nothing}, expected $want"
		fi
	done <<EOF
$(grep -v '^#' "$expected")
EOF
	if [ -n "$miss" ]; then
		bad=$((bad + 1))
		printf 'FAIL %-8s %s\n' "$student" "${miss#; }"
	else
		good=$((good + 1))
		printf 'ok   %-8s %s\n' "$student" "${line#, }"
	fi
done
echo "compare: $good student(s) as expected, $bad not"
[ $bad -eq 0 ]
