#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/run.sh - the test suite behind `make test`.
#
#   unit   the grader's logic (cmocka): tiers and points, statistics and the
#          stopping rule, tolerances, canaries and poison, records, reports,
#          the process runner with children that crash, hang or babble;
#          lab 08 attention's fragment arithmetic on the CPU
#          (tests/emulate/attention.py, where python3 is); every pattern
#          of tests/mutate.sh's table still found exactly once.
#   build  every skeleton and solution compiles; each lab's lab.mk and its
#          table agree; a submission that does not compile gets COMPILE
#          ERROR while the rest still builds; with no GPU, make grade says
#          so first, then checks quietly in 80 columns, status 0; make
#          check grades the host exercises on the CPU (PASS, WRONG); the
#          docs' hand-kept lists of labs and exercises hold what the labs
#          hold (tests/lab-lists.sh); docs/adding-a-lab.md's lab builds
#          and checks as the page says, and grades so on a GPU
#          (tests/adding-a-lab.sh); LAB=08 works and a typo lists the
#          choices; make test installs its packages; common/,
#          tools/batch/ and grader/ keep their floors (tests/layers.sh;
#          a planted upward include or circle fails it).
#   gpu    solutions grade to full marks, skeletons to 0 (NOT IMPLEMENTED),
#          and every broken submission under tests/broken/ gets its verdict
#          while the other exercises in the same run still grade. Skipped,
#          with the reason, when there is no usable GPU.
#   integrity  the cheat corpus (tests/broken/cheat-*) builds and gets the
#          verdicts decided before running (REJECTED, technique failures);
#          solutions pass the technique rules; on a GPU, WRONG names its
#          likely cause, SIZE= works, the GPU's condition is reported
#          (tests/gpu/integrity.sh).
#   profile  Nsight Compute on a GPU: the naive matvec's wasted sectors
#          against the solution's (skipped without ncu or its permission).
#   formats, course, handout, gradescope  the instructor workflow: see
#          tests/instructor.sh. In a student handout, whatever needs
#          solutions/ or the self-test corpus skips, with the reason.
#   batch, slurm  grading a class: tests/batch/test.sh (no GPU needed),
#          tests/slurm/test.sh (root and Debian's Slurm; SKIP otherwise).
#   report  report.html from a recorded H100 run, in headless Chromium:
#          its DOM against the results file, a screenshot; make history
#          (tests/report/test.sh; the browser part SKIPs without chromium).
#
# Mutation testing, not part of make test (4 to 6 minutes on 2 cores):
# make mutate (tests/mutate.sh) plants small bugs in grader/, common/ and
# tools/batch/, one at a time in a copy of the tree, and runs each one's
# no-GPU tests (the unit section; the formats section and a batch check
# where the bug is theirs): every mutant must be KILLED. make mutate
# MUTANTS="a b" plants those alone; tests/mutate.sh --list names them.
# A mutant that survives is a bug no test catches: write the test that
# does. The unit section checks only that the table still fits the code.
#
# Prints PASS/FAIL/SKIP lines and ends with "N passed, N failed, N skipped".
# Exit status 0 only when nothing failed. Environment: BUILD, B, GRADER,
# DEVINFO, MAKE (set by the Makefile).

set -u
: "${BUILD:=build}" "${MAKE:=make}"
LOGS="$BUILD/test-logs"
mkdir -p "$LOGS"
passed=0 failed=0 skipped=0

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | tail -n 25; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1"; }

# A student handout (make handout) has no solutions/ and no self-test
# corpus: what needs them is skipped, with this reason.
NO_SOLUTIONS="no solutions/ here (the student handout)"

# A results.tsv row's verdict: verdict_of TSV LAB EXERCISE
verdict_of() { awk -F '\t' -v l="$2" -v e="$3" '$1 == l && $2 == e { print $3 }' "$1"; }

# column NAME of TSV's row LAB EXERCISE, found by the header's name
tsv_col() { # tsv_col TSV LAB EXERCISE NAME
	awk -F '\t' -v l="$2" -v e="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == l && $2 == e && k { print $k }' "$1"
}

# ---- unit ------------------------------------------------------------------
section_unit() {
	for t in "$BUILD"/host/tests/test_*; do
		case $t in *.d) continue ;; esac
		[ -x "$t" ] || continue
		name=$(basename "$t")
		if FAKE_CHILD="$BUILD/host/tests/fake_child" "$t" > "$LOGS/$name.log" 2>&1; then
			pass "unit/$name ($(grep -c '^\[       OK \]' "$LOGS/$name.log") cases)"
		else
			fail "unit/$name" "$LOGS/$name.log"
		fi
	done
	unit_emulate
	unit_mutants
}

# Lab 08 attention's lane arithmetic replayed on the CPU (instructors
# only: not in the handout; needs python3, as CI has).
unit_emulate() {
	f=tests/emulate/attention.py
	if [ ! -f "$f" ]; then
		skip "unit/emulate attention: $NO_SOLUTIONS"
	elif ! command -v python3 > /dev/null 2>&1; then
		skip "unit/emulate attention: no python3"
	elif python3 "$f" > "$LOGS/emulate-attention.log" 2>&1; then
		pass "unit/emulate attention (the fused solution's fragments, on the CPU)"
	else
		fail "unit/emulate attention" "$LOGS/emulate-attention.log"
	fi
}

# tests/mutate.sh's mutants still fit the code: each pattern found
# exactly once (make mutate plants them; a refactor updates the table).
unit_mutants() {
	t="unit/every mutant of tests/mutate.sh's table is found exactly once (make mutate plants them)"
	if [ ! -f tests/mutate.sh ]; then
		skip "$t: no tests/mutate.sh (the student handout)"
	elif sh tests/mutate.sh --check > "$LOGS/mutants.log" 2>&1 &&
	     mkdir -p "$LOGS/mutants-none" &&
	     ! sh tests/mutate.sh --check "$LOGS/mutants-none" >> "$LOGS/mutants.log" 2>&1; then
		pass "$t (and a tree without their files fails the check)"
	else
		fail "$t" "$LOGS/mutants.log"
	fi
}

# ---- build -----------------------------------------------------------------
# Parallel compiles: every nvcc of a folder at once (CI has few cores and
# many files).
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

build_only() { # build_only SRC TAG: build SRC's runners, grade in build-only mode
	$MAKE --no-print-directory -j"$JOBS" runners SRC="$1" > "$LOGS/build-$2.log" 2>&1 &&
		"$GRADER" --labs labs --build "$B/$2" --source "$1" --mode build-only \
			--tsv "$LOGS/build-$2.tsv" >> "$LOGS/build-$2.log" 2>&1
}

# A plain grade (no SANITIZE=1) can only be RACE or SYNC where the
# exercise's table requires that tool on every grade (its .sanitize, the
# "sanitize" line of info --list): each broken case's expect of RACE or
# SYNC must name such an exercise, or the GPU test could never pass.
required_sanitizers() {
	bad=""
	for f in tests/broken/*/expect; do
		[ -f "$f" ] || continue
		while read -r ex want rest; do
			case $want in RACE) tool=racecheck ;; SYNC) tool=synccheck ;; *) continue ;; esac
			lab=${ex%%/*} name=${ex#*/}
			"$B/labs/$lab/info" --list 2>/dev/null |
				awk -v e="$name" -v t="$tool" '$1 == "sanitize" && $2 == e {
					n = split($3, w, ","); for (i = 1; i <= n; i++) if (w[i] == t) ok = 1 }
					END { exit !ok }' ||
				bad="$bad $f:$ex:$want"
		done < "$f"
	done
	if [ -z "$bad" ]; then
		pass "build/every RACE or SYNC expected without SANITIZE=1 is an exercise whose table requires that tool"
	else
		echo "no required tool for:$bad" > "$LOGS/required-sanitizers.log"
		fail "build/every RACE or SYNC expected without SANITIZE=1 is an exercise whose table requires that tool" \
			"$LOGS/required-sanitizers.log"
	fi
}

section_build() {
	for src in labs solutions; do
		if [ ! -d "$src" ]; then
			skip "build/every $src file compiles: $NO_SOLUTIONS"
		elif build_only "$src" "$src"; then
			pass "build/every $src file compiles"
		else
			fail "build/every $src file compiles" "$LOGS/build-$src.log"
		fi
	done

	for mk in labs/*/lab.mk; do
		lab=$(basename "$(dirname "$mk")")
		want=$(sed -n 's/^EXERCISES *:*= *//p' "$mk" | tr -s ' ' '\n' | sort | tr '\n' ' ')
		have=$("$B/labs/$lab/info" --list | awk '$1 == "exercise" { print $2 }' | sort | tr '\n' ' ')
		if [ -n "$want" ] && [ "$want" = "$have" ]; then
			pass "build/$lab: lab.mk and the table agree ($want)"
		else
			echo "lab.mk: $want / table: $have" > "$LOGS/agree-$lab.log"
			fail "build/$lab: lab.mk and the table agree" "$LOGS/agree-$lab.log"
		fi
		for s in labs/"$lab"/*.cu; do
			ex=$(basename "$s" .cu)
			case " $want " in *" $ex "*) ;; *) continue ;; esac
			if [ ! -d solutions ]; then
				skip "build/$lab/$ex has a solution: $NO_SOLUTIONS"
			elif [ -f "solutions/$lab/$ex.cu" ]; then
				pass "build/$lab/$ex has a solution"
			else
				fail "build/$lab/$ex has a solution"
			fi
		done
	done

	required_sanitizers

	if [ -d solutions ] && [ -d tests/broken ]; then
		build_cases
	else
		skip "build/the broken cases and ladder steps compile: $NO_SOLUTIONS"
	fi
	build_archs
	build_recordings
	build_docs
	build_diagnose
	build_layers
	build_doctor
	build_deps
	build_nogpu
	build_probe_file
	build_exercise_tables
	build_adding_lab
	build_skeleton_markers
	build_lab_names
}

# A compile error costs its exercise only; every broken case and ladder
# step compiles, with solutions/ filling in the other exercises.
build_cases() {
	tag="tests_broken_compile-error+solutions"
	build_only "tests/broken/compile-error solutions" "$tag"
	v=$(verdict_of "$LOGS/build-$tag.tsv" 05-reduction sum)
	o=$(verdict_of "$LOGS/build-$tag.tsv" 05-reduction argmax)
	if [ "$v" = COMPILE_ERROR ] && [ "$o" = BUILT ] &&
	   grep -q "undeclared\|identifier \"total\"" "$LOGS/build-$tag.log"; then
		pass "build/a compile error costs its exercise only, and shows the compiler's words"
	else
		fail "build/a compile error costs its exercise only (sum=$v argmax=$o)" "$LOGS/build-$tag.log"
	fi

	# Each case and ladder step builds only its own files (the rest of
	# its lab comes from solutions/ and is built above), JOBS at a time.
	n=0
	for d in tests/broken/*/ tests/ladder/*/*/; do
		case $d in */compile-error/|*/cheat-*/) continue ;; esac # cheat-*: section integrity
		own_runners "${d%/}" &
		n=$((n + 1))
		[ $((n % JOBS)) -ne 0 ] || wait
	done
	wait
	for d in tests/broken/*/ tests/ladder/*/*/; do
		case $d in */compile-error/|*/cheat-*/) continue ;; esac
		d=${d%/}
		tag="$(echo "$d" | tr / _)+solutions"
		if [ "$(cat "$LOGS/build-$tag.status" 2>/dev/null)" = ok ]; then
			pass "build/$d compiles"
		else
			fail "build/$d compiles" "$LOGS/build-$tag.log"
		fi
	done
}

# own_runners DIR: link the runner of every <lab>/<exercise>.cu in DIR
# (SRC="DIR solutions"); writes ok or failed to the tag's .status file.
own_runners() {
	tag="$(echo "$1" | tr / _)+solutions"
	targets=""
	for f in "$1"/*/*.cu; do
		[ -f "$f" ] || continue
		lab=$(basename "$(dirname "$f")")
		targets="$targets $B/$tag/$lab/$(basename "$f" .cu)"
	done
	st=failed
	if [ -n "$targets" ] &&
	   $MAKE --no-print-directory SRC="$1 solutions" LAB="$lab" $targets \
		> "$LOGS/build-$tag.log" 2>&1; then
		st=ok
		for t in $targets; do [ -x "$t" ] || st=failed; done
	fi
	echo "$st" > "$LOGS/build-$tag.status"
}

# Every skeleton and solution compiles for the GPUs students have: Turing
# (T4), Ampere (A100, RTX 30), Ada (RTX 40) and Hopper, in one nvcc run
# per file (compile only; linking is the same on every architecture); a
# lab with LAB_MIN_SM in its lab.mk (lab 08: 80) for those from there on.
# Hopper both as the Makefile builds it (sm_90a, where wgmma and the TMA
# exist) and as plain sm_90 (a file built by hand: its Hopper path must
# fall back).
ARCHS=${ARCHS:-75 80 86 89 90 90a}
build_archs() {
	ls solutions/*/*.cu labs/*/*.cu 2>/dev/null | while read -r f; do
		lab=$(basename "$(dirname "$f")") ex=$(basename "$f" .cu)
		grep -q "^EXERCISES *:*=.*\<$ex\>" "labs/$lab/lab.mk" 2>/dev/null && echo "$f"
	done > "$LOGS/archs.list"
	n=$(grep -c . "$LOGS/archs.list")
	NVCC=${NVCC:-nvcc}
	# shellcheck disable=SC2016
	xargs -P "$JOBS" -I{} sh -c '
		f={}; lab=$(basename "$(dirname "$f")")
		out=$(echo "$f" | tr / _)
		min=$(sed -n "s/^LAB_MIN_SM *:*= *\([0-9]*\).*/\1/p" "labs/$lab/lab.mk")
		gencode=""
		for a in '"$ARCHS"'; do
			[ "${a%a}" -lt "${min:-0}" ] ||
				gencode="$gencode -gencode arch=compute_$a,code=sm_$a"
		done
		'"$NVCC"' -O3 $gencode -std=c++17 -Icommon -I"labs/$lab" -c "$f" \
			-o "'"$LOGS"'/arch-$out.o" > "'"$LOGS"'/arch-$out.log" 2>&1 ||
			echo "$f" >> "'"$LOGS"'/archs.failed"' < "$LOGS/archs.list"
	if [ -s "$LOGS/archs.failed" ]; then
		for f in $(cat "$LOGS/archs.failed"); do
			cat "$LOGS/arch-$(echo "$f" | tr / _).log"
		done > "$LOGS/archs.log"
		fail "build/every skeleton and solution compiles for sm_$(echo $ARCHS | sed 's/ /, sm_/g')" "$LOGS/archs.log"
	else
		pass "build/all $n skeletons and solutions compile for sm_$(echo $ARCHS | sed 's/ /, sm_/g')"
	fi
	rm -f "$LOGS"/arch-*.o "$LOGS/archs.failed"
}

# The tiers keep every recorded step where it belongs, on every GPU
# recorded: each tests/calibrate/*-all.tsv with shares, scored with the
# labs' tables, against tests/calibrate/expected-tiers.tsv.
build_recordings() {
	exp=tests/calibrate/expected-tiers.tsv
	[ -f "$exp" ] || { skip "build/recorded tiers: no $exp"; return; }
	for rec in tests/calibrate/*-all.tsv; do
		name=$(basename "$rec" -all.tsv)
		"$GRADER" --labs labs --build "$B/labs" --score-recording "$rec" \
			> "$LOGS/score-$name.tsv" 2> "$LOGS/score-$name.log"
		bad=$(awk -F '\t' 'FNR == NR { if ($0 !~ /^#/) want[$1 "\t" $2] = $3; next }
			($1 "\t" $2) in want && want[$1 "\t" $2] != $3 {
				print $1 " " $2 ": tier " $3 ", expected " want[$1 "\t" $2] }' \
			"$exp" "$LOGS/score-$name.tsv")
		n=$(grep -c . "$LOGS/score-$name.tsv")
		if [ "$n" -eq 0 ]; then
			skip "build/recorded tiers on $name: it has no shares (recorded before the speed of light)"
		elif [ -z "$bad" ]; then
			pass "build/the tiers keep the $n steps recorded on $name where they belong"
		else
			echo "$bad" >> "$LOGS/score-$name.log"
			fail "build/the tiers keep the steps recorded on $name where they belong" "$LOGS/score-$name.log"
		fi
	done
}

# Lab 07's diagnose, compare and stalls read Nsight Compute recordings
# with no GPU: their headers are tests/profile/'s recordings as they are
# now; make check grades each solution PASS, each skeleton SKELETON and
# each broken case WRONG (a reading that cannot fail proves nothing).
build_diagnose() {
	if [ ! -f tools/diagnose-reports.sh ]; then
		skip "build/diagnose_reports.h and recordings.h are tests/profile/'s recordings: no tools/ (the student handout)"
	elif sh tools/diagnose-reports.sh --check > "$LOGS/diagnose-reports.log" 2>&1; then
		pass "build/labs/07-fusion/diagnose_reports.h and recordings.h are tests/profile/'s recordings (tools/diagnose-reports.sh)"
	else
		fail "build/diagnose_reports.h and recordings.h are tests/profile/'s recordings: run tools/diagnose-reports.sh" \
			"$LOGS/diagnose-reports.log"
	fi
	log=$LOGS/check-diagnose.log
	: > "$log"
	bad=0 n=0
	for ex in diagnose compare stalls; do
		set -- "labs SKELETON"
		[ -d solutions ] && set -- "$@" "solutions PASS"
		for d in tests/broken/*; do
			[ -f "$d/07-fusion/$ex.cu" ] && set -- "$@" "$d WRONG"
		done
		for c in "$@"; do
			src=${c% *} want=${c#* }
			[ "$src" = labs ] || src="$src solutions"
			$MAKE --no-print-directory check SRC="$src" LAB=fusion EX=$ex \
				> "$log.one" 2>&1
			cat "$log.one" >> "$log"
			n=$((n + 1))
			grep -Eq "^07-fusion/$ex:? +$want( |\$)" "$log.one" && continue
			echo "$src ($ex): expected $want" >> "$log"
			bad=$((bad + 1))
		done
	done
	rm -f "$log.one"
	if [ $bad -eq 0 ]; then
		pass "build/make check reads lab 07's diagnose, compare and stalls on the CPU, no GPU: the recordings and drawn reports grade $n files as expected (skeletons, solutions, broken cases)"
	else
		fail "build/make check grades lab 07's diagnose, compare and stalls as expected" "$log"
	fi
}

# The numbers the docs quote about the labs are the labs' tables
# (tools/docs.sh; make docs rewrites them).
build_docs() {
	if [ ! -f tools/docs.sh ]; then
		skip "build/the docs quote the labs' tables: no tools/docs.sh (the student handout)"
	elif B="$B" sh tools/docs.sh check > "$LOGS/docs.log" 2>&1; then
		pass "build/the docs quote the labs' tables (tiers, rules, limits: tools/docs.sh)"
	else
		fail "build/the docs quote the labs' tables: run make docs" "$LOGS/docs.log"
	fi
	[ -f tools/docs.sh ] && docs_can_fail
	# In a student handout, also no instructor tool (tests/doc-paths.sh).
	where=""
	[ -d solutions ] || where=" in the student handout"
	if sh tests/doc-paths.sh > "$LOGS/doc-paths.log" 2>&1; then
		pass "build/every file and make command the docs name is there$where (tests/doc-paths.sh)"
	else
		fail "build/every file and make command the docs name is there" "$LOGS/doc-paths.log"
	fi
	readme_numbers
}

# The sizes, intensities and ridge points the READMEs derive are what the
# labs' code gives, and lab 01's register caps what ptxas gives
# (tests/readme-numbers.sh); and the check is real: a copy of lab 08's
# README with its old, wrong size fails it.
readme_numbers() {
	t="build/the READMEs' sizes, intensities and ridge points are the code's (tests/readme-numbers.sh)"
	if sh tests/readme-numbers.sh > "$LOGS/readme-numbers.log" 2>&1; then
		pass "$t"
	else
		fail "$t" "$LOGS/readme-numbers.log"
	fi
	rn=$LOGS/readme-numbers-drift
	mkdir -p "$rn/labs"
	cp -R labs/01-warps labs/03-coalescing labs/04-tiling labs/07-fusion labs/08-tensor-cores "$rn/labs/" &&
		sed 's/^128 MiB (a and b/96 MiB (a and b/' labs/08-tensor-cores/README.md \
			> "$rn/labs/08-tensor-cores/README.md"
	if README_ONLY=1 sh tests/readme-numbers.sh "$rn" > "$rn.log" 2>&1; then
		fail "build/tests/readme-numbers.sh fails a README quoting lab 08's old 96 MiB" "$rn.log"
	else
		pass "build/tests/readme-numbers.sh fails a README quoting lab 08's old 96 MiB"
	fi
}

# The check above is real: a copy of a doc with one number of each kind of
# block changed (a tier's share, a time limit, a rule's wording) is stale.
docs_can_fail() {
	dc=$LOGS/docs-drift
	mkdir -p "$dc"
	sed '/^<!-- tiers: 05-reduction/,/^<!-- end of tiers/ s/| [0-9.]*% -> /| 1% -> /' \
		labs/05-reduction/README.md > "$dc/tiers.md"
	sed '/^<!-- limits: /,/^<!-- end of limits/ s/| [0-9.]* s |/| 7 s |/' \
		docs/instructors.md > "$dc/limits.md"
	sed '/^<!-- rules: /,/^<!-- end of rules/ s/must not contain/must contain/' \
		docs/grading.md > "$dc/rules.md"
	bad=""
	for k in tiers limits rules; do
		if cmp -s "$dc/$k.md" "$(case $k in tiers) echo labs/05-reduction/README.md ;;
		     limits) echo docs/instructors.md ;; rules) echo docs/grading.md ;; esac)"; then
			bad="$bad $k(the edit did not apply)"
		elif B="$B" sh tools/docs.sh check "$dc/$k.md" > "$dc/$k.log" 2>&1 ||
		     ! grep -q 'is stale' "$dc/$k.log"; then
			bad="$bad $k"
		fi
	done
	if [ -z "$bad" ]; then
		pass "build/a changed tier, time limit or rule in a doc fails the docs check"
	else
		echo "not caught:$bad" > "$LOGS/docs-drift.log"
		fail "build/a changed tier, time limit or rule in a doc fails the docs check" "$LOGS/docs-drift.log"
	fi
}

# make doctor names a missing part of the toolkit and its package, finds
# one that is beside nvcc but not on PATH, and fits 80 columns.
build_doctor() {
	# a short folder: the report's lines hold its path
	dd=$(mktemp -d) && mkdir -p "$dd/cuda/bin"
	printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' > "$dd/cuda/bin/nvcc"
	printf '#!/bin/sh\n' > "$dd/cuda/bin/cuobjdump"
	chmod +x "$dd/cuda/bin/nvcc" "$dd/cuda/bin/cuobjdump"
	PATH=/usr/bin:/bin sh grader/doctor.sh "$dd/cuda/bin/nvcc" "" "$dd/b/sm75" > "$dd/out" 2>&1
	rc=$?
	bad=""
	# no GPU (devinfo not given) is not MISSING: make check can run, and
	# the report names the build folder and says so.
	{ [ $rc -eq 0 ] && ! grep -q 'MISSING' "$dd/out"; } || bad="$bad status-$rc-without-a-GPU"
	grep -q "build folder  *$dd/b/sm75/" "$dd/out" || bad="$bad no-build-folder"
	grep -q '^Ready: make check here' "$dd/out" || bad="$bad no-make-check"
	# no nvcc: MISSING, and the status says so.
	PATH=/usr/bin:/bin sh grader/doctor.sh "$dd/no/nvcc" "" > "$dd/out2" 2>&1
	rc=$?
	{ [ $rc -eq 1 ] && grep -q 'nvcc  *MISSING' "$dd/out2"; } || bad="$bad status-$rc-with-nvcc-MISSING"
	grep -q 'apt-get install cuda-sanitizer-12-4' "$dd/out" || bad="$bad no-package-for-compute-sanitizer"
	grep -q "cuobjdump  *$dd/cuda/bin/cuobjdump" "$dd/out" || bad="$bad cuobjdump-beside-nvcc-not-found"
	! grep -q 'add its bin/ folder to PATH' "$dd/out" || bad="$bad says-add-to-PATH"
	awk 'length($0) > 80 { exit 1 }' "$dd/out" || bad="$bad wider-than-80-columns"
	if [ -z "$bad" ]; then
		pass "build/make doctor names a missing toolkit part and its package and the build folder, in 80 columns; no GPU exits 0 (make check can run), no nvcc 1"
	else
		echo "wrong:$bad" >> "$dd/out"
		cp "$dd/out" "$LOGS/doctor.log"
		fail "build/make doctor names a missing toolkit part and its package" "$LOGS/doctor.log"
	fi
	rm -rf "$dd"
}

# make test-deps says what it found, required and optional; without
# pkg-config (so without cmocka and jansson) it fails and says what to
# install.
build_deps() {
	dd=$(mktemp -d)
	$MAKE -s --no-print-directory test-deps > "$dd/ok" 2>&1
	rc=$?
	# a PATH with everything but pkg-config
	mkdir -p "$dd/bin"
	for f in /usr/bin/* /bin/*; do
		case ${f##*/} in pkg-config|*-pkg-config) ;; *) ln -sf "$f" "$dd/bin/" 2> /dev/null ;; esac
	done
	PATH=$dd/bin sh tests/deps.sh > "$dd/none" 2>&1
	rc2=$?
	if [ $rc -eq 0 ] && grep -q "^  cmocka  *$(pkg-config --modversion cmocka)" "$dd/ok" &&
	   grep -q '^  zip ' "$dd/ok" && grep -q '^  bwrap ' "$dd/ok" &&
	   [ $rc2 -eq 1 ] && grep -q 'cmocka .*not found: sudo apt-get install libcmocka-dev' "$dd/none"; then
		pass "build/make test-deps lists what it found (required and optional), and fails naming the packages when cmocka is missing"
	else
		cat "$dd/ok" "$dd/none" > "$LOGS/test-deps.log"
		echo "status $rc, without pkg-config $rc2" >> "$LOGS/test-deps.log"
		fail "build/make test-deps lists what it found, and fails when cmocka is missing" "$LOGS/test-deps.log"
	fi
	deps_install "$dd"
	rm -rf "$dd"
}

# make test installs what is missing (tests/deps.sh --install): as root
# with apt-get, required and optional alike; with neither root nor sudo,
# one line says what to type, and a required one missing stops it. A
# stand-in apt-get and id; everything else as here, less pkg-config and
# zip.
deps_install() {
	b=$1/bin2
	mkdir -p "$b"
	for f in /usr/bin/* /bin/* /usr/sbin/*; do
		case ${f##*/} in pkg-config|*-pkg-config|zip|apt-get|id|sudo) ;;
		*) ln -sf "$f" "$b/" 2> /dev/null ;; esac
	done
	printf '#!/bin/sh\necho "$*" >> %s/apt.log\n' "$1" > "$b/apt-get"
	printf '#!/bin/sh\necho 0\n' > "$b/id"
	chmod +x "$b/apt-get" "$b/id"
	PATH=$b sh tests/deps.sh --install > "$1/root.out" 2>&1
	printf '#!/bin/sh\necho 1000\n' > "$b/id"
	rm -f "$b/sudo"
	PATH=$b sh tests/deps.sh --install > "$1/user.out" 2>&1
	rc=$?
	bad=""
	grep -q '^install -y -qq --no-install-recommends pkg-config libcmocka-dev libjansson-dev zip$' \
		"$1/apt.log" 2> /dev/null || bad="$bad root-did-not-install"
	[ "$(grep -c . "$1/apt.log" 2> /dev/null)" -eq 2 ] || bad="$bad apt-get-calls"
	grep -q '^make test: to install what it needs, type: sudo apt-get install pkg-config libcmocka-dev libjansson-dev zip$' \
		"$1/user.out" || bad="$bad no-line-to-type"
	[ $rc -eq 1 ] || bad="$bad user-status-$rc"
	if [ -z "$bad" ]; then
		pass "build/make test installs what it needs as root (apt-get, optional ones too), and says the one line to type where it cannot"
	else
		{ echo "wrong:$bad"; cat "$1/apt.log" "$1/root.out" "$1/user.out"; } > "$LOGS/deps-install.log" 2>&1
		fail "build/make test installs what it needs" "$LOGS/deps-install.log"
	fi
}

# common/, tools/batch/ and grader/ keep their floors: no file includes a
# header of a higher floor, none include one another in a circle
# (tests/layers.sh; the floors are listed in common/harness.h,
# tools/batch/batch.h and grader/grade.h: a folder whose list is not
# written yet is skipped). And the check can fail: a copy of tools/batch/
# with a header included from a higher floor, or with a circle, fails it.
build_layers() {
	if sh tests/layers.sh > "$LOGS/layers.log" 2>&1; then
		pass "build/common/ keeps its floors ($(sed -n 's/^layers: //p' "$LOGS/layers.log"))"
	else
		fail "build/common/ keeps its floors (tests/layers.sh)" "$LOGS/layers.log"
	fi
	layers_of tools/batch tools/batch/batch.h
	layers_of grader grader/grade.h
	layers_planted
	# The verdict's one owner (grader/settle.c), and the check is real: a
	# copy of grader/ with one verdict assigned elsewhere fails it.
	t="build/the verdict has one owner, grader/settle.c (tests/verdict-owner.sh)"
	if sh tests/verdict-owner.sh > "$LOGS/verdict-owner.log" 2>&1; then
		pass "$t"
	else
		fail "$t" "$LOGS/verdict-owner.log"
	fi
	vo=$LOGS/verdict-owner-planted
	rm -rf "$vo" && mkdir -p "$vo" && cp -R grader "$vo/" &&
		printf 'void f(struct g_result *r) { r->verdict = WB_V_PASS; }\n' \
			>> "$vo/grader/score/score.c"
	if sh tests/verdict-owner.sh "$vo/grader" > "$vo.log" 2>&1; then
		fail "build/tests/verdict-owner.sh fails a verdict assigned in score.c" "$vo.log"
	else
		pass "build/tests/verdict-owner.sh fails a verdict assigned in score.c"
	fi
}

# layers_of DIR LIST: DIR and its sub-folders keep LIST's floors.
layers_of() {
	lg=$LOGS/layers-$(echo "$1" | tr / -).log
	if [ ! -d "$1" ]; then
		skip "build/$1/ keeps its floors: no $1/ here (the student handout)"
		return
	fi
	sh tests/layers.sh "$1" "$2" > "$lg" 2>&1
	case $? in
	0) pass "build/$1/ keeps its floors ($(sed -n 's/^layers: //p' "$lg"))" ;;
	3) skip "build/$1/ keeps its floors: $(sed -n 's/^layers: //p' "$lg")" ;;
	*) fail "build/$1/ keeps its floors (tests/layers.sh $1 $2)" "$lg" ;;
	esac
}

# A copy of tools/batch/ (beside links to grader/ and common/, which it
# includes by path) passes tests/layers.sh as it is, and fails it with
# util.c (floor 0) including modes.h (floor 6), and with util.c including
# json.h (json.c includes util.h): a circle on one floor.
layers_planted() {
	t="build/tests/layers.sh fails a copy of tools/batch/ with an include from a higher floor, and one with a circle"
	if [ ! -d tools/batch ]; then
		skip "$t: no tools/batch/ here (the student handout)"
		return
	fi
	lp=$(mktemp -d "${TMPDIR:-/tmp}/wb-layers-planted-XXXXXX") || { fail "$t: mktemp"; return; }
	lg=$LOGS/layers-planted.log
	lsh=$(pwd)/tests/layers.sh
	mkdir -p "$lp/tools"
	cp -R tools/batch "$lp/tools/batch"
	ln -s "$(pwd)/grader" "$lp/grader"
	ln -s "$(pwd)/common" "$lp/common"
	cp "$lp/tools/batch/util.c" "$lp/util.c"
	lbad=""
	echo "== the copy as it is" > "$lg"
	(cd "$lp" && sh "$lsh" tools/batch tools/batch/batch.h) >> "$lg" 2>&1 || lbad="$lbad as-is"
	echo "== util.c includes modes.h" >> "$lg"
	echo '#include "modes.h"' >> "$lp/tools/batch/util.c"
	if (cd "$lp" && sh "$lsh" tools/batch tools/batch/batch.h) >> "$lg" 2>&1 ||
	   ! grep -q 'util.c (floor 0) includes modes.h (floor 6)' "$lg"; then
		lbad="$lbad upward"
	fi
	echo "== util.c includes json.h" >> "$lg"
	cp "$lp/util.c" "$lp/tools/batch/util.c"
	echo '#include "json.h"' >> "$lp/tools/batch/util.c"
	if (cd "$lp" && sh "$lsh" tools/batch tools/batch/batch.h) > "$lp/circle.log" 2>&1 ||
	   ! grep -q 'in a circle' "$lp/circle.log" || ! grep -q 'json.*util\|util.*json' "$lp/circle.log"; then
		lbad="$lbad circle"
	fi
	cat "$lp/circle.log" >> "$lg"
	rm -rf "$lp"
	if [ -z "$lbad" ]; then
		pass "$t"
	else
		echo "wrong:$lbad" >> "$lg"
		fail "$t" "$lg"
	fi
}

# With no GPU, make grade says so first, before anything is built, then
# does what can be done without one (make check): the untouched
# skeletons read SKELETON, with no points, in progress lines (no
# compiler command line, no make warning) and 80 columns; status 0, since
# it did what it could.
no_gpu_here() {
	! nvidia-smi -L 2> /dev/null | grep -q '^GPU' &&
		! ls /dev/nvidia[0-9]* /dev/dxg > /dev/null 2>&1
}
build_nogpu() {
	if no_gpu_here; then
		$MAKE --no-print-directory grade LAB=05 > "$LOGS/grade-nogpu.log" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && head -n 1 "$LOGS/grade-nogpu.log" | grep -q '^No CUDA GPU here' &&
		   [ "$(grep -c 'No CUDA GPU' "$LOGS/grade-nogpu.log")" -eq 1 ] &&
		   grep -q '^05-reduction/sum  *SKELETON .* -/100$' "$LOGS/grade-nogpu.log" &&
		   grep -q '^Every exercise is still the skeleton (SKELETON above): its file calls' "$LOGS/grade-nogpu.log" &&
		   ! grep -Eq '^(gcc|cc|nvcc|/[^ ]*/nvcc) |jobserver|^make' "$LOGS/grade-nogpu.log" &&
		   awk 'length($0) > 80 { exit 1 }' "$LOGS/grade-nogpu.log" &&
		   ! grep -q 'SEED=\|^total:\|FAILED' "$LOGS/grade-nogpu.log"; then
			pass "build/make grade with no GPU says so first, then checks the skeletons (LAB=05): progress lines, 80 columns, status 0"
		else
			echo "status $rc" >> "$LOGS/grade-nogpu.log"
			fail "build/make grade with no GPU says so first, then checks" "$LOGS/grade-nogpu.log"
		fi
	else
		skip "build/make grade with no GPU: there is a GPU here"
	fi
	build_host_checks
	# LAUNCH as ssh runs it: the words read by a second shell, no
	# environment. The settings must arrive: this SRC, LAB and EX.
	if [ -d tests/broken/compile-error ]; then
		$MAKE --no-print-directory grade LAUNCH="sh tests/launch/fake-ssh.sh gpuhost" \
			SRC="tests/broken/compile-error solutions" LAB=reduction EX=sum \
			> "$LOGS/launch-ssh.log" 2>&1
		if grep -q '^05-reduction/sum  *COMPILE ERROR' "$LOGS/launch-ssh.log" &&
		   ! grep -q '^05-reduction/argmax' "$LOGS/launch-ssh.log" &&
		   grep -q 'identifier "total"' "$LOGS/launch-ssh.log"; then
			pass "build/make grade LAUNCH=\"ssh host\" takes SRC, LAB and EX along, without the environment"
		else
			fail "build/make grade LAUNCH=\"ssh host\" takes the settings along" "$LOGS/launch-ssh.log"
		fi
	else
		skip "build/make grade LAUNCH=ssh: $NO_SOLUTIONS"
	fi

	# make check on a solution: BUILT, with its kernels' registers
	$MAKE --no-print-directory check SRC=solutions LAB=reduction EX=sum \
		> "$LOGS/check-solution.log" 2>&1
	if [ ! -d solutions ]; then
		skip "build/make check names each kernel's registers: $NO_SOLUTIONS"
	elif grep -q '^05-reduction/sum  *BUILT .* -/100$' "$LOGS/check-solution.log" &&
	     grep -q '^kernel [A-Za-z_].* ([a-z]*_[0-9]*): [0-9][0-9]* registers, [0-9][0-9]* B static shared memory' \
		"$LOGS/check-solution.log"; then
		pass "build/make check names each kernel's registers, shared memory and spills"
	else
		fail "build/make check names each kernel's registers" "$LOGS/check-solution.log"
	fi
}

# The lists of labs and exercises the docs keep by hand hold what the labs
# hold (tests/lab-lists.sh: the READMEs' tables of labs, the handout
# README's counts, docs/grading.md's share ceilings and cheat corpus; in
# the handout its README is the student one); and the check is real: a
# copy with an exercise dropped from README.md's table (and a cheat
# case's row dropped from docs/grading.md) fails it.
build_exercise_tables() {
	t="build/the hand-kept lists of labs and exercises hold what the labs hold (tests/lab-lists.sh)"
	if B="$B" sh tests/lab-lists.sh > "$LOGS/lab-lists.log" 2>&1; then
		pass "$t"
	else
		fail "$t" "$LOGS/lab-lists.log"
	fi
	ll=$LOGS/lab-lists-drift
	rm -rf "$ll" && mkdir -p "$ll/docs" "$ll/tests" && ln -s "$PWD/labs" "$ll/labs" &&
		sed '/^| \[05-reduction\]/s/, `argmax`//' README.md > "$ll/README.md"
	want="README.md: the row of 05-reduction"
	if [ -d tests/broken ] && [ -f docs/grading.md ]; then
		ln -s "$PWD/tests/broken" "$ll/tests/broken" &&
			sed '/^| `cheat-05-lost-block`/d' docs/grading.md > "$ll/docs/grading.md"
		want="$want|no row for tests/broken/cheat-05-lost-block"
	fi
	B="$B" sh tests/lab-lists.sh "$ll" > "$ll.log" 2>&1
	rc=$?
	t="build/tests/lab-lists.sh fails a README without argmax$([ -d tests/broken ] && echo ", a cheat table without cheat-05-lost-block")"
	if [ $rc -eq 1 ] && [ "$(grep -cE "$want" "$ll.log")" -eq "$(echo "$want" | tr '|' '\n' | grep -c .)" ]; then
		pass "$t"
	else
		fail "$t" "$ll.log"
	fi
}

# docs/adding-a-lab.md's lab, every file of it taken from the page, builds
# and checks as the page says in a copy of the repository, and grades so
# where there is a GPU (tests/adding-a-lab.sh; its builds in
# BUILD/adding-a-lab); and the check is real: a copy of the page whose
# table of verdicts says a solution is WRONG fails it. Not in the student
# handout, which has no such page.
build_adding_lab() {
	t="build/docs/adding-a-lab.md's lab builds and checks as the page says (tests/adding-a-lab.sh)"
	if [ ! -f docs/adding-a-lab.md ] || [ ! -f tests/adding-a-lab.sh ]; then
		skip "$t: no docs/adding-a-lab.md (the student handout)"
		return
	fi
	if BUILD="$BUILD" MAKE="$MAKE" JOBS="$JOBS" sh tests/adding-a-lab.sh \
		> "$LOGS/adding-a-lab.log" 2>&1; then
		pass "$t"
	else
		fail "$t" "$LOGS/adding-a-lab.log"
	fi
	why=$(sed -n 's/^gpu: skipped: //p' "$LOGS/adding-a-lab.log")
	[ -z "$why" ] || skip "build/docs/adding-a-lab.md's lab grades as the page says (make grade): $why"
	sed 's/^\(| `make check [^|]*SRC=solutions` |.*| \)PASS |$/\1WRONG |/' docs/adding-a-lab.md \
		> "$LOGS/adding-a-lab-wrong.md"
	t="build/tests/adding-a-lab.sh fails a page whose table of verdicts says a solution is WRONG"
	if ! cmp -s docs/adding-a-lab.md "$LOGS/adding-a-lab-wrong.md" &&
	   ! BUILD="$BUILD" sh tests/adding-a-lab.sh "$LOGS/adding-a-lab-wrong.md" \
		> "$LOGS/adding-a-lab-wrong.log" 2>&1 &&
	   grep -q 'gets WRONG, which would be PASS' "$LOGS/adding-a-lab-wrong.log"; then
		pass "$t"
	else
		fail "$t" "$LOGS/adding-a-lab-wrong.log"
	fi
}

# LAB= takes a lab's folder name, its name without the number, or its
# number (LAB=08, as the READMEs number the labs); a word that names no
# lab lists the labs, in 80 columns. EX= that names no exercise lists
# the lab's exercises.
build_lab_names() {
	log=$LOGS/lab-names.log
	bad=""
	last=$(ls -d labs/*/ | tail -n 1 | xargs basename)
	num=${last%%-*} name=${last#*-}
	[ "$($MAKE -s --no-print-directory print-LABS_SEL LAB="$num" 2> "$log" | tr -d ' ')" = "$last" ] ||
		bad="$bad LAB=$num"
	[ "$($MAKE -s --no-print-directory print-LABS_SEL LAB="$name $num" 2>> "$log" | tr -d ' ')" = "$last" ] ||
		bad="$bad LAB=$name"
	$MAKE -s --no-print-directory print-LABS_SEL LAB=no-such-lab > "$log.typo" 2>&1 && bad="$bad typo-accepted"
	grep -q "^  $last\$" "$log.typo" || bad="$bad typo-lists-no-labs"
	awk 'length($0) > 80 { exit 1 }' "$log.typo" || bad="$bad typo-wider-than-80"
	"$GRADER" --labs labs --build "$B/labs" --mode build-only --lab 05 --ex summ > "$log.ex" 2>&1
	grep -q 'the exercises there (EX=): sum argmax' "$log.ex" || bad="$bad EX-typo-lists-nothing"
	if [ -z "$bad" ]; then
		pass "build/LAB= takes a lab's number (LAB=$num) or name; a typo in LAB= or EX= lists the choices"
	else
		{ echo "wrong:$bad"; cat "$log.typo" "$log.ex"; } >> "$log"
		fail "build/LAB= takes a lab's number or name; a typo lists the choices" "$log"
	fi
}

# A skeleton names WB_TODO only in its WB_TODO() call, so that once the
# line is deleted, grep WB_TODO labs/ lists only the files still to write.
build_skeleton_markers() {
	bad=$(for f in labs/*/*.cu; do
		lab=$(basename "$(dirname "$f")") ex=$(basename "$f" .cu)
		grep -q "^EXERCISES *:*=.*\<$ex\>" "labs/$lab/lab.mk" || continue
		[ "$(grep -c 'WB_TODO' "$f")" = "$(grep -c 'WB_TODO(' "$f")" ] || echo "$f"
	done)
	if [ -z "$bad" ]; then
		pass "build/each skeleton names WB_TODO only where it calls it (grep WB_TODO finds the files still to write)"
	else
		echo "$bad" | sed 's/$/: a comment names WB_TODO (say "delete the line below")/' > "$LOGS/markers.log"
		fail "build/each skeleton names WB_TODO only where it calls it" "$LOGS/markers.log"
	fi
}

# make check grades the host exercises (lab.mk's HOST_EXERCISES) on the
# CPU, with no GPU: the solutions PASS with their points, a broken case
# of each is WRONG with its first wrong answer; LAB= takes labs' numbers.
build_host_checks() {
	t="build/make check grades the host exercises on the CPU: solutions PASS, broken cases WRONG"
	if [ ! -d solutions ] || [ ! -d tests/broken ]; then
		skip "$t: $NO_SOLUTIONS"
		return
	fi
	log=$LOGS/host-checks.log
	: > "$log"
	for mk in labs/*/lab.mk; do
		lab=$(basename "$(dirname "$mk")")
		for e in $(sed -n 's/^HOST_EXERCISES *:*= *//p' "$mk"); do echo "$lab $e"; done
	done > "$LOGS/host.list"
	nums=$(awk '{ split($1, w, "-"); print w[1] }' "$LOGS/host.list" | sort -u | tr '\n' ' ')
	$MAKE --no-print-directory check SRC=solutions LAB="$nums" > "$LOGS/host-solutions.log" 2>&1
	bad="" n=0
	while read -r lab ex; do
		n=$((n + 1))
		grep -Eq "^$lab/$ex +PASS .* ([0-9.]+)/\\1\$" "$LOGS/host-solutions.log" ||
			bad="$bad $lab/$ex-solution-not-PASS"
		# what grades it needs neither the CUDA runtime nor the driver
		[ -x "$B/solutions/$lab/$ex.host" ] || bad="$bad $lab/$ex.host-not-built"
		! readelf -d "$B/solutions/$lab/$ex.host" 2> /dev/null | grep -q 'NEEDED.*libcud' ||
			bad="$bad $lab/$ex.host-links-CUDA"
		case_dir=$(grep -lx "$lab/$ex WRONG" tests/broken/*/expect 2> /dev/null | head -n 1)
		[ -n "$case_dir" ] || { bad="$bad $lab/$ex-no-broken-case"; continue; }
		case_dir=$(dirname "$case_dir")
		$MAKE --no-print-directory check SRC="$case_dir solutions" LAB="$lab" EX="$ex" \
			> "$LOGS/host-$ex-wrong.log" 2>&1
		{ grep -Eq "^$lab/$ex +WRONG " "$LOGS/host-$ex-wrong.log" &&
		  grep -q "^  $ex: WRONG at " "$LOGS/host-$ex-wrong.log"; } ||
			bad="$bad $case_dir-not-WRONG"
		cat "$LOGS/host-$ex-wrong.log" >> "$log"
	done < "$LOGS/host.list"
	if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
		pass "build/make check grades the $n host exercises on the CPU (no GPU): solutions PASS with their points, a broken case of each WRONG"
	else
		{ echo "wrong:$bad"; cat "$LOGS/host-solutions.log"; } >> "$log"
		fail "$t" "$log"
	fi
}

# make grade probes the GPU beside the build (grader --probe-only) and the
# grader reads that probe (--probe-file) instead of probing again: used
# once, and only when fresh; a failed probe says its one line and leaves no
# file. devinfo is a stand-in script that counts its calls.
build_probe_file() {
	d=$(mktemp -d)
	printf '#!/bin/sh\necho probe >> "%s/calls"\nprintf "name Fake GPU\\ncc 90\\nsms 2\\ndriver 13.0\\ncopy_gbps 100.0\\n"\n' \
		"$d" > "$d/devinfo"
	printf '#!/bin/sh\necho "no CUDA GPU found: the driver reports no devices"\nexit 2\n' \
		> "$d/nogpu"
	chmod +x "$d/devinfo" "$d/nogpu"
	mkdir -p "$d/b"
	bad=""
	g() { WB_LOCK_DIR=$d "$GRADER" "$@" >> "$d/out" 2>&1; }
	g --devinfo "$d/devinfo" --probe-only "$d/probe.out" || bad="$bad probe-only-failed"
	grep -q '^name Fake GPU$' "$d/probe.out" 2> /dev/null || bad="$bad no-probe-written"
	# fresh: read, not probed again, then removed
	g --labs labs --build "$d/b" --devinfo "$d/devinfo" --probe-file "$d/probe.out" --lab no-such-lab
	[ "$(grep -c probe "$d/calls")" -eq 1 ] || bad="$bad probed-again"
	[ ! -e "$d/probe.out" ] || bad="$bad probe-file-kept"
	# stale (10 minutes old): probed again
	g --devinfo "$d/devinfo" --probe-only "$d/probe.out"
	touch -d '10 minutes ago' "$d/probe.out"
	g --labs labs --build "$d/b" --devinfo "$d/devinfo" --probe-file "$d/probe.out" --lab no-such-lab
	[ "$(grep -c probe "$d/calls")" -eq 3 ] || bad="$bad stale-probe-used"
	# no GPU: exit 2, its line, no file
	WB_LOCK_DIR=$d "$GRADER" --devinfo "$d/nogpu" --probe-only "$d/none.out" > "$d/nogpu.out" 2>&1
	rc=$?
	{ [ $rc -eq 2 ] && grep -q '^no CUDA GPU found: the driver' "$d/nogpu.out" &&
	  [ ! -e "$d/none.out" ] && [ ! -e "$d/none.out.tmp" ]; } || bad="$bad no-gpu-rc-$rc"
	if [ -z "$bad" ]; then
		pass "build/the grader uses make grade's probe (made beside the build) once and only fresh; no GPU is one line"
	else
		{ echo "wrong:$bad"; cat "$d/out" "$d/nogpu.out"; } > "$LOGS/probe-file.log"
		fail "build/the grader uses make grade's probe once and only fresh" "$LOGS/probe-file.log"
	fi
	rm -rf "$d"
}

# ---- gpu -------------------------------------------------------------------
# case_vars DIR: a case's own make settings (its make-vars file: NAME=VALUE
# words, e.g. a shorter COMPILE_TIMEOUT for a compile that never ends).
case_vars() {
	[ -f "$1/make-vars" ] && cat "$1/make-vars"
}

grade_to() { # grade_to SRC LOGNAME [make args...]: grade, keep the TSV
	src=$1 name=$2
	shift 2
	$MAKE --no-print-directory grade SRC="$src" TSV="$LOGS/$name.tsv" \
		JSON="$LOGS/$name.json" "$@" > "$LOGS/$name.log" 2>&1
}

# expect_file FILE NAME: every "lab/exercise VERDICT [COLUMN<MAX]" line
# of FILE holds in NAME.tsv, where COLUMN is a results.tsv column (speedup,
# share, tier); mismatches go to NAME.log. Returns 0 when all do. VERDICT
# may name several, A|B, where the GPU decides which (a side stream's work
# is counted where it outlasts the tail's noise, SUSPICIOUS where it
# does not); COLUMN<MAX then holds for a PASS.
expect_file() {
	ok=0
	while read -r ex want limit; do
		got=$(verdict_of "$LOGS/$2.tsv" "${ex%%/*}" "${ex#*/}")
		case "|$want|" in
		*"|${got:-none}|"*) ;;
		*) ok=1; echo "$ex: got ${got:-nothing}, expected $want" >> "$LOGS/$2.log" ;;
		esac
		[ -n "$limit" ] || continue
		[ "$got" = PASS ] || [ "$want" = "${want#*|}" ] || continue
		col=${limit%%<*} max=${limit#*<}
		x=$(tsv_col "$LOGS/$2.tsv" "${ex%%/*}" "${ex#*/}" "$col")
		awk -v x="$x" -v m="$max" 'BEGIN { exit !(x != "" && x + 0 < m + 0) }' ||
			{ ok=1; echo "$ex: $col ${x:-none}, expected below $max" >> "$LOGS/$2.log"; }
	done < "$1"
	return $ok
}

# The first verdict in an expect file that is not PASS (or PASS).
headline() { awk '$2 != "PASS" && !v { v = $2 } END { print v ? v : "PASS" }' "$1"; }

# every_row NAME AWK-BAD-ROW TEST: pass when NAME.tsv has rows and none is bad
every_row() {
	bad=$(awk -F '\t' "$2" "$LOGS/$1.tsv" 2>/dev/null)
	if [ -s "$LOGS/$1.tsv" ] && [ -z "$bad" ]; then
		pass "$3"
	else
		fail "$3" "$LOGS/$1.log"
	fi
}

# The labs this GPU is too old for (lab.mk's LAB_MIN_SM above its compute
# capability): the grader only builds them here (BUILT or SKELETON), so
# their rows and broken cases are not held to what a newer GPU gives.
too_old_labs() {
	cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
		head -n 1 | tr -d ' .')
	for mk in labs/*/lab.mk; do
		min=$(sed -n 's/^LAB_MIN_SM *:*= *\([0-9]*\).*/\1/p' "$mk")
		[ -n "$min" ] && [ -n "$cc" ] && [ "$cc" -lt "$min" ] &&
			basename "$(dirname "$mk")"
	done
}

section_gpu() {
	why=$("$DEVINFO" --check 2>&1)
	if [ $? -ne 0 ]; then
		skip "gpu/solutions grade to full marks: ${why:-no usable GPU}"
		skip "gpu/skeletons grade to 0, not implemented: ${why:-no usable GPU}"
		for d in tests/broken/*/ tests/honest/*/; do
			[ -d "$d" ] || continue
			skip "gpu/broken/$(basename "$d"): ${why:-no usable GPU}"
		done
		skip "gpu/sanitize: ${why:-no usable GPU}"
		return
	fi
	if [ ! -d solutions ]; then
		gpu_handout
		return
	fi

	# TEST_BROKEN / TEST_BROKEN_SKIP (globs) and GPU_SKIP_FULL=1 split
	# this section over several GPU sessions; by default all of it runs.
	old=" $(too_old_labs | tr '\n' ' ') "
	if [ -z "${GPU_SKIP_FULL:-}" ]; then
		grade_to solutions solutions
		every_row solutions 'NR > 1 && ($3 != "PASS" || $4 != $5) &&
			!(index("'"$old"'", " " $1 " ") && $3 == "BUILT")' \
			"gpu/solutions grade to full marks"
		grade_to labs skeletons
		every_row skeletons 'NR > 1 && ($3 != "NOT_IMPLEMENTED" || $4 != 0) &&
			!(index("'"$old"'", " " $1 " ") && $3 == "SKELETON")' \
			"gpu/skeletons grade to 0, not implemented"
	fi

	for d in tests/broken/${TEST_BROKEN:-*}/ tests/honest/${TEST_BROKEN:-*}/; do
		[ -f "$d/expect" ] || continue
		case=$(basename "$d")
		case $case in ${TEST_BROKEN_SKIP:-/}) continue ;; esac
		lab=$(sed -n '1s|/.*||p' "$d/expect")
		case $old in *" $lab "*)
			skip "gpu/broken/$case: $lab needs a newer GPU"
			continue ;;
		esac
		# A case with one file grades that exercise alone (the time for
		# ~50 cases must fit a GPU session); cases with several files
		# grade the whole lab, so "the rest still grades" stays tested.
		set -- "$d$lab"/*.cu
		if [ $# -eq 1 ] && [ -f "$1" ]; then
			ex=$(basename "$1" .cu)
			grep "^$lab/$ex " "$d/expect" > "$LOGS/expect-$case"
			grade_to "${d%/} solutions" "broken-$case" LAB="$lab" EX="$ex" TIMEOUT=30 \
				$(case_vars "$d")
		else
			cp "$d/expect" "$LOGS/expect-$case"
			grade_to "${d%/} solutions" "broken-$case" LAB="$lab" TIMEOUT=30 \
				$(case_vars "$d")
		fi
		if [ -s "$LOGS/expect-$case" ] && expect_file "$LOGS/expect-$case" "broken-$case"; then
			pass "gpu/broken/$case gets $(headline "$d/expect"), the rest still grades"
		else
			fail "gpu/broken/$case" "$LOGS/broken-$case.log"
		fi
	done
	# GPU_NO_SANITIZE=1 leaves the sanitizers to a separate
	# TEST_SECTIONS=sanitize run (a GPU session's time limit).
	[ -n "${GPU_NO_SANITIZE:-}" ] || section_sanitize
}

# In the student handout the skeletons still grade to 0; the rest needs
# solutions/ and the broken cases.
gpu_handout() {
	grade_to labs skeletons
	every_row skeletons 'NR > 1 && ($3 != "NOT_IMPLEMENTED" || $4 != 0)' \
		"gpu/skeletons grade to 0, not implemented"
	skip "gpu/solutions grade to full marks: $NO_SOLUTIONS"
	skip "gpu/broken cases and sanitizers: $NO_SOLUTIONS"
}

# Sanitizers in the grade: the solutions are clean; entries with an
# expect-sanitize file (races that pass the plain checks) are flagged.
section_sanitize() {
	if [ ! -x "${SANITIZER:-}" ]; then
		skip "gpu/sanitize: no compute-sanitizer at '${SANITIZER:-}'"
		return
	fi
	grade_to solutions sanitize-solutions SANITIZE=1 SANITIZER="$SANITIZER"
	every_row sanitize-solutions 'NR > 1 && ($3 != "PASS" || $4 != $5)' \
		"gpu/sanitize: the solutions are clean under memcheck, racecheck, synccheck"
	for f in tests/broken/*/expect-sanitize; do
		[ -f "$f" ] || continue
		case=$(basename "$(dirname "$f")")
		lab=$(sed -n '1s|/.*||p' "$f")
		grade_to "tests/broken/$case solutions" "sanitize-$case" LAB="$lab" \
			SANITIZE=1 SANITIZER="$SANITIZER"
		if expect_file "$f" "sanitize-$case"; then
			pass "gpu/sanitize/$case gets $(headline "$f") under SANITIZE=1"
		else
			fail "gpu/sanitize/$case" "$LOGS/sanitize-$case.log"
		fi
	done
}

# ---- profile -----------------------------------------------------------------
# Nsight Compute on a GPU whose counters it may read: the naive matvec (a
# thread per row) fetches several times the sectors its loads need and gets
# the coalescing hint; the solution fetches about the ideal
# (docs/nsight-compute.md). Skipped, with the reason, without a GPU, lab 03,
# ncu, or permission to read the counters.
section_profile() {
	t="gpu/profile: the naive matvec wastes sectors (coalescing hint), the solution does not"
	lab=03-coalescing ex=matvec
	why=$("$DEVINFO" --check 2>&1) || { skip "$t: ${why:-no usable GPU}"; return; }
	[ -f "labs/$lab/$ex.cu" ] || { skip "$t: no labs/$lab/$ex.cu"; return; }
	[ -d solutions ] || { skip "$t: $NO_SOLUTIONS"; return; }
	tsv="$LOGS/profile-$ex.tsv" log="$LOGS/profile-$ex.log"
	rm -f "$tsv"
	$MAKE --no-print-directory profile LAB=$lab EX=$ex WITH=naive,solution \
		SEED=1 PROFILE_TSV="$tsv" > "$log" 2>&1
	off=$(sed -n 's/^profile: //p' "$log" | head -n 1)
	[ -z "$off" ] || { skip "$t: $off"; return; }
	naive=$(awk -F '\t' '$3 == "naive" && $5 == "ld_excess" { print $6; exit }' "$tsv" 2>/dev/null)
	sol=$(awk -F '\t' '$3 == "solution" && $5 == "ld_excess" { print $6; exit }' "$tsv" 2>/dev/null)
	hint=$(awk -F '\t' '$3 == "naive" && $5 == "hint" && $6 == "coalescing"' "$tsv" 2>/dev/null)
	if [ -n "$hint" ] && awk -v n="${naive:-0}" -v s="${sol:-0}" \
		'BEGIN { exit !(s > 0 && n >= 3 * s && s <= 1.25) }'; then
		pass "$t (naive ${naive}x the ideal sectors per request, solution ${sol}x)"
	else
		fail "$t (naive ${naive:-?}x, solution ${sol:-?}x, coalescing hint for the naive: ${hint:+yes}${hint:-no, is WB_PROF_COALESCING in its .profile?})" "$log"
	fi
}

# ---- batch, slurm ------------------------------------------------------------
# make batch on 13 generated submissions without a GPU (extraction, the
# sandbox, resume, the gradebook), and as a Slurm job array on a one-node
# Slurm that the test starts: tests/batch/test.sh, tests/slurm/test.sh.

# in_box SCRATCH [batch options...] -- COMMAND...: COMMAND in the sandbox
# every grading runs in, writable folder SCRATCH (batch --sandbox-exec;
# the batch tool must be built)
in_box() {
	box_scratch=$1
	shift
	"$BUILD/host/tools/batch/batch" --sandbox-exec --scratch "$box_scratch" \
		--repo . --build "$BUILD" --objs "$B" --build-only "$@"
}

# can_box SCRATCH LOG: can a sandbox be made here? Sets box_why when not.
can_box() {
	in_box "$1" -- /bin/true > "$2" 2>&1 && return 0
	box_why=$(sed -n 's/^batch: cannot make a sandbox: //p' "$2" | head -n 1)
	box_why=${box_why:-$(head -n 1 "$2")}
	return 1
}

section_batch() {
	if [ ! -d solutions ] || [ ! -f tests/batch/test.sh ]; then
		skip "batch: $NO_SOLUTIONS"
		return
	fi
	. tests/batch/test.sh
}

section_slurm() {
	if [ ! -d solutions ] || [ ! -f tests/slurm/test.sh ]; then
		skip "slurm: $NO_SOLUTIONS"
		return
	fi
	. tests/slurm/test.sh
}

# report: the page in a browser, and make history.
. tests/report/test.sh
# formats, course, handout, gradescope: the instructor workflow.
. tests/instructor.sh
# integrity: the cheat corpus, symbol and technique checks, diagnostics.
. tests/gpu/integrity.sh
sections=${TEST_SECTIONS:-unit build integrity formats report course handout gradescope gpu profile batch slurm}
for s in $sections; do
	echo "== $s"
	"section_$s"
done
echo
echo "test: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
