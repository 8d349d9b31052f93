#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/handout.sh [DIST] - the student handout and the instructor tarball
# (make handout).
#
#   DIST/cuda-workbook-handout/             the workbook minus what
#   DIST/cuda-workbook-handout.tar.gz       tools/handout.exclude lists
#   DIST/cuda-workbook-instructor.tar.gz    the whole workbook
#
# The files are those git knows (tracked, or new and not ignored), or, out
# of a git checkout, every file but build/ and DIST. Before any tarball is
# written, tools/handout-check.sh must find no solution code in the
# handout; if it finds some, nothing is written and the status is 1.
#
#   tools/handout.sh --list    print the handout's file list and stop
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
		git ls-files --cached --others --exclude-standard
	else
		find . -type f ! -path './.git/*' | sed 's|^\./||'
	fi | awk -v dist="${DIST%/}/" -v build="${BUILD:-build}/" '
		index($0, dist) != 1 && index($0, build) != 1 && index($0, "build/") != 1' |
	while IFS= read -r f; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done | LC_ALL=C sort -u
}

# The files minus the paths in $EXCLUDE: a folder ends in /, and a * in a
# name stands for any characters but /.
handout_files() {
	all_files | awk '
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
handout_files > "$list"
all_files > "$DIST/.instructor-files"
stage "$list" "$HANDOUT"
version "student handout" > "$DIST/$HANDOUT/VERSION"

if [ -d solutions ] && ! sh tools/handout-check.sh "$DIST/$HANDOUT" solutions; then
	echo "make handout: the handout above holds solution code; no tarball written" >&2
	rm -f "$DIST/$HANDOUT.tar.gz"
	exit 1
fi
tarball "$HANDOUT"

stage "$DIST/.instructor-files" "$INSTRUCTOR"
version "instructor copy (with solutions)" > "$DIST/$INSTRUCTOR/VERSION"
tarball "$INSTRUCTOR"
rm -rf "${DIST:?}/$INSTRUCTOR" "$list" "$DIST/.instructor-files"

n=$(find "$DIST/$HANDOUT" -type f | wc -l | tr -d ' ')
echo "student handout:  $DIST/$HANDOUT/ and $DIST/$HANDOUT.tar.gz ($n files, no solutions/)"
echo "instructor copy:  $DIST/$INSTRUCTOR.tar.gz (everything, solutions included)"
