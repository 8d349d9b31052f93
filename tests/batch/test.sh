# SPDX-License-Identifier: MIT
#
# tests/batch/test.sh - the "batch" section of tests/run.sh (sourced: it
# uses run.sh's pass, fail, skip, $LOGS, $MAKE, $BUILD and $B). No GPU:
# the batch builds and checks (BUILD_ONLY=1), which is everything but the
# timing: extraction, the sandbox, isolation, resume, the gradebook.
#
#   class      13 generated submissions (tests/batch/make-class.sh) grade
#              into the verdicts of tests/batch/expected
#   sandbox    the malicious submission's compile-time #include and its
#              probe program, run in its sandbox by batch --exec, get
#              nothing; run outside, the same probe gets everything (so
#              the check is real); SKIP with the reason where bwrap cannot
#              make a sandbox
#   loud       SANDBOX=off says so on stderr, in the summary and reports
#   resume     a second run grades nothing again; a run interrupted with
#              SIGINT leaves no half-written result and the next run
#              grades only what was left
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
	$MAKE --no-print-directory batch SUBMISSIONS="$bt_subs" OUT="$bt_out" \
		LAB=05-reduction TIMEOUT=30 BUILD_ONLY=1 BUILD="$BUILD" "$@" \
		> "$bt_log" 2>&1
}

# bt_listen: a fresh listener on the loopback; sets bt_lpid and bt_port
bt_listen() {
	"$bt_dir/listen" 300 > "$bt_dir/listen2.out" &
	bt_lpid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -s "$bt_dir/listen2.out" ] && break
		sleep 0.5
	done
	bt_port=$(head -n 1 "$bt_dir/listen2.out")
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
	if ! grep -q 'in the sandbox (bubblewrap)' "$bt_out/summary.txt" 2> /dev/null; then
		bt_why=$(grep -h -m 1 'WARNING\|without' "$LOGS/batch-class.log" | head -n 1)
		skip "batch/sandbox: no sandbox here (${bt_why:-bwrap is missing or cannot run})"
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
	if grep -q 'STUDENT CODE WILL RUN WITHOUT A SANDBOX' "$LOGS/batch-open.log" &&
	   grep -q 'WARNING: 1 submission was graded WITHOUT a sandbox' "$bt_dir/open-graded/summary.txt" &&
	   grep -q 'WARNING: graded WITHOUT a sandbox' "$bt_dir/open-graded/students/alice/report.txt"; then
		pass "batch/without a sandbox it says so loudly: on stderr, in the summary, in each report"
	else
		fail "batch/without a sandbox it says so loudly" "$LOGS/batch-open.log"
	fi
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
	bt_make "$LOGS/batch-interrupted.log" JOBS=1 &
	bt_mpid=$!
	bt_back=0
	for _ in $(seq 600); do
		bt_back=$(ls "$bt_out/students" | grep -c '^alice$\|^bob$\|^carol$\|^dave$')
		[ "$bt_back" -ge 1 ] && break
		sleep 0.2
	done
	bt_pid=$(cat "$bt_out/batch.pid" 2> /dev/null)
	[ -n "$bt_pid" ] && kill -INT "$bt_pid"
	wait "$bt_mpid"
	bt_back=$(ls "$bt_out/students" | grep -c '^alice$\|^bob$\|^carol$\|^dave$')
	bt_make "$LOGS/batch-resumed.log" JOBS=1
	if grep -q 'interrupted' "$LOGS/batch-interrupted.log" &&
	   [ "$bt_back" -ge 1 ] && [ "$bt_back" -le 3 ] &&
	   grep -q "$((9 + bt_back)) graded before (not graded again), $((4 - bt_back)) to" \
		"$LOGS/batch-resumed.log" &&
	   [ "$(stat -c %Y "$bt_out/students/erin/meta")" = "$bt_keep" ] && bt_whole &&
	   sh tests/batch/compare.sh --build-only tests/batch/expected "$bt_out" \
		>> "$LOGS/batch-resumed.log" 2>&1; then
		pass "batch/interrupted, it resumes where it stopped: no half-written result, finished students not graded again"
	else
		echo "back before the interrupt: $bt_back of 4" >> "$LOGS/batch-resumed.log"
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
	if BUILD="$BUILD" MAKE="$MAKE" sh tests/batch/class.sh --build-only "$bt_dir" \
		> "$LOGS/batch-class.log" 2>&1; then
		pass "batch/13 generated submissions (folders, .tar.gz, .zip; broken, hostile, malicious) build and check into the gradebook of tests/batch/expected"
	else
		fail "batch/13 generated submissions build and check into the gradebook of tests/batch/expected" \
			"$LOGS/batch-class.log"
		return
	fi
	bt_sandbox
	bt_boxed=$?
	bt_loud
	bt_resume
	[ $bt_boxed -eq 0 ] && bt_control
}

bt_main
