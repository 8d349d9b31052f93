#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/lab-lists.sh - the lists of labs and exercises that the docs keep
# by hand hold what the labs hold (the lists `make docs` writes are
# tools/docs.sh's to check). docs/adding-a-lab.md ("The lists a lab
# appears in") names them; make test's build section runs this.
#
#   sh tests/lab-lists.sh [ROOT]
#
# Reads ROOT's docs and labs (default ROOT: the repository), so that make
# test can show a copy with a list changed fails:
#
#   README.md, tools/handout-README.md  the table of labs: a row per lab
#       (labs/*/lab.mk), in order, none for a lab that is not there, each
#       listing its lab.mk's EXERCISES in order;
#   tools/handout-README.md  its count of labs ("eight labs"), and its
#       sentence of the exercises in plain host C ("Eight exercises are
#       predictions or readings in plain host C (01's `branch_eff` and
#       ...)"): every lab.mk's HOST_EXERCISES, by lab, and their count;
#   docs/grading.md  the table of share ceilings ("| exercise | ideal |
#       share ceiling |"): every speed exercise once, nothing else (the
#       labs' tables, from $B/labs/LAB/info --list, as tools/docs.sh
#       reads them); the table of the cheat corpus ("| Case | Lab,
#       exercise | Expected |"): every tests/broken/cheat-* case once, and
#       only cases that are there.
#
# A file that is not there is skipped (the student handout has no
# tools/handout-README.md of its own, and no tests/broken/).
# Environment: B, the build folder whose labs/LAB/info binaries hold the
# tables (default build/sm75; the Makefile's B).
# Exit status: 0 every list holds; 1 one does not (each wrong entry is
# printed); 2 a lab's info binary is missing (build the labs first: make
# runners).

# shellcheck disable=SC2016,SC2086,SC2116 # backquotes in patterns; $(echo $x): words on one line
set -u
root=${1:-.}
B=${B:-build/sm75}
bad=0
wrong() { echo "wrong: $*"; bad=1; }

# The labs, in order, and a lab.mk variable's words (on one line).
labs=$(for mk in "$root"/labs/*/lab.mk; do basename "$(dirname "$mk")"; done)
mkvar() { sed -n "s/^$2[[:space:]]*:*=//p" "$root/labs/$1/lab.mk" | tr -s ' \t' '  ' | sed 's/^ *//; s/ *$//'; }

# A number as the docs write it, from one to twenty.
word_of() {
	echo "$1" | awk '{ split("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty", w, " "); print ($1 >= 1 && $1 <= 20) ? w[$1] : $1 }'
}

# ---- the tables of labs ----
for doc in README.md tools/handout-README.md; do
	f=$root/$doc
	[ -f "$f" ] || continue
	rows=$(grep -E '^\| \[[0-9][0-9]*-[a-z0-9_-]*\]\(labs/' "$f" | sed 's/^| \[\([^]]*\)\].*/\1/')
	if [ "$(echo $rows)" != "$(echo $labs)" ]; then
		wrong "$doc: the table of labs has rows for \"$(echo $rows)\"; labs/ has \"$(echo $labs)\""
	fi
	for lab in $labs; do
		want=$(mkvar "$lab" EXERCISES)
		have=$(grep "^| \[$lab\](labs/$lab/" "$f" | grep -o '`[a-z0-9_]*`' |
			tr -d '`' | tr '\n' ' ' | sed 's/ *$//')
		[ "$want" = "$have" ] ||
			wrong "$doc: the row of $lab lists \"$have\"; its lab.mk: \"$want\""
	done
done

# ---- the handout README's counts ----
f=$root/tools/handout-README.md
if [ -f "$f" ]; then
	n=$(echo $labs | wc -w)
	w=$(tr '\n' ' ' < "$f" | grep -oiE '\b[a-z]+ labs in which' | head -n 1 | cut -d' ' -f1)
	[ "$(echo "$w" | tr '[:upper:]' '[:lower:]')" = "$(word_of "$n")" ] ||
		wrong "tools/handout-README.md: says \"${w:-(no count)} labs\"; labs/ has $n"
	# the host exercises, as "NN's `a` and `b`", by lab
	want=$(for lab in $labs; do
		for e in $(mkvar "$lab" HOST_EXERCISES); do echo "${lab%%-*} $e"; done
	done)
	text=$(tr '\n' ' ' < "$f" | grep -oE '[A-Za-z]+ exercises are predictions or readings in plain host C \([^)]*\)' | head -n 1)
	have=$(echo "$text" | sed 's/^[^(]*(//' | tr ',' ' ' | awk '{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+.s$/) lab = substr($i, 1, index($i, "\047") - 1)
			else if ($i ~ /^`[a-z0-9_]+`/) { gsub(/[`)]/, "", $i); print lab " " $i } }')
	[ "$have" = "$want" ] ||
		wrong "tools/handout-README.md: the host exercises it lists: \"$(echo $have)\"; the lab.mk files' HOST_EXERCISES: \"$(echo $want)\""
	n=$(echo "$want" | grep -c .)
	w=$(echo "$text" | cut -d' ' -f1)
	[ "$(echo "$w" | tr '[:upper:]' '[:lower:]')" = "$(word_of "$n")" ] ||
		wrong "tools/handout-README.md: says \"${w:-(no count)} exercises are predictions\"; there are $n"
fi

# ---- docs/grading.md ----
f=$root/docs/grading.md
# The first cells of the table whose header starts with $1, one line
# each: its backquoted words.
table_cells() {
	awk -v h="$1" 'index($0, h) == 1 { on = 1; next }
		on && !/^\|/ { exit }
		on && !/^\|[-| ]*$/ { split($0, c, "|"); print c[2] }' "$f"
}
if [ -f "$f" ]; then
	# share ceilings: `lab/ex`, `ex`, ... a row
	have=$(table_cells '| exercise | ideal | share ceiling |' | awk '{
		while (match($0, /`[^`]*`/)) {
			w = substr($0, RSTART + 1, RLENGTH - 2); $0 = substr($0, RSTART + RLENGTH)
			if (w ~ /\//) { lab = w; sub(/\/.*/, "", lab); print w } else print lab "/" w
		} }' | sort)
	want=$(for lab in $labs; do
		[ -x "$B/labs/$lab/info" ] || { echo "lab-lists: no $B/labs/$lab/info (build the labs first: make runners)" >&2; exit 2; }
		"$B/labs/$lab/info" --list | awk -v l="$lab" '$1 == "exercise" && $3 == "speed" { print l "/" $2 }'
	done | sort) || exit 2
	[ -n "$have" ] || wrong "docs/grading.md: no table of share ceilings (\"| exercise | ideal | share ceiling |\")"
	for e in $(echo "$have" | uniq -d); do wrong "docs/grading.md: the share ceilings name $e twice"; done
	for e in $(echo "$want" | grep -vxF "$(echo "$have")"); do
		wrong "docs/grading.md: the table of share ceilings has no row for the speed exercise $e"
	done
	for e in $(echo "$have" | grep -vxF "$(echo "$want")"); do
		wrong "docs/grading.md: the table of share ceilings names $e, which is no speed exercise"
	done

	# the cheat corpus
	if [ -d "$root/tests/broken" ]; then
		have=$(table_cells '| Case | Lab, exercise | Expected |' | grep -o '`[^`]*`' | tr -d '`' | sort)
		[ -n "$have" ] || wrong "docs/grading.md: no table of the cheat corpus (\"| Case | Lab, exercise | Expected |\")"
		for c in $(echo "$have" | uniq -d); do wrong "docs/grading.md: the cheat corpus table names $c twice"; done
		for c in $have; do
			[ -d "$root/tests/broken/$c" ] ||
				wrong "docs/grading.md: the cheat corpus table names $c, which is not in tests/broken/"
		done
		for d in "$root"/tests/broken/cheat-*/; do
			c=$(basename "$d")
			echo "$have" | grep -qxF "$c" ||
				wrong "docs/grading.md: the cheat corpus table has no row for tests/broken/$c"
		done
	fi
fi

[ $bad -eq 0 ] && echo "lab-lists: every hand-kept list of labs and exercises holds ($(echo $labs | wc -w) labs)"
exit $bad
