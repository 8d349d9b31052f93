#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/batch/make-class.sh - a class of 13 generated submissions for lab
# 05 (reduction), whose verdicts tests/batch/expected lists: folders,
# .tar.gz, .tgz and .zip; correct, broken, empty, hostile and malicious.
#
#   sh tests/batch/make-class.sh SUBMISSIONS OUT PORT [STUDENT...]
#
# SUBMISSIONS  the folder to create them in (emptied first)
# OUT          where the batch will write (mallory's probe aims at it)
# PORT         a port on 127.0.0.1 for mallory's probe to try
# STUDENT...   only these (default: all)
#
# Run from the repository's root. Needs tar, gzip and zip. The files
# come from solutions/, the skeletons in labs/ and tests/broken/.

set -eu
[ $# -ge 3 ] || { echo "usage: $0 SUBMISSIONS OUT PORT [STUDENT...]" >&2; exit 2; }
subs=$1 out=$2 port=$3
shift 3
repo=$(pwd)
only=" ${*:-all} "

case $subs in /*) ;; *) subs=$repo/$subs ;; esac
case $out in /*) ;; *) out=$repo/$out ;; esac
rm -rf "$subs"
mkdir -p "$subs"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

sol=solutions/05-reduction
skel=labs/05-reduction
broken=tests/broken

want() { case $only in *" all "*|*" $1 "*) return 0 ;; esac; return 1; }

# put DIR/REL FILE: copy FILE to DIR/REL, making folders
put() { mkdir -p "$(dirname "$1")"; cp "$2" "$1"; }

# alice: a folder, both solutions, laid out as the labs are.
if want alice; then
	put "$subs/alice/05-reduction/sum.cu" $sol/sum.cu
	put "$subs/alice/05-reduction/argmax.cu" $sol/argmax.cu
fi

# bob.tar.gz: sum solved, argmax the untouched skeleton, under bob/.
if want bob; then
	put "$stage/bob/bob/05-reduction/sum.cu" $sol/sum.cu
	put "$stage/bob/bob/05-reduction/argmax.cu" $skel/argmax.cu
	tar -czf "$subs/bob.tar.gz" -C "$stage/bob" bob
fi

# carol.zip: flat files, and what must be ignored: notes, a Makefile, a
# lab.c of her own (a student may not change how she is graded).
if want carol; then
	d=$stage/carol
	put "$d/sum.cu" $sol/sum.cu
	put "$d/argmax.cu" $sol/argmax.cu
	echo "my notes" > "$d/notes.txt"
	echo "all:" > "$d/Makefile"
	sed 's/1e-5/1e+5/' $skel/lab.c > "$d/lab.c"
	(cd "$d" && zip -q -r "$subs/carol.zip" .)
fi

# dave: a folder; sum does not compile, argmax is fine.
if want dave; then
	put "$subs/dave/05-reduction/sum.cu" $broken/compile-error/05-reduction/sum.cu
	put "$subs/dave/05-reduction/argmax.cu" $sol/argmax.cu
fi

# erin.tgz: her whole working copy's labs/ folder; sum is wrong.
if want erin; then
	put "$stage/erin/labs/05-reduction/sum.cu" $broken/wrong-answer/05-reduction/sum.cu
	put "$stage/erin/labs/05-reduction/argmax.cu" $sol/argmax.cu
	put "$stage/erin/labs/05-reduction/naive.cu" $skel/naive.cu
	tar -czf "$subs/erin.tgz" -C "$stage/erin" labs
fi

# frank.tar.gz: sum never ends.
if want frank; then
	put "$stage/frank/05-reduction/sum.cu" $broken/endless-loop/05-reduction/sum.cu
	put "$stage/frank/05-reduction/argmax.cu" $sol/argmax.cu
	tar -czf "$subs/frank.tar.gz" -C "$stage/frank" 05-reduction
fi

# grace.zip: sum crashes the host; an older, correct copy deeper down
# must not be the one taken.
if want grace; then
	d=$stage/grace
	put "$d/05-reduction/sum.cu" $broken/host-segfault/05-reduction/sum.cu
	put "$d/05-reduction/argmax.cu" $sol/argmax.cu
	put "$d/old/05-reduction/sum.cu" $sol/sum.cu
	(cd "$d" && zip -q -r "$subs/grace.zip" .)
fi

# heidi: nothing usable: a README and a .cpp.
if want heidi; then
	mkdir -p "$subs/heidi"
	echo "I ran out of time" > "$subs/heidi/README.md"
	cp $sol/sum.cu "$subs/heidi/sum.cpp"
fi

# ivan.tar.gz: hostile: a path out of the folder, an absolute path, and
# sum.cu as a link to /etc/passwd. Only argmax is a real file.
if want ivan; then
	d=$stage/ivan
	mkdir -p "$d/05-reduction"
	echo "int escaped;" > "$d/evil.cu"
	echo "int absolute;" > "$d/abs.cu"
	ln -s /etc/passwd "$d/05-reduction/sum.cu"
	cp $sol/argmax.cu "$d/05-reduction/argmax.cu"
	tar -czf "$subs/ivan.tar.gz" -C "$d" -P \
		--transform 's|^evil\.cu$|../../ivan-escaped.cu|' \
		--transform 's|^abs\.cu$|/tmp/ivan-absolute.cu|' \
		evil.cu abs.cu 05-reduction/sum.cu 05-reduction/argmax.cu 2> /dev/null
fi

# mallory: malicious (tests/batch/mallory-sum.cu.in); no argmax.
if want mallory; then
	mkdir -p "$subs/mallory/05-reduction"
	sed -e "s|@NEIGHBOUR@|$subs/alice/05-reduction/sum.cu|g" \
	    -e "s|@REPO@|$repo|g" -e "s|@OUT@|$out|g" -e "s|@SUBS@|$subs|g" \
	    -e "s|@PORT@|$port|g" tests/batch/mallory-sum.cu.in \
		> "$subs/mallory/05-reduction/sum.cu"
fi

# oscar: sum writes past its output.
if want oscar; then
	put "$subs/oscar/05-reduction/sum.cu" $broken/out-of-bounds/05-reduction/sum.cu
	put "$subs/oscar/05-reduction/argmax.cu" $sol/argmax.cu
fi

# peggy.zip: the skeletons, untouched.
if want peggy; then
	d=$stage/peggy
	put "$d/05-reduction/sum.cu" $skel/sum.cu
	put "$d/05-reduction/argmax.cu" $skel/argmax.cu
	(cd "$d" && zip -q -r "$subs/peggy.zip" .)
fi

# trent.zip: not a zip at all (an upload that went wrong).
if want trent; then
	head -c 3000 $sol/sum.cu > "$subs/trent.zip"
fi

echo "$(ls "$subs" | wc -l) submissions in $subs"
