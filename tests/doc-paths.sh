#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/doc-paths.sh - every file and every make command the docs name is
# there, and works.
#
#   sh tests/doc-paths.sh [DOC...]
#
# Reads the docs (default: README.md, docs/*.md, labs/*/README.md,
# calibrations/*.md) and
# prints, with the doc that names it, each of these that is wrong:
#
# - a Markdown link to a local file, or a path, in backquotes or not, that
#   starts with one of the repository's folders (labs/, tests/,
#   solutions/, tools/, common/, grader/, docs/, courses/, calibrations/),
#   that does not exist. Placeholders are left alone: a path with <, *, {, "...", or
#   a one-capital-letter part (labs/L/E.cu).
# - a make command, in backquotes (`make grade LAB=reduction`) or on a
#   line of a code block, whose target the Makefile here cannot make:
#   `make -n TARGET LAB=...` fails (run with SHELL=/bin/true, so that no
#   recipe runs, not even a recursive one; LAB= is the one setting the
#   Makefile checks as it reads itself, so the others are left out, as
#   are options and placeholders: LAB=.., SIZE=<label>, ...).
#   What a doc has its reader write, a "<!-- file: PATH -->" line above a
#   code block (docs/adding-a-lab.md's lab), is there for that doc: its
#   paths, and LAB= naming its lab (tests/adding-a-lab.sh builds it).
# - in a student handout (no solutions/ here), a make command that is an
#   instructor tool: its target, or its target with a setting, is in
#   INSTRUCTOR_ONLY below. Those targets exist in the handout's Makefile,
#   but only to say that they are not in the handout.
# - an instructor passage (tools/handout.sh drops them from the handout)
#   whose <!-- instructor --> and <!-- end instructor --> lines do not
#   pair up, or that lies inside a block tools/docs.sh writes.
#
# Exit status 1 when something is wrong. Run from the repository's root,
# or a handout's: its docs must name only what it has.

# shellcheck disable=SC2016 # the patterns hold backquotes, on purpose
set -u

# The make commands the student handout cannot run, one a line: a target
# (a glob), optionally followed by settings (VAR=GLOB) of which one must
# be in the command. Kept here only; checked only where solutions/ is not.
INSTRUCTOR_ONLY='
grade-solutions
bench
bench-run
torch-compare
docs
handout
calibrate
gradescope-bundle
batch
batch-prepare
slurm-script
mutate
* SRC=*solutions*
* SRC=*tests/*
profile WITH=*solution*
'

[ $# -gt 0 ] || set -- README.md docs/*.md labs/*/README.md calibrations/*.md
tmp=${TMPDIR:-/tmp}/doc-paths.$$
trap '[ -n "${KEEP:-}" ] || rm -f "$tmp" "$tmp.cmds" "$tmp.by" "$tmp.seen" "$tmp.make"' EXIT
: > "$tmp"
: > "$tmp.cmds"
handout=
[ -d solutions ] || handout=1
mk=${MAKE:-make}
mk=${mk%% *}

for f; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	# What the doc itself has a reader write (a "<!-- file: PATH -->"
	# line above a code block: docs/adding-a-lab.md's new lab, which
	# tests/adding-a-lab.sh builds): its paths, and the labs they make.
	made=$(sed -n 's/^<!-- file: \([^ ]*\) -->$/\1/p' "$f")
	newlabs=$(printf '%s\n' "$made" | sed -n 's|^labs/\([0-9][0-9]*-[a-z0-9_-]*\)/.*|\1|p' | sort -u)
	{
		grep -oE '\]\([^)#[:space:]]+' "$f" | sed 's/^](//' |
			grep -vE '^(https?|mailto):' | sed "s|^|$dir/|"
		grep -oE '`(labs|tests|solutions|tools|common|grader|docs|courses|calibrations)/[^`[:space:]]*`' "$f" |
			tr -d '`'
		# and outside backquotes, in prose: "(tests/gpu/calibrate.sh,
		# 2026-...)"; code blocks hold examples of files to make
		awk '/^ *```/ { code = !code; next } !code' "$f" |
			grep -oE '(^|[ (])(labs|tests|solutions|tools|common|grader|docs|courses|calibrations)/[A-Za-z0-9_./-]*[A-Za-z0-9_/]' |
			sed 's/^[ (]//'
	} | sort -u | while IFS= read -r p; do
		case $p in *'<'* | *'*'* | *'{'* | *'...'* | *'..') continue ;; esac
		printf '%s\n' "$p" | grep -qE '(^|/)[A-Z](/|\.|$)' && continue
		for m in $made; do
			case $m in "$p" | "${p%/}"/*) continue 2 ;; esac
		done
		[ -e "$p" ] || echo "$f: names $p, which is not there"
	done >> "$tmp"

	# The instructor markers pair up, outside the generated blocks.
	awk -v f="$f" '
		/^<!-- (tiers|rules|limits|help)[: ]/ { gen = FNR }
		/^<!-- end of / { gen = 0 }
		/^<!-- instructor -->[ \t]*$/ {
			if (on) printf "%s:%d: an instructor passage inside another (line %d)\n", f, FNR, on
			if (gen) printf "%s:%d: an instructor marker inside the block of line %d, which tools/docs.sh writes\n", f, FNR, gen
			on = FNR
		}
		/^<!-- end instructor -->[ \t]*$/ {
			if (!on) printf "%s:%d: the end of an instructor passage that did not start\n", f, FNR
			if (gen) printf "%s:%d: an instructor marker inside the block of line %d, which tools/docs.sh writes\n", f, FNR, gen
			on = 0
		}
		END { if (on) printf "%s:%d: an instructor passage that never ends\n", f, on }' "$f" >> "$tmp"

	# Make commands: in backquotes, and on the lines of code blocks.
	{
		grep -oE '`make( [^`]*)?`' "$f" | tr -d '`'
		awk '/^ *```/ { code = !code; next } code && /^ *make( |$)/' "$f"
	} | sed -e 's/^ *//' -e 's/ #.*//' -e 's/ *\\$//' -e 's/ *||.*//' \
		-e 's/ | .*//' -e 's/;.*//' -e 's/   *[^ ].*//' -e 's/ *$//' |
		# LAB= naming a lab the doc makes is left out: the target alone
		# is checked here (tests/adding-a-lab.sh runs the rest in a copy)
		if [ -n "$newlabs" ]; then
			sed -E "s/ LAB=($(for l in $newlabs; do printf '%s|%s|%s|' "$l" "${l#*-}" "${l%%-*}"; done | sed 's/|$//'))( |\$)/\2/"
		else
			cat
		fi |
		sort -u | sed "s|^|$f	|" >> "$tmp.cmds"
done

# Each command's words after "make" (double quotes honoured and dropped,
# [ ] dropped: optional parts), placeholders and options left out; its
# target (all when it names none), what make -n is given (the target and
# its LAB=: the one setting the Makefile checks as it reads itself; the
# others only reach recipes), and whether it is INSTRUCTOR_ONLY. One line
# per doc and command: ARGS, INSTRUCTOR (0 or 1), COMMAND, DOC.
sort -u "$tmp.cmds" | awk -F '\t' -v list="$INSTRUCTOR_ONLY" '
function glob(g) {
	gsub(/[.+?()|^$\[\]{}\\]/, "\\\\&", g)
	gsub(/\*/, ".*", g)
	return "^" g "$"
}
BEGIN {
	n = split(list, lines, "\n")
	for (i = 1; i <= n; i++) {
		if (split(lines[i], p, " ") == 0)
			continue
		k++
		tgt[k] = glob(p[1])
		set[k] = p[2] == "" ? "" : glob(p[2])
	}
}
{
	s = substr($2, 6); w = ""; q = 0; nw = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\"") { q = !q; continue }
		if (c == " " && !q) { if (w != "") word[++nw] = w; w = ""; continue }
		if (c != "[" && c != "]") w = w c
	}
	if (w != "") word[++nw] = w
	target = ""; args = ""; m = 0
	for (i = 1; i <= nw; i++) {
		w = word[i]
		if (w ~ /^-/ || w ~ /</ || w ~ /\.\.\./ || w ~ /=\.\.$/)
			continue
		keep[++m] = w
		if (w !~ /=/ && target == "")
			target = w
		if (w ~ / /) # LAB="reduction fusion": one word for the shell
			w = "\047" w "\047"
		if (w !~ /=/ || w ~ /^LAB=/)
			args = args (args == "" ? "" : " ") w
	}
	if (m == 0)
		next # make alone, or with options only (make -o)
	if (target == "")
		target = "all"
	instr = 0
	for (j = 1; j <= k && !instr; j++) {
		if (target !~ tgt[j])
			continue
		if (set[j] == "")
			instr = 1
		for (i = 1; i <= m && !instr; i++)
			if (keep[i] ~ set[j])
				instr = 1
	}
	printf "%s\t%d\t%s\t%s\n", args, instr, $2, $1
}' > "$tmp.by"

# make -n for each distinct ARGS, once; the first complaint of each that
# fails goes to $tmp.seen.
: > "$tmp.seen"
cut -f 1 "$tmp.by" | sort -u | while IFS= read -r args; do
	set -f
	# a target and LAB= (in single quotes when it lists labs), no globs
	(unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
	 eval "\"\$mk\" -n --no-print-directory SHELL=/bin/true $args") > "$tmp.make" 2>&1 ||
		printf '%s\t%s\n' "$args" "$(grep -m 1 . "$tmp.make")" >> "$tmp.seen"
	set +f
done
awk -F '\t' -v handout="$handout" '
	NR == FNR { bad[$1] = $2; next }
	handout != "" && $2 == 1 {
		printf "%s: names `%s`, an instructor tool that the student handout does not have\n", $4, $3
		next
	}
	$1 in bad { printf "%s: names `%s`, which the Makefile here cannot make: %s\n", $4, $3, bad[$1] }' \
	"$tmp.seen" "$tmp.by" >> "$tmp"

[ -s "$tmp" ] || exit 0
cat "$tmp"
exit 1
