# SPDX-License-Identifier: MIT
#
# tests/report/test.sh - section report of tests/run.sh (sourced): the
# report page in a real browser, and make history.
#
#   make report draws report.html from the recorded H100 run in
#   tests/calibrate/ (no GPU); headless Chromium builds its DOM, and
#   check-dom.py checks it against that file: every exercise's verdict
#   and points, the total, the speedup bars' tiers, every roofline point's
#   value and position on the chart's own axes, the copy roof; a ladder
#   step's page with the solutions' points (SOLUTIONS=) too. The same
#   check must fail on a DOM with one point moved. A results file whose
#   names are markup must draw a page with no element but the page's own.
#   Screenshots are taken: docs/report.png (the solutions) and
#   docs/report-step.png (the ladder step) are these, at these sizes.
#   make history prints a root's attempts in 80 columns.
#
# SKIPs, with the reason, without chromium or python3.

REPORT_RUN=tests/calibrate/h100-2026-11-25-all.tsv
REPORT_DIR="$LOGS/report"
REPORT_SIZE=1280,2200
REPORT_STEP_SIZE=1280,1100

# The browser: Debian's chromium, or another name for it.
report_browser() {
	for b in chromium chromium-browser google-chrome; do
		command -v "$b" > /dev/null && { echo "$b"; return 0; }
	done
	return 1
}

# chromium_run ARGS... URL: headless, no GPU, no sandbox (CI runs as root).
chromium_run() {
	timeout 120 "$REPORT_BROWSER" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --no-first-run "$@" 2>> "$REPORT_DIR/chromium.log"
}

report_page() {
	if $MAKE --no-print-directory report RESULTS=$REPORT_RUN \
		HTML="$REPORT_DIR/report.html" > "$REPORT_DIR/make-report.log" 2>&1 &&
	   grep -q '21 exercises' "$REPORT_DIR/make-report.log"; then
		pass "report/make-report (the recorded H100 run, no GPU)"
	else
		fail "report/make-report" "$REPORT_DIR/make-report.log"
		return 1
	fi
}

report_dom() {
	chromium_run --dump-dom "file://$PWD/$REPORT_DIR/report.html" \
		> "$REPORT_DIR/dom.html"
	if python3 tests/report/check-dom.py "$REPORT_DIR/dom.html" $REPORT_RUN \
		> "$REPORT_DIR/check.log" 2>&1; then
		pass "report/browser-dom ($(cat "$REPORT_DIR/check.log"))"
	else
		fail "report/browser-dom" "$REPORT_DIR/check.log"
	fi
	# The check can fail: a point moved 100 pixels down must be caught.
	sed '0,/data-kind="student"\(.*\)data-py="\([0-9]*\)\./s//data-kind="student"\1data-py="1\2./' \
		"$REPORT_DIR/dom.html" > "$REPORT_DIR/dom-moved.html"
	if ! python3 tests/report/check-dom.py "$REPORT_DIR/dom-moved.html" \
		$REPORT_RUN > "$REPORT_DIR/check-moved.log" 2>&1 &&
	   grep -q "height" "$REPORT_DIR/check-moved.log"; then
		pass "report/browser-dom catches a moved point"
	else
		fail "report/browser-dom catches a moved point" "$REPORT_DIR/check-moved.log"
	fi
}

# A ladder step of the same recording, the solutions' points beside it
# (SOLUTIONS=: the solutions' rows of the same file).
report_solutions() {
	step=ladder/2-grid-stride
	if $MAKE --no-print-directory report RESULTS=$REPORT_RUN SOURCE=$step \
		SOLUTIONS=$REPORT_RUN HTML="$REPORT_DIR/step.html" > "$REPORT_DIR/step.log" 2>&1 &&
	   chromium_run --dump-dom "file://$PWD/$REPORT_DIR/step.html" > "$REPORT_DIR/step-dom.html" &&
	   python3 tests/report/check-dom.py "$REPORT_DIR/step-dom.html" $REPORT_RUN \
		$step solutions >> "$REPORT_DIR/step.log" 2>&1 &&
	   grep -q 'data-kind="solution"' "$REPORT_DIR/step-dom.html"; then
		pass "report/a ladder step beside the solutions ($(tail -n 1 "$REPORT_DIR/step.log"))"
	else
		fail "report/a ladder step beside the solutions" "$REPORT_DIR/step.log"
	fi
}

# A results file whose lab, exercise and verdict are markup.
report_hostile() {
	printf 'lab\texercise\tverdict\tpoints\tmax_points\tspeedup\n' > "$REPORT_DIR/hostile.tsv"
	printf '%s\t%s\t%s\t0\t100\t0\n' '<img src=x onerror=alert(1)>' \
		'"><script>alert(2)</script>' '<iframe src=x>' >> "$REPORT_DIR/hostile.tsv"
	printf '05-reduction\t<svg onload=alert(3)>\tPASS\t1\t100\t2\n' >> "$REPORT_DIR/hostile.tsv"
	if $MAKE --no-print-directory report RESULTS="$REPORT_DIR/hostile.tsv" \
		HTML="$REPORT_DIR/hostile.html" > "$REPORT_DIR/hostile.log" 2>&1 &&
	   chromium_run --dump-dom "file://$PWD/$REPORT_DIR/hostile.html" \
		> "$REPORT_DIR/hostile-dom.html" &&
	   grep -q 'onerror=alert(1)' "$REPORT_DIR/hostile-dom.html" &&
	   python3 tests/report/check-dom.py --hostile "$REPORT_DIR/hostile-dom.html" \
		>> "$REPORT_DIR/hostile.log" 2>&1; then
		pass "report/hostile-names (shown as text, no element smuggled in)"
	else
		fail "report/hostile-names" "$REPORT_DIR/hostile.log"
	fi
}

# screenshot PAGE PNG SIZE: a PNG (its signature), more than a blank
# page's bytes.
screenshot() {
	rm -f "$REPORT_DIR/$2"
	chromium_run --screenshot="$PWD/$REPORT_DIR/$2" --window-size=$3 \
		"file://$PWD/$REPORT_DIR/$1" > /dev/null
	[ "$(head -c 8 "$REPORT_DIR/$2" 2> /dev/null | od -An -tx1 | tr -d ' \n')" = \
	  89504e470d0a1a0a ] && [ "$(wc -c < "$REPORT_DIR/$2")" -gt 50000 ]
}

report_screenshot() {
	if screenshot report.html report.png $REPORT_SIZE &&
	   screenshot step.html report-step.png $REPORT_STEP_SIZE; then
		pass "report/screenshots ($REPORT_DIR/report.png, report-step.png)"
	else
		fail "report/screenshots" "$REPORT_DIR/chromium.log"
	fi
}

report_history() {
	root="$REPORT_DIR/root"
	rm -rf "$root"
	mkdir -p "$root"
	if ! $MAKE --no-print-directory history SRC="$root" > "$REPORT_DIR/history-none.log" 2>&1 ||
	   ! grep -q 'no graded attempts yet' "$REPORT_DIR/history-none.log"; then
		fail "report/history (an empty root)" "$REPORT_DIR/history-none.log"
		return
	fi
	printf '2026-11-27T10:00:00Z\t05-reduction\tsum\t%s\tWRONG\t0.0000\t0.0\t0\t100\t7\n' \
		0123456789abcdef > "$root/.workbook-history.tsv"
	printf '2026-11-27T10:05:00Z\t05-reduction\tsum\t%s\tPASS\t5.2340\t2211.0\t96.6\t100\t8\n' \
		fedcba9876543210 >> "$root/.workbook-history.tsv"
	printf '2026-11-27T10:05:00Z\t05-reduction\targmax\t%s\tNOT_IMPLEMENTED\t0.0000\t0.0\t0\t100\t8\n' \
		fedcba9876543210 >> "$root/.workbook-history.tsv"
	if $MAKE --no-print-directory history SRC="$root" EX=sum > "$REPORT_DIR/history.log" 2>&1 &&
	   [ "$(grep -c '05-reduction/sum' "$REPORT_DIR/history.log")" -eq 2 ] &&
	   grep -q '11-27 10:05 05-reduction/sum      fedcba9 PASS              5.23x  2211 96.6/100' \
		"$REPORT_DIR/history.log" && ! grep -q argmax "$REPORT_DIR/history.log" &&
	   [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' \
		"$REPORT_DIR/history.log")" -le 80 ]; then
		pass "report/history (make history: 80 columns, EX= filters)"
	else
		fail "report/history" "$REPORT_DIR/history.log"
	fi
}

section_report() {
	mkdir -p "$REPORT_DIR"
	: > "$REPORT_DIR/chromium.log"
	report_history
	if [ ! -f $REPORT_RUN ]; then
		skip "report/browser: no recorded run here ($NO_SOLUTIONS)"
		return
	fi
	report_page || return
	if ! command -v python3 > /dev/null; then
		skip "report/browser: no python3 to read the DOM with"
		return
	fi
	if ! REPORT_BROWSER=$(report_browser); then
		skip "report/browser: no chromium here (Debian: apt-get install chromium; .ci/run installs it)"
		return
	fi
	report_dom
	report_solutions
	report_hostile
	report_screenshot
}
