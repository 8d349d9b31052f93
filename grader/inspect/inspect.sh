#!/bin/sh
# SPDX-License-Identifier: MIT
#
# grader/inspect/inspect.sh - what a student's compiled file contains, for the
# driver's symbol and technique checks (grader/inspect/inspect.c). Run by make right
# after a runner is linked; every failure is tolerated (the driver then says
# what it could not check).
#
#   sh grader/inspect/inspect.sh RUNNER SOURCE PTXFLAGS LAB-OBJECTS...
#
# RUNNER.o is the student's object; LAB-OBJECTS are the lab's own (lab.c,
# the naive references, the peers). Writes, next to the runner:
#   RUNNER.syms     its symbol table: "TYPE NAME<TAB>DEMANGLED", one a line
#   RUNNER.ctors    each entry of its constructor and destructor tables
#                   (every section whose name begins .init_array,
#                   .fini_array, .preinit_array, .ctors or .dtors, or whose
#                   type is one of those tables; code in .init or .fini):
#                   "SECTION FUNCTION REFERENCED-SYMBOLS...<TAB>DEMANGLED"
#   RUNNER.calls    who refers to what: "CALLEE CALLER" for every reference
#                   to a symbol the file does not define; CALLER is the
#                   function the reference sits in, or the section's name
#                   (".data.rel.ro", ...) for a reference from data
#   RUNNER.entries  the lab's entry points: what the lab's code references
#                   weakly (the students' functions, declared #pragma weak)
#   RUNNER.labsyms  what the lab's objects define (global symbols), one a
#                   line: a reference to one of them is not the student's
#   RUNNER.hostsys  system-call instructions in the host code (syscall,
#                   sysenter, int $0x80): "INSTRUCTION FUNCTION<TAB>
#                   DEMANGLED", one a line; empty when there are none
#   RUNNER.ptx      its PTX (nvcc -ptx -rdc=true, so that every device
#                   function and variable is listed, inlined or not)
#   RUNNER.resources  each kernel's registers, static shared memory, stack
#                   and spills, from ptxas (see below)
# NVCC (environment) names nvcc; binutils' nm, readelf and objdump do the
# rest. The SASS (RUNNER.sass) is not made here: the driver runs cuobjdump
# itself when an exercise's rule reads it (grader/inspect/inspect.c). PTX_MADE (environment): the PTX, already compiled by the caller
# (the Makefile does it beside the object), to move into place.

set -u
runner=$1 src=$2 ptxflags=$3
shift 3
obj=$runner.o
NVCC=${NVCC:-nvcc}

rm -f "$runner.syms" "$runner.ctors" "$runner.calls" "$runner.entries" \
	"$runner.labsyms" "$runner.hostsys" "$runner.ptx" "$runner.sass" \
	"$runner.resources" "$runner.inspect.log"
exec 2> "$runner.inspect.log"

# Symbols, with demangled names for the messages (same order both ways).
if nm --no-sort "$obj" > "$runner.nm.tmp"; then
	awk '{ if (NF == 2) print $1, $2; else print $2, $3 }' "$runner.nm.tmp" > "$runner.names.tmp"
	cut -d' ' -f2 "$runner.names.tmp" | c++filt > "$runner.dem.tmp" &&
		paste "$runner.names.tmp" "$runner.dem.tmp" > "$runner.syms"
fi
rm -f "$runner.nm.tmp" "$runner.names.tmp" "$runner.dem.tmp"

# Constructor tables: resolve each entry (a section symbol plus an offset,
# usually) to the function at that place, and list what that function's
# own code refers to. A table is any section that ld gathers into one
# (.init_array.00100, C++'s init_priority and constructor(N), included) or
# that has a table's type. Calls: each reference to an undefined symbol,
# with the function it sits in (the section's name for data).
{ readelf -SW "$obj"; echo "@@symbols"; readelf -sW "$obj"; echo "@@relocs"; readelf -rW "$obj"; } |
awk -v calls="$runner.calls" '
function hex(s,    i, c, v) {
	sub(/^0[xX]/, "", s); v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", tolower(substr(s, i, 1)))
		if (!c) return v
		v = v * 16 + c - 1
	}
	return v
}
function num(s) { return s ~ /^0[xX]/ ? hex(s) : s + 0 }
# Is section sec a constructor or destructor table?
function is_table(sec,    t) {
	for (t = 1; t in tables; t++)
		if (substr(sec, 1, length(tables[t])) == tables[t])
			return 1
	return sectype[sec] ~ /^(INIT_ARRAY|FINI_ARRAY|PREINIT_ARRAY)$/
}
# The function of section index x that holds offset off, or "?".
function holder(x, off,    k) {
	for (k = 1; k <= nf[x]; k++)
		if (off >= fa[x, k] && off < fa[x, k] + fz[x, k])
			return fnm[x, k]
	return "?"
}
BEGIN { split(".init_array .fini_array .preinit_array .ctors .dtors", tables, " ") }
/^@@symbols/ { part = "s"; next }
/^@@relocs/ { part = "r"; next }
part == "" && /^ *\[ *[0-9]+\]/ {
	line = $0; sub(/^ *\[ */, "", line); split(line, f, /[] ]+/)
	secname[f[1]] = f[2]; secidx[f[2]] = f[1]; sectype[f[2]] = f[3]
	secsize[f[2]] = hex(f[6]); next
}
part == "s" && $1 ~ /^[0-9]+:$/ && $7 == "UND" && NF >= 8 { und[$8] = 1; next }
part == "s" && $1 ~ /^[0-9]+:$/ && $4 == "FUNC" {
	fn[$7, hex($2)] = $8; fsize[$8] = num($3); fsec[$8] = $7
	faddr[$8] = hex($2)
	k = ++nf[$7]; fa[$7, k] = hex($2); fz[$7, k] = num($3); fnm[$7, k] = $8
	next
}
part == "r" && /^Relocation section/ {
	cur = $3; gsub(/\047/, "", cur); sub(/^\.rela?/, "", cur); next
}
part == "r" && $1 ~ /^[0-9a-f]+$/ && NF >= 5 {
	off = hex($1); sym = $5
	add = (NF >= 7) ? hex($7) : 0
	if ($6 == "-") add = -add
	n = ++nrel[cur]; roff[cur, n] = off; rsym[cur, n] = sym; radd[cur, n] = add
}
END {
	for (sec in nrel) {
		if (substr(sec, 1, 6) == ".debug" || !(sec in secidx))
			continue
		text = substr(sec, 1, 5) == ".text"
		for (i = 1; i <= nrel[sec]; i++) {
			if (!(rsym[sec, i] in und))
				continue
			print rsym[sec, i], text ? holder(secidx[sec], roff[sec, i]) : sec > calls
		}
	}
	for (tab in nrel) {
		if (!is_table(tab))
			continue
		for (i = 1; i <= nrel[tab]; i++) {
			sym = rsym[tab, i]; name = sym
			if (sym in secidx && (secidx[sym], radd[tab, i]) in fn)
				name = fn[secidx[sym], radd[tab, i]]
			else if (sym in secidx)
				name = sym "+" radd[tab, i]
			refs = ""
			if (name in fsize) {
				body = secname[fsec[name]]
				lo = faddr[name]; hi = lo + fsize[name]
				for (j = 1; j <= nrel[body]; j++)
					if (roff[body, j] >= lo && roff[body, j] < hi)
						refs = refs " " rsym[body, j]
			}
			print tab, name refs
		}
	}
	# Code placed in .init or .fini runs before or after main as well.
	for (sec in secidx)
		if ((sec == ".init" || sec == ".fini") && secsize[sec] > 0)
			print sec, sec
}' > "$runner.ctors.tmp"
# Each line gets the function's demangled name after a tab, for messages.
awk '{ print $2 }' "$runner.ctors.tmp" | c++filt > "$runner.dem.tmp" &&
	paste "$runner.ctors.tmp" "$runner.dem.tmp" > "$runner.ctors"
rm -f "$runner.ctors.tmp" "$runner.dem.tmp"

# The lab's entry points: weak references of the lab's own objects. What
# the lab's objects define: the naive references, the peers, the table.
for o in "$@"; do
	nm "$o"
done | awk '$1 == "w" { print $2 }' | sort -u > "$runner.entries"
for o in "$@"; do
	nm -g --defined-only "$o"
done | awk 'NF >= 3 { print $3 }' | sort -u > "$runner.labsyms"

# System-call instructions in the host code (inline assembly), with the
# function each sits in. Device code is not x86: it is in the fatbinary,
# which is data to objdump.
if objdump -d -w --no-show-raw-insn "$obj" > "$runner.dis.tmp"; then
	awk '
	/^Disassembly of section / { fn = $4; sub(/:$/, "", fn); next }
	/^[0-9a-f]+ <.*>:$/ { fn = $2; sub(/^</, "", fn); sub(/>:$/, "", fn); next }
	{
		tab = index($0, "\t")
		if (!tab)
			next
		insn = substr($0, tab + 1)
		if (insn ~ /(^|[ \t])syscall([ \t]|$)/)
			print "syscall", fn
		else if (insn ~ /(^|[ \t])sysenter([ \t]|$)/)
			print "sysenter", fn
		else if (insn ~ /(^|[ \t])int[ \t]+\$?0x80([ \t,]|$)/)
			print "int$0x80", fn
	}' "$runner.dis.tmp" > "$runner.sys.tmp" &&
	awk '{ print $2 }' "$runner.sys.tmp" | c++filt > "$runner.dem.tmp" &&
	paste "$runner.sys.tmp" "$runner.dem.tmp" > "$runner.hostsys"
fi
rm -f "$runner.dis.tmp" "$runner.sys.tmp" "$runner.dem.tmp"

# Each kernel's resources, as ptxas reported them in the compile's log (the
# Makefile compiles student files with -Xptxas -v): "FUNCTION ARCH
# REGISTERS SHARED STACK SPILL-STORES SPILL-LOADS<TAB>DEMANGLED", one a
# line (SHARED: static shared memory, bytes). The lines are then taken out
# of the log, which is kept for errors and warnings.
if [ -f "$runner.log" ]; then
	awk '
	/^ptxas info *: Compiling entry function / {
		fn = $0; sub(/.*function \047/, "", fn); sub(/\047.*/, "", fn)
		arch = $0; sub(/.*for \047/, "", arch); sub(/\047.*/, "", arch)
		stack = stores = loads = 0
		next
	}
	/bytes stack frame, .* bytes spill stores, .* bytes spill loads/ {
		stack = $1; stores = $5; loads = $9
		next
	}
	/^ptxas info *: Used [0-9]+ registers/ && fn != "" {
		regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
		smem = 0
		if ($0 ~ /[0-9]+ bytes smem/) {
			smem = $0; sub(/ bytes smem.*/, "", smem); sub(/.* /, "", smem)
		}
		print fn, arch, regs, smem, stack, stores, loads
		fn = ""
	}' "$runner.log" > "$runner.res.tmp"
	cut -d' ' -f1 "$runner.res.tmp" | c++filt > "$runner.dem.tmp" &&
		paste "$runner.res.tmp" "$runner.dem.tmp" > "$runner.resources"
	grep -v -e '^ptxas info' -e 'bytes stack frame, .* bytes spill stores' \
		"$runner.log" > "$runner.log.tmp"
	[ $? -le 1 ] && mv -f "$runner.log.tmp" "$runner.log" # 1: nothing else
	rm -f "$runner.res.tmp" "$runner.dem.tmp" "$runner.log.tmp"
fi

# PTX of the student's file alone; -rdc=true keeps every device function.
# The Makefile compiles it beside the object and names it in PTX_MADE; it
# is moved here, after the link, so that it is newer than the runner.
if [ -n "${PTX_MADE:-}" ]; then
	if [ -s "$PTX_MADE" ]; then
		mv -f "$PTX_MADE" "$runner.ptx" && touch "$runner.ptx"
	else
		cat "$runner.ptx.log" >&2
	fi
else
	"$NVCC" $ptxflags -rdc=true -ptx "$src" -o "$runner.ptx" || rm -f "$runner.ptx"
fi

exit 0
