#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/handout.sh [DIST] - the student handout and the instructor tarball
# (make handout).
#
#   DIST/cuda-workbook-handout/             the workbook minus what
#   DIST/cuda-workbook-handout.tar.gz       tools/handout.exclude lists
#                                           and the labs' answer keys
#   DIST/cuda-workbook-instructor.tar.gz    the whole workbook
#
# The answer keys are the files each lab.mk names in ANSWERS (the rules
# its host exercises are graded against: tools/handout-answers.sh): they
# never ship, whether or not tools/handout.exclude lists them.
#
# The files are those git tracks (git ls-files: a grades file or notes
# left in the working tree, not added, never ship), or, out of a git
# checkout, every file but build/ and DIST. In the handout,
# README.md is tools/handout-README.md (the student README), and every
# .md file loses its instructor passages: each line <!-- instructor -->,
# the matching <!-- end instructor --> and everything between (a marker
# left open, or nested, stops make handout with status 1). Before any
# tarball is written, tools/handout-check.sh must find no solution code
# in the handout; if it finds some, nothing is written, the handout folder
# is removed (it would hold that code) and the status is 1.
#
#   tools/handout.sh --list    print the handout's file list and stop
#
# A lab.mk that names an answer key it lacks stops both (status 2).
#
# Tarballs are reproducible: sorted, owned by 0:0, dated at the last
# commit (GNU tar), gzip without a timestamp.

set -eu
cd "$(dirname "$0")/.."
DIST=${1:-dist}
HANDOUT=cuda-workbook-handout
INSTRUCTOR=cuda-workbook-instructor
EXCLUDE=tools/handout.exclude

all_files() {
	if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		git ls-files --cached
	else
		find . -type f ! -path './.git/*' | sed 's|^\./||'
	fi | awk -v dist="${DIST%/}/" -v build="${BUILD:-build}/" '
		index($0, dist) != 1 && index($0, build) != 1 && index($0, "build/") != 1' |
	while IFS= read -r f; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done | LC_ALL=C sort -u
}

# The files minus the labs' answer keys and the paths in $EXCLUDE: a
# folder ends in /, and a * in a name stands for any characters but /.
handout_files() {
	keys=$(sh tools/handout-answers.sh list) || exit 2
	all_files | awk -v keys="$keys" '
		BEGIN {
			nk = split(keys, k, "\n")
			for (i = 1; i <= nk; i++)
				key[k[i]] = 1
		}
		NR == FNR {
			sub(/#.*/, "")
			gsub(/[ \t]+/, "")
			if ($0 == "")
				next
			pat[++n] = $0
			if (index($0, "*")) {
				re = $0
				gsub(/[.+?()|^$\[\]{}]/, "\\\\&", re)
				gsub(/\*/, "[^/]*", re)
				glob[n] = "^" re "$"
			}
			next
		}
		$0 in key { next }
		{
			for (i = 1; i <= n; i++)
				if ($0 == pat[i] || (pat[i] ~ /\/$/ && index($0, pat[i]) == 1) ||
				    (i in glob && $0 ~ glob[i]))
					next
			print
		}' "$EXCLUDE" -
}

# tarball FOLDER-IN-DIST: DIST/FOLDER.tar.gz, written whole or not at all.
tarball() {
	name=$1
	epoch=$(git log -1 --format=%ct 2> /dev/null || date +%s)
	if tar --version 2> /dev/null | grep -q GNU; then
		set -- --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" "$name"
	fi
	tar -C "$DIST" -cf - "$@" | gzip -n > "$DIST/$name.tar.gz.tmp"
	mv "$DIST/$name.tar.gz.tmp" "$DIST/$name.tar.gz"
}

# stage LIST FOLDER: copy the listed files into DIST/FOLDER (fresh).
stage() {
	rm -rf "${DIST:?}/$2"
	mkdir -p "$DIST/$2"
	tar -cf - -T "$1" | tar -xf - -C "$DIST/$2"
}

# strip_instructor FILE: FILE without its instructor passages, in place,
# with no run of blank lines left where one was. Fails, naming the line,
# on a marker left open, an end without a start, or one inside another.
strip_instructor() {
	awk '
		/^<!-- instructor -->[ \t]*$/ {
			if (on) { printf "%s:%d: instructor passage inside another\n", FILENAME, FNR > "/dev/stderr"; bad = 1; exit 1 }
			on = FNR; next
		}
		/^<!-- end instructor -->[ \t]*$/ {
			if (!on) { printf "%s:%d: end of an instructor passage that did not start\n", FILENAME, FNR > "/dev/stderr"; bad = 1; exit 1 }
			on = 0; cut = 1; next
		}
		on { next }
		/^[ \t]*$/ { if (cut && blank) next; blank = 1; print; next }
		{ blank = 0; cut = 0; print }
		END {
			if (!bad && on) { printf "%s:%d: instructor passage never ends\n", FILENAME, on > "/dev/stderr"; exit 1 }
		}' "$1" > "$1.tmp" || { rm -f "$1.tmp"; return 1; }
	mv "$1.tmp" "$1"
}

# student_docs FOLDER: the student README, and no instructor passages.
student_docs() {
	cp tools/handout-README.md "$1/README.md"
	find "$1" -type f -name '*.md' | LC_ALL=C sort | while IFS= read -r f; do
		strip_instructor "$f" || exit 1
	done
}

version() {
	sha=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)
	dirty=
	if git status --porcelain 2> /dev/null | grep -q .; then
		dirty=" plus uncommitted changes"
	fi
	printf 'cuda-workbook %s\nfrom commit %s%s, made %s by make handout\n' \
		"$1" "$sha" "$dirty" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}

if [ "${1:-}" = --list ]; then
	DIST=dist
	handout_files
	exit 0
fi

mkdir -p "$DIST"
list=$DIST/.handout-files
# give_up WHY: nothing of this run is left in DIST, the handout folder
# least of all (it is what gets pushed as a template).
give_up() {
	echo "make handout: $1; no handout written (and none left in $DIST)" >&2
	rm -rf "${DIST:?}/$HANDOUT" "$DIST/$HANDOUT.tar.gz" "$list" \
		"$DIST/.instructor-files"
	exit 1
}
handout_files > "$list"
all_files > "$DIST/.instructor-files"
stage "$list" "$HANDOUT"
if ! student_docs "$DIST/$HANDOUT"; then
	give_up "an instructor passage is not closed as it should be (above)"
fi
version "student handout" > "$DIST/$HANDOUT/VERSION"

if [ -d solutions ] && ! sh tools/handout-check.sh "$DIST/$HANDOUT" solutions; then
	give_up "the handout holds solution code (above)"
fi
tarball "$HANDOUT"

stage "$DIST/.instructor-files" "$INSTRUCTOR"
version "instructor copy (with solutions)" > "$DIST/$INSTRUCTOR/VERSION"
tarball "$INSTRUCTOR"
rm -rf "${DIST:?}/$INSTRUCTOR" "$list" "$DIST/.instructor-files"

n=$(find "$DIST/$HANDOUT" -type f | wc -l | tr -d ' ')
echo "student handout:  $DIST/$HANDOUT/ and $DIST/$HANDOUT.tar.gz ($n files, no solutions/)"
echo "instructor copy:  $DIST/$INSTRUCTOR.tar.gz (everything, solutions included)"
untracked=$(git ls-files --others --exclude-standard 2> /dev/null |
	awk -v dist="${DIST%/}/" 'index($0, dist) != 1 && index($0, "build/") != 1' |
	wc -l | tr -d ' ')
if [ "${untracked:-0}" -gt 0 ]; then
	echo "not shipped:      $untracked file(s) git does not track (git add them to ship them: git status)"
fi
