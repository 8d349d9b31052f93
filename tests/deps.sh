#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/deps.sh [--install] - make test-deps: what make test needs, and
# what it found. With --install (make test), what is missing is installed
# first on Debian and Ubuntu, required and optional alike: with apt-get
# as root, or through sudo -n (sudo without a password prompt); where it
# can do neither, one line says the command to type, and make test goes
# on with what is there (the sections that need a missing optional one
# SKIP) or, when a required one is missing, stops. TEST_INSTALL=0 (make
# test TEST_INSTALL=0) installs nothing.
#
# Required (make test stops without them): pkg-config and the C libraries
# cmocka and jansson, which the unit tests link. Optional: without them the
# sections that use them say SKIP and why (the format schemas: xmllint and
# python3's jsonschema; the Gradescope bundle: zip and unzip; make batch's
# sandbox: bubblewrap; the one-node Slurm test: slurmctld, slurmd, sbatch
# and munged; the report's browser test: chromium). The Debian packages
# are named on each line. Exit status 1 when a required one is missing.

# The Debian packages of what is not here, one a line.
wanted() {
	command -v pkg-config > /dev/null 2>&1 || echo pkg-config
	pkg-config --exists cmocka 2> /dev/null || echo libcmocka-dev
	pkg-config --exists jansson 2> /dev/null || echo libjansson-dev
	command -v xmllint > /dev/null 2>&1 || echo libxml2-utils
	python3 -c 'import jsonschema' 2> /dev/null || echo python3-jsonschema
	for t in zip unzip; do command -v $t > /dev/null 2>&1 || echo $t; done
	command -v bwrap > /dev/null 2>&1 || echo bubblewrap
	for t in slurmctld slurmd; do command -v $t > /dev/null 2>&1 || echo $t; done
	command -v sbatch > /dev/null 2>&1 || echo slurm-client
	command -v munged > /dev/null 2>&1 || echo munge
	command -v chromium > /dev/null 2>&1 || echo chromium
}

# Install what is missing, where this machine lets us: Debian or Ubuntu,
# as root or with sudo -n. Says what it does, or the command to type.
install_deps() {
	pkgs=$(wanted | tr '\n' ' ' | sed 's/ *$//')
	[ -n "$pkgs" ] || return 0
	if ! command -v apt-get > /dev/null 2>&1; then
		echo "make test: not Debian or Ubuntu: install $pkgs (or what your system calls them)"
		return 0
	fi
	if [ "$(id -u)" -eq 0 ]; then
		as=""
	elif command -v sudo > /dev/null 2>&1 && sudo -n true 2> /dev/null; then
		as="sudo -n"
	else
		echo "make test: to install what it needs, type: sudo apt-get install $pkgs"
		return 0
	fi
	echo "make test: installing $pkgs (apt-get${as:+, through sudo -n})"
	export DEBIAN_FRONTEND=noninteractive
	$as apt-get update -qq > /dev/null 2>&1
	$as apt-get install -y -qq --no-install-recommends $pkgs > /dev/null 2>&1 ||
		echo "make test: apt-get install $pkgs failed; what it could not install SKIPs or stops below"
}

missing=0
[ "${1:-}" = --install ] && [ "${TEST_INSTALL:-1}" != 0 ] && install_deps

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
tool chromium chromium "the report's browser test (report)"

if [ $missing -ne 0 ]; then
	echo "make test cannot run without the required ones above."
	exit 1
fi
echo "make test can run (each optional one missing makes its sections SKIP)."
