#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/mutate.sh - mutation testing: would the no-GPU tests catch a bug?
# Each mutant below is a small bug (an operator, a constant, a line
# dropped) planted in grader/, common/ or tools/batch/. The tree is copied
# into a temporary folder (git ls-files, and the untracked files git does
# not ignore), and there, one mutant at a time: the bug is planted, the
# mutant's tests run, the file is put back. A mutant is KILLED when its
# tests fail, SURVIVED when they pass: a bug nothing catches.
#
#   sh tests/mutate.sh [NAME...]  every mutant (or those NAMEd); exit 1
#                                 if one survived, or if a pattern does not
#                                 match exactly once
#   sh tests/mutate.sh --check [ROOT]  only that every pattern still
#                                 matches exactly once, in this tree or
#                                 ROOT (no build: make test's unit section
#                                 runs it, so that a refactor updates the
#                                 table instead of leaving it to rot)
#   sh tests/mutate.sh --list     the table, one mutant a line
#
# make mutate runs it (BUILD= the build folder whose objects seed the
# copy's, so that only what a mutant changes is rebuilt). The whole run
# takes 4 to 6 minutes on 2 cores: 1 to 2 to build and run the tests
# without a mutant, then seconds a mutant (the two in the batch's
# resume, about 40 s each). Environment: BUILD (default build), MAKE,
# TMPDIR, MUTATE_KEEP=1 (keep the copy and its logs), MUTATE_TIMEOUT
# (seconds a mutant's tests may take; default 600: a mutant that hangs
# them is KILLED).
#
# Each mutant is a block of "key: value" lines; a blank line ends it:
#   name  a word, to name it on the command line
#   file  the file it changes
#   find  a fixed string (no regular expression) that must occur exactly
#         once in that file; leading blanks are not part of it
#   put   what replaces it (empty: it is deleted)
#   why   the bug, in one line
#   run   its tests, words of: "unit:test_a,test_b" (those unit tests
#         alone, built and run: seconds), "unit" (every unit test, as
#         tests/run.sh's unit section runs them: a minute or more, the
#         unit library relinked into each), "formats" (the formats
#         section: real runs' classroom.json and junit.xml),
#         "batch:NAME,..." (tests/batch/test.sh's bt_NAME checks alone,
#         BATCH_ONLY=NAME)

set -u

table() {
	cat << 'EOF'
name: lab-check-second-output
file: common/lab_check.c
find: p->bad |= r.bad != 0;
put:  p->bad = r.bad != 0;
why:  a correct second output hides a wrong first (add_rmsnorm PASSes without its residual)
run:  unit:test_lab_check

name: close-scaled-by-got
file: common/check.c
find: return fabs(got - want) <= atol + rtol * fabs(want);
put:  return fabs(got - want) <= atol + rtol * fabs(got);
why:  the tolerance scales with the student's value, not the reference's
run:  unit:test_check,test_lab_check

name: share-cap-moved
file: grader/score/score.c
find: if (s->tier_unit == G_TIERS_SHARE && t->x > 1.5) {
put:  if (s->tier_unit == G_TIERS_SHARE && t->x > 1.65) {
why:  the tiers' share cap moved 10% (a course's 160% typo is accepted)
run:  unit:test_score,test_course

name: a100-tensor-row
file: grader/score/plausible.c
find: if (cc == 80)
put:  if (cc == -80)
why:  the A100 row of the tensor FLOP/s ceiling deleted (an honest hgemm there is SUSPICIOUS)
run:  unit:test_plausible

name: inspect-stale-files
file: grader/inspect/inspect.c
find: if (stat(path, &st) || st.st_mtime < since)
put:  if (stat(path, &st))
why:  inspection files left from an older build are read
run:  unit:test_inspect

name: ptsz-not-stripped
file: grader/inspect/allowlist.c
find: cuda[len - 5] = '\0';
put:  (void)0;
why:  the _ptsz suffix kept: cudaLaunchHostFunc_ptsz gets past the rejected calls
run:  unit:test_inspect

name: classroom-built-fails
file: grader/report/formats.c
find: if (v == WB_V_PASS || v == WB_V_BUILT)
put:  if (v == WB_V_PASS)
why:  BUILT (make check) is a failure in classroom.json
run:  unit:test_formats formats

name: resume-ignores-fingerprint
file: tools/batch/settings.c
find: same = strstr(meta, want) != NULL
put:  same = 1
why:  resume ignores the fingerprint: a resubmission keeps its old grade
run:  batch:resubmit

name: score-zero-below-gate
file: common/scale.c
find: if (!(x > sc->at[0]) || (sc->gate > 0 && !(x > sc->gate)))
put:  if (!(x > sc->at[0]))
why:  a share under the gate (no speedup over the naive) earns points
run:  unit:test_scale,test_score

name: tier-boundary
file: common/scale.c
find: while (k < sc->n && x >= sc->at[k + 1])
put:  while (k < sc->n && x > sc->at[k + 1])
why:  a result exactly at a tier is scored in the tier below
run:  unit:test_scale,test_score

name: gate-at-the-naive
file: common/scale.c
find: sc->gate = sc->r ? WB_ZERO_SPEEDUP / sc->r : 0;
put:  sc->gate = sc->r ? 1.0 / sc->r : 0;
why:  the gate at the naive's own speed, not 5% over it
run:  unit:test_scale,test_score

name: quantile-position
file: common/stats.c
find: pos = q * (double)(n - 1);
put:  pos = q * (double)n;
why:  the quartiles and the median read one sample too far
run:  unit:test_stats,test_score

name: median-ci-half
file: common/stats.c
find: half = z * sqrt((double)n) / 2 + 0.5;
put:  half = z * sqrt((double)n) / 2;
why:  the median's 95% interval one order statistic too narrow
run:  unit:test_stats,test_score

name: ratio-ci-zero-time
file: common/stats.c
find: if (a[k] > 0 && b[k] > 0)
put:  if (a[k] > 0)
why:  a round whose other time is 0 (not measured) enters the paired ratio
run:  unit:test_stats,test_score

name: stop-before-min-samples
file: common/stats.c
find: if (n < rule->min_samples)
put:  if (n < rule->min_samples / 2)
why:  sampling may stop before the least number of rounds
run:  unit:test_stats

name: points-for-non-pass
file: grader/score/score.c
find: if (r->verdict != WB_V_PASS)
put:  if (r->verdict == WB_V_ERROR)
why:  correctness no longer gates the points: WRONG earns them
run:  unit:test_score

name: row-atol-floor
file: common/check.c
find: return atol > WB_ROW_ATOL_FLOOR ? atol : WB_ROW_ATOL_FLOOR;
put:  return atol;
why:  a row of zeros gets no absolute tolerance at all
run:  unit:test_check

name: i64-one-wrong-passes
file: common/lab_check.c
find: if (r.bad)
put:  if (r.bad > 1)
why:  one wrong integer (an argmax's index) passes
run:  unit:test_lab_check

name: chunk-failure-lost
file: common/lab_check.c
find: while (k < bad &&
put:  while (k > bad &&
why:  a chunk that fails on a thread is never recorded: the size passes
run:  unit:test_lab_check

name: verdict-parse-skips-pass
file: common/verdict.c
find: for (int v = 0; v < WB_V_COUNT; v++)
put:  for (int v = 1; v < WB_V_COUNT; v++)
why:  a record's "verdict PASS" is not read
run:  unit:test_record,test_score

name: weak-object-refs
file: grader/inspect/symbols.c
find: if (s->type == 'U' || s->type == 'w' || s->type == 'v')
put:  if (s->type == 'U' || s->type == 'w')
why:  a weak reference to data (nm's v) is never judged
run:  unit:test_inspect

name: ctor-refs-text
file: grader/inspect/symbols.c
find: ok = (*w == '.' && strncmp(w, ".text", 5)) ||
put:  ok = (*w == '.') ||
why:  an iostream constructor that calls the file's own code (.text) is let through
run:  unit:test_inspect

name: libm-any-suffix
file: grader/inspect/allowlist.c
find: return symname_listed(base, libm, COUNT(libm));
put:  return 1;
why:  any unlisted name ending in f or l passes as a math function
run:  unit:test_inspect

name: classroom-error-overridden
file: grader/report/formats.c
find: return s;
put:  worst = s;
why:  a grader error in classroom.json is hidden by a later failure
run:  unit:test_formats

name: junit-crash-a-failure
file: grader/report/formats.c
find: return v == WB_V_COMPILE_ERROR || v == WB_V_CRASH || v == WB_V_ERROR;
put:  return v == WB_V_COMPILE_ERROR || v == WB_V_ERROR;
why:  a CRASH is a JUnit failure, not an error
run:  unit:test_formats

name: gradebook-total
file: tools/batch/row.c
find: row->total += cell->points;
put:  row->total = cell->points;
why:  a student's total is her last exercise's points
run:  unit:test_batch

name: scores-percent
file: tools/batch/book.c
find: row->max > 0 ? 100 * row->total / row->max : 0);
put:  row->max > 0 ? row->total / row->max : 0);
why:  scores.csv's percent is a fraction
run:  unit:test_batch

name: fingerprint-content
file: tools/batch/collect.c
find: h = bt_fnv(h, text, strlen(text));
put:  (void)text;
why:  the fingerprint ignores what the files hold: an edited resubmission keeps its grade
run:  unit:test_batch batch:resubmit
EOF
}

US=$(printf '\037')

# The table as lines of name, file, find, put, why, run, separated by US.
records() {
	table | awk -v us="$US" '
		function flush() {
			if (n["name"] != "")
				print n["name"] us n["file"] us n["find"] us \
				      n["put"] us n["why"] us n["run"]
			split("", n)
		}
		/^[ \t]*$/ { flush(); next }
		{
			k = $0; sub(/:.*/, "", k)
			v = $0; sub(/^[a-z]+:[ \t]*/, "", v)
			n[k] = v
		}
		END { flush() }'
}

# count FILE PATTERN: how many times PATTERN (fixed) occurs in FILE
count() {
	PAT=$2 awk 'BEGIN { p = ENVIRON["PAT"]; c = 0 }
		{ s = $0; while ((i = index(s, p)) > 0) { c++; s = substr(s, i + length(p)) } }
		END { print c }' "$1"
}

# plant FILE PATTERN REPLACEMENT: the one occurrence replaced, in place
plant() {
	PAT=$2 REP=$3 awk 'BEGIN { p = ENVIRON["PAT"]; r = ENVIRON["REP"] }
		{ i = index($0, p); if (i > 0) $0 = substr($0, 1, i - 1) r substr($0, i + length(p)) }
		{ print }' "$1" > "$1.mutant" && cat "$1.mutant" > "$1" && rm -f "$1.mutant"
}

# check_table ROOT: every pattern occurs exactly once in ROOT's file
check_table() {
	bad=0
	list=$(mktemp "${TMPDIR:-/tmp}/wb-mutants-XXXXXX") || return 1
	records > "$list"
	while IFS=$US read -r name file find put why run; do
		if [ ! -f "$1/$file" ]; then
			echo "mutant $name: no file $file"
			bad=1
			continue
		fi
		c=$(count "$1/$file" "$find")
		if [ "$c" != 1 ]; then
			echo "mutant $name: \"$find\" occurs $c times in $file (once wanted)"
			bad=1
		fi
		[ "$find" != "$put" ] || { echo "mutant $name: find and put are the same"; bad=1; }
	done < "$list"
	rm -f "$list"
	return $bad
}

case ${1:-} in
--check)
	if check_table "${2:-.}"; then
		echo "mutate: $(records | wc -l) mutants, each pattern found exactly once"
		exit 0
	fi
	exit 1
	;;
--list)
	records | awk -F "$US" '{ printf "%-30s %-22s %s\n", $1, $2, $5 }'
	exit 0
	;;
-*)
	sed -n '3,/^$/s/^# \{0,1\}//p' "$0"
	exit 2
	;;
esac

: "${BUILD:=build}" "${MAKE:=make}" "${MUTATE_TIMEOUT:=600}"
# The copy's makes take no settings from a make that started this one.
unset MAKEFLAGS MFLAGS MAKELEVEL
repo=$(pwd)
[ -f tests/mutate.sh ] && git rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	{ echo "mutate: run it from the root of the repository's git checkout" >&2; exit 2; }
seed_b=$($MAKE -s --no-print-directory print-B BUILD="$BUILD")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-mutate-XXXXXX") || exit 2
[ -n "${MUTATE_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
tree=$tmp/tree
logs=$tmp/logs
mkdir -p "$tree" "$logs"

# The copy: what git tracks and what it would (untracked, not ignored),
# times kept, so that the seeded build's objects stay current.
git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
	tar -C "$repo" --null -T - -cf - | tar -C "$tree" -xf - || {
	echo "mutate: could not copy the tree" >&2
	exit 2
}
# The build folder's host objects, the harness's and the labs' objects,
# the staged headers and the skeletons' runners seed the copy's (not the
# other runners or the tests' folders: make builds what the tests need).
case $BUILD in
/*) bdir=build ;;
*) bdir=$BUILD ;;
esac
if [ -d "$BUILD/host" ]; then
	mkdir -p "$tree/$bdir"
	sb=${seed_b#"$BUILD"/}
	(cd "$BUILD" && for d in host "$sb/common" "$sb/lab" "$sb/include" \
		"$sb/labs" "$sb/devinfo" "$sb/devinfo.d"; do
		[ -e "$d" ] && echo "$d"
	done | tar -T - -cf -) | tar -C "$tree/$bdir" -xf -
fi
cd "$tree" || exit 2
records > "$tmp/mutants"
[ $# -eq 0 ] || {
	for n; do
		grep -q "^$n$US" "$tmp/mutants" || { echo "mutate: no mutant named $n" >&2; exit 2; }
	done
	awk -F "$US" -v want=" $* " 'index(want, " " $1 " ")' "$tmp/mutants" > "$tmp/chosen"
	mv "$tmp/chosen" "$tmp/mutants"
}
B=$($MAKE -s --no-print-directory print-B BUILD="$bdir")

# tests RUN LOG: build what RUN needs, run it; its FAIL lines (without
# their figures in parentheses) into LOG.fail. 0 ran, 2 did not build.
tests() {
	: > "$2.fail"
	targets=""
	for what in $1; do
		case $what in
		unit) targets="$targets test-unit" ;;
		unit:*)
			for t in $(echo "${what#unit:}" | tr , ' '); do
				targets="$targets $bdir/host/tests/$t"
			done
			targets="$targets $bdir/host/tests/fake_child" ;;
		formats) targets="$targets tools $bdir/host/tests/test_formats" ;;
		batch:*) targets="$targets tools $bdir/host/tools/batch/batch" ;;
		*) echo "mutate: unknown run \"$what\"" >> "$2"; return 2 ;;
		esac
	done
	$MAKE --no-print-directory -j2 BUILD="$bdir" $targets TEST_DEPS_DONE=1 \
		>> "$2" 2>&1 || return 2
	for what in $1; do
		section="" only=""
		case $what in
		unit) section=unit ;;
		unit:*)
			for t in $(echo "${what#unit:}" | tr , ' '); do
				if FAKE_CHILD="$bdir/host/tests/fake_child" \
					timeout "$MUTATE_TIMEOUT" "$bdir/host/tests/$t" >> "$2" 2>&1; then
					echo "PASS unit/$t" >> "$2"
				else
					echo "FAIL unit/$t" >> "$2"
				fi
			done ;;
		formats) section=formats ;;
		batch:*) section=batch only=$(echo "${what#batch:}" | tr , ' ') ;;
		esac
		[ -n "$section" ] || continue
		TEST_SECTIONS=$section BATCH_ONLY=$only BUILD="$bdir" B="$B" \
			GRADER="$bdir/host/grader/grader" DEVINFO="$B/devinfo" \
			MAKE="$MAKE" timeout "$MUTATE_TIMEOUT" sh tests/run.sh >> "$2" 2>&1
		[ $? -ne 124 ] || echo "FAIL $what: over $MUTATE_TIMEOUT s" >> "$2"
	done
	sed -n 's/^FAIL \([^(]*[^ (]\).*/\1/p' "$2" | sort -u > "$2.fail"
	return 0
}

if ! check_table "$tree"; then
	echo "mutate: the table no longer fits the code (fix tests/mutate.sh's table)"
	exit 1
fi

# The tests without a mutant: a mutant is KILLED when a test that passed
# here fails. (One that fails here, someone's work in progress, cannot
# kill anything: it is named, and the run fails.)
all_runs=$(awk -F "$US" '{ print $6 }' "$tmp/mutants" | tr ' ' '\n' |
	awk '/^unit:/ { n = split(substr($0, 6), t, ","); for (i = 1; i <= n; i++)
		print "unit:" t[i]; next } { print }' | sort -u | tr '\n' ' ')
t0=$(date +%s)
if ! tests "$all_runs" "$logs/baseline.log"; then
	echo "mutate: without a mutant, the tests ($all_runs) do not build:"
	tail -n 25 "$logs/baseline.log"
	exit 2
fi
echo "mutate: the tests without a mutant: $all_runs($(($(date +%s) - t0)) s)"
if [ -s "$logs/baseline.log.fail" ]; then
	echo "mutate: these fail without a mutant, and cannot kill one:"
	sed 's/^/    /' "$logs/baseline.log.fail"
fi

killed=0 survived=0 broken=0 n=0
while IFS=$US read -r name file find put why run; do
	n=$((n + 1))
	t0=$(date +%s)
	cp -p "$file" "$tmp/original"
	plant "$file" "$find" "$put"
	tests "$run" "$logs/$name.log" < /dev/null
	rc=$?
	cat "$tmp/original" > "$file" # a new time: make rebuilds it
	touch "$file"
	secs=$(($(date +%s) - t0))
	comm -23 "$logs/$name.log.fail" "$logs/baseline.log.fail" > "$logs/$name.kill"
	if [ $rc -ne 0 ]; then
		broken=$((broken + 1)) verdict="DOES NOT BUILD"
	elif [ -s "$logs/$name.kill" ]; then
		killed=$((killed + 1)) verdict=KILLED
	else
		survived=$((survived + 1)) verdict=SURVIVED
	fi
	printf '%-8s %-27s %-21s %4ss  %s\n' "$verdict" "$name" "$file" "$secs" "$why"
	head -n 2 "$logs/$name.kill" | sed 's/^/         by /'
done < "$tmp/mutants"

echo "mutate: $n mutants: $killed killed, $survived survived, $broken did not build"
[ -z "${MUTATE_KEEP:-}" ] || echo "mutate: the copy and its logs: $tmp"
[ $survived -eq 0 ] && [ $broken -eq 0 ] && [ ! -s "$logs/baseline.log.fail" ]
