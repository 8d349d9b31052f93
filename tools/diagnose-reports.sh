#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/diagnose-reports.sh [--check] - the Nsight Compute recordings lab
# 07's `diagnose` reads, as labs/07-fusion/diagnose_reports.h; and those
# its `compare` and `stalls` read, as labs/07-fusion/recordings.h.
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
# recordings.h holds every recording of tests/profile/ (the naive, the
# solution and the ladder steps of each exercise recorded; not the
# provisional refusal), each cut to the columns compare and stalls read:
# the time, the three throughputs, the DRAM bytes, the cycles between
# two instructions of a warp and the seventeen stall reasons. The kernel
# names, grids, block sizes and registers stay out: they would tell a
# solution's technique, which is why tools/handout.exclude keeps the
# solutions' and ladder steps' own recordings out of the handout. With
# each, its place in its exercise's ladder (0 the naive, N the ladder
# step N, 100 the solution), the record's minimum bytes, and the task's
# floating-point operations: the record's (matmul), else counted from
# the task's definition and its benchmark shape, below (task_flops).
#
#   --check   write nothing: exit 1 when a committed header is not what
#             the recordings give now (make test runs this)
#
# Exit status: 0 done (or current); 1 stale; 2 a recording is missing.

set -u
cd "$(dirname "$0")/.." || exit 2
out=labs/07-fusion/diagnose_reports.h
cols='Kernel Name,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,sm__sass_data_bytes_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__thread_inst_executed_per_inst_executed.ratio,launch__waves_per_multiprocessor'
# cut COLUMNS FILE: ncu's header, units and kernel rows of FILE, with only
# COLUMNS (comma-separated, in that order), as C string lines.
cut_csv() {
	# Every field is quoted, and none holds '","': split on it.
	awk -v cols="$1" '
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
		}' "$2"
}

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
		cut_csv "$cols" "$f" || exit 2
		printf '\t},\n'
	done
	printf '};\n'
} > "$tmp" || exit 2

# task_flops EXERCISE SHAPE: the task's floating-point operations by its
# definition (the lab's README), at its benchmark shape; 0 where it has
# none (integer arithmetic, comparisons, data movement). An add per
# element summed, a multiply per mean; a multiply-add (2) per element of
# matvec's matrix; the nine operations of gelu's chain per element
# (tanh counted as one: the naive launches a kernel for each).
task_flops() {
	echo "$2" | awk -v ex="$1" '{
		s = $0; sub(/^n=/, "", s)
		if (s ~ /M$/) { sub(/M$/, "", s); s *= 1048576 }
		n = split(s, d, "x")
		if (ex == "mean_dim0" && n == 3) print d[1] * d[2] * d[3] + d[2] * d[3]
		else if (ex == "matvec" && n == 2) print 2 * d[1] * d[2]
		else if ((ex == "sum" || ex == "segment_sum") && n == 1) print s
		else if (ex == "gelu" && n == 1) print 9 * s
		else print 0
	}'
}

rcols='gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,smsp__average_warp_latency_per_inst_issued.ratio'
for r in barrier branch_resolving dispatch_stall drain imc_miss lg_throttle \
	 long_scoreboard math_pipe_throttle membar mio_throttle misc \
	 no_instruction not_selected short_scoreboard sleeping tex_throttle wait; do
	rcols="$rcols,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
rout=labs/07-fusion/recordings.h
rtmp=$(mktemp "${TMPDIR:-/tmp}/recordings.XXXXXX") || exit 2
trap 'rm -f "$tmp" "$rtmp"' EXIT
{
	cat <<'HEAD'
/* SPDX-License-Identifier: MIT */
/*
 * recordings.h - the Nsight Compute recordings lab 07's compare and
 * stalls read: every tests/profile/NAME.csv (the naive, the solution
 * and the ladder steps recorded), cut to ncu's header, units and kernel
 * rows and to the columns those exercises use, in ncu's CSV format
 * (their lab code parses it; the kernel names are left out); with each,
 * its place in its exercise's ladder, the record's minimum bytes and the
 * task's floating-point operations. Written by tools/diagnose-reports.sh
 * from the recordings: do not edit. Recorded on an NVIDIA H100 80GB
 * HBM3, Nsight Compute 2025.3.1 (tests/profile/README.md in the
 * instructor's copy).
 */
struct recording {
	const char *exercise; /* the exercise recorded */
	const char *version;  /* naive, solution, or the ladder step */
	int step;             /* 0 the naive, N ladder step N, 100 the solution */
	const char *shape;    /* its benchmark shape */
	double min_bytes;     /* the task's fewest bytes (traffic()) */
	double flops;         /* the task's floating-point operations; 0: none */
	const char *csv;      /* ncu's output, cut */
};

static const struct recording recordings[] = {
HEAD
	for f in tests/profile/*.csv; do
		name=$(basename "$f" .csv)
		case $name in *.provisional) continue ;; esac
		rec=tests/profile/$name.result
		[ -f "$rec" ] || { echo "diagnose-reports: no $rec" >&2; exit 2; }
		case $name in
		*-naive) ex=${name%-naive} version=naive step=0 ;;
		*-solution) ex=${name%-solution} version=solution step=100 ;;
		*-[0-9]-*)
			version=$(echo "$name" | sed 's/^.*-\([0-9]-.*\)$/\1/')
			ex=${name%-"$version"} step=${version%%-*} ;;
		*) echo "diagnose-reports: $name: not NAME-naive, NAME-solution or NAME-N-step" >&2; exit 2 ;;
		esac
		shape=$(sed -n 's/^shape //p' "$rec")
		bytes=$(sed -n 's/^bytes //p' "$rec")
		flops=$(sed -n 's/^flops //p' "$rec")
		[ -n "$flops" ] || flops=$(task_flops "$ex" "$shape")
		printf '\t{ "%s", "%s", %s, "%s", %s, %s,\n' "$ex" "$version" "$step" \
			"$shape" "${bytes:-0}" "$flops"
		cut_csv "$rcols" "$f" || exit 2
		printf '\t},\n'
	done
	printf '};\n'
} > "$rtmp" || exit 2

status=0
for pair in "$tmp $out" "$rtmp $rout"; do
	from=${pair% *} to=${pair#* }
	if cmp -s "$from" "$to"; then
		echo "diagnose-reports: $to is current"
	elif [ "${1:-}" = --check ]; then
		echo "diagnose-reports: $to is not what tests/profile/ gives (tools/diagnose-reports.sh writes it)"
		status=1
	else
		cp "$from" "$to" && echo "diagnose-reports: wrote $to"
	fi
done
exit $status
