#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/batch/instructor.sh - the instructor's walk of issue #33, without
# a GPU: an assignment graded for credit, end to end.
#
#   sh tests/batch/instructor.sh DIR
#
# make batch (BUILD_ONLY=1: nothing run) on a small class in DIR, with a
# stand-in grader (DIR/grader-v1, a script that gives each exercise 80
# points; grader-v2, "the grader fixed", gives 90), and the checks:
#   ids        o'brien/ and o_brien/ stop the batch, both named; an IDS=
#              file resolves it, and each row holds its own student's files
#   link       a top-level symbolic link is not a submission
#   space      a submissions path with a space in it grades
#   deadline   the course file's deadline and late policy, with TIMES=
#              (on time, within the grace, a day late, past the cutoff):
#              scores.csv and gradebook.csv show submitted_at, lateness and
#              the penalty, and the score after it; without TIMES= the
#              arrival time (ctime) is used, and a backdated file time
#              (touch -d) changes nothing
#   pull.sh    a backdated commit: MARKS= takes the commit held at the
#              deadline, LATE=1 the later one timed at the fetch; each
#              fetch graded with its .times.csv (TIMES=): the marked one on
#              time, the later one late, whatever its commit dates
#   rules      a fixed grader (v2) refuses to resume into the old
#              gradebook, saying REGRADE=all; REGRADE=all regrades everyone
#              (90 points each); a changed course file does the same;
#              REGRADE=ID regrades one
#   built      a real build-only run writes a scores.csv with no scores
#   lock       SANDBOX=off on a "GPU" (a stand-in devinfo and --gpus): the
#              grader does not wait on the GPU lock the batch holds for it
#   slurm      make slurm-script: bash login shell, the toolkit check, at
#              most 100 tasks without CHUNK=, a CHUNK that makes over 1000
#              tasks refused
# Each check prints "ok   ..." or "FAIL ..."; the exit status is 1 when
# one failed. Environment: MAKE, BUILD, SANDBOX (off where no sandbox can
# be made here).

set -u
[ $# -eq 1 ] || { echo "usage: sh $0 DIR" >&2; exit 2; }
: "${MAKE:=make}" "${BUILD:=build}" "${SANDBOX:=require}"
rm -rf "$1"
mkdir -p "$1" && dir=$(cd "$1" && pwd) || exit 2
fail=0
repo=$(pwd)
log=$dir/log
: > "$log"

ok() { echo "ok   $1"; }
bad() { echo "FAIL $1 (see $log)"; fail=1; }
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }

# grader-v1 / v2: what the batch runs as the grader. Writes results.tsv
# (each exercise of the lab given with --lab, or 05-reduction's sum) and
# results.json and a table; v2 gives 90 points instead of 80.
real_grader=$(cd "$BUILD/host/grader" 2> /dev/null && pwd)/grader
mkgrader() {
	cat > "$dir/grader-$1" << EOF
#!/bin/sh
# A stand-in grader ($1) for tests/batch/instructor.sh; the course file is
# read by the real one.
case " \$* " in
*" --check-course "*) exec "$real_grader" "\$@" ;;
esac
tsv= json= src=
while [ \$# -gt 0 ]; do
	case \$1 in
	--tsv) tsv=\$2; shift ;;
	--json) json=\$2; shift ;;
	--source) src=\$2; shift ;;
	esac
	shift
done
printf 'lab\texercise\tverdict\tpoints\tmax_points\n05-reduction\tsum\tPASS\t$2\t100\n' > "\$tsv"
printf '{"score": $2, "output": "stand-in grader $1 for %s"}\n' "\$src" > "\$json"
echo "05-reduction/sum  PASS  $2/100"
echo "lock dir: \${WB_LOCK_DIR:-none}"
EOF
	chmod +x "$dir/grader-$1"
}
mkgrader v1 80
mkgrader v2 90

# sub DIR NAME FILE: a submission folder with FILE as its sum.cu
sub() {
	mkdir -p "$1/$2/05-reduction"
	cp "$3" "$1/$2/05-reduction/sum.cu"
}

course=$dir/course.conf
cat > "$course" << 'EOF'
course = instructor walk
exercises = 05-reduction/sum
deadline = 2026-12-01 23:59 UTC
late_grace = 15m
late_per_day = 10
late_cutoff = 3d
EOF

# batch SUBS OUT [VAR=...]: make batch, build-only (the real grader)
batch() {
	s=$1 o=$2
	shift 2
	$MAKE --no-print-directory batch SUBMISSIONS="$s" OUT="$o" BUILD_ONLY=1 \
		BUILD="$BUILD" SANDBOX="$SANDBOX" "$@" >> "$log" 2>&1
}

# A stand-in devinfo (answers --check) for "GPU 0", whose lock the batch
# takes in $dir/locks.
printf '#!/bin/sh\nexit 0\n' > "$dir/devinfo"
chmod +x "$dir/devinfo"
mkdir -p "$dir/locks"

# graded SUBS OUT [batch options]: the batch program as make batch runs
# it (the shared objects of the build-only runs above), on "GPU 0" with a
# stand-in grader (--grader, default v1), unsandboxed (the stand-ins need
# no GPU node). make batch GRADER= would not do: make relinks its
# GRADER over the stand-in.
graded() {
	s=$1 o=$2
	shift 2
	objs=$(ls -d "$BUILD"/sm* | head -n 1)
	WB_LOCK_DIR=$dir/locks "$BUILD/host/tools/batch/batch" --repo . \
		--build "$BUILD" --objs "$objs" --grader "$dir/grader-v1" \
		--devinfo "$dir/devinfo" --cuda "${CUDA_HOME:-/usr/local/cuda}" \
		--sm "$(basename "$objs" | sed 's/^sm//; s/-/ /g')" \
		--submissions "$s" --out "$o" --lab 05-reduction --sandbox off \
		--gpus 0 "$@" > "$dir/last.log" 2>&1
	rc=$?
	cat "$dir/last.log" >> "$log"
	return $rc
}

# cell CSV STUDENT COLUMN
cell() {
	awk -F, -v s="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == s && k { print $k }' "$1"
}

# ---- ids ----------------------------------------------------------------

subs=$dir/class
sub "$subs" "o'brien" solutions/05-reduction/sum.cu
sub "$subs" o_brien tests/broken/compile-error/05-reduction/sum.cu
sub "$subs" alice solutions/05-reduction/sum.cu
mkdir -p "$dir/elsewhere"
sub "$dir/elsewhere" zed solutions/05-reduction/sum.cu
ln -s "$dir/elsewhere/zed" "$subs/zed"
echo "== ids: a collision" >> "$log"
batch "$subs" "$dir/graded" LAB=05-reduction
rc=$?
[ $rc -eq 2 ] && grep -q "'o'\\\\''brien' and 'o_brien' would both be graded as o_brien\|'o'brien' and 'o_brien' would both be graded as o_brien" "$log" &&
	grep -q 'IDS=ids.csv' "$log" && [ ! -f "$dir/graded/gradebook.csv" ]
check $? "ids: o'brien/ and o_brien/ stop the batch (status 2), both named, IDS= suggested, nothing graded"

printf "entry,login\no'brien,obrien\n" > "$dir/ids.csv"
echo "== ids: resolved" >> "$log"
batch "$subs" "$dir/graded" LAB=05-reduction IDS="$dir/ids.csv"
v=$dir/graded/verdicts.csv
[ "$(cell "$v" o_brien 05-reduction/sum)" = COMPILE_ERROR ] &&
	[ "$(cell "$v" obrien 05-reduction/sum)" = BUILT ] &&
	[ "$(cell "$v" alice 05-reduction/sum)" = BUILT ] &&
	grep -q "^submission o'brien$" "$dir/graded/students/obrien/meta"
check $? "ids: with IDS=ids.csv, o'brien is graded as obrien and o_brien's row holds o_brien's own files"

! grep -q '^zed,' "$v" && grep -q 'zed is a symbolic link: not a submission' "$log"
check $? "link: a top-level symbolic link is not followed, and the log says so"

grep -q '^alice,,,,built only: no points (not for an import)$' "$dir/graded/scores.csv"
check $? "built: a build-only run's scores.csv has no scores (nothing to import)"

# ---- a space in the path --------------------------------------------------

sp="$dir/my class"
sub "$sp" bob solutions/05-reduction/sum.cu
echo "== space" >> "$log"
batch "$sp" "$dir/my class-graded" LAB=05-reduction
[ "$(cell "$dir/my class-graded/verdicts.csv" bob 05-reduction/sum 2> /dev/null)" = BUILT ]
check $? "space: a submissions folder with a space in its path is graded"

# ---- deadlines, with the stand-in grader ----------------------------------

late=$dir/late
for s in ontime grace oneday twodays cutoff arrived; do
	sub "$late" $s solutions/05-reduction/sum.cu
done
# A student's own file times say nothing: touch -d backdates mtime only.
touch -d '2020-01-01' "$late/arrived/05-reduction/sum.cu" "$late/arrived"
cat > "$dir/times.csv" << 'EOF'
entry,time
ontime,2026-12-01 23:00 UTC
grace,2026-12-02T00:10:00Z
oneday,2026-12-02 12:00 +01:00
twodays,2026-12-03T09:00:00.123456-08:00
cutoff,2026-12-05 00:00 UTC
EOF
# arrived has no line: its arrival time (when the test made it).
t_made=$(date -u +%s)
echo "== deadline" >> "$log"
graded "$late" "$dir/late-graded" --course "$course" --times "$dir/times.csv"
sc=$dir/late-graded/scores.csv
gb=$dir/late-graded/gradebook.csv
cat "$sc" >> "$log" 2>&1
[ "$(cell "$sc" ontime score)" = 80 ] && [ "$(cell "$sc" ontime penalty_percent)" = 0 ] &&
	[ "$(cell "$sc" grace score)" = 80 ] && [ "$(cell "$sc" grace late_hours)" = 0.18 ] &&
	[ "$(cell "$sc" oneday score)" = 72 ] && [ "$(cell "$sc" oneday penalty_percent)" = 10 ] &&
	[ "$(cell "$sc" oneday submitted_at)" = "2026-12-02 11:00:00 UTC" ] &&
	[ "$(cell "$sc" twodays score)" = 64 ] && [ "$(cell "$sc" twodays penalty_percent)" = 20 ] &&
	[ "$(cell "$sc" cutoff score)" = 0 ] && [ "$(cell "$sc" cutoff penalty_percent)" = 100 ] &&
	[ "$(cell "$gb" oneday total)" = 72 ] && [ "$(cell "$gb" oneday 05-reduction/sum)" = 80 ] &&
	grep -q '^Submitted 2026-12-02 11:00:00 UTC, 11.0 hours after the deadline: 10% off, 72 of 100 points$' \
		"$dir/late-graded/students/oneday/report.txt" &&
	grep -q '^Submitted 2026-12-01 23:00:00 UTC: on time$' "$dir/late-graded/students/ontime/report.txt" &&
	grep -q '"score": 72,' "$dir/late-graded/students/oneday/results.json" &&
	"$BUILD/host/tools/batch/batch" --take-json "$dir/late-graded/students/oneday/results.json" \
		"$dir/oneday.json" >> "$log" 2>&1
check $? "deadline: scores.csv and gradebook.csv show submitted_at, late hours and the penalty (grace, 10%/day, cutoff; zones, Gradescope's created_at); the student's report and results.json say it too"
# Its penalty follows from that time: none up to the deadline and its
# grace (15 min), 10 % a day begun after it, all past the cutoff (3 days).
t_arr=$(date -u -d "$(cell "$sc" arrived submitted_at)" +%s 2> /dev/null)
t_late=$(( ${t_arr:-0} - $(date -u -d '2026-12-01 23:59 UTC' +%s) ))
if [ $t_late -le 900 ]; then want_pen=0
elif [ $t_late -gt $((3 * 86400)) ]; then want_pen=100
else want_pen=$(( (t_late + 86399) / 86400 * 10 ))
fi
echo "arrived: made at $t_made, submitted_at $t_arr, penalty $want_pen % expected" >> "$log"
[ -n "$t_arr" ] && [ "$t_arr" -ge $((t_made - 5)) ] && [ "$t_arr" -le "$(date -u +%s)" ] &&
	[ "$(cell "$sc" arrived penalty_percent)" = $want_pen ] &&
	[ "$(cell "$sc" arrived score)" = $((80 * (100 - want_pen) / 100)) ]
check $? "deadline: without a TIMES line, the arrival (ctime) counts: a file backdated with touch -d changes nothing"

printf 'course = bad\ndeadline = 2026-12-01 23:59\n' > "$dir/bad.conf"
echo "== a deadline without a zone" >> "$log"
graded "$late" "$dir/bad-graded" --course "$dir/bad.conf"
[ $? -ne 0 ] && grep -q "bad.conf:2: deadline = '2026-12-01 23:59': give its time zone" "$dir/last.log"
check $? "deadline: a deadline without a time zone is refused with file:line"

# ---- rules: a fixed grader, REGRADE= --------------------------------------

echo "== rules: v2 into v1's gradebook" >> "$log"
graded "$late" "$dir/late-graded" --course "$course" --times "$dir/times.csv" \
	--grader "$dir/grader-v2"
rc=$?
[ $rc -eq 2 ] && grep -q 'the rules changed since .* REGRADE=all' "$dir/last.log" &&
	[ "$(cell "$sc" ontime score)" = 80 ]
check $? "rules: a fixed grader does not resume into the old gradebook: it refuses, saying REGRADE=all (status 2)"

echo "== rules: REGRADE=all" >> "$log"
graded "$late" "$dir/late-graded" --course "$course" --times "$dir/times.csv" \
	--grader "$dir/grader-v2" --regrade all
grep -q '0 graded before (not graded again), 6 to' "$dir/last.log" &&
	[ "$(cell "$sc" ontime score)" = 90 ] && [ "$(cell "$sc" oneday score)" = 81 ]
check $? "rules: REGRADE=all grades everyone again under the fixed grader"

echo "== rules: again, nothing to do" >> "$log"
graded "$late" "$dir/late-graded" --course "$course" --times "$dir/times.csv" \
	--grader "$dir/grader-v2"
grep -q '6 graded before (not graded again), 0 to' "$dir/last.log"
check $? "rules: the same rules again: nothing regraded"

echo "== rules: REGRADE=oneday" >> "$log"
graded "$late" "$dir/late-graded" --course "$course" --times "$dir/times.csv" \
	--grader "$dir/grader-v2" --regrade oneday
grep -q '5 graded before (not graded again), 1 to' "$dir/last.log"
check $? "rules: REGRADE=oneday regrades that student alone"

# A student graded under the old rules never counts under the new ones:
# a meta of v1's rules left in place reads "not graded".
sed -i 's/^rules .*/rules 0000000000000000/' "$dir/late-graded/students/grace/meta"
"$BUILD/host/tools/batch/batch" --repo . --build "$BUILD" --submissions "$late" \
	--out "$dir/late-graded" --course "$course" --times "$dir/times.csv" \
	--merge >> "$log" 2>&1
grep -q '^grace,,,,not graded (graded under other rules: REGRADE=all)' "$sc"
check $? "rules: a student graded under other rules counts as not graded, never mixed in"

cp "$course" "$dir/course2.conf"
echo "late_per_day = 20" >> "$dir/course2.conf"
cp "$dir/course2.conf" "$course.new" && mv "$course.new" "$course"
echo "== rules: a changed course file" >> "$log"
graded "$late" "$dir/late-graded" --course "$course" --times "$dir/times.csv" \
	--grader "$dir/grader-v2"
[ $? -eq 2 ] && grep -q 'the rules changed since' "$dir/last.log"
check $? "rules: a changed course file (its late policy) is new rules too"

# ---- lock: SANDBOX=off with a GPU ----------------------------------------

# A stand-in devinfo answers --check; the batch takes GPU 0's lock in
# WB_LOCK_DIR=$dir/locks; the stand-in grader says where its own lock
# would be. Unsandboxed, it must be somewhere else: else a real grader
# waits for its own parent's lock forever.
mkdir -p "$dir/one"
sub "$dir/one" carol solutions/05-reduction/sum.cu
echo "== lock" >> "$log"
graded "$dir/one" "$dir/one-graded"
ld=$(grep -h '^lock dir: ' "$dir/one-graded/students/carol/report.txt" 2> /dev/null | head -n 1)
echo "grader's lock dir: $ld" >> "$log"
[ -n "$ld" ] && [ "$ld" != "lock dir: $dir/locks" ] && [ "$ld" != "lock dir: none" ] &&
	[ "$(cell "$dir/one-graded/verdicts.csv" carol 05-reduction/sum)" = PASS ]
check $? "lock: SANDBOX=off on a GPU: the grader's own lock is not the one the batch holds for it (no deadlock), and it grades"

# ---- leaderboard ----------------------------------------------------------

# grader-v3: speedups (per student, from its id's length) on a "Fake GPU".
cat > "$dir/grader-v3" << EOF
#!/bin/sh
case " \$* " in
*" --check-course "*) exec "$real_grader" "\$@" ;;
esac
tsv= json= src=
while [ \$# -gt 0 ]; do
	case \$1 in
	--tsv) tsv=\$2; shift ;;
	--json) json=\$2; shift ;;
	--source) src=\$2; shift ;;
	esac
	shift
done
printf 'lab\texercise\tverdict\tpoints\tmax_points\tspeedup\n05-reduction\tsum\tPASS\t80\t100\t%d.5\n' \
	"\$(printf %s "\$src" | wc -c)" > "\$tsv"
printf '{"score": 80, "output": "v3", "extra_data": {"device": {"name": "Fake GPU X", "copy_gbps": 1.0}}, "tests": []}\n' > "\$json"
echo "05-reduction/sum  PASS  80/100"
EOF
chmod +x "$dir/grader-v3"
board=$dir/board
for s in ann bartholomew cy; do sub "$board" $s solutions/05-reduction/sum.cu; done
for mode in pseudonyms names; do
	printf 'course = board\nexercises = 05-reduction/sum\nleaderboard = %s\n' $mode \
		> "$dir/board-$mode.conf"
	echo "== leaderboard: $mode" >> "$log"
	graded "$board" "$dir/board-$mode" --course "$dir/board-$mode.conf" \
		--grader "$dir/grader-v3"
done
bj=$dir/board-pseudonyms/students/bartholomew/results.json
bp=$dir/board-pseudonyms/class.html
bn=$dir/board-names/class.html
grep -q '"leaderboard": \[' "$bj" &&
	grep -q '"name": "05-reduction/sum speedup, Fake GPU X", "value": 11.500, "order": "desc"' "$bj" &&
	"$BUILD/host/tools/batch/batch" --take-json "$bj" "$dir/board.json" >> "$log" 2>&1 &&
	grep -q '<h3>05-reduction/sum on Fake GPU X</h3>' "$bp" &&
	[ "$(grep -c '<td>student-[0-9a-f]\{4\}</td>' "$bp")" -eq 3 ] &&
	! grep -q 'bartholomew\|<td>ann</td>' "$bp" &&
	grep -A2 '<th>#</th>' "$bn" | grep -q '<td>1</td><td>bartholomew</td><td>11.50x</td>' &&
	! grep -q 'Leaderboard' "$dir/late-graded/class.html"
check $? "leaderboard: opt-in (leaderboard = names or pseudonyms): results.json's Gradescope leaderboard per exercise on its GPU model, and class.html's, fastest first, by id or by pseudonym; none without it"

# ---- pull.sh: a backdated commit -----------------------------------------

# eve's repository holds commit A at the deadline (the mark); after it
# she pushes B with a committer date a year back. DEADLINE= (committer
# dates) is refused; MARKS= takes A, whatever B's dates; LATE=1 takes B,
# timed at the fetch.
cr=$dir/classroom
mkdir -p "$cr/work/labs/05-reduction"
git init -q --bare --initial-branch=main "$cr/eve.git"
(cd "$cr/work" && git init -q &&
 cp "$repo/solutions/05-reduction/sum.cu" labs/05-reduction/sum.cu &&
 git add . && git -c user.name=eve -c user.email=e@x commit -qm A &&
 git push -q "$cr/eve.git" HEAD:main) >> "$log" 2>&1
echo "eve file://$cr/eve.git" > "$cr/repos"
sh tools/classroom/pull.sh mark "$cr/repos" "$cr/marks" >> "$log" 2>&1
a=$(git -C "$cr/work" rev-parse HEAD)
(cd "$cr/work" && echo '// after the deadline' >> labs/05-reduction/sum.cu &&
 GIT_COMMITTER_DATE='2025-01-01T00:00:00Z' GIT_AUTHOR_DATE='2025-01-01T00:00:00Z' \
	git -c user.name=eve -c user.email=e@x commit -qam B &&
 git push -q "$cr/eve.git" HEAD:main) >> "$log" 2>&1
b=$(git -C "$cr/work" rev-parse HEAD)
DEADLINE='2026-12-01 23:59' sh tools/classroom/pull.sh fetch "$cr/repos" "$cr/subs" >> "$log" 2>&1
d_rc=$?
MARKS=$cr/marks sh tools/classroom/pull.sh fetch "$cr/repos" "$cr/subs" >> "$log" 2>&1
m_commit=$(cat "$cr/subs/.commits/eve" 2> /dev/null)
m_time=$(awk -F, '$1 == "eve" { print $2 }' "$cr/subs/.times.csv" 2> /dev/null)
LATE=1 MARKS=$cr/marks sh tools/classroom/pull.sh fetch "$cr/repos" "$cr/subs2" >> "$log" 2>&1
l_commit=$(cat "$cr/subs2/.commits/eve" 2> /dev/null)
l_time=$(awk -F, '$1 == "eve" { print $2 }' "$cr/subs2/.times.csv" 2> /dev/null)
echo "pull: A=$a B=$b marked=$m_commit at '$m_time'; late=$l_commit at '$l_time'" >> "$log"
[ $d_rc -eq 2 ] && [ "$m_commit" = "$a" ] && [ "$l_commit" = "$b" ] &&
	[ "$m_time" = "$(awk '{ print $3, $4, $5 }' "$cr/marks")" ] &&
	[ "$(echo "$l_time" | cut -c1-4)" = "$(date -u +%Y)" ] &&
	! grep -q '// after the deadline' "$cr/subs/eve/labs/05-reduction/sum.cu"
check $? "pull.sh: DEADLINE= (committer dates) is refused; MARKS= takes the commit held at the deadline, not a backdated later one; LATE=1 takes it, timed at the fetch"

# Each fetch graded with its own times (TIMES=.times.csv). The marked
# commit, under a deadline at the mark: on time, and A's files (the same
# fingerprint as ontime's, the unchanged solution). The later commit,
# under a deadline before its fetch but after its commit dates (2025):
# past the cutoff, whatever those dates say.
printf 'course = pull\nexercises = 05-reduction/sum\ndeadline = %s\nlate_per_day = 10\nlate_cutoff = 3d\n' \
	"$(awk '{ print $3, $4, $5 }' "$cr/marks")" > "$dir/pull-mark.conf"
printf 'course = pull\nexercises = 05-reduction/sum\ndeadline = 2026-01-01 00:00 UTC\nlate_per_day = 10\nlate_cutoff = 3d\n' \
	> "$dir/pull-late.conf"
echo "== pull.sh: the fetches graded" >> "$log"
graded "$cr/subs" "$dir/pull-marked" --course "$dir/pull-mark.conf" --times "$cr/subs/.times.csv"
m_rc=$?
graded "$cr/subs2" "$dir/pull-late" --course "$dir/pull-late.conf" --times "$cr/subs2/.times.csv"
l_rc=$?
fp() { sed -n 's/^fingerprint //p' "$1/students/$2/meta" 2> /dev/null; }
pm=$dir/pull-marked/scores.csv pl=$dir/pull-late/scores.csv
[ $m_rc -eq 0 ] && [ $l_rc -eq 0 ] &&
	[ "$(cell "$pm" eve submitted_at)" = "$m_time" ] && [ "$(cell "$pm" eve score)" = 80 ] &&
	[ "$(cell "$pm" eve penalty_percent)" = 0 ] &&
	[ -n "$(fp "$dir/pull-marked" eve)" ] &&
	[ "$(fp "$dir/pull-marked" eve)" = "$(fp "$dir/late-graded" ontime)" ] &&
	[ "$(cell "$pl" eve submitted_at)" = "$l_time" ] && [ "$(cell "$pl" eve score)" = 0 ] &&
	[ "$(cell "$pl" eve penalty_percent)" = 100 ] &&
	[ "$(fp "$dir/pull-late" eve)" != "$(fp "$dir/pull-marked" eve)" ] &&
	grep -q '^Submitted .* past the cutoff: 100% off, 0 of 100 points$' \
		"$dir/pull-late/students/eve/report.txt"
check $? "pull.sh: each fetch graded with its .times.csv: the marked commit is on time with its own files; the backdated later one is late (past the cutoff), not dated by its commits"

# ---- slurm: the script as generated --------------------------------------

big=$dir/big
for i in $(seq 1 250); do mkdir -p "$big/s$i"; done
echo "== slurm" >> "$log"
$MAKE --no-print-directory slurm-script SUBMISSIONS="$big" OUT="$dir/big-graded" \
	BUILD="$BUILD" LAB=05-reduction SLURM_PROLOGUE='module load cuda' >> "$log" 2>&1
g=$dir/big-graded/slurm/grade.sbatch
head -n 1 "$g" | grep -qx '#!/bin/bash -l' &&
	head -n 1 "$dir/big-graded/slurm/merge.sbatch" | grep -qx '#!/bin/bash -l' &&
	grep -q '^#SBATCH --array=0-83$' "$g" && grep -q 'wb_built=' "$g" &&
	grep -q "the shared objects were built with CUDA" "$g" &&
	grep -q 'runs CUDA up to' "$g" && bash -n "$g"
check $? "slurm: bash login-shell scripts, a toolkit and a driver check each with its message, 250 submissions in 84 tasks (CHUNK=3) without CHUNK="
$MAKE --no-print-directory slurm-script SUBMISSIONS="$big" OUT="$dir/big-graded" \
	BUILD="$BUILD" LAB=05-reduction CHUNK=1 >> "$log" 2>&1 &&
	grep -q '^#SBATCH --array=0-249$' "$g"
c1=$?
mkdir -p "$dir/huge"
(cd "$dir/huge" && for i in $(seq 1 1001); do mkdir "h$i"; done)
$MAKE --no-print-directory slurm-script SUBMISSIONS="$dir/huge" OUT="$dir/huge-graded" \
	BUILD="$BUILD" LAB=05-reduction CHUNK=1 >> "$log" 2>&1
[ $? -ne 0 ] && [ $c1 -eq 0 ] && grep -q 'CHUNK=1 makes 1001 array tasks' "$log"
check $? "slurm: CHUNK=1 is taken as asked up to 1000 tasks; past that it is refused, saying which CHUNK fits"

rm -rf "$big" "$dir/huge"
[ $fail -eq 0 ] && echo "instructor: every check held" || echo "instructor: FAILED"
exit $fail
