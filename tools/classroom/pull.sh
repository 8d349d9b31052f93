#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/classroom/pull.sh - GitHub Classroom as a pull model: the
# instructor's machine fetches the class's repositories, make batch grades
# them there in its sandbox, and each student's report and score are
# pushed back to their repository. No workflow of the students' runs on
# the GPU machine: from a repository, only the exercise files are taken
# (docs/batch-grading.md, section 1), and nothing in it is executed
# outside the sandbox (no hooks run on a clone).
#
#   sh tools/classroom/pull.sh mark REPOS MARKS       (at the deadline)
#   sh tools/classroom/pull.sh fetch REPOS SUBMISSIONS
#   make batch SUBMISSIONS=SUBMISSIONS OUT=GRADED COURSE=... \
#        TIMES=SUBMISSIONS/.times.csv
#   sh tools/classroom/pull.sh push REPOS SUBMISSIONS GRADED
#
# REPOS: one line per student, "student URL" (# comments): the URL of
# their assignment repository (https://github.com/ORG/hw3-alice.git, or
# an ssh one). `gh classroom clone student-repos` (the gh CLI's
# classroom extension) lists and clones them too; give its folders as
# file:// URLs, or write REPOS from its list.
#
# mark    run AT the deadline (cron, at): asks each repository which
#         commit its default branch holds (git ls-remote: no clone, no
#         student code) and appends "student commit time" lines to MARKS,
#         the time in UTC. Nothing in a repository sets that time: a
#         commit's own dates are the student's to choose
#         (GIT_COMMITTER_DATE), so they are never read.
# fetch   clones each repository into SUBMISSIONS/<student>/ (afresh), and
#         with MARKS=FILE checks out the commit marked at the deadline
#         (LATE=1: the newest commit instead, where the branch moved on
#         after the mark: a late submission). It writes the commit taken
#         into SUBMISSIONS/.commits/<student> and its time into
#         SUBMISSIONS/.times.csv for make batch's TIMES= (make batch skips
#         hidden entries): the mark's time, or for a late one the time of
#         this fetch (the push came before it). Without MARKS, the time of
#         the fetch. DEADLINE= (the last commit by committer date) is
#         refused: a backdated commit got past it. A repository that
#         cannot be fetched is listed, and the others go on (exit status
#         1 at the end).
# push    writes grading/report.txt and grading/score.txt (score, max,
#         the commit graded) as the one commit of branch BRANCH (default
#         "grading": their own branches are left alone), committed as
#         "workbook grader", and force-pushes it to each graded student's
#         repository (a regrade replaces it).
#         PUSH=0 commits without pushing (to look first).
#
# Needs git, and push access to the repositories (an organisation owner's
# or a teacher's token: GitHub Classroom gives the organisation's owners
# access to every student repository).

set -u
BRANCH=${BRANCH:-grading}
PUSH=${PUSH:-1}
DEADLINE=${DEADLINE:-}
MARKS=${MARKS:-}
LATE=${LATE:-0}
if [ -n "$DEADLINE" ]; then
	echo "pull: DEADLINE= picked the last commit by its committer date, which a student sets (GIT_COMMITTER_DATE): refused. Run 'sh $0 mark REPOS MARKS' at the deadline, then fetch with MARKS=MARKS (docs/batch-grading.md, section 5a)" >&2
	exit 2
fi

usage() {
	echo "usage: sh $0 mark REPOS MARKS" >&2
	echo "       sh $0 fetch REPOS SUBMISSIONS" >&2
	echo "       sh $0 push REPOS SUBMISSIONS GRADED" >&2
	exit 2
}

# Each "student URL" line of REPOS, checked: a student id as make batch
# takes it (letters, digits, . _ @ + -).
repos() {
	grep -v '^[[:space:]]*\(#\|$\)' "$1" | while read -r id url rest; do
		case $id in
		*[!A-Za-z0-9._@+-]*|.*|'')
			echo "pull: '$id': not a usable student id (letters, digits, . _ @ + -)" >&2
			continue ;;
		esac
		if [ -z "$url" ] || [ -n "$rest" ]; then
			echo "pull: $id: expected 'student URL'" >&2
			continue
		fi
		printf '%s %s\n' "$id" "$url"
	done
}

now_utc() { date -u '+%Y-%m-%d %H:%M:%S UTC'; }

# The marked commit and time of a student: "COMMIT TIME..." or nothing.
mark_of() {
	awk -v s="$1" '$1 == s { c = $2; t = $3 " " $4 " " $5 } END { if (c) print c, t }' "$MARKS"
}

fetch_one() {
	id=$1 url=$2 dir=$3/$1 top=$3
	rm -rf "$dir"
	when=$(now_utc)
	if [ -n "$MARKS" ]; then
		git clone -q "$url" "$dir" || return 1
	else
		git clone -q --depth 1 "$url" "$dir" || return 1
	fi
	if [ -n "$MARKS" ]; then
		set -- $(mark_of "$id")
		if [ $# -lt 2 ]; then
			echo "pull: $id: not in $MARKS (nothing there at the deadline)" >&2
			[ "$LATE" = 1 ] || return 1
		elif [ "$LATE" = 1 ] && [ "$(git -C "$dir" rev-parse HEAD)" != "$1" ]; then
			echo "pull: $id: moved on after the deadline's mark: its newest commit is taken, as of $when (LATE=1)"
		else
			git -C "$dir" checkout -q "$1" 2> /dev/null || {
				echo "pull: $id: the marked commit $1 is gone from the repository (a force-push?)" >&2
				return 1
			}
			shift
			when="$*"
		fi
	fi
	mkdir -p "$top/.commits"
	git -C "$dir" rev-parse HEAD > "$top/.commits/$id" || return 1
	printf '%s,%s\n' "$id" "$when" >> "$top/.times.csv"
	# The files alone: the history is not the submission.
	rm -rf "$dir/.git"
}

# At the deadline: "student commit time" of each repository's HEAD.
mark() {
	[ $# -eq 2 ] || usage
	bad=0 n=0
	repos "$1" > "$2.repos" || exit 2
	while read -r id url; do
		c=$(git ls-remote "$url" HEAD < /dev/null 2> /dev/null | awk 'NR == 1 { print $1 }')
		if [ -z "$c" ]; then
			echo "pull: $id: could not ask $url" >&2
			bad=$((bad + 1))
			continue
		fi
		echo "$id $c $(now_utc)" >> "$2"
		n=$((n + 1))
	done < "$2.repos"
	rm -f "$2.repos"
	echo "pull: marked $n repositories in $2; $bad could not be asked"
	echo "next: MARKS=$2 sh $0 fetch REPOS SUBMISSIONS"
	[ $bad -eq 0 ]
}

fetch() {
	[ $# -eq 2 ] || usage
	mkdir -p "$2" || exit 2
	bad=0 n=0
	repos "$1" > "$2/.repos" || exit 2
	echo "entry,time" > "$2/.times.csv"
	while read -r id url; do
		if fetch_one "$id" "$url" "$2" < /dev/null; then
			n=$((n + 1))
		else
			echo "pull: $id: could not fetch $url" >&2
			bad=$((bad + 1))
		fi
	done < "$2/.repos"
	rm -f "$2/.repos"
	echo "pull: $n repositories in $2${MARKS:+ (at the marks of $MARKS)}; $bad could not be fetched"
	echo "next: make batch SUBMISSIONS=$2 OUT=<graded> COURSE=<course file> TIMES=$2/.times.csv"
	[ $bad -eq 0 ]
}

# The score line of scores.csv for a student: "score max" ("none none"
# for a build-only run's, which gives no points).
score_of() {
	awk -F, -v s="$1" '$1 == s && $5 ~ /^graded/ { print $2, $3 }
		$1 == s && $5 ~ /^built only/ { print "none", "none" }' "$2/scores.csv"
}

push_one() {
	id=$1 url=$2 subs=$3 graded=$4
	work=$graded/classroom/$id
	report=$graded/students/$id/report.txt
	set -- $(score_of "$id" "$graded")
	if [ $# -ne 2 ] || [ ! -f "$report" ]; then
		echo "pull: $id: not graded in $graded: nothing pushed" >&2
		return 1
	fi
	# A branch of its own, with the grading alone: nothing of the
	# student's is fetched or changed.
	rm -rf "$work"
	mkdir -p "$work/grading" || return 1
	git -C "$work" init -q && git -C "$work" checkout -q -b "$BRANCH" || return 1
	cp "$report" "$work/grading/report.txt"
	printf 'score %s\nmax %s\ncommit %s\n' "$1" "$2" \
		"$(cat "$subs/.commits/$id" 2> /dev/null)" > "$work/grading/score.txt"
	git -C "$work" add grading/report.txt grading/score.txt &&
	git -C "$work" -c user.name="workbook grader" -c user.email=grader@localhost \
		commit -qm "$([ "$1" = none ] && echo 'Grading: built and checked only (no points)' ||
			echo "Grading: $1 of $2 points")" || return 1
	[ "$PUSH" = 0 ] || git -C "$work" push -q -f "$url" "$BRANCH"
}

push() {
	[ $# -eq 3 ] || usage
	[ -f "$3/scores.csv" ] || { echo "pull: no $3/scores.csv: run make batch first" >&2; exit 2; }
	bad=0 n=0
	repos "$1" > "$3/.repos" || exit 2
	while read -r id url; do
		if push_one "$id" "$url" "$2" "$3" < /dev/null; then
			n=$((n + 1))
		else
			bad=$((bad + 1))
		fi
	done < "$3/.repos"
	rm -f "$3/.repos"
	if [ "$PUSH" = 0 ]; then
		how="committed (not pushed: PUSH=0) in $3/classroom/<student>"
	else
		how=pushed
	fi
	echo "pull: report and score $how on branch $BRANCH of $n repositories; $bad not"
	[ $bad -eq 0 ]
}

if [ $# -ge 2 ] && [ ! -f "$2" ]; then
	echo "pull: $2: no such file (one 'student URL' line per student)" >&2
	exit 2
fi
case ${1:-} in
fetch) shift; fetch "$@" ;;
mark) shift; mark "$@" ;;
push) shift; push "$@" ;;
*) usage ;;
esac
