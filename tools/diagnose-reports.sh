#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/diagnose-reports.sh [--check] - the Nsight Compute recordings lab
# 07's `diagnose` reads, as labs/07-fusion/diagnose_reports.h.
#
# The pool is every recording of a naive kernel under tests/profile/
# (NAME-naive.csv and its record NAME-naive.result, recorded unedited by
# tests/gpu/record-ncu.sh; the solutions' and ladder steps' recordings
# stay out: the handout does not ship them). Each is cut to what the
# exercise reads: ncu's header row, its units row and its kernel rows,
# with only the columns below, still in ncu's CSV format, which lab.c
# parses at run time; and the record's minimum bytes and operations.
# Nothing is judged here: the header holds no answer.
#
#   --check   write nothing: exit 1 when the committed header is not what
#             the recordings give now (make test runs this)
#
# Exit status: 0 done (or current); 1 stale; 2 a recording is missing.

set -u
cd "$(dirname "$0")/.." || exit 2
out=labs/07-fusion/diagnose_reports.h
cols='Kernel Name,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,sm__sass_data_bytes_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__thread_inst_executed_per_inst_executed.ratio,launch__waves_per_multiprocessor'
tmp=$(mktemp "${TMPDIR:-/tmp}/diagnose-reports.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT

{
	cat <<'HEAD'
/* SPDX-License-Identifier: MIT */
/*
 * diagnose_reports.h - the Nsight Compute recordings lab 07's diagnose
 * reads: tests/profile/NAME-naive.csv, cut to ncu's header, units and
 * kernel rows and to the columns the exercise uses, in ncu's CSV format
 * (lab.c parses it); and each record's minimum bytes and operations.
 * Written by tools/diagnose-reports.sh from the recordings: do not
 * edit. Recorded on an NVIDIA H100 80GB HBM3, Nsight Compute 2025.3.1
 * (tests/profile/README.md in the instructor's copy).
 */
struct diag_recording {
	const char *name;  /* the exercise and implementation recorded */
	const char *shape; /* its benchmark shape */
	double min_bytes;  /* the task's fewest bytes (traffic()) */
	double flops;      /* its operations; 0: a memory-bound task */
	const char *csv;   /* ncu's output, cut */
};

static const struct diag_recording diag_recordings[] = {
HEAD
	for f in tests/profile/*-naive.csv; do
		[ -f "$f" ] || { echo "diagnose-reports: no recordings" >&2; exit 2; }
		name=$(basename "$f" .csv)
		rec=tests/profile/$name.result
		[ -f "$rec" ] || { echo "diagnose-reports: no $rec" >&2; exit 2; }
		shape=$(sed -n 's/^shape //p' "$rec")
		bytes=$(sed -n 's/^bytes //p' "$rec")
		flops=$(sed -n 's/^flops //p' "$rec")
		printf '\t{ "%s", "%s", %s, %s,\n' "$name" "$shape" "${bytes:-0}" "${flops:-0}"
		# Every field is quoted, and none holds '","': split on it.
		awk -v cols="$cols" '
			BEGIN { n = split(cols, want, ",") }
			/^"/ {
				line = substr($0, 2, length($0) - 2)
				sub(/"\r$/, "", line)
				m = split(line, f, /","/)
				if (f[1] == "ID") {
					for (i = 1; i <= m; i++) col[f[i]] = i
					for (j = 1; j <= n; j++)
						if (!(want[j] in col)) {
							print "no column " want[j] > "/dev/stderr"
							exit 2
						}
					units = 1
				} else if (!(units || f[1] ~ /^[0-9]+$/)) {
					next
				}
				if (f[1] != "ID")
					units = 0
				s = ""
				for (j = 1; j <= n; j++) {
					v = f[col[want[j]]]
					gsub(/\\/, "\\\\", v)
					gsub(/"/, "\\\"\\\"", v)
					s = s (j > 1 ? "," : "") "\\\"" v "\\\""
				}
				printf "\t  \"%s\\n\"\n", s
			}' "$f" || exit 2
		printf '\t},\n'
	done
	printf '};\n'
} > "$tmp" || exit 2

if cmp -s "$tmp" "$out"; then
	echo "diagnose-reports: $out is current"
elif [ "${1:-}" = --check ]; then
	echo "diagnose-reports: $out is not what tests/profile/ gives (tools/diagnose-reports.sh writes it)"
	exit 1
else
	cp "$tmp" "$out" && echo "diagnose-reports: wrote $out"
fi
