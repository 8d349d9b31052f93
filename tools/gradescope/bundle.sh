#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/gradescope/bundle.sh OUT - make gradescope-bundle:
# OUT/autograder-<assignment>.zip for a Gradescope programming assignment
# whose autograder runs on a machine with an NVIDIA GPU and the CUDA
# Toolkit in its image (docs/instructors.md). Gradescope's own autograder
# machines have no GPU: this bundle is for courses whose Gradescope runs
# its autograders on GPU machines of their own.
#
# <assignment> is the course file's "assignment =" name, else the course
# file's name without .conf, else the labs of LAB= joined by '-', else
# all-labs: two assignments never overwrite one zip.
#
# The zip holds, at its root as Gradescope requires:
#   setup.sh          run once when Gradescope builds the image
#   run_autograder    run for every submission
#   bundle.conf       LAB, COURSE and SM as given to make
#   course.conf       the COURSE file, when one was given
#   workbook/         the student handout's files (no solutions/, no tests
#                     corpus): the grader, the harness and the labs, and
#                     tools/batch, whose sandbox run_autograder grades in,
#                     and the labs' answer keys (tools/handout-answers.sh),
#                     which the host exercises are graded against
#
# Environment (from the Makefile): LAB (the labs of this assignment, a
# list; empty: every lab, or those the course file names), COURSE (a
# course settings file), GRADER (the grader, which reads the course file:
# its labs, and whether it is valid), BUNDLE_SM (GPU architecture
# to build for at setup time; empty: detected when grading); the sandbox's
# settings, as for make batch: SANDBOX (off: grade UNSANDBOXED),
# SANDBOX_USER, SANDBOX_NPROC, SANDBOX_MEM.

set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-dist/gradescope}
LAB=${LAB:-}
COURSE=${COURSE:-}
BUNDLE_SM=${BUNDLE_SM:-}
SANDBOX=${SANDBOX:-}
case $SANDBOX in
''|require|auto) SANDBOX=require ;;
off) echo "gradescope-bundle: SANDBOX=off: submissions will be graded UNSANDBOXED, as root" >&2 ;;
*) echo "SANDBOX=$SANDBOX: require (the default) or off" >&2; exit 2 ;;
esac

if ! command -v zip > /dev/null; then
	echo "make gradescope-bundle needs zip (Debian/Ubuntu: apt-get install zip)" >&2
	exit 2
fi
if [ -n "$COURSE" ] && [ ! -f "$COURSE" ]; then
	echo "COURSE=$COURSE: no such file" >&2
	exit 2
fi
# LAB= names a lab in full (05-reduction) or without its number.
lab_exists() {
	for mk in labs/*/lab.mk; do
		d=$(basename "$(dirname "$mk")")
		if [ "$d" = "$1" ] || [ "${d#*-}" = "$1" ]; then
			return 0
		fi
	done
	return 1
}
for w in $LAB; do
	if ! lab_exists "$w"; then
		echo "LAB=$LAB: no lab named $w under labs/" >&2
		exit 2
	fi
done
# The course file names the assignment's labs (and is checked here, so
# that a mistake stops this, not every student's grading).
if [ -n "$COURSE" ]; then
	LAB=$("${GRADER:?}" --labs labs --build "$OUT" --course "$COURSE" \
		--check-course labs ${LAB:+--lab "$LAB"}) || exit 2
	LAB=$(echo $LAB)
fi
name=""
if [ -n "$COURSE" ]; then
	name=$(sed -n 's/^[ \t]*assignment[ \t]*=[ \t]*\([A-Za-z0-9._-]*\).*/\1/p' "$COURSE" | head -n 1)
	[ -n "$name" ] || name=$(basename "$COURSE" .conf)
fi
[ -n "$name" ] || name=$(echo "${LAB:-all-labs}" | tr ' ' '-')
zipname=autograder-$name.zip

mkdir -p "$OUT"
stage=$OUT/stage-$name
rm -rf "$stage"
mkdir -p "$stage/workbook"
sh tools/handout.sh --list > "$stage/files"
tar -cf - -T "$stage/files" | tar -xf - -C "$stage/workbook"
# The answer keys, which the handout leaves out: the autograder grades
# with the rules, as make grade does here (students never see the zip).
sh tools/handout-answers.sh list > "$stage/files"
tar -cf - -T "$stage/files" | tar -xf - -C "$stage/workbook"
rm -f "$stage/files"
# The sandbox (the handout has no instructor tools).
mkdir -p "$stage/workbook/tools/batch"
cp tools/batch/*.c tools/batch/*.h tools/batch/*.mk "$stage/workbook/tools/batch/"
cp tools/gradescope/setup.sh tools/gradescope/run_autograder "$stage/"
chmod 755 "$stage/setup.sh" "$stage/run_autograder"
{
	echo "# Written by make gradescope-bundle; read by setup.sh and run_autograder."
	echo "LAB='$LAB'"
	echo "SM='$BUNDLE_SM'"
	echo "COURSE='${COURSE:+course.conf}'"
	echo "BUNDLE_SANDBOX='$SANDBOX'"
	echo "SANDBOX_USER='${SANDBOX_USER:-}'"
	echo "SANDBOX_NPROC='${SANDBOX_NPROC:-}'"
	echo "SANDBOX_MEM='${SANDBOX_MEM:-}'"
} > "$stage/bundle.conf"
[ -z "$COURSE" ] || cp "$COURSE" "$stage/course.conf"

rm -f "$OUT/$zipname.tmp"
(cd "$stage" && zip -q -r -X "../$zipname.tmp" .)
mv "$OUT/$zipname.tmp" "$OUT/$zipname"
rm -rf "$stage"
settings=${COURSE:-none}
arch=${BUNDLE_SM:+sm_$BUNDLE_SM}
echo "Gradescope autograder: $OUT/$zipname (labs: ${LAB:-all};" \
     "course settings: $settings; GPU architecture: ${arch:-read when grading};" \
     "sandbox: $([ "$SANDBOX" = off ] && echo "OFF (UNSANDBOXED)" || echo required))"
