#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/layers.sh [DIR] - common/ keeps its floors (make test, section
# build).
#
# The harness in DIR (default common/) is built in floors, lowest first,
# listed once, in the comment at the top of DIR/harness.h:
#
#   floor 0  what labs and exercise files see, and host code that neither
#            calls CUDA nor ends the process;
#   floor 1  how the process ends and says where it was (fate.c);
#   floor 2  one part of running an exercise each (buffers, fresh inputs,
#            one timed sample, the harness's kernels, check() helpers);
#   floor 3  the modes and programs that put floor 2 together (runner.c).
#
# This script reads that list (a file's name without its .c, .cu or .h
# stands for both the file and its header) and the `#include "..."` lines
# of every DIR/*.c, *.cu and *.h, and fails when:
#
#   - a file is on no floor, or the list names a file DIR does not have
#     (the list cannot drift from the files);
#   - a file includes a header that is not in DIR;
#   - a file includes a header of a higher floor than its own;
#   - files include one another in a circle (x.c including x.h aside), at
#     any floor: found by tsort.
#
# Prints one line per problem, or a summary; exits 1 on any problem.

set -u
DIR=${1:-common}
LIST="$DIR/harness.h"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/wb-layers-XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
bad=0

problem() { echo "layers: $*"; bad=1; }

[ -f "$LIST" ] || { echo "layers: no $LIST, which lists the floors"; exit 1; }

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
[ -s "$TMP/floors" ] || { echo "layers: $LIST lists no floors"; exit 1; }

floor_of() { awk -v n="$1" '$1 == n { print $2; exit }' "$TMP/floors"; }

for f in "$DIR"/*.c "$DIR"/*.cu "$DIR"/*.h; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	echo "${name%.*}" >> "$TMP/modules"
done
sort -u "$TMP/modules" -o "$TMP/modules"

while read -r mod fl; do
	grep -qx "$mod" "$TMP/modules" ||
		problem "$LIST puts $mod on floor $fl, but $DIR has no $mod.c, .cu or .h"
done < "$TMP/floors"

for f in "$DIR"/*.c "$DIR"/*.cu "$DIR"/*.h; do
	[ -f "$f" ] || continue
	name=$(basename "$f") mod=${name%.*}
	fl=$(floor_of "$mod")
	if [ -z "$fl" ]; then
		problem "$f is on no floor: put $mod on one in $LIST"
		continue
	fi
	sed -n 's/^[[:blank:]]*#[[:blank:]]*include[[:blank:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r h; do
		if [ ! -f "$DIR/$h" ]; then
			echo "$f includes \"$h\", which is not in $DIR"
			continue
		fi
		hmod=${h%.*} hfl=$(floor_of "${h%.*}")
		echo "$mod $hmod" >> "$TMP/edges"
		[ -z "$hfl" ] || [ "$hfl" -le "$fl" ] ||
			echo "$f (floor $fl) includes $h (floor $hfl): a floor includes only its own or lower ones"
	done > "$TMP/out"
	if [ -s "$TMP/out" ]; then
		sed 's/^/layers: /' "$TMP/out"
		bad=1
	fi
done

# tsort fails on a circle and names the files in it; x -> x is no edge.
touch "$TMP/edges"
if ! tsort "$TMP/edges" > /dev/null 2> "$TMP/loop"; then
	problem "files include one another in a circle (each line one circle):"
	awk '/input contains a loop/ { if (c != "") print c; c = ""; next }
	     { sub(/^tsort: /, ""); c = c (c == "" ? "    " : " -> ") $0 }
	     END { if (c != "") print c }' "$TMP/loop" | sort -u
fi

if [ "$bad" -eq 0 ]; then
	echo "layers: $(wc -l < "$TMP/modules") names in $DIR (x.c and x.h are one) on" \
		"$(awk '{ print $2 }' "$TMP/floors" | sort -u | wc -l) floors," \
		"$(sort -u "$TMP/edges" | awk '$1 != $2' | wc -l) includes between them: none climbs, no circle"
fi
exit "$bad"
