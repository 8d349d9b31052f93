#!/bin/sh
# SPDX-License-Identifier: MIT
#
# grader/build.sh - build one exercise's runner from a submission, under
# the three rules that hold for every exercise and every grading path
# (docs/grading.md, section 8):
#
#   1. The compile sees only what it needs. The include path is the lab's
#      public headers, staged alone in INCDIR (lab.mk's HEADERS and the
#      workbook headers they include), and every file the compile opened
#      (gcc's -H, for the host and the device passes) must lie in INCDIR,
#      the CUDA Toolkit, the system's headers or nvcc's own temporary
#      folder. Any other file - the lab's lab.c or naive.cu, solutions/, a
#      note or an old submission beside the repository - makes the
#      exercise a COMPILE ERROR whose message names the path and quotes
#      nothing: the compiler's own messages, which could quote the file,
#      are thrown away.
#   2. A hostile file costs only its exercise. Each compiler and the
#      linker run under a wall-clock limit (COMPILE_TIMEOUT seconds) and an
#      address-space limit (COMPILE_MEM MiB, for each process); over
#      either, the exercise is a COMPILE ERROR that says which.
#   3. One exported symbol. The runner links a sealed copy of the object,
#      in which every symbol the file defines but its entry points is
#      renamed NAME.student: no name the runner, the lab or a library
#      binds to - fprintf, qsort, clock_gettime, naive_*, operator new -
#      can reach the file's code, whatever kind the symbol is (weak,
#      unique, common, versioned, in a COMDAT group). Only a plain global
#      function keeps an entry point's name; the driver rejects any other
#      kind (grader/inspect/symbols.c). The object itself is kept for the driver's
#      checks (grader/inspect/inspect.sh reads it).
#
#   sh grader/build.sh RUNNER SOURCE LAB-OBJECTS... -- HARNESS-OBJECTS...
#   sh grader/build.sh --stage DIR LAB-FOLDER COMMON-FOLDER HEADERS...
#
# --stage copies the lab's public headers (HEADERS, lab.mk's list) into DIR,
# with the workbook headers of COMMON-FOLDER they include (and those
# include), and nothing else: DIR is a submission's whole include path.
# DIR/.sources lists the originals, which a compile may open too.
#
# Environment (the Makefile sets it): NVCC; NVFLAGS, PTXFLAGS (the object's
# and the inspected PTX's flags, no -I); ARCH (the link's); LDLIBS; INCDIR;
# ALLOW (folders whose files a compile may open, besides INCDIR and its
# temporary folder); COMPILE_TIMEOUT; COMPILE_MEM. Writes RUNNER, RUNNER.o,
# RUNNER.log (what the student reads) and what grader/inspect/inspect.sh writes.
# Prints one line: "built SOURCE" or "COMPILE ERROR in SOURCE (see LOG)".
# Exit status 0 either way: a failed build is the exercise's verdict, not
# make's (the runner is then missing, and the driver reports it).

set -u

# stage DIR LAB COMMON HEADERS...: the include folder (see above).
stage() {
	dir=$1 lab=$2 common=$3
	shift 3
	rm -rf "$dir" && mkdir -p "$dir" || exit 1
	for h in "$@"; do
		cp "$lab/$h" "$dir/$h" || exit 1
		realpath -- "$lab/$h" >> "$dir/.sources"
	done
	todo="$*"
	while [ -n "$todo" ]; do
		next=""
		for h in $todo; do
			for i in $(sed -n 's/^#[ \t]*include[ \t]*"\([^"/]*\)".*/\1/p' "$dir/$h"); do
				[ -f "$dir/$i" ] && continue
				if [ -f "$common/$i" ]; then
					cp "$common/$i" "$dir/$i" || exit 1
					realpath -- "$common/$i" >> "$dir/.sources"
					next="$next $i"
				else
					echo "$lab/$h includes \"$i\", which is neither in lab.mk's HEADERS nor in $common/" >&2
					exit 1
				fi
			done
		done
		todo=$next
	done
	touch "$dir/.staged"
}

if [ "${1:-}" = "--stage" ]; then
	shift
	stage "$@"
	exit 0
fi

runner=$1 src=$2
shift 2
NVCC=${NVCC:-nvcc}
: "${COMPILE_TIMEOUT:=60}" "${COMPILE_MEM:=2048}" "${ALLOW:=}" "${INCDIR:?}"

tmp=$runner.tmp  # not *.d: the Makefile includes those
log=$runner.log
rm -rf "$runner" "$runner.o" "$runner.sealed.o" "$runner.ptx.tmp" "$tmp"
mkdir -p "$tmp/nvcc" || exit 0

# limited LOG COMMAND...: COMMAND with the limits, its output in LOG; its
# exit status (124: over the time limit).
limited() {
	out=$1
	shift
	(
		ulimit -v $((COMPILE_MEM * 1024)) 2> /dev/null
		TMPDIR=$tmp/nvcc exec timeout -k 5 "$COMPILE_TIMEOUT" "$@"
	) > "$out" 2>&1
}

# opened LOG: the files gcc's -H says the compile opened, one a line.
opened() {
	sed -n 's/^\.\{1,\} \(.*\)$/\1/p' "$1"
}

# outside LOG...: the first opened file that lies outside what a compile
# may read, or nothing. Allowed: the file itself, a staged header's
# original (a skeleton beside its lab's header finds that one first: a
# quoted include looks in the file's own folder before the include path),
# and anything under INCDIR, nvcc's temporary folder or ALLOW. One
# realpath and one awk for all of them (a CUB file opens ~2000 headers).
outside() {
	for d in "$INCDIR" "$tmp/nvcc" $ALLOW; do
		[ -d "$d" ] && (cd "$d" && pwd -P)
	done > "$tmp/roots"
	{ realpath -m -- "$src"; cat "$INCDIR/.sources" 2> /dev/null; } > "$tmp/files"
	for l in "$@"; do
		opened "$l"
	done | sort -u > "$tmp/opened"
	[ -s "$tmp/opened" ] || return 0
	tr '\n' '\0' < "$tmp/opened" | xargs -0 realpath -m -- > "$tmp/real"
	paste "$tmp/opened" "$tmp/real" | awk -F '\t' '
		FILENAME == ARGV[1] { root[++nr] = $0 "/"; next }
		FILENAME == ARGV[2] { file[$0] = 1; next }
		{
			if ($2 in file)
				next
			for (i = 1; i <= nr; i++)
				if (substr($2, 1, length(root[i])) == root[i])
					next
			print $1
			exit
		}' "$tmp/roots" "$tmp/files" -
}

# quiet LOG: the compile's messages without -H's lines and the list of
# headers gcc suggests include guards for (bare paths, after its heading),
# into RUNNER.log.
quiet() {
	awk '/^\.+ / { next }
	     /^\.+/ { sub(/^\.+/, "") } # a line cut short by a limit
	     /^Multiple include guards may be useful for:$/ { list = 1; next }
	     list && /^[^:( ]+$/ { next }
	     { list = 0; print }' "$1" > "$log"
}

# why_failed STATUS LOG: a line for a compile stopped by a limit.
why_failed() {
	if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then
		echo "the compile took more than $COMPILE_TIMEOUT s (COMPILE_TIMEOUT=$COMPILE_TIMEOUT): it was stopped"
	elif grep -qi -e 'out of memory' -e 'memory exhausted' -e 'bad_alloc' \
		-e 'cannot allocate memory' "$2"; then
		echo "the compile used more than $COMPILE_MEM MiB (COMPILE_MEM=$COMPILE_MEM): it was stopped"
	fi
}

# seal: the object, every definition but the entry points renamed.
seal() {
	entries=$(for o in "$@"; do nm "$o"; done | awk '$1 == "w" { print $2 }' | sort -u)
	readelf -sW "$runner.o" | awk -v entries="$entries" '
		BEGIN { n = split(entries, e, "\n"); for (i = 1; i <= n; i++) keep[e[i]] = 1 }
		$1 ~ /^[0-9]+:$/ && NF >= 8 && $7 != "UND" && $4 != "SECTION" && $4 != "FILE" {
			plain = $4 == "FUNC" && $5 == "GLOBAL" && $6 == "DEFAULT" && $7 != "ABS" && $7 != "COM"
			if (!($8 in keep) || !plain) {
				to = $8 ".student"
				gsub(/@/, ".", to) # a version (name@@V) is not kept
				print $8, to
			}
		}' | sort -u > "$tmp/rename"
	objcopy --redefine-syms="$tmp/rename" "$runner.o" "$runner.sealed.o"
}

# unlinked: a line for each symbol the link could not find.
unlinked() {
	sed -n "s/.*undefined reference to \`\([^']*\)'.*/\1/p" "$log" | sort -u |
	while IFS= read -r s; do
		case $s in
		naive_* | peer_*)
			echo "$s is the lab's own (its naive reference or a library peer): it is not linked into your runner, and a submission may not call it" ;;
		*)
			echo "$s is not linked into your runner: it links the CUDA runtime, the C and C++ libraries and the workbook's harness, not the lab's own code, another exercise's or another library" ;;
		esac
	done
}

# ---- the compiles: the object, and beside it the PTX the checks read.
labobjs="" harness=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do labobjs="$labobjs $1"; shift; done
[ $# -gt 0 ] && shift
harness="$*"

limited "$runner.ptx.log" "$NVCC" $PTXFLAGS -Xcompiler -H -I"$INCDIR" -rdc=true \
	-ptx "$src" -o "$runner.ptx.tmp" &
ptx=$!
limited "$tmp/compile.log" "$NVCC" $NVFLAGS -Xcompiler -H -Xptxas -v -I"$INCDIR" \
	-c "$src" -o "$runner.o"
rc=$?
wait $ptx
ptxrc=$?

bad=$(outside "$tmp/compile.log" "$runner.ptx.log")
if [ -n "$bad" ]; then
	rm -f "$runner.o" "$runner.ptx.tmp" "$runner.ptx.log"
	{
		why_failed $rc "$tmp/compile.log"
		printf '%s\n' "the file includes $bad, which a submission may not include:" \
			"  only the lab's own header (in $INCDIR), the CUDA Toolkit's" \
			"  and the system's are there (the compiler's messages are not shown)"
	} > "$log"
	echo "  COMPILE ERROR in $src (see $log)"
	rm -rf "$tmp"
	exit 0
fi
quiet "$runner.ptx.log" && mv -f "$log" "$tmp/ptx.log" && mv -f "$tmp/ptx.log" "$runner.ptx.log"
quiet "$tmp/compile.log"
[ $ptxrc -eq 0 ] || rm -f "$runner.ptx.tmp"
if [ $rc -ne 0 ]; then
	why=$(why_failed $rc "$log")
	if [ -n "$why" ]; then
		{ echo "$why"; cat "$log"; } > "$tmp/why" && mv -f "$tmp/why" "$log"
	fi
	rm -f "$runner.o" "$runner.ptx.tmp"
	echo "  COMPILE ERROR in $src (see $log)"
	rm -rf "$tmp"
	exit 0
fi

# ---- the link, of the sealed object.
if seal $labobjs >> "$log" 2>&1 &&
   limited "$tmp/link.log" "$NVCC" $ARCH -o "$runner" "$runner.sealed.o" \
	$labobjs $harness $LDLIBS; then
	cat "$tmp/link.log" >> "$log"
	echo "  built    $src"
	PTX_MADE=$runner.ptx.tmp NVCC="$NVCC" sh grader/inspect/inspect.sh "$runner" \
		"$src" "$PTXFLAGS -I$INCDIR" $labobjs
else
	rc=$?
	cat "$tmp/link.log" >> "$log" 2> /dev/null
	{ why_failed $rc "$log"; unlinked; } > "$tmp/why"
	[ -s "$tmp/why" ] && cat "$tmp/why" "$log" > "$tmp/log" && mv -f "$tmp/log" "$log"
	rm -f "$runner" "$runner.ptx.tmp"
	echo "  COMPILE ERROR in $src (see $log)"
fi
rm -f "$runner.sealed.o"
rm -rf "$tmp"
exit 0
