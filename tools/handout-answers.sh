#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/handout-answers.sh - the labs' answer keys, which the student
# handout must not hold (docs/instructors.md, section 2).
#
# An answer key is a file of a lab's own code that computes what one of
# its exercises asks a student to write: the rule a host exercise
# (03's sectors, 04's roofline, 07's passes) is graded against. A lab
# declares its keys in its lab.mk, as names in its folder:
#
#     ANSWERS   := answers.c
#
# and links them where they are; the handout grades those exercises by
# worked cases and properties instead (docs/grading.md, "Prediction
# exercises"). Whatever the labs declare is the rule here: no list of
# names is kept in this script.
#
#   tools/handout-answers.sh list [ROOT]
#       the answer keys ROOT's labs declare (default ROOT: .), one path a
#       line relative to ROOT. Exit 2, naming it, when a declared key is
#       not there: a lab.mk that names a key it lacks is a mistake.
#   tools/handout-answers.sh check HANDOUT [ROOT]
#       exit 1, naming each, when HANDOUT holds one of ROOT's answer keys
#       at its place, or when any text file of HANDOUT, wherever it lies
#       and whatever its name, defines a function that an answer key
#       defines (its name, its parameters, then a body: pasted under any
#       other name, its code is what tools/handout-check.sh looks for).
#       Exit 0: none.
#   tools/handout-answers.sh defs FILE
#       the functions FILE defines, one a line: for a key, the names check
#       looks for.
#
# Used by tools/handout.sh (the keys never ship), tools/handout-check.sh
# (which also compares their code lines, as it does the solutions'),
# and tools/gradescope/bundle.sh (the autograder grades with them).

set -u -f
nl='
'
tab=$(printf '\t')

# keys ROOT: "lab path" of each declared key, path relative to ROOT.
keys() {
	IFS=" $tab$nl"
	set +f
	for mk in "$1"/labs/*/lab.mk; do
		[ -f "$mk" ] || continue
		lab=$(basename "$(dirname "$mk")")
		for a in $(sed -n 's/^ANSWERS[[:space:]]*:*=//p' "$mk"); do
			printf '%s %s\n' "$lab" "labs/$lab/$a"
		done
	done
	set -f
}

list() {
	root=${1:-.}
	bad=0
	entries=$(keys "$root")
	while read -r lab path; do
		[ -n "$lab" ] || continue
		if [ -f "$root/$path" ]; then
			printf '%s\n' "$path"
		else
			echo "$root/labs/$lab/lab.mk: ANSWERS names $path, which is not there" >&2
			bad=2
		fi
	done <<EOF
$entries
EOF
	return $bad
}

# The awk functions that read C text as one line: flat() drops the
# comments and makes all white space one blank; is_def() says whether a
# name at a place of such a line starts a function's definition.
C_TEXT='
function flat(s) {
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", s)
	gsub(/\/\/[^\n]*/, " ", s)
	gsub(/[ \t\r\f\v\n]+/, " ", s)
	return s
}
# Is text[at] the start of a definition of the name there, len long:
# after a type (a word or a *), then balanced parameters, then a body?
function is_def(text, at, len,    pre, rest, depth, i, c) {
	pre = substr(text, 1, at - 1)
	if (pre !~ /([A-Za-z0-9_] |\*) ?$/ || pre ~ /[A-Za-z0-9_]$/)
		return 0
	rest = substr(text, at + len)
	if (rest !~ /^ ?\(/)
		return 0
	sub(/^ ?\(/, "", rest)
	depth = 1
	for (i = 1; i <= length(rest) && depth; i++) {
		c = substr(rest, i, 1)
		depth += (c == "(") - (c == ")")
	}
	return !depth && substr(rest, i) ~ /^ ?(__attribute__ ?\(\(.*\)\) ?)?\{/
}
'

# defs FILE: the names of the functions FILE defines.
defs() {
	awk "$C_TEXT"'
		{ text = text $0 "\n" }
		END {
			text = flat(text)
			rest = text
			base = 0
			while (match(rest, /[A-Za-z_][A-Za-z0-9_]*/)) {
				name = substr(rest, RSTART, RLENGTH)
				at = base + RSTART
				base += RSTART + RLENGTH - 1
				rest = substr(rest, RSTART + RLENGTH)
				if (name !~ /^(if|for|while|switch|return|sizeof|else|do|case)$/ &&
				    is_def(text, at, length(name)))
					print name
			}
		}' "$1" | sort -u
}

check() {
	handout=${1%/}
	root=${2:-.}
	[ -d "$handout" ] || { echo "usage: $0 check HANDOUT [ROOT]" >&2; return 2; }
	paths=$(list "$root") || return 2
	[ -n "$paths" ] || return 0
	bad=0
	names=
	IFS=$nl
	for p in $paths; do
		if [ -e "$handout/$p" ]; then
			echo "$handout/$p: an answer key (its lab.mk's ANSWERS) is in the handout"
			bad=1
		fi
		names="$names$(defs "$root/$p")$nl"
	done
	names=$(printf '%s' "$names" | sort -u | grep .)
	[ -n "$names" ] || return $bad
	files=$(find "$handout" -type f | sort | while read -r f; do
		grep -Iq . "$f" 2>/dev/null && printf '%s\n' "$f"
	done)
	# shellcheck disable=SC2086 # split on newlines on purpose (IFS above)
	awk -v names="$names" "$C_TEXT"'
		FNR == 1 && NR > 1 { scan(prev) }
		{ text[FILENAME] = text[FILENAME] $0 "\n"; prev = FILENAME }
		END { if (prev != "") scan(prev); exit found }
		function scan(f,    t, n, i, k, at, from) {
			t = flat(text[f])
			n = split(names, name, "\n")
			for (i = 1; i <= n; i++)
				for (from = 1; (k = index(substr(t, from), name[i])); from = at + 1) {
					at = from + k - 1
					if (is_def(t, at, length(name[i]))) {
						printf "%s: defines %s(), which an answer key defines\n", f, name[i]
						found = 1
						break
					}
				}
			delete text[f]
		}' $files || bad=1
	return $bad
}

case ${1:-} in
list) shift; list "$@" ;;
check) shift; check "$@" ;;
defs) shift; defs "$@" ;;
*) echo "usage: $0 list [ROOT] | check HANDOUT [ROOT] | defs FILE" >&2; exit 2 ;;
esac
