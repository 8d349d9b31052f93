#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/adding-a-lab.sh - docs/adding-a-lab.md's lab builds and grades as
# the page says: the page cannot drift from the code.
#
#   sh tests/adding-a-lab.sh [DOC]
#
# Reads DOC (default docs/adding-a-lab.md) and checks, in this order:
#
# 1. its files: every code block under a line "<!-- file: PATH -->" is a
#    file of one new lab, labs/NN-name/ (no lab of that name or number is
#    in labs/ yet) and solutions/NN-name/: its lab.mk, every file lab.mk
#    names (HEADERS, LAB_SRCS, a skeleton per exercise), a solution per
#    exercise and a README.md.
# 2. its names: every lab.mk variable the Makefile reads (its lab_rules),
#    every field of struct wb_exercise (common/harness.h), in backquotes;
#    every wb_ or WB_ name it uses is one of common/'s headers, and every
#    other name with an underscore in backquotes (`fill_uniform()`) one
#    of the code's (common/, the Makefile, the labs' lab.mk files, the
#    page's own lab).
# 3. its table of verdicts, the table under the line "<!-- verdicts -->"
#    (a row per command, its first cell; a column per exercise, its
#    header the exercise's name in backquotes): it says what these files
#    get: `make check` SKELETON for the skeletons, BUILT for the
#    solutions (PASS for a HOST_EXERCISES one); `make grade` NOT
#    IMPLEMENTED and PASS.
# Then, in a copy of the repository (Makefile, common/, grader/, labs/,
# calibrations/, tools/docs.sh) with the files written in:
# 4. every `make check` row runs and gives each exercise the row's
#    verdict; the lines of every code block under a line
#    "<!-- output: make check ... -->" (blank ones aside) are lines of
#    that command's output, in order;
# 5. the lab README's generated blocks are what make docs writes
#    (tools/docs.sh check, the lab's table program built alone);
# 6. where there is a GPU (nvidia-smi lists one), every `make grade` row
#    runs and gives the row's verdicts (from its results.tsv); where there
#    is none, a line "gpu: skipped: ..." says so, and why.
#
# Prints a line per check, "ok: ..." or "FAIL: ...", with the output of a
# failed command under it. Environment: BUILD (default build): the copy
# is BUILD/adding-a-lab/tree and builds into BUILD/adding-a-lab, kept
# between runs so that the harness and the grader are built once (two
# runs with one BUILD at once would share them); MAKE (default make);
# JOBS (compiles at once, default 2); KEEP (set: the temporary folder of
# the page's files and the commands' logs is kept, and printed).
# Exit status: 0 everything holds; 1 something does not; 2 DOC or the
# copy could not be read or made.

# shellcheck disable=SC2016,SC2086,SC2116,SC2046,SC2013 # backquotes in patterns; word lists, split on purpose
set -u
doc=${1:-docs/adding-a-lab.md}
: "${BUILD:=build}" "${MAKE:=make}" "${JOBS:=2}"
[ -f "$doc" ] || { echo "adding-a-lab: no $doc" >&2; exit 2; }
doc=$(cd "$(dirname "$doc")" && pwd)/$(basename "$doc")
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$BUILD" && bdir=$(cd "$BUILD" && pwd)/adding-a-lab || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/adding-a-lab.XXXXXX") || exit 2
if [ -n "${KEEP:-}" ]; then
	echo "adding-a-lab: the page's files and the logs are in $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi
bad=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $1"; bad=1; [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/    /' "$2" | tail -n 30; return 0; }

# ---- 1. the page's files ----------------------------------------------------
# Each "<!-- file: PATH -->" line, the fenced block after it into
# $tmp/files/PATH; $tmp/files.list the paths in order.
mkdir -p "$tmp/files"
awk -v out="$tmp/files" '
	/^<!-- file: [^ ]+ -->$/ { path = $3; want = 1; next }
	want && /^```/ { want = 0; on = 1; print path > (out ".list"); file = path
		gsub(/\//, "%", file); file = out "/" file; printf "" > file; next }
	want && !/^[ \t]*$/ { print "a file line not followed by a code block: " path > "/dev/stderr"; exit 3 }
	on && /^```[ \t]*$/ { on = 0; close(file); next }
	on { print > file }
	END { if (on) { print "the block of " path " never ends" > "/dev/stderr"; exit 3 } }' "$doc" \
	2> "$tmp/extract.log" || { cat "$tmp/extract.log" >&2; exit 2; }
[ -s "$tmp/files.list" ] || { echo "adding-a-lab: $doc has no \"<!-- file: PATH -->\" blocks" >&2; exit 2; }
# flat names back to paths, under $tmp/tree
while read -r p; do
	case $p in labs/*/* | solutions/*/*) ;; *)
		echo "adding-a-lab: $doc writes $p, outside labs/ and solutions/" >&2; exit 2 ;;
	esac
	case $p in *..*) echo "adding-a-lab: $doc writes $p" >&2; exit 2 ;; esac
	mkdir -p "$tmp/new/$(dirname "$p")" &&
		cp "$tmp/files/$(echo "$p" | tr / %)" "$tmp/new/$p" || exit 2
done < "$tmp/files.list"
lab=$(sed -n 's|^labs/\([^/]*\)/.*|\1|p' "$tmp/files.list" | sort -u)
if [ "$(echo "$lab" | grep -c .)" -ne 1 ] ||
   ! echo "$lab" | grep -qE '^[0-9]+-[a-z0-9_-]+$'; then
	echo "adding-a-lab: $doc must write one lab, labs/NN-name/; it writes: $(echo $lab)" >&2
	exit 2
fi
num=${lab%%-*} name=${lab#*-}
for d in labs/*/; do
	d=$(basename "$d")
	[ "$d" != "$lab" ] && [ "${d%%-*}" != "$num" ] && [ "${d#*-}" != "$name" ] && continue
	fail "1 $doc's lab $lab is new: labs/$d is there already (renumber or rename the page's lab)"
	exit 1
done
mkv() { sed -n "s/^$1[[:space:]]*:*=//p" "$tmp/new/labs/$lab/lab.mk" 2>/dev/null | tr -s ' \t' '  ' | sed 's/^ *//; s/ *$//'; }
exercises=$(mkv EXERCISES) hosts=$(mkv HOST_EXERCISES)
missing=""
need="labs/$lab/lab.mk labs/$lab/README.md"
for h in $(mkv HEADERS); do need="$need labs/$lab/$h"; done
for s in $(mkv LAB_SRCS); do need="$need labs/$lab/$s"; done
for e in $exercises; do need="$need labs/$lab/$e.cu solutions/$lab/$e.cu"; done
for p in $need; do [ -f "$tmp/new/$p" ] || missing="$missing $p"; done
if [ -n "$exercises" ] && [ -z "$missing" ]; then
	ok "1 the page writes the whole lab $lab: $(grep -c . "$tmp/files.list") files ($(echo $exercises | wc -w) exercises: $exercises)"
else
	[ -n "$missing" ] || missing=" the exercises (lab.mk names none)"
	fail "1 the page writes the whole lab $lab: no block for$missing"
fi

# ---- 2. the names it uses ---------------------------------------------------
words=$(grep -o '`[^`]*`' "$doc" | tr -d '`' | tr -c 'A-Za-z0-9_\n' '\n' | sort -u)
fields=$(awk '/^struct wb_exercise \{/ { on = 1; next } on && /^\};/ { exit }
	on { sub(/\/\*.*/, ""); if ($0 ~ /^[ \t]*\*/) next
	     if (match($0, /\(\*[a-z_]+\)/)) print substr($0, RSTART + 2, RLENGTH - 3)
	     else if (match($0, /[a-z_]+(\[[A-Z_0-9]*\])?;/)) { s = substr($0, RSTART, RLENGTH); sub(/[[;].*/, "", s); print s } }' \
	common/harness.h)
vars=$(awk '/^define lab_rules/ { on = 1; next } on && /^include / { exit }
	on && /^[A-Z_]+ *:=/ { print $1 }' Makefile)
absent=""
for w in $fields $vars; do echo "$words" | grep -qxF "$w" || absent="$absent $w"; done
unknown=""
for w in $(grep -oE '\b(wb|WB)_[A-Za-z0-9_]+' "$doc" | sort -u); do
	grep -qw "$w" common/*.h || unknown="$unknown $w"
done
# Any other name in backquotes with an underscore (`scale_check`,
# `fill_uniform()`) is a word of the code: common/, the Makefile, the
# labs' lab.mk files, the build and calibration scripts, or the page's
# own lab; one that ends in _ (`naive_`) begins one.
cat common/*.h common/*.c Makefile labs/*/lab.mk grader/build.sh \
	$(ls tests/gpu/calibrate.sh 2> /dev/null) $(find "$tmp/new" -type f) |
	tr -c 'A-Za-z0-9_' '\n' | sort -u > "$tmp/vocab"
stray=""
for w in $(grep -o '`[^`]*`' "$doc" | tr -d '`' | grep -xE '[A-Za-z_][A-Za-z0-9_]*(\(\))?' |
	   grep _ | sed 's/()$//' | grep -vE '^(wb|WB)_' | sort -u); do
	case $w in
	*_) grep -q "^$w" "$tmp/vocab" ;;
	*) grep -qxF "$w" "$tmp/vocab" ;;
	esac || stray="$stray $w"
done
if [ -n "$fields" ] && [ -n "$vars" ] && [ -z "$absent$unknown$stray" ]; then
	ok "2 the page names every lab.mk variable ($(echo $vars | wc -w)) and table field ($(echo $fields | wc -w)), and only names the code has"
else
	fail "2 the page's names:${absent:+ not named:$absent;}${unknown:+ not in common/*.h:$unknown;}${stray:+ in no code:$stray}"
fi

# ---- 3. the table of verdicts -----------------------------------------------
# One line per row and exercise: COMMAND<tab>EXERCISE<tab>VERDICT.
awk -F '|' '/^<!-- verdicts -->$/ { on = 1; next }
	on && !/^\|/ { if (n) exit; next }
	on && n == 0 { for (i = 3; i < NF; i++) if ($i ~ /`/) { e = $i; gsub(/[ `]/, "", e); ex[i] = e } n = 1; next }
	on && /^\|[-| ]*$/ { next }
	on { c = $2; gsub(/^ *`|` *$/, "", c)
	     for (i = 3; i < NF; i++) if (i in ex) { v = $i; gsub(/^ +| +$/, "", v); printf "%s\t%s\t%s\n", c, ex[i], v } }' \
	"$doc" > "$tmp/verdicts"
# What the files must get: by command kind and source.
expected() { # expected COMMAND EXERCISE
	case $1 in *SRC=solutions*) sol=1 ;; *) sol=0 ;; esac
	case "$1:$sol" in
	"make check"*:0) echo SKELETON ;;
	"make check"*:1) case " $hosts " in *" $2 "*) echo PASS ;; *) echo BUILT ;; esac ;;
	"make grade"*:0) echo "NOT IMPLEMENTED" ;;
	"make grade"*:1) echo PASS ;;
	esac
}
wrongrows=""
for k in "make check:0" "make check:1" "make grade:0" "make grade:1"; do
	c=${k%:*} s=${k#*:}
	awk -F '\t' -v c="$c" -v s="$s" 'index($1, c " ") == 1 && (($1 ~ /SRC=solutions/) == s) { f = 1 } END { exit !f }' \
		"$tmp/verdicts" || wrongrows="$wrongrows; no \`$c\` row for the $([ "$s" = 1 ] && echo solutions || echo skeletons)"
done
while IFS="$(printf '\t')" read -r cmd ex v; do
	printf '%s\n' "$cmd" | grep -qE '^make (check|grade)( [A-Z_]+=[A-Za-z0-9_./+-]+)*$' ||
		{ wrongrows="$wrongrows; \`$cmd\` is not make check or make grade with settings"; continue; }
	case " $exercises " in *" $ex "*) ;; *) wrongrows="$wrongrows; a column for $ex, no exercise of lab.mk"; continue ;; esac
	w=$(expected "$cmd" "$ex")
	[ "$v" = "$w" ] || wrongrows="$wrongrows; \`$cmd\` says $ex gets ${v:-nothing}, which would be $w"
done < "$tmp/verdicts"
for e in $exercises; do
	cut -f 2 "$tmp/verdicts" | grep -qxF "$e" || wrongrows="$wrongrows; no column for $e"
done
if [ -s "$tmp/verdicts" ] && [ -z "$wrongrows" ]; then
	ok "3 the page's table of verdicts says what the skeletons and the solutions get ($(cut -f 1 "$tmp/verdicts" | sort -u | grep -c .) commands)"
else
	fail "3 the page's table of verdicts (under <!-- verdicts -->)${wrongrows:-: no table}"
fi
[ $bad -eq 0 ] || { echo "adding-a-lab: the page is wrong before anything is built"; exit 1; }

# ---- the copy ---------------------------------------------------------------
# The copy sits beside its build, at the same path every run (the build
# keeps absolute paths: the staged headers' originals), and the page's
# files keep their time from the last run where they are the same (a
# copy of them is kept there too), so that only what changed is built
# again.
tree=$bdir/tree
rm -rf "$tree" && mkdir -p "$tree/tools" "$tree/solutions" &&
	cp -Rp Makefile common grader labs calibrations "$tree/" || exit 2
while read -r p; do
	kept=$bdir/page/$p
	if ! cmp -s "$tmp/new/$p" "$kept"; then
		mkdir -p "$(dirname "$kept")" && cp "$tmp/new/$p" "$kept" || exit 2
	fi
	mkdir -p "$tree/$(dirname "$p")" && cp -p "$kept" "$tree/$p" || exit 2
done < "$tmp/files.list"
[ -f tools/docs.sh ] && cp -p tools/docs.sh "$tree/tools/"
# Headers staged from a copy that was elsewhere (before the copy had its
# fixed place) are staged again.
real=$(cd "$tree" && pwd -P)
for d in "$bdir"/sm*/include/"$lab"; do
	[ -f "$d/.sources" ] || continue
	grep -qv "^$real/" "$d/.sources" && rm -rf "$d"
done
mk() { # mk LOG make-words...: make in the copy, into the kept build folder
	log=$1
	shift
	set -f
	(cd "$tree" && unset MAKEFLAGS MFLAGS MAKELEVEL &&
	 $MAKE --no-print-directory "$@" BUILD="$bdir" BUILD_JOBS="$JOBS") > "$log" 2>&1
	rc=$?
	set +f
	return $rc
}

# ---- 4. make check ------------------------------------------------------------
n=0
for cmd in $(cut -f 1 "$tmp/verdicts" | grep '^make check' | sort -u | tr ' ' '@'); do
	cmd=$(echo "$cmd" | tr '@' ' ')
	n=$((n + 1))
	log=$tmp/run-$n.log
	printf '%s\n' "$cmd" > "$tmp/run-$n.cmd"
	# shellcheck disable=SC2086 # the command's words, checked above
	mk "$log" ${cmd#make }
	rc=$?
	got=""
	while IFS="$(printf '\t')" read -r c ex v; do
		[ "$c" = "$cmd" ] || continue
		grep -Eq "^$lab/$ex +$v( |\$)" "$log" || got="$got $ex"
	done < "$tmp/verdicts"
	if [ $rc -eq 0 ] && [ -z "$got" ]; then
		ok "4 \`$cmd\` gives the page's verdicts"
	else
		fail "4 \`$cmd\` (status $rc) does not give the page's verdict for:${got:- (its status)}" "$log"
	fi
done
# the output blocks
awk -v out="$tmp/out" '
	/^<!-- output: make [^>]*-->$/ { c = $0; sub(/^<!-- output: /, "", c); sub(/ -->$/, "", c); want = 1; next }
	want && /^```/ { want = 0; on = 1; k++; print c > (out "." k ".cmd"); printf "" > (out "." k); next }
	on && /^```[ \t]*$/ { on = 0; next }
	on && !/^[ \t]*$/ { print > (out "." k) }' "$doc"
for f in "$tmp"/out.*.cmd; do
	[ -f "$f" ] || continue
	cmd=$(cat "$f") want=${f%.cmd}
	log=""
	for r in "$tmp"/run-*.cmd; do
		[ "$(cat "$r")" = "$cmd" ] && log=${r%.cmd}.log
	done
	if [ -z "$log" ]; then
		fail "4 the output of \`$cmd\`: no row of the table of verdicts runs it"
		continue
	fi
	miss=$(awk 'FNR == NR { line[++n] = $0; next } i < n && $0 == line[i + 1] { i++ }
		END { if (i < n) print line[i + 1] }' "$want" "$log")
	if [ -s "$want" ] && [ -z "$miss" ]; then
		ok "4 the page's $(grep -c . "$want") lines of \`$cmd\`'s output are its output"
	else
		fail "4 the page's output of \`$cmd\`: not in its output (in order): \"$miss\"" "$log"
	fi
done

# ---- 5. the README's generated blocks ---------------------------------------
if [ ! -f tools/docs.sh ]; then
	echo "skipped: 5 the README's generated blocks: no tools/docs.sh (the student handout)"
else
	B=$(cd "$tree" && $MAKE -s --no-print-directory print-B BUILD="$bdir")
	if mk "$tmp/info.log" "$B/labs/$lab/info" SRC=labs LAB="$lab" &&
	   (cd "$tree" && B="$B" sh tools/docs.sh check "labs/$lab/README.md") >> "$tmp/info.log" 2>&1; then
		ok "5 labs/$lab/README.md's generated blocks are what make docs writes"
	else
		fail "5 labs/$lab/README.md's generated blocks are not what make docs writes" "$tmp/info.log"
	fi
fi

# ---- 6. make grade, on a GPU --------------------------------------------------
if ! nvidia-smi -L 2> /dev/null | grep -q '^GPU'; then
	echo "gpu: skipped: no GPU here (nvidia-smi lists none): the page's $(cut -f 1 "$tmp/verdicts" | grep '^make grade' | sort -u | grep -c .) make grade rows not run"
else
	n=0
	for cmd in $(cut -f 1 "$tmp/verdicts" | grep '^make grade' | sort -u | tr ' ' '@'); do
		cmd=$(echo "$cmd" | tr '@' ' ')
		n=$((n + 1))
		log=$tmp/grade-$n.log tsv=$tmp/grade-$n.tsv
		# shellcheck disable=SC2086
		mk "$log" ${cmd#make } TSV="$tsv" JSON="$tmp/grade-$n.json"
		got=""
		while IFS="$(printf '\t')" read -r c ex v; do
			[ "$c" = "$cmd" ] || continue
			have=$(awk -F '\t' -v l="$lab" -v e="$ex" '$1 == l && $2 == e { print $3 }' "$tsv" 2> /dev/null)
			[ "$have" = "$(echo "$v" | tr ' ' _)" ] || got="$got $ex(${have:-none})"
		done < "$tmp/verdicts"
		if [ -s "$tsv" ] && [ -z "$got" ]; then
			ok "6 \`$cmd\` on the GPU gives the page's verdicts"
		else
			fail "6 \`$cmd\` on the GPU does not give the page's verdicts:${got:- no results.tsv}" "$log"
		fi
	done
fi

[ $bad -eq 0 ] && echo "adding-a-lab: $doc's lab $lab builds and grades as the page says"
exit $bad
