#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/deps.sh - make test-deps: what make test needs, and what it found.
#
# Required (make test stops without them): pkg-config and the C libraries
# cmocka and jansson, which the unit tests link. Optional: without them the
# sections that use them say SKIP and why (the format schemas: xmllint and
# python3's jsonschema; the Gradescope bundle: zip and unzip; make batch's
# sandbox: bubblewrap; the one-node Slurm test: slurmctld, slurmd, sbatch
# and munged). .ci/run installs all of them; the Debian packages are named
# on each line. Exit status 1 when a required one is missing.

missing=0

found() { printf '  %-14s %s\n' "$1" "$2"; }
lacks() { printf '  %-14s not found: %s\n' "$1" "$2"; }

echo "make test needs (required):"
if command -v pkg-config > /dev/null 2>&1 && pkg-config --exists cmocka jansson 2> /dev/null; then
	found cmocka "$(pkg-config --modversion cmocka)"
	found jansson "$(pkg-config --modversion jansson)"
else
	for lib in cmocka jansson; do
		if pkg-config --exists $lib 2> /dev/null; then
			found $lib "$(pkg-config --modversion $lib)"
		else
			lacks $lib "sudo apt-get install lib$lib-dev pkg-config"
			missing=1
		fi
	done
fi

echo "Sections that SKIP without these (optional):"
# tool TOOL PACKAGE WHAT
tool() {
	if command -v "$1" > /dev/null 2>&1; then
		found "$1" "$(command -v "$1")"
	else
		lacks "$1" "$3 (sudo apt-get install $2)"
	fi
}
tool xmllint libxml2-utils "the JUnit schema (formats)"
if python3 -c 'import jsonschema' 2> /dev/null; then
	found jsonschema "python3 $(python3 -c 'import jsonschema, sys; sys.stdout.write(getattr(jsonschema, "__version__", "?"))' 2> /dev/null)"
else
	lacks jsonschema "the JSON schemas (formats) (sudo apt-get install python3-jsonschema)"
fi
tool zip zip "the Gradescope bundle, batch archives (gradescope, batch)"
tool unzip unzip "the Gradescope bundle, batch archives (gradescope, batch)"
tool bwrap bubblewrap "the sandbox (batch, gradescope, slurm)"
for t in slurmctld slurmd sbatch; do
	tool $t "slurmctld slurmd slurm-client" "a one-node Slurm (slurm)"
done
tool munged munge "a one-node Slurm (slurm)"

if [ $missing -ne 0 ]; then
	echo "make test cannot run without the required ones above."
	exit 1
fi
echo "make test can run (each optional one missing makes its sections SKIP)."
