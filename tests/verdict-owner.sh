#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/verdict-owner.sh [DIR] - the verdict has one owner (make test,
# section build): no file of the grader (DIR, default grader/) but
# settle.c assigns an exercise's verdict; every other file settles it
# through g_settle() (grader/settle.h).
#
# Looks for an assignment to a field named verdict (`->verdict =`,
# `.verdict =`, not `==`) in every DIR/**/*.c and *.h. Prints each one
# found, file:line, and exits 1; 0 when there is none and settle.c is
# there and defines g_settle.

set -u
DIR=${1:-grader}
[ -f "$DIR/settle.c" ] || { echo "verdict-owner: no $DIR/settle.c"; exit 1; }
grep -q '^void g_settle(' "$DIR/settle.c" ||
	{ echo "verdict-owner: $DIR/settle.c does not define g_settle()"; exit 1; }
found=$(find "$DIR" -name '*.[ch]' ! -name settle.c -exec \
	grep -nE '(->|\.)[[:space:]]*verdict[[:space:]]*=[^=]' {} + )
if [ -n "$found" ]; then
	echo "verdict-owner: a verdict assigned outside $DIR/settle.c (use g_settle()):"
	echo "$found" | sed 's/^/  /'
	exit 1
fi
echo "verdict-owner: only $DIR/settle.c assigns a verdict"
