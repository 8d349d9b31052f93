#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/layers.sh [DIR [LIST]] - a folder of C keeps its floors (make
# test, section build).
#
#   sh tests/layers.sh                 common/, its list in common/harness.h
#   sh tests/layers.sh DIR             DIR, its list in DIR/harness.h
#   sh tests/layers.sh DIR LIST        DIR and its sub-folders, the list in
#                                      the file LIST (tools/batch/batch.h,
#                                      grader/grade.h)
#
# Such a folder is built in floors, lowest first, listed once, in a
# comment of its LIST file; for common/ (common/harness.h):
#
#   floor 0  what labs and exercise files see, and host code that neither
#            calls CUDA nor ends the process;
#   floor 1  how the process ends and says where it was (fate.c);
#   floor 2  one part of running an exercise each (buffers, fresh inputs,
#            one timed sample, the harness's kernels, check() helpers);
#   floor 3  the modes and programs that put floor 2 together (runner.c).
#
# This script reads that list ("floor N = name name ...;", a file's name
# without its .c, .cu or .h standing for both the file and its header)
# and the `#include "..."` lines of every .c, .cu and .h of DIR (and of
# its sub-folders, with a LIST: there a file's name is unique in DIR, and
# an include finds it by that name), and fails when:
#
#   - a file is on no floor, a name is on two, or the list names a file
#     DIR does not have (the list cannot drift from the files);
#   - a file includes a header that is not in DIR (an include with a path
#     to a header outside DIR, "../../grader/proc.h", is another folder's,
#     which its own list checks: counted, not checked here);
#   - a file includes a header of a higher floor than its own;
#   - files include one another in a circle (x.c including x.h aside), at
#     any floor: found by tsort.
#
# Prints one line per problem, or a summary; exits 1 on any problem, 3
# when LIST is given but is not there or lists no floors ("skipped: ...":
# a folder whose list is still to be written).

set -u
DIR=${1:-common}
DIR=${DIR%/}
LIST=${2:-$DIR/harness.h}
LIST_GIVEN=${2:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/wb-layers-XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
bad=0

problem() { echo "layers: $*"; bad=1; }

# No list: with LIST given, skipped (exit 3), not failed.
no_list() { # no_list WHY
	if [ -n "$LIST_GIVEN" ]; then
		echo "layers: skipped: no floors list in $LIST ($1)"
		exit 3
	fi
	echo "layers: $1"
	exit 1
}
[ -f "$LIST" ] || no_list "no $LIST, which lists the floors"

# "name floor" for every name of the list: from "floor N =" to the ";"
# that ends its names, however many comment lines that takes.
awk '
	{ sub(/^[ \t]*\*?[ \t]*/, "") }
	/^floor [0-9]+ =/ { floor = $2; on = 1; sub(/^floor [0-9]+ =/, "") }
	on {
		for (i = 1; i <= NF; i++) {
			w = $i
			last = sub(/;$/, "", w)
			if (w != "")
				print w, floor
			if (last) { on = 0; break }
		}
	}' "$LIST" > "$TMP/floors"
[ -s "$TMP/floors" ] || no_list "$LIST lists no floors"

floor_of() { awk -v n="$1" '$1 == n { print $2; exit }' "$TMP/floors"; }

awk '{ n[$1]++; f[$1] = f[$1] " " $2 }
     END { for (k in n) if (n[k] > 1) print k, f[k] }' "$TMP/floors" | sort |
while read -r mod fls; do
	echo "$LIST puts $mod on more than one floor ($fls): one each"
done > "$TMP/twice"
if [ -s "$TMP/twice" ]; then
	sed 's/^/layers: /' "$TMP/twice"
	bad=1
fi

# The files: the .c, then the .cu, then the .h files, each in name order;
# DIR's own, and with a LIST those of its sub-folders too.
depth="-maxdepth 1"
[ -z "$LIST_GIVEN" ] || depth=""
for ext in c cu h; do
	# shellcheck disable=SC2086 # depth is two words
	find -H "$DIR" $depth -type f -name "*.$ext" | LC_ALL=C sort
done > "$TMP/files"
while read -r f; do
	name=$(basename "$f")
	echo "${name%.*} $f"
done < "$TMP/files" > "$TMP/paths"
cut -d' ' -f1 "$TMP/paths" | sort -u > "$TMP/modules"

# A name twice (grader/x.c and grader/run/x.c): includes by name could
# not tell which (x.c and x.h are one).
awk '{ sub(/\.[^.\/]*$/, "", $2); print }' "$TMP/paths" | sort -u |
awk '{ n[$1]++; p[$1] = p[$1] " " $2 } END { for (k in n) if (n[k] > 1) print k, p[k] }' | sort |
while read -r mod where; do
	echo "$mod is in more than one folder of $DIR ($where): names are unique"
done > "$TMP/dups"
if [ -s "$TMP/dups" ]; then
	sed 's/^/layers: /' "$TMP/dups"
	bad=1
fi

while read -r mod fl; do
	grep -qx "$mod" "$TMP/modules" ||
		problem "$LIST puts $mod on floor $fl, but $DIR has no $mod.c, .cu or .h"
done < "$TMP/floors"

# Each include: "mod" (a file of DIR's), "-" (outside DIR) or "" (none).
# A path found from the including file's folder wins; else, a name of
# DIR's (a header beside it, or, with a LIST, anywhere in DIR).
resolve() { # resolve FILE HEADER
	from=$(dirname "$1")
	if [ -f "$from/$2" ]; then
		case $(cd "$from/$(dirname "$2")" && pwd -P)/ in
		"$root"/*) hb=$(basename "$2"); echo "${hb%.*}" ;;
		*) echo - ;;
		esac
	elif [ -n "${LIST_GIVEN:-}" ] && case $2 in */*) false ;; *) true ;; esac &&
	     grep -qx "$2" "$TMP/hnames"; then
		echo "${2%.*}"
	fi
}
root=$(cd "$DIR" && pwd -P)
sed 's|.*/||' "$TMP/files" | grep '\.h$' > "$TMP/hnames"

touch "$TMP/outside"
while read -r f; do
	name=$(basename "$f") mod=${name%.*}
	fl=$(floor_of "$mod")
	if [ -z "$fl" ]; then
		problem "$f is on no floor: put $mod on one in $LIST"
		continue
	fi
	sed -n 's/^[[:blank:]]*#[[:blank:]]*include[[:blank:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r h; do
		hmod=$(resolve "$f" "$h")
		if [ -z "$hmod" ]; then
			echo "$f includes \"$h\", which is not in $DIR"
			continue
		fi
		if [ "$hmod" = - ]; then
			echo "$f $h" >> "$TMP/outside"
			continue
		fi
		hfl=$(floor_of "$hmod")
		echo "$mod $hmod" >> "$TMP/edges"
		[ -z "$hfl" ] || [ "$hfl" -le "$fl" ] ||
			echo "$f (floor $fl) includes $h (floor $hfl): a floor includes only its own or lower ones"
	done > "$TMP/out"
	if [ -s "$TMP/out" ]; then
		sed 's/^/layers: /' "$TMP/out"
		bad=1
	fi
done < "$TMP/files"

# tsort fails on a circle and names the files in it; x -> x is no edge.
touch "$TMP/edges"
if ! tsort "$TMP/edges" > /dev/null 2> "$TMP/loop"; then
	problem "files include one another in a circle (each line one circle):"
	awk '/input contains a loop/ { if (c != "") print c; c = ""; next }
	     { sub(/^tsort: /, ""); c = c (c == "" ? "    " : " -> ") $0 }
	     END { if (c != "") print c }' "$TMP/loop" | sort -u
fi

if [ "$bad" -eq 0 ]; then
	n_out=$(wc -l < "$TMP/outside")
	echo "layers: $(wc -l < "$TMP/modules") names in $DIR (x.c and x.h are one) on" \
		"$(awk '{ print $2 }' "$TMP/floors" | sort -u | wc -l) floors," \
		"$(sort -u "$TMP/edges" | awk '$1 != $2' | wc -l) includes between them: none climbs, no circle$(
		[ "$n_out" -eq 0 ] || echo "; $n_out includes of headers outside it, which their own lists check")"
fi
exit "$bad"
