#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/handout-check.sh HANDOUT SOLUTIONS [ROOT] - does HANDOUT hold
# solution code, or an answer key?
#
# Fails (exit 1, naming each file) when HANDOUT has a solutions/ folder, or
# when any text file in it, wherever it lies and whatever its name, holds
# a large share of the distinctive code lines of a file under SOLUTIONS: a
# solution copied over a skeleton by mistake, pasted into another file, or
# reformatted on the way.
#
# The same for the labs' answer keys: the files of ROOT's labs (default:
# the folder SOLUTIONS is in, the instructor's copy) that a lab.mk names
# in ANSWERS, the rules the host exercises are graded against, which
# compute what those exercises ask (tools/handout-answers.sh). HANDOUT
# fails when it holds one at its place, when any of its text files
# defines a function one defines, or holds a large share of one's
# distinctive code lines (counted among the keys, as below).
#
# How: both sides are normalised (comments dropped, all white space
# removed), and lines shorter than MIN_CHARS after that are ignored, as are
# lines that occur in more than one solution file (boilerplate such as
# CUDA_CHECK_LAUNCH(); or a signature every solution of a lab repeats). A
# handout file is flagged when it holds at least ABS_LINES of a solution's
# distinctive lines, or at least MIN_LINES of them that are SHARE percent
# of the solution's. In the labs written so far, a skeleton, a naive.cu or
# a README holds at most 3 such lines of any solution (11%); a copied
# solution holds nearly all of them, and one pasted kernel 6 or more.
#
# One pair is exempt: an exercise whose skeleton ships the code its
# solution fixes (a lab.mk's SHIPS_CODE, lab 02's lockstep) shares most of
# its lines with its own solution by design. That skeleton is still checked
# against every other solution, and its solution against every other file;
# a solution copied over it is caught anyway (it no longer calls WB_TODO,
# and make test expects every skeleton to be SKELETON).
#
# Paths must not contain newlines. Exit 0: clean; 1: solution code or an
# answer key found; 2: bad arguments, or a lab.mk names a key it lacks.

set -u -f
MIN_CHARS=${MIN_CHARS:-16}
MIN_LINES=${MIN_LINES:-4}
SHARE=${SHARE:-30}
ABS_LINES=${ABS_LINES:-6}

handout=${1:-}
solutions=${2:-}
handout=${handout%/}
solutions=${solutions%/}
root=${3:-$(dirname "$solutions")}
if [ ! -d "$handout" ] || [ ! -d "$solutions" ] || [ ! -d "$root" ]; then
	echo "usage: $0 HANDOUT-FOLDER SOLUTIONS-FOLDER [ROOT]" >&2
	exit 2
fi
bad=0
if [ -e "$handout/solutions" ]; then
	echo "$handout/solutions: the handout has a solutions folder"
	bad=1
fi

nl='
'
# The answer keys: none at their place, no definition of their functions.
sh "$(dirname "$0")/handout-answers.sh" check "$handout" "$root"
case $? in
0) ;;
1) bad=1 ;;
*) exit 2 ;;
esac
keys=$(sh "$(dirname "$0")/handout-answers.sh" list "$root") || exit 2
[ -z "$keys" ] || keys=$(printf '%s\n' "$keys" | sed "s|^|$root/|")

IFS=$nl
sols=$(find "$solutions" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.c' -o -name '*.h' \) | sort)
files=$(find "$handout" -type f | sort | while read -r f; do
	grep -Iq . "$f" 2>/dev/null && printf '%s\n' "$f"
done)
[ -n "$sols" ] || { echo "no solution files under $solutions" >&2; exit 2; }
[ -n "$files" ] || { echo "$handout: no text files to check" >&2; exit 2; }

# "skeleton<TAB>solution" for every SHIPS_CODE exercise of the handout's labs
ships=$(find "$handout/labs" -mindepth 2 -maxdepth 2 -name lab.mk 2>/dev/null |
	while read -r mk; do
		lab=$(basename "$(dirname "$mk")")
		for ex in $(sed -n 's/^SHIPS_CODE[[:space:]]*:*=//p' "$mk" |
			    tr ' \t' '\n\n'); do
			printf '%s\t%s\n' "$handout/labs/$lab/$ex.cu" \
				"$solutions/$lab/$ex.cu"
		done
	done)

# holds SOLS SHIPS: does a file of HANDOUT hold a large share of the
# distinctive lines of one of SOLS (a newline list), but for the pairs of
# SHIPS? Prints each; status 1 if any.
holds() {
	nsol=$(printf '%s\n' "$1" | wc -l)
	# shellcheck disable=SC2086 # split on newlines on purpose (IFS above)
	awk -v nsol="$nsol" -v min_chars="$MIN_CHARS" -v min_lines="$MIN_LINES" \
	    -v share="$SHARE" -v abs_lines="$ABS_LINES" -v ships="$2" '
BEGIN {
	n = split(ships, pair, "\n")
	for (i = 1; i <= n; i++)
		if (split(pair[i], f, "\t") == 2)
			exempt[f[1], f[2]] = 1
}
# One line without comments and white space; incom carries an open /* */.
function norm(line,    out, p, q) {
	out = ""
	while (length(line)) {
		if (incom) {
			p = index(line, "*/")
			if (!p)
				return ""
			line = substr(line, p + 2)
			incom = 0
			continue
		}
		p = index(line, "/*")
		q = index(line, "//")
		if (q && (!p || q < p)) {
			out = out substr(line, 1, q - 1)
			break
		}
		if (!p) {
			out = out line
			break
		}
		out = out substr(line, 1, p - 1)
		line = substr(line, p + 2)
		incom = 1
	}
	gsub(/[ \t\r\f\v]+/, "", out)
	return length(out) >= min_chars ? out : ""
}
FNR == 1 { fileno++; incom = 0 }
fileno <= nsol {
	n = norm($0)
	if (n == "" || (FILENAME, n) in seen)
		next
	seen[FILENAME, n] = 1
	owners[n]++
	owner[n] = FILENAME
	next
}
fileno == nsol + 1 && FNR == 1 && !counted {
	# All solutions read: keep the lines only one of them has.
	for (n in owners)
		if (owners[n] == 1)
			distinct[owner[n]]++
	counted = 1
}
{
	n = norm($0)
	if (n == "" || !(n in owners) || owners[n] != 1 || (FILENAME, n) in hseen)
		next
	hseen[FILENAME, n] = 1
	hits[FILENAME SUBSEP owner[n]]++
}
END {
	for (k in hits) {
		split(k, p, SUBSEP)
		if ((p[1], p[2]) in exempt)
			continue
		if (hits[k] >= abs_lines ||
		    (hits[k] >= min_lines && 100 * hits[k] >= share * distinct[p[2]])) {
			printf "%s: holds %d of the %d distinctive code lines of %s\n",
			       p[1], hits[k], distinct[p[2]], p[2]
			found = 1
		}
	}
	exit found
}' $1 $files
}

holds "$sols" "$ships" || bad=1
# An answer key's lines are counted among the keys: a line a solution
# shares with it (the same loop over the lanes) still counts.
[ -z "$keys" ] || holds "$keys" "" || bad=1
exit $bad
