# SPDX-License-Identifier: MIT
#
# tests/gpu/integrity.sh - section "integrity" of tests/run.sh (sourced
# there; it uses run.sh's pass, fail, skip, grade_to, tsv_col and LOGS).
#
# Without a GPU: every cheat case under tests/broken/cheat-* builds, and
# what the driver decides before running anything holds: files that define
# or call what they may not are REJECTED, library calls fail the technique
# check (each case's expect-static: "lab/exercise VERDICT [technique=WORD]",
# graded in build-only mode); every honest case under tests/honest/ (code
# in the styles of public repositories: CUB, cooperative groups, graphs,
# cudaLaunchKernelEx, ...) is BUILT, not rejected, by the same check; the
# solutions pass every technique rule and the skeletons are not rejected.
# With a GPU: a WRONG verdict names its likely cause and how to reproduce
# it, SIZE= grades one size alone, and the report records the GPU's
# condition. The cheat cases' GPU verdicts (their expect files) are checked
# by section gpu with every other broken case, their expect-sanitize files
# by section sanitize.

# expect_static FILE NAME: every "lab/exercise VERDICT [technique=WORD]"
# line of FILE holds in NAME.tsv; mismatches go to NAME.log.
expect_static() {
	ok=0
	while read -r ex want tech; do
		got=$(tsv_col "$LOGS/$2.tsv" "${ex%%/*}" "${ex#*/}" verdict)
		[ "$got" = "$want" ] ||
			{ ok=1; echo "$ex: got ${got:-nothing}, expected $want" >> "$LOGS/$2.log"; }
		[ -n "$tech" ] || continue
		got=$(tsv_col "$LOGS/$2.tsv" "${ex%%/*}" "${ex#*/}" technique)
		[ "technique=$got" = "$tech" ] ||
			{ ok=1; echo "$ex: technique ${got:-none}, expected ${tech#technique=}" >> "$LOGS/$2.log"; }
	done < "$1"
	return $ok
}

# Build SRC's runners (of LAB, or all; of EX alone when given), grade
# them in build-only mode.
static_case() { # static_case SRC NAME LAB [EX [MAKE-VARS...]]
	tag=$(echo "$1" | tr / _ | tr ' ' +)
	sc_src=$1 sc_name=$2 sc_lab=$3 sc_ex=${4:-}
	shift 3
	[ $# -gt 0 ] && shift
	if [ -n "$sc_ex" ]; then
		$MAKE --no-print-directory SRC="$sc_src" LAB="$sc_lab" "$@" \
			"$B/$tag/$sc_lab/info" "$B/$tag/$sc_lab/$sc_ex" > "$LOGS/$sc_name.log" 2>&1
	else
		$MAKE --no-print-directory -j"${JOBS:-2}" runners SRC="$sc_src" LAB="$sc_lab" \
			"$@" > "$LOGS/$sc_name.log" 2>&1
	fi
	"$GRADER" --labs labs --build "$B/$tag" --source "$sc_src" --lab "$sc_lab" \
		${sc_ex:+--ex "$sc_ex"} --mode build-only --tsv "$LOGS/$sc_name.tsv" \
		>> "$LOGS/$sc_name.log" 2>&1
}

# case_logs DIR CASE LAB: a case's claims about what its build wrote (a
# one-file case: the exercise is its file's).
# expect-log: lines that must each appear in the exercise's build log or
# its grade (the message that names a limit, a path, a symbol or a kind);
# marker: a word (from a
# file the case includes) that must appear in no file the build or the
# grader wrote, the compiler's messages included.
case_logs() {
	dir=$B/$(echo "$1 solutions" | tr / _ | tr ' ' +)/$3
	cl_ex=$(basename "$(ls "$1/$3"/*.cu | head -n 1)" .cu)
	if [ -f "$1/expect-log" ]; then
		while IFS= read -r want; do
			if cat "$dir/$cl_ex.log" "$LOGS/static-$2.log" 2> /dev/null |
				grep -qF -- "$want"; then
				pass "integrity/$2: its build log says \"$want\""
			else
				fail "integrity/$2: its build log says \"$want\"" "$dir/$cl_ex.log"
			fi
		done < "$1/expect-log"
	fi
	if [ -f "$1/marker" ]; then
		word=$(head -n 1 "$1/marker")
		if grep -rlF -- "$word" "$dir" "$LOGS"/static-"$2".* > "$LOGS/leak-$2" 2> /dev/null; then
			fail "integrity/$2: what it includes leaks into no log or report" "$LOGS/leak-$2"
		else
			pass "integrity/$2: what it includes leaks into no log or report"
		fi
	fi
}

integrity_static() {
	for d in tests/broken/cheat-*/ tests/honest/*/; do
		[ -d "$d" ] || continue
		d=${d%/} case=$(basename "$d")
		case $d in tests/honest/*) case=honest-$case ;; esac
		lab=$(sed -n '1s|/.*||p' "$d/expect")
		# A one-file case builds and checks that exercise alone (the rest
		# of its lab is the solutions', checked below).
		set -- "$d/$lab"/*.cu
		ex=""
		[ $# -eq 1 ] && [ -f "$1" ] && ex=$(basename "$1" .cu)
		static_case "$d solutions" "static-$case" "$lab" "$ex" $(case_vars "$d")
		if [ -f "$d/expect-static" ]; then
			if [ -n "$ex" ]; then
				grep "^$lab/$ex " "$d/expect-static" > "$LOGS/expect-static-$case"
			else
				cp "$d/expect-static" "$LOGS/expect-static-$case"
			fi
			if expect_static "$LOGS/expect-static-$case" "static-$case"; then
				pass "integrity/$case: $(awk '$2 != "BUILT" || $3 { print $2 ($3 ? " " $3 : ""); exit }' "$d/expect-static"), decided before it runs"
			else
				fail "integrity/$case" "$LOGS/static-$case.log"
			fi
			case_logs "$d" "$case" "$lab"
		elif awk -F '\t' 'NR > 1 && $3 != "BUILT" { bad = 1 } END { exit bad || NR < 2 }' \
			"$LOGS/static-$case.tsv" 2>/dev/null; then
			pass "integrity/$case compiles and passes the static checks"
		else
			fail "integrity/$case compiles and passes the static checks" "$LOGS/static-$case.log"
		fi
	done
	# Solutions pass every rule (BUILT; a host exercise, which make check
	# grades on the CPU, PASS); skeletons only need not be rejected (a
	# "must" rule fails on a skeleton, which earns nothing anyway), and
	# each reads SKELETON: it still calls WB_TODO.
	for src in solutions labs; do
		static_case "$src" "static-$src" ""
		bad=$(awk -F '\t' -v strict="$([ "$src" = solutions ] && echo 1)" \
			-v want="$([ "$src" = solutions ] && echo BUILT || echo SKELETON)" '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == "technique") k = i; next }
			$3 != want && !(strict && $3 == "PASS") || (strict && k && $k == "failed") { print $1 "/" $2 ": " $3 " " (k ? $k : "") }' \
			"$LOGS/static-$src.tsv" 2>/dev/null)
		what="the symbol checks"
		[ "$src" = solutions ] && what="the symbol and technique checks"
		if [ -s "$LOGS/static-$src.tsv" ] && [ -z "$bad" ]; then
			pass "integrity/every $src file passes $what"
		else
			echo "$bad" >> "$LOGS/static-$src.log"
			fail "integrity/every $src file passes $what" "$LOGS/static-$src.log"
		fi
	done
}

integrity_gpu() {
	case=tests/broken/cheat-06-no-tail
	grade_to "$case solutions" integrity-diag LAB=06-rmsnorm EX=rmsnorm TIMEOUT=60
	if grep -q 'likely cause: only sizes whose last extent is not a multiple of' "$LOGS/integrity-diag.json" &&
	   grep -q "SIZE=" "$LOGS/integrity-diag.json"; then
		pass "gpu/integrity: a WRONG verdict names its likely cause and how to reproduce it"
	else
		fail "gpu/integrity: a WRONG verdict names its likely cause" "$LOGS/integrity-diag.log"
	fi
	grade_to "$case solutions" integrity-size LAB=06-rmsnorm EX=rmsnorm SIZE=3x7
	if [ "$(tsv_col "$LOGS/integrity-size.tsv" 06-rmsnorm rmsnorm verdict)" = WRONG ] &&
	   grep -q 'only size 3x7 was checked' "$LOGS/integrity-size.json"; then
		pass "gpu/integrity: SIZE= grades the failing size alone"
	else
		fail "gpu/integrity: SIZE= grades the failing size alone" "$LOGS/integrity-size.log"
	fi
	if grep -q '^GPU at the start: \|^GPU condition: not recorded' "$LOGS/integrity-size.log" &&
	   grep -q 'GPU at the start\|GPU condition: not recorded' "$LOGS/integrity-size.json"; then
		pass "gpu/integrity: the report records the GPU's condition"
	else
		fail "gpu/integrity: the report records the GPU's condition" "$LOGS/integrity-size.log"
	fi
}

section_integrity() {
	if [ ! -d solutions ] || [ ! -d tests/broken ]; then
		skip "integrity/the cheat corpus: ${NO_SOLUTIONS:-no solutions/}"
		return
	fi
	integrity_static
	why=$("$DEVINFO" --check 2>&1)
	if [ $? -ne 0 ]; then
		skip "gpu/integrity: diagnostics, SIZE=, GPU condition: ${why:-no usable GPU}"
		return
	fi
	integrity_gpu
}
