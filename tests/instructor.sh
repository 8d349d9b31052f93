# SPDX-License-Identifier: MIT
#
# tests/instructor.sh - the test sections for the instructor workflow,
# sourced by tests/run.sh (docs/instructors.md describes what they test).
#
#   formats     one build-only run writes the table, results.json,
#               results.tsv, classroom.json and junit.xml; those and the
#               unit fixture's files validate against tests/formats/
#               (python3-jsonschema, xmllint), and the validators do
#               refuse a broken file.
#   course      a bad course settings file stops the grader with
#               file:line: why; the example file is valid; make grade
#               passes COURSE on; make calibrate's proposal from the
#               recorded H100 table is itself a valid settings file.
#   handout     make handout: no solutions/ or self-test corpus, no
#               solution code anywhere (and the check catches every
#               solution copied into its lab), tarball = folder, the
#               student README and no instructor passage in its docs (one
#               left open stops make handout), and the unpacked tarball
#               builds and passes make test (unit, build: its docs name
#               only files and make commands it has) with what needs
#               solutions/ skipped. No answer key (lab.mk's ANSWERS) in
#               it, nor its code, nor a definition of its functions (and
#               the check catches each), the worked cases current; there,
#               without the keys, the host exercises' solutions PASS and
#               their broken cases are WRONG, as in the instructor's copy:
#               graded on the CPU (common/hostcheck.c), by the handout's
#               make check with no GPU, and for real where there is a GPU.
#               Its first screen: make check on the untouched skeletons
#               (and make grade with no GPU) in 80 columns, every
#               exercise's name whole, no FAILED, no compiler lines.
#   gradescope  make gradescope-bundle, unpacked as Gradescope does;
#               setup.sh, then run_autograder on a submission with a
#               solution, a compile error and stray files: build-only
#               everywhere, and for real where there is a GPU.
#
# Uses pass/fail/skip, LOGS, BUILD, B, GRADER, DEVINFO and MAKE from
# tests/run.sh. What needs solutions/ or an instructor tool skips, with
# the reason, in the student handout.

# validate_json SCHEMA TEST FILE...: one PASS/FAIL, or SKIP without jsonschema.
validate_json() {
	schema=$1 test=$2
	shift 2
	if ! python3 -c 'import jsonschema' > /dev/null 2>&1; then
		skip "$test: python3-jsonschema is not installed (Debian: apt-get install python3-jsonschema)"
		return
	fi
	if python3 tests/formats/validate-json.py "$schema" "$@" > "$LOGS/validate.log" 2>&1; then
		pass "$test"
	else
		fail "$test" "$LOGS/validate.log"
	fi
}

# validate_xml TEST FILE...: against tests/formats/junit.xsd, and also
# $JUNIT_XSD when set (the Jenkins plugin's own junit-10.xsd).
validate_xml() {
	test=$1
	shift
	if ! command -v xmllint > /dev/null; then
		skip "$test: xmllint is not installed (Debian: apt-get install libxml2-utils)"
		return
	fi
	if xmllint --noout --schema tests/formats/junit.xsd "$@" > "$LOGS/validate.log" 2>&1 &&
	   { [ -z "${JUNIT_XSD:-}" ] ||
	     xmllint --noout --schema "$JUNIT_XSD" "$@" >> "$LOGS/validate.log" 2>&1; }; then
		pass "$test"
	else
		fail "$test" "$LOGS/validate.log"
	fi
}

# ---- formats -----------------------------------------------------------------
section_formats() {
	dir=$LOGS/formats
	rm -rf "$dir"
	mkdir -p "$dir/src/05-reduction" "$dir/run"

	# The unit fixture: every kind of verdict, and text to be escaped.
	if ! WB_FORMATS_OUT="$dir/fixture" "$BUILD/host/tests/test_formats" > "$dir/fixture.log" 2>&1 ||
	   [ ! -s "$dir/fixture/junit.xml" ]; then
		fail "formats/the unit fixture writes its files" "$dir/fixture.log"
		return
	fi

	# One real run: lab 05 with a compile error (quotes in the compiler's
	# words), course settings, build-only.
	printf '#include "reduction.h"\nvoid reduce_sum(const float *in, size_t n, float *out, void *work)\n{\n\tint x = "not a number";\n}\n' \
		> "$dir/src/05-reduction/sum.cu"
	printf 'course = formats test\n05-reduction/sum.timeout_s = 30\n' > "$dir/course.conf"
	src="$dir/src labs"
	$MAKE --no-print-directory runners SRC="$src" LAB=05-reduction > "$dir/build.log" 2>&1
	t=$($MAKE -s --no-print-directory print-T SRC="$src")
	"$GRADER" --labs labs --build "$t" --source "$src" --lab 05-reduction \
		--mode build-only --course "$dir/course.conf" \
		--json "$dir/run/results.json" --tsv "$dir/run/results.tsv" \
		--classroom "$dir/run/classroom.json" --junit "$dir/run/junit.xml" \
		> "$dir/run/table.txt" 2>&1
	if [ -s "$dir/run/results.json" ] && [ -s "$dir/run/results.tsv" ] &&
	   [ -s "$dir/run/classroom.json" ] && [ -s "$dir/run/junit.xml" ] &&
	   grep -q "COMPILE ERROR" "$dir/run/table.txt" &&
	   grep -q "course settings course.conf (formats test): changed" "$dir/run/table.txt" &&
	   ! grep -q "$dir/course.conf" "$dir/run/results.json"; then
		pass "formats/one run writes the table, results.json, results.tsv, classroom.json and junit.xml (naming the course file, not the folder it is in)"
	else
		cat "$dir/build.log" >> "$dir/run/table.txt"
		fail "formats/one run writes every format" "$dir/run/table.txt"
	fi

	validate_json tests/formats/gradescope.schema.json \
		"formats/results.json has Gradescope's fields (schema from its spec)" \
		"$dir/fixture/results.json" "$dir/run/results.json"
	validate_json tests/formats/classroom.schema.json \
		"formats/classroom.json has the fields GitHub Classroom's reporter reads" \
		"$dir/fixture/classroom.json" "$dir/run/classroom.json"
	validate_xml "formats/junit.xml validates against the Jenkins/Ant JUnit schema" \
		"$dir/fixture/junit.xml" "$dir/run/junit.xml"

	# The validators have teeth: a broken file of each kind is refused.
	printf '{"score": 1, "tests": [{"name": "x", "status": "ok"}]}\n' > "$dir/bad-gradescope.json"
	printf '{"version": 1, "status": "passed", "tests": []}\n' > "$dir/bad-classroom.json"
	printf '<testsuites name="x"><testsuite name="y"/></testsuites>\n' > "$dir/bad-junit.xml"
	rejected=""
	if python3 -c 'import jsonschema' > /dev/null 2>&1; then
		python3 tests/formats/validate-json.py tests/formats/gradescope.schema.json \
			"$dir/bad-gradescope.json" > /dev/null 2>&1 || rejected="$rejected gradescope"
		python3 tests/formats/validate-json.py tests/formats/classroom.schema.json \
			"$dir/bad-classroom.json" > /dev/null 2>&1 || rejected="$rejected classroom"
	else
		rejected=" gradescope classroom"
	fi
	if command -v xmllint > /dev/null; then
		xmllint --noout --schema tests/formats/junit.xsd "$dir/bad-junit.xml" \
			> /dev/null 2>&1 || rejected="$rejected junit"
	else
		rejected="$rejected junit"
	fi
	if [ "$rejected" = " gradescope classroom junit" ]; then
		pass "formats/the schemas refuse a broken file of each kind"
	else
		echo "refused:$rejected (want: gradescope classroom junit)" > "$dir/bad.log"
		fail "formats/the schemas refuse a broken file of each kind" "$dir/bad.log"
	fi
}

# ---- course ------------------------------------------------------------------
# course_refused TEST WANT LINES...: a file of LINES stops the grader with WANT.
course_refused() {
	test=$1 want=$2
	shift 2
	printf '%s\n' "$@" > "$LOGS/course/bad.conf"
	"$GRADER" --labs labs --build "$B/labs" --source labs --mode build-only \
		--course "$LOGS/course/bad.conf" > "$LOGS/course/bad.log" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "$want" "$LOGS/course/bad.log" &&
	   ! grep -q "BUILT" "$LOGS/course/bad.log"; then
		pass "$test"
	else
		echo "status $rc; wanted 2 and: $want" >> "$LOGS/course/bad.log"
		fail "$test" "$LOGS/course/bad.log"
	fi
}

# A course names its labs and exercises; make check-course checks a file
# with no GPU; LAB= takes a list; --lab twice is refused.
course_picks() {
	printf 'course = two labs\nassignment = hw3\nlabs = reduction\nexercises = 07-fusion/gelu\n05-reduction/sum.points_correct = 50\n' \
		> "$1/picks.conf"
	printf 'labs = reduction\nexercises = fusion/gelux\n' > "$1/picks-bad.conf"
	$MAKE -s --no-print-directory check-course COURSE="$1/picks.conf" > "$1/check.log" 2>&1
	rc=$?
	$MAKE -s --no-print-directory check-course COURSE="$1/picks-bad.conf" > "$1/check-bad.log" 2>&1
	rc_bad=$?
	if [ $rc -eq 0 ] && grep -q '^grades 3 exercises: 05-reduction/sum 05-reduction/argmax 07-fusion/gelu$' "$1/check.log" &&
	   grep -q '05-reduction/sum: points 40+60 -> 50+60' "$1/check.log" &&
	   [ $rc_bad -ne 0 ] && grep -q "picks-bad.conf:2: lab 07-fusion has no exercise 'gelux'" "$1/check-bad.log"; then
		pass "course/make check-course (no GPU): what a course file grades (labs =, exercises =) and changes; a wrong name stops it with file:line"
	else
		cat "$1/check.log" "$1/check-bad.log" > "$1/check-all.log"
		fail "course/make check-course" "$1/check-all.log"
	fi
	"$GRADER" --labs labs --build "$B/labs" --lab 05-reduction --lab 07-fusion \
		--mode build-only > "$1/twice.log" 2>&1
	rc=$?
	if [ "$(echo $($MAKE -s --no-print-directory print-LABS_SEL LAB="reduction fusion"))" = "05-reduction 07-fusion" ] &&
	   ! $MAKE -s --no-print-directory print-LABS_SEL LAB="reduction fusio" > /dev/null 2>&1 &&
	   [ "$("$GRADER" --labs labs --build "$B/labs" --course "$1/picks.conf" --check-course labs --lab "fusion,rmsnorm")" = 07-fusion ] &&
	   [ $rc -eq 2 ] && grep -q -- '--lab is given twice' "$1/twice.log"; then
		pass "course/LAB= takes a list (LAB=\"reduction fusion\"; a wrong word stops make), and --lab given twice is refused"
	else
		fail "course/LAB= takes a list, --lab twice is refused" "$1/twice.log"
	fi
}

section_course() {
	dir=$LOGS/course
	rm -rf "$dir"
	mkdir -p "$dir"
	$MAKE --no-print-directory runners SRC=labs LAB=05-reduction > "$dir/build.log" 2>&1

	course_refused "course/an unknown exercise stops the grader with file:line: why" \
		"bad.conf:3: lab 05-reduction has no exercise 'summ' (its exercises: sum argmax)" \
		"# comment" "course = x" "05-reduction/summ.timeout_s = 9"
	course_refused "course/tiers that do not rise stop the grader" \
		"bad.conf:1: 05-reduction/sum: tier 2 does not rise above tier 1" \
		"05-reduction/sum.tiers = 3:20 2:40 5:60"
	course_refused "course/an unknown knob stops the grader" \
		"bad.conf:1: unknown knob 'tier'" "reduction/sum.tier = 2:60"

	# (make -n runs the grader, which reads the file for its labs)
	printf 'course = some course\n' > "$dir/some.conf"
	if $MAKE -n --no-print-directory grade COURSE="$dir/some.conf" 2> /dev/null |
	   grep -q -- "--course $dir/some.conf"; then
		pass "course/make grade COURSE=... passes the file to the grader"
	else
		fail "course/make grade COURSE=... passes the file to the grader"
	fi

	if [ ! -f courses/example.conf ]; then
		skip "course/the example course file is valid: not in the student handout"
	else
		"$GRADER" --labs labs --build "$B/labs" --source labs --lab 05-reduction \
			--mode build-only --course courses/example.conf > "$dir/example.log" 2>&1
		if [ $? -ne 2 ] && grep -q "course settings example.conf" "$dir/example.log"; then
			pass "course/the example course file is valid, and the table says what it changed"
		else
			fail "course/the example course file is valid" "$dir/example.log"
		fi
	fi

	course_picks "$dir"

	rec=tests/calibrate/h100-2026-11-25-all.tsv
	if [ ! -f "$rec" ]; then
		skip "course/a calibration proposal is a valid course file: $NO_SOLUTIONS"
		return
	fi
	"$GRADER" --labs labs --build "$B/labs" --lab 05-reduction \
		--propose-tiers "$rec" > "$dir/proposed.conf" 2> "$dir/propose.log"
	rc=$?
	"$GRADER" --labs labs --build "$B/labs" --source labs --lab 05-reduction \
		--mode build-only --course "$dir/proposed.conf" >> "$dir/propose.log" 2>&1
	used=$?
	# On the GPU the labs' shares were set from, the proposal keeps them:
	# the lab's own line, read from its table.
	want=$("$B/labs/05-reduction/info" --list | awk '$1 == "tier" && $2 == "sum" {
		t = t (t ? " " : "") $3 ":" $4 } END { print t }')
	if [ "$rc" -eq 0 ] && [ "$used" -ne 2 ] && [ -n "$want" ] &&
	   grep -qx "05-reduction/sum.shares = $want" "$dir/proposed.conf"; then
		pass "course/make calibrate's proposal from the recorded H100 table keeps the lab's shares and is a valid course file"
	else
		cat "$dir/proposed.conf" >> "$dir/propose.log"
		fail "course/make calibrate's proposal is a valid course file (status $rc)" "$dir/propose.log"
	fi
}

# ---- handout -----------------------------------------------------------------
section_handout() {
	if [ ! -d solutions ] || [ ! -f tools/handout.sh ]; then
		skip "handout/make handout: $NO_SOLUTIONS"
		return
	fi
	dir=$LOGS/handout
	rm -rf "$dir"
	mkdir -p "$dir/x"
	h=cuda-workbook-handout
	if $MAKE --no-print-directory handout DIST="$dir/dist" > "$dir/handout.log" 2>&1 &&
	   [ -s "$dir/dist/$h.tar.gz" ] && [ -s "$dir/dist/cuda-workbook-instructor.tar.gz" ] &&
	   [ -d "$dir/dist/$h/labs" ]; then
		pass "handout/make handout writes the student folder and tarball, and the instructor tarball"
	else
		fail "handout/make handout" "$dir/handout.log"
		return
	fi

	tar -xzf "$dir/dist/$h.tar.gz" -C "$dir/x"
	(cd "$dir/dist/$h" && find . -type f | sort) > "$dir/folder.list"
	(cd "$dir/x/$h" && find . -type f | sort) > "$dir/tarball.list"
	if cmp -s "$dir/folder.list" "$dir/tarball.list"; then
		pass "handout/the tarball holds the folder's files"
	else
		diff "$dir/folder.list" "$dir/tarball.list" > "$dir/lists.diff"
		fail "handout/the tarball holds the folder's files" "$dir/lists.diff"
	fi

	grep -E '^\./(solutions|tests/broken|tests/ladder|tests/calibrate|tools)/' \
		"$dir/tarball.list" > "$dir/leaked.list"
	if [ ! -s "$dir/leaked.list" ] && [ -f "$dir/x/$h/labs/05-reduction/sum.cu" ]; then
		pass "handout/no solutions/, self-test corpus or instructor tools in the handout"
	else
		fail "handout/no solutions/ or self-test corpus in the handout" "$dir/leaked.list"
	fi
	if tar -tzf "$dir/dist/cuda-workbook-instructor.tar.gz" |
	   grep -q '^cuda-workbook-instructor/solutions/05-reduction/sum.cu$'; then
		pass "handout/the instructor tarball has the solutions"
	else
		fail "handout/the instructor tarball has the solutions"
	fi

	if sh tools/handout-check.sh "$dir/x/$h" solutions > "$dir/check.log" 2>&1; then
		pass "handout/no solution code in any file of the handout"
	else
		fail "handout/no solution code in any file of the handout" "$dir/check.log"
	fi
	handout_docs "$dir" "$h"
	handout_leak "$dir" "$h"
	handout_tracked "$dir" "$h"
	handout_builds "$dir" "$h"
	handout_answers "$dir" "$h"
	handout_answers_leak "$dir" "$h"
	handout_host_grades "$dir" "$h"
	handout_host_built "$dir" "$h"
}

# In a small git repository of its own: an untracked grades file and TA
# notes, and a solution's Nsight recording, never ship; a tracked file
# holding solution code stops make handout and leaves no handout folder
# behind (nor anything else of the run).
handout_tracked() {
	g=$1/tracked
	log=$1/tracked.log
	rm -rf "$g"
	mkdir -p "$g/tools" "$g/labs/05-x" "$g/solutions/05-x" "$g/tests/profile"
	cp tools/handout.sh tools/handout-check.sh tools/handout-answers.sh \
		tools/handout-README.md tools/handout.exclude "$g/tools/"
	for i in 1 2 3 4 5 6 7 8 9; do
		echo "float distinctive_solution_line_$i = compute_something_long($i);"
	done > "$g/solutions/05-x/a.cu"
	echo "void a(void) { /* TODO: your code here */ }" > "$g/labs/05-x/a.cu"
	echo "name,kernel,block" > "$g/tests/profile/a-solution.csv"
	echo "name,kernel,block" > "$g/tests/profile/a-naive.csv"
	(cd "$g" && git init -q && git add . &&
	 git -c user.name=t -c user.email=t@t commit -qm t) > "$log" 2>&1
	echo "alice,100" > "$g/grades.csv"
	echo "alice copied" > "$g/labs/05-x/TA-notes.txt"
	(cd "$g" && sh tools/handout.sh out) >> "$log" 2>&1
	rc1=$?
	(cd "$g/out/cuda-workbook-handout" 2> /dev/null && find . -type f | sort) > "$1/tracked.list"
	# A solution over its skeleton, committed: refused, nothing left.
	cp "$g/solutions/05-x/a.cu" "$g/labs/05-x/a.cu"
	(cd "$g" && git -c user.name=t -c user.email=t@t commit -qam leak &&
	 rm -rf out && sh tools/handout.sh out) >> "$log" 2>&1
	rc2=$?
	if [ $rc1 -eq 0 ] && grep -q '^\./labs/05-x/a.cu$' "$1/tracked.list" &&
	   grep -q '^\./tests/profile/a-naive.csv$' "$1/tracked.list" &&
	   ! grep -q 'grades.csv\|TA-notes\|a-solution' "$1/tracked.list" &&
	   grep -q 'not shipped: *2 file' "$log" &&
	   [ $rc2 -eq 1 ] && [ ! -e "$g/out/$2" ] && [ ! -e "$g/out/$2.tar.gz" ] &&
	   [ -z "$(ls -A "$g/out" 2> /dev/null)" ]; then
		pass "handout/only tracked files ship (not an untracked grades file or TA notes, nor a solution's Nsight recording); refused for solution code, it leaves nothing in dist/"
	else
		echo "statuses $rc1 $rc2; shipped:" >> "$log"
		cat "$1/tracked.list" >> "$log"
		ls -la "$g/out" >> "$log" 2>&1
		fail "handout/only tracked files ship, and a refused handout leaves nothing behind" "$log"
	fi
}

# The handout's README is the student one (tools/handout-README.md), no
# .md in it keeps an instructor passage or its markers, and an instructor
# passage left open stops make handout.
handout_docs() {
	root=$1/x/$2
	first=$(head -n 1 "$root/README.md" 2> /dev/null)
	if [ "$first" = "$(head -n 1 tools/handout-README.md)" ] &&
	   case $first in *"student handout"*) true ;; *) false ;; esac &&
	   cmp -s "$root/README.md" tools/handout-README.md; then
		pass "handout/its README.md is the student README ($first)"
	else
		echo "first line: $first" > "$1/readme.log"
		fail "handout/its README.md is the student README" "$1/readme.log"
	fi
	find "$root" -type f -name '*.md' -exec grep -l -e '<!-- instructor -->' \
		-e '<!-- end instructor -->' {} + > "$1/markers.list" 2> /dev/null
	n=$(find "$root" -type f -name '*.md' | wc -l | tr -d ' ')
	if [ ! -s "$1/markers.list" ] && [ "$n" -gt 0 ] &&
	   grep -q 'tests/broken/' labs/05-reduction/README.md &&
	   ! grep -q 'tests/broken/' "$root/labs/05-reduction/README.md"; then
		pass "handout/no instructor passage or marker left in its $n .md files"
	else
		fail "handout/instructor passages left in the handout's .md files" "$1/markers.list"
	fi
	# A marker left open: make handout refuses, and writes no tarball.
	bad=$1/badmark
	mkdir -p "$bad/tools"
	cp tools/handout.sh tools/handout-answers.sh tools/handout-README.md \
		"$bad/tools/"
	printf 'labs/\n' > "$bad/tools/handout.exclude"
	printf '# doc\n\n<!-- instructor -->\nsecret\n' > "$bad/doc.md"
	(cd "$bad" && GIT_DIR=/nonexistent sh tools/handout.sh out) > "$1/badmark.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] && [ ! -e "$bad/out/$2.tar.gz" ] &&
	   grep -q 'doc.md:3: instructor passage never ends' "$1/badmark.log"; then
		pass "handout/an instructor passage left open stops make handout, naming the line"
	else
		echo "status $rc" >> "$1/badmark.log"
		fail "handout/an instructor passage left open stops make handout" "$1/badmark.log"
	fi
}

# Every solution, reformatted and stripped of its comments, copied over its
# skeleton (and one kernel pasted into a README): each must be caught. A
# skeleton that ships the code its solution fixes (lab.mk's SHIPS_CODE)
# may share it with that solution, so that solution goes into the lab's
# notes file instead, where it must be caught as well.
handout_leak() {
	leak=$1/leak
	cp -R "$1/x/$2" "$leak"
	n=0
	for s in solutions/*/*.cu; do
		lab=$(basename "$(dirname "$s")")
		ex=$(basename "$s" .cu)
		[ -d "$leak/labs/$lab" ] || continue
		to=$leak/labs/$lab/$ex.cu
		sed -n 's/^SHIPS_CODE[[:space:]]*:*=//p' "labs/$lab/lab.mk" |
			tr ' \t' '\n\n' | grep -qx "$ex" &&
			to=$leak/labs/$lab/notes-$ex.txt
		sed -e 's|/\*.*\*/||' -e 's|^\t|    |' -e 's|  *| |g' "$s" > "$to"
		n=$((n + 1))
	done
	sed -n '/__global__/,/^}/p' solutions/05-reduction/sum.cu >> "$leak/labs/05-reduction/README.md"
	sh tools/handout-check.sh "$leak" solutions > "$1/leak.log" 2>&1
	rc=$?
	found=$(grep -c 'distinctive code lines' "$1/leak.log")
	if [ "$rc" -eq 1 ] && [ "$found" -ge "$((n + 1))" ] &&
	   grep -q "labs/05-reduction/README.md: holds" "$1/leak.log"; then
		pass "handout/the check catches each of $n solutions copied into its lab, and a pasted kernel"
	else
		echo "status $rc, $found findings for $n solutions and a README" >> "$1/leak.log"
		fail "handout/the check catches solutions copied into the labs" "$1/leak.log"
	fi
}

# The unpacked tarball builds, and make test (unit, build) passes there,
# skipping what needs solutions/.
handout_builds() {
	root=$1/x/$2
	mk=${MAKE%% *}
	# Nothing of this run's make may leak in: its flags, BUILD, tools. It
	# builds every skeleton again, so it may use every core.
	(cd "$root" && unset MFLAGS MAKELEVEL MAKE BUILD B GRADER DEVINFO &&
		MAKEFLAGS=-j$(nproc 2> /dev/null || echo 2) &&
		export MAKEFLAGS && TEST_SECTIONS="unit build" $mk --no-print-directory test \
			BUILD="$PWD/build" WERROR=-Werror) > "$1/test.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q "^test: .* 0 failed" "$1/test.log" &&
	   grep -q "^SKIP build/every solutions file compiles: $NO_SOLUTIONS" "$1/test.log" &&
	   grep -q "^PASS build/every labs file compiles" "$1/test.log" &&
	   grep -q "^PASS build/every file and make command the docs name is there in the student handout" "$1/test.log"; then
		pass "handout/the unpacked handout builds and passes make test without solutions/, its docs naming only what it has"
	else
		fail "handout/the unpacked handout builds and passes make test (status $rc)" "$1/test.log"
	fi
}

# ---- handout: the answer keys --------------------------------------------------
# A lab.mk's ANSWERS names its answer key: the rule its host exercise is
# graded against, left out of the handout (tools/handout-answers.sh).
# There the exercise is graded by the worked cases (labs/<lab>/<ex>_worked.h)
# and properties instead; these tests hold both copies to the same verdicts.

# "lab exercise" of each host exercise graded by an answer key: one per
# worked-cases header of a lab that declares a key.
answer_exercises() {
	sh tools/handout-answers.sh list | while read -r key; do
		lab=$(basename "$(dirname "$key")")
		for w in "labs/$lab"/*_worked.h; do
			[ -f "$w" ] && echo "$lab $(basename "$w" _worked.h)"
		done
	done | sort -u
}

# No key in the handout, nor a definition of its functions; the
# instructor tarball has them; the worked cases are the keys' answers.
handout_answers() {
	root=$1/x/$2
	keys=$(sh tools/handout-answers.sh list 2> "$1/keys.log")
	n=$(printf '%s\n' "$keys" | grep -c .)
	tar -tzf "$1/dist/cuda-workbook-instructor.tar.gz" > "$1/instructor.list"
	missing=
	for k in $keys; do
		[ ! -e "$root/$k" ] || missing="$missing shipped:$k"
		grep -qx "cuda-workbook-instructor/$k" "$1/instructor.list" ||
			missing="$missing not-in-instructor-tarball:$k"
	done
	if [ "$n" -gt 0 ] && [ -z "$missing" ] &&
	   sh tools/handout-answers.sh check "$root" . >> "$1/keys.log" 2>&1; then
		pass "handout/none of the $n answer keys (lab.mk's ANSWERS) ships, nor a definition of their functions; the instructor tarball has them"
	else
		echo "$n keys;$missing" >> "$1/keys.log"
		fail "handout/no answer key in the handout" "$1/keys.log"
	fi
	if CC=${CC:-cc} CUDA_HOME=$(cuda_home) sh tools/worked-cases.sh --check \
		> "$1/worked.log" 2>&1; then
		pass "handout/the worked cases the handout grades with are the answer keys' answers (tools/worked-cases.sh --check)"
	else
		fail "handout/the worked cases are the answer keys' answers" "$1/worked.log"
	fi
}

# The check has teeth: each key put back at its place, its rule pasted
# under another name into the lab's README, and its function defined in
# a note, must each be caught.
handout_answers_leak() {
	leak=$1/keys-leak
	rm -rf "$leak"
	cp -R "$1/x/$2" "$leak"
	n=0
	for k in $(sh tools/handout-answers.sh list); do
		lab=$(dirname "$k")
		cp "$k" "$leak/$k"
		for f in $(sh tools/handout-answers.sh defs "$k"); do
			sed -n "/^[a-z].*[ *]$f(/,/^}/p" "$k" |
				sed "s/$f(/renamed_$n(/" >> "$leak/$lab/README.md"
			printf 'int %s(void)\n{\n\treturn 0;\n}\n' "$f" > "$leak/$lab/notes-$f.txt"
		done
		n=$((n + 1))
	done
	sh tools/handout-check.sh "$leak" solutions > "$1/keys-leak.log" 2>&1
	rc=$?
	at=$(grep -c 'an answer key (its lab.mk' "$1/keys-leak.log")
	pasted=$(grep -c 'README.md: holds .* of .*answers' "$1/keys-leak.log")
	defined=$(grep -c 'notes-.*\.txt: defines' "$1/keys-leak.log")
	if [ "$rc" -eq 1 ] && [ "$n" -gt 0 ] && [ "$at" -eq "$n" ] &&
	   [ "$pasted" -ge "$n" ] && [ "$defined" -ge "$n" ]; then
		pass "handout/the check catches each of $n answer keys at its place, its rule pasted renamed into a README, its function defined in a note"
	else
		echo "status $rc; $n keys: $at at their place, $pasted pasted, $defined defined caught" >> "$1/keys-leak.log"
		fail "handout/the check catches the answer keys" "$1/keys-leak.log"
	fi
}

# PATH, absolute (the handout's make runs in another folder).
absolute() {
	case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac
}

# The CUDA Toolkit's folder, from NVCC (the labs' headers include its
# cuda_runtime.h, for the types).
cuda_home() {
	nv=$(command -v "${NVCC:-nvcc}" 2> /dev/null)
	if [ -n "$nv" ]; then
		(cd "$(dirname "$nv")/.." && pwd)
	else
		echo "${CUDA_HOME:-/usr/local/cuda}"
	fi
}

# host_grader TREE LAB OUT KEY: OUT/objs, the objects of
# TREE's common/hostcheck.c linked with its lab (its C files, lab.c and
# its ex_*.c, each weakened) and, KEY=1, the lab's answer key.
# shellcheck disable=SC2086 # $cflags: several flags, on purpose
host_grader() {
	inc="-I$(cuda_home)/include -I$1/common -I$1/labs/$2"
	cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L $inc"
	mkdir -p "$3"
	${CC:-cc} $cflags -c "$1/common/rng.c" -o "$3/rng.o" &&
	${CC:-cc} $cflags -c "$1/common/hostcheck.c" -o "$3/host-grade.o" ||
		return 1
	objs="$3/host-grade.o $3/rng.o"
	# The lab's C files but its keys: lab.mk's LAB_SRCS, as make reads it.
	srcs=$(printf 'include labs/%s/lab.mk\nall:\n\t@echo $(filter-out $(ANSWERS),$(filter %%.c,$(LAB_SRCS)))\n' "$2" |
		${MAKE:-make} --no-print-directory -s -C "$1" -f - all) || return 1
	[ -n "$srcs" ] || return 1
	for f in $srcs; do
		${CC:-cc} $cflags -c "$1/labs/$2/$f" -o "$3/lab-$f.o" &&
		objcopy --weaken "$3/lab-$f.o" "$3/lab-$f.weak.o" || return 1
		objs="$objs $3/lab-$f.weak.o"
	done
	if [ "$4" = 1 ]; then
		for k in $(sh tools/handout-answers.sh list "$1" | grep "^labs/$2/"); do
			${CC:-cc} $cflags -c "$1/$k" -o "$3/key-$(basename "$k").o" ||
				return 1
			objs="$objs $3/key-$(basename "$k").o"
		done
	fi
	echo "$objs" > "$3/objs"
}

# host_grade TREE LAB EX FILE OUT: the verdict host-grade gives FILE.
# shellcheck disable=SC2046 # OUT/objs: one object a word, on purpose
host_grade() {
	o=$5/$(echo "$4" | tr '/' '_').o
	${CXX:-g++} -x c++ -std=c++17 -O2 -I"$(cuda_home)/include" -I"$1/common" \
		-I"$1/labs/$2" -c "$4" -o "$o" >> "$5/build.log" 2>&1 &&
	${CXX:-g++} -o "$5/grade" $(cat "$5/objs") "$o" -lm >> "$5/build.log" 2>&1 ||
		{ echo BUILD-FAILED; return; }
	"$5/grade" "$3" > "$o.log" 2>&1
	tail -n 1 "$o.log" | awk '{ print $2 }'
}

# The submissions to grade for LAB EX, with the verdict each must get:
# its solution PASS, each broken case that expects it WRONG.
host_cases() {
	echo "solutions/$1/$2.cu PASS"
	for e in tests/broken/*/expect; do
		d=$(dirname "$e")
		[ -f "$d/$1/$2.cu" ] && grep -qx "$1/$2 WRONG" "$e" &&
			echo "$d/$1/$2.cu WRONG"
	done
}

# host_verdicts TREE KEY TAG LOG: grade every host case in TREE, with
# (KEY=1) or without its answer keys; "N M" (cases, wrong verdicts).
host_verdicts() {
	cases=0 bad=0
	answer_exercises > "$4.ex"
	while read -r lab ex; do
		out=$LOGS/handout/host-$3/$lab
		rm -rf "$out"
		if ! host_grader "$1" "$lab" "$out" "$2" >> "$4" 2>&1; then
			echo "$lab: host-grade did not build" >> "$4"
			bad=$((bad + 1))
			continue
		fi
		host_cases "$lab" "$ex" > "$out/cases"
		while read -r file want; do
			got=$(host_grade "$1" "$lab" "$ex" "$file" "$out")
			cases=$((cases + 1))
			[ "$got" = "$want" ] && continue
			bad=$((bad + 1))
			echo "$3: $file: got ${got:-nothing}, expected $want" >> "$4"
		done < "$out/cases"
	done < "$4.ex"
	echo "$cases $bad"
}

# Graded on the CPU, with no GPU: in the handout (no keys: the worked
# cases and the properties judge) and in the instructor's copy (the keys
# judge), the host exercises' solutions PASS and their broken cases are
# WRONG. A check that cannot fail proves nothing: the broken cases are
# the ones tests/broken/ keeps for these exercises.
handout_host_grades() {
	log=$1/host.log
	: > "$log"
	if ! command -v objcopy > /dev/null || ! command -v "${CXX:-g++}" > /dev/null; then
		skip "handout/host exercises graded on the CPU: needs objcopy and ${CXX:-g++}"
		return
	fi
	set -- "$1" "$2" "$(host_verdicts "$1/x/$2" 0 handout "$log")" \
		"$(host_verdicts . 1 instructor "$log")"
	n=$(answer_exercises | wc -l | tr -d ' ')
	if [ "$n" -gt 0 ] && [ "${3% *}" -gt "$n" ] && [ "${3#* }" -eq 0 ] &&
	   [ "${4% *}" = "${3% *}" ] && [ "${4#* }" -eq 0 ]; then
		pass "handout/without the answer keys, as with them, the $n host exercises' solutions PASS and their $((${3% *} - n)) broken cases are WRONG (graded on the CPU: common/hostcheck.c)"
	else
		echo "handout: $3, instructor: $4 (cases, wrong verdicts)" >> "$log"
		fail "handout/the host exercises get the same verdicts without the answer keys" "$log"
	fi
}

# In the handout, with its own make (its build from handout_builds): the
# host exercises' solutions, copied over the skeletons, build and link
# without the keys (make check: BUILT). Their verdicts need the runner,
# which needs a GPU: graded for real where there is one, else the CPU
# grading above stands for them.
handout_host_built() {
	root=$1/x/$2
	answer_exercises > "$1/host.ex"
	mk=${MAKE%% *}
	log=$1/host-built.log
	: > "$log"
	n=0
	while read -r lab ex; do
		host_cases "$lab" "$ex" > "$1/host-$ex.cases"
		while read -r file want; do
			src=$(absolute "$(dirname "$(dirname "$file")")")
			out=$1/host-check-$(echo "$file" | tr / _).log
			(cd "$root" && unset MFLAGS MAKELEVEL MAKE BUILD B GRADER DEVINFO &&
				$mk --no-print-directory check SRC="$src labs" LAB="$lab" \
					EX="$ex" BUILD="$PWD/build") > "$out" 2>&1
			got=$(table_verdict "$out" "$lab" "$ex")
			n=$((n + 1))
			[ "$got" = "$want" ] ||
				{ echo "MISMATCH $file: got ${got:-nothing}, expected $want"; cat "$out"; } >> "$log"
		done < "$1/host-$ex.cases"
	done < "$1/host.ex"
	if [ "$n" -gt "$(grep -c . "$1/host.ex")" ] && ! grep -q '^MISMATCH' "$log"; then
		pass "handout/its make check, with no GPU and no answer key, gives the host exercises' $n solutions and broken cases PASS and WRONG"
	else
		fail "handout/its make check grades the host exercises PASS and WRONG without a GPU" "$log"
	fi
	handout_first_screen "$1" "$2"
	handout_host_gpu "$1" "$2"
}

# table_verdict LOG LAB EX: the verdict in the terminal table of LOG for
# LAB/EX (a row "LAB/EX  VERDICT ...", the whole name).
table_verdict() {
	awk -v n="$2/$3" '$1 == n && !done { print ($2 == "NOT" || $2 == "COMPILE") ? $2 " " $3 : $2; done = 1 }' "$1"
}

# The handout's own first screen: make check on the untouched skeletons
# (and, with no GPU here, make grade) as a new student sees it: every
# line within 80 columns, every exercise of every lab.mk in the table
# with its whole name, SKELETON, no FAILED for code not written yet, no
# compiler command line, no make warning, status 0; with no GPU, make
# grade's first line says so, before anything is built.
handout_first_screen() {
	root=$1/x/$2
	mk=${MAKE%% *}
	log=$1/first-screen.log
	(cd "$root" && unset MFLAGS MAKELEVEL MAKE BUILD B GRADER DEVINFO &&
		$mk --no-print-directory check BUILD="$PWD/build") > "$log" 2>&1
	rc=$?
	bad=""
	[ $rc -eq 0 ] || bad="$bad status-$rc"
	awk 'length($0) > 80 { print "wider than 80: " $0; bad = 1 } END { exit bad }' "$log" >> "$log.why" ||
		bad="$bad wider-than-80"
	n=0
	for mk_file in "$root"/labs/*/lab.mk; do
		lab=$(basename "$(dirname "$mk_file")")
		for ex in $(sed -n 's/^EXERCISES *:*= *//p' "$mk_file"); do
			n=$((n + 1))
			[ "$(table_verdict "$log" "$lab" "$ex")" = SKELETON ] ||
				bad="$bad $lab/$ex-not-a-whole-SKELETON-row"
		done
	done
	! grep -q 'FAILED' "$log" || bad="$bad FAILED"
	! grep -Eq '^(gcc|cc|g\+\+|nvcc|/[^ ]*/nvcc) ' "$log" || bad="$bad compiler-command-lines"
	! grep -q 'make\[[0-9]*\]: \|jobserver\|make: \*\*\*' "$log" || bad="$bad make-warning"
	grep -q '^Checking labs without a GPU' "$log" || bad="$bad no-heading"
	if [ -z "$bad" ] && nvidia-smi -L 2> /dev/null | grep -q '^GPU'; then
		: # a GPU here: make grade grades, and says no GPU nowhere
	elif [ -z "$bad" ] && ! ls /dev/nvidia[0-9]* /dev/dxg > /dev/null 2>&1; then
		(cd "$root" && unset MFLAGS MAKELEVEL MAKE BUILD B GRADER DEVINFO &&
			$mk --no-print-directory grade BUILD="$PWD/build") > "$log.grade" 2>&1
		rc=$?
		case $(head -n 1 "$log.grade") in
		"No CUDA GPU here"*) ;;
		*) bad="$bad make-grade-first-line-not-no-GPU" ;;
		esac
		[ $rc -eq 0 ] || bad="$bad make-grade-status-$rc"
		awk 'length($0) > 80 { exit 1 }' "$log.grade" || bad="$bad make-grade-wider-than-80"
		cat "$log.grade" >> "$log"
	fi
	if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
		pass "handout/its first screen: make check's $n exercises (every lab.mk's) whole and SKELETON, no FAILED, 80 columns, no compiler lines; with no GPU make grade says so first and exits 0"
	else
		echo "wrong:$bad" >> "$log"
		cat "$log.why" >> "$log" 2> /dev/null
		fail "handout/its first screen (make check on the untouched skeletons)" "$log"
	fi
}

# With a GPU, in the handout: each host exercise's solution PASSes and
# each of its broken cases is WRONG, graded by the handout's make grade.
handout_host_gpu() {
	root=$1/x/$2
	why=$("$DEVINFO" --check 2>&1)
	if [ $? -ne 0 ]; then
		skip "handout/the host exercises graded on a GPU without the answer keys: ${why:-no usable GPU}"
		return
	fi
	mk=${MAKE%% *}
	log=$1/host-gpu.log
	: > "$log"
	bad=0 n=0
	while read -r lab ex; do
		host_cases "$lab" "$ex" | while read -r file want; do
			src=$(absolute "$(dirname "$(dirname "$file")")")
			rm -f "$root/build/host.tsv"
			(cd "$root" && unset MFLAGS MAKELEVEL MAKE BUILD B GRADER DEVINFO &&
				$mk --no-print-directory grade SRC="$src labs" LAB="$lab" \
					EX="$ex" BUILD="$PWD/build" TSV="$PWD/build/host.tsv" \
					HISTORY= TIMEOUT=30) >> "$log" 2>&1
			got=$(verdict_of "$root/build/host.tsv" "$lab" "$ex")
			[ "$got" = "$want" ] ||
				echo "MISMATCH $file: got ${got:-nothing}, expected $want" >> "$log"
		done
		n=$((n + 1))
	done < "$1/host.ex"
	grep -q '^MISMATCH' "$log" && bad=1
	if [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
		pass "handout/on this GPU, without the answer keys, the $n host exercises' solutions PASS and their broken cases are WRONG"
	else
		fail "handout/the host exercises graded on a GPU without the answer keys" "$log"
	fi
}

# ---- gradescope --------------------------------------------------------------

# Bundles are named per assignment: two of them do not overwrite one zip;
# a course file's labs are the bundle's; a course file with a mistake
# writes no zip.
gradescope_names() {
	gl=$1/names.log
	printf 'assignment = hw-fusion\nlabs = fusion\nexercises = reduction/sum\n' > "$1/hw.conf"
	printf 'exercises = reduction/summ\n' > "$1/bad.conf"
	$MAKE --no-print-directory gradescope-bundle DIST="$1/dist" COURSE="$1/hw.conf" > "$gl" 2>&1 &&
	$MAKE --no-print-directory gradescope-bundle DIST="$1/dist" LAB="reduction fusion" >> "$gl" 2>&1
	rc=$?
	$MAKE --no-print-directory gradescope-bundle DIST="$1/dist" COURSE="$1/bad.conf" >> "$gl" 2>&1
	rc_bad=$?
	unzip -p "$1/dist/gradescope/autograder-hw-fusion.zip" bundle.conf > "$1/hw.bundle.conf" 2>> "$gl"
	if [ $rc -eq 0 ] && [ $rc_bad -ne 0 ] &&
	   [ -f "$1/dist/gradescope/autograder-example.zip" ] &&
	   [ -f "$1/dist/gradescope/autograder-reduction-fusion.zip" ] &&
	   grep -q "^LAB='05-reduction 07-fusion'$" "$1/hw.bundle.conf" &&
	   [ "$(ls "$1/dist/gradescope" | grep -c '^autograder-.*\.zip$')" -eq 3 ] &&
	   grep -q "bad.conf:1: lab 05-reduction has no exercise 'summ'" "$gl"; then
		pass "gradescope/bundles are named per assignment (autograder-hw-fusion.zip, -reduction-fusion, -example: none overwritten), carry the course file's labs, and a bad course file writes none"
	else
		ls "$1/dist/gradescope" >> "$gl"
		cat "$1/hw.bundle.conf" >> "$gl" 2> /dev/null
		fail "gradescope/bundles are named per assignment" "$gl"
	fi
}
section_gradescope() {
	if [ ! -f tools/gradescope/bundle.sh ] || [ ! -d solutions ]; then
		skip "gradescope/the autograder bundle: $NO_SOLUTIONS"
		return
	fi
	for tool in zip unzip bash; do
		if ! command -v $tool > /dev/null; then
			skip "gradescope/the autograder bundle: no $tool (Debian: apt-get install $tool)"
			return
		fi
	done
	dir=$LOGS/gradescope
	rm -rf "$dir"
	mkdir -p "$dir"
	# run_autograder changes directory: the root must be absolute, as
	# /autograder is on Gradescope.
	dir=$(cd "$dir" && pwd)
	root=$dir/autograder
	mkdir -p "$root/source" "$root/submission/junk" "$root/results"
	lab=06-rmsnorm
	if $MAKE --no-print-directory gradescope-bundle DIST="$dir/dist" LAB=$lab \
		COURSE=courses/example.conf > "$dir/bundle.log" 2>&1 &&
	   unzip -q "$dir/dist/gradescope/autograder-example.zip" -d "$root/source" &&
	   [ -x "$root/source/run_autograder" ] && [ -f "$root/source/setup.sh" ] &&
	   [ -f "$root/source/workbook/Makefile" ] && [ ! -e "$root/source/workbook/solutions" ]; then
		pass "gradescope/make gradescope-bundle: setup.sh and run_autograder at the zip's root, no solutions"
	else
		fail "gradescope/make gradescope-bundle" "$dir/bundle.log"
		return
	fi
	gradescope_names "$dir"
	cp "$root/source/run_autograder" "$root/run_autograder"
	if ! (unset MAKEFLAGS MFLAGS MAKELEVEL; bash "$root/source/setup.sh") > "$dir/setup.log" 2>&1; then
		fail "gradescope/setup.sh" "$dir/setup.log"
		return
	fi

	# A solution given flat, a compile error in its lab's folder, strays.
	cp solutions/$lab/rmsnorm.cu "$root/submission/rmsnorm.cu"
	mkdir -p "$root/submission/$lab"
	printf 'void rmsnorm_bf16(\n' > "$root/submission/$lab/rmsnorm_bf16.cu"
	echo notes > "$root/submission/junk/README.txt"
	cp solutions/$lab/rmsnorm.cu "$root/submission/junk/softmax.cu"

	# run_autograder grades in make batch's sandbox (tests/batch tests
	# it); where none can be made here, the rest runs with SANDBOX=off.
	gs_off=""
	if ! WB_AUTOGRADER_ROOT=$root bash "$root/run_autograder" --sandbox-check \
		> "$dir/sandbox.log" 2>&1; then
		skip "gradescope/run_autograder in its sandbox: $(grep -m 1 'sandbox' "$dir/sandbox.log")"
		gs_off=off
	fi
	SANDBOX=$gs_off WB_AUTOGRADER_ROOT=$root WB_GRADE_MODE=build-only \
		bash "$root/run_autograder" > "$dir/run-build-only.log" 2>&1
	gradescope_check "$dir" "$root" build-only BUILT
	if "$DEVINFO" --check > /dev/null 2>&1; then
		rm -rf "$root/results"/*
		SANDBOX=$gs_off WB_AUTOGRADER_ROOT=$root bash "$root/run_autograder" \
			> "$dir/run-grade.log" 2>&1
		gradescope_check "$dir" "$root" grade PASS
	else
		rm -rf "$root/results"/*
		SANDBOX=$gs_off WB_AUTOGRADER_ROOT=$root bash "$root/run_autograder" \
			> "$dir/run-grade.log" 2>&1
		cp "$root/results/results.json" "$dir/results-nogpu.json" 2> /dev/null
		if grep -q '"score": 0' "$dir/results-nogpu.json" 2> /dev/null &&
		   grep -q 'could not grade this submission' "$dir/results-nogpu.json"; then
			pass "gradescope/with no GPU, run_autograder still writes a results.json that says why"
		else
			fail "gradescope/with no GPU, run_autograder writes a results.json" "$dir/run-grade.log"
		fi
		validate_json tests/formats/gradescope.schema.json \
			"gradescope/that results.json has Gradescope's fields" "$dir/results-nogpu.json"
	fi
}

# gradescope_check DIR ROOT MODE VERDICT-OF-THE-SOLUTION
gradescope_check() {
	res=$2/results/results.json
	cp "$res" "$1/results-$3.json" 2> /dev/null
	if [ -s "$res" ] &&
	   grep -q '"name": "06-rmsnorm/rmsnorm", "number": "1", "score": [0-9.]*, "max_score": 100' "$res" &&
	   grep -q "\"output\": \"$(echo "$4" | tr _ ' ')" "$res" &&
	   grep -q '"output": "COMPILE ERROR' "$res" &&
	   grep -q 'rmsnorm.cu -> 06-rmsnorm/rmsnorm.cu' "$res" &&
	   grep -q 'junk/README.txt (not an exercise file)' "$res" &&
	   grep -q 'junk/softmax.cu (no exercise of this assignment is called softmax)' "$res" &&
	   grep -q 'course settings .*course.conf' "$res"; then
		pass "gradescope/run_autograder ($3): files taken and ignored, $4 and COMPILE ERROR, course settings"
	else
		fail "gradescope/run_autograder ($3)" "$1/run-$3.log"
	fi
	validate_json tests/formats/gradescope.schema.json \
		"gradescope/its results.json ($3) has Gradescope's fields" "$res"
}
