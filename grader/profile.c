/* SPDX-License-Identifier: MIT */
/*
 * profile.c - Nsight Compute's numbers, read and explained (profile.h).
 *
 * The format read is what `ncu --csv --page raw --print-units base
 * --metrics LIST` prints: ncu's "==WARNING==" and "==PROF==" lines, then a
 * header row whose first field is "ID" (the launch columns, then one column
 * per metric), a units row whose first field is empty, and one row per
 * profiled kernel. Every field is quoted; kernel names hold commas and
 * numbers hold thousands separators ("1,048,576", "64,806.40"); a metric
 * that does not apply reads "n/a". Anything else in the text (the
 * program's own output) is skipped.
 *
 * The page has far more columns than were asked for (ncu 2025.3 on an
 * H100: 392): every device__attribute_*, launch__*, nvlink__* and
 * profiler__* figure, and for each metric asked by its full name
 * ("dram__bytes_read.sum") the .avg, .max and .min of the same counter
 * too. So no column count is assumed, and a column is taken only when its
 * name is exactly one of the metric table's.
 */
#include "profile.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the metrics ---- */

/* How a metric combines over the kernels of one call. */
enum agg {
	AGG_SUM,  /* a count: add */
	AGG_TIME, /* a rate, a ratio, a percentage: weight by duration */
	AGG_MAIN, /* a launch figure: take the longest kernel's */
};

/* What the units row may scale. */
enum unit { U_NONE, U_TIME, U_BYTES };

struct metric {
	const char *name;
	enum agg agg;
	enum unit unit;
};

#define STALL(r) "smsp__average_warps_issue_stalled_" r "_per_issue_active.ratio"

const char *const prof_stall_names[PROF_NSTALLS] = {
	"barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss",
	"lg_throttle", "long_scoreboard", "math_pipe_throttle", "membar",
	"mio_throttle", "misc", "no_instruction", "not_selected",
	"short_scoreboard", "sleeping", "tex_throttle", "wait",
};

/* What each stall reason means, in the student's terms. */
static const char *const stall_meaning[PROF_NSTALLS] = {
	"waiting at __syncthreads() for the rest of the block",
	"waiting for a branch target to be computed",
	"the dispatcher could not take the instruction",
	"waiting for stores to drain before the warp exits",
	"waiting for the constant cache",
	"the queue of global/local memory instructions is full",
	"waiting for data from global or local memory",
	"an arithmetic pipe is busy: compute is the limit",
	"waiting at a memory fence",
	"the queue of shared-memory and special instructions is full",
	"other reasons",
	"waiting for instructions (instruction cache miss)",
	"ready, but another warp issued: latency is hidden",
	"waiting for shared memory or a special function's result",
	"sleeping (__nanosleep)",
	"the texture queue is full",
	"a fixed wait for the previous instruction's result",
};

static const struct metric metrics[PROF_NMETRICS] = {
	[M_TIME_NS] = { "gpu__time_duration.sum", AGG_SUM, U_TIME },
	[M_DRAM_RD] = { "dram__bytes_read.sum", AGG_SUM, U_BYTES },
	[M_DRAM_WR] = { "dram__bytes_write.sum", AGG_SUM, U_BYTES },
	[M_L2_WR_SECTORS] = { "lts__t_sectors_srcunit_tex_op_write.sum", AGG_SUM, U_NONE },
	[M_DRAM_PCT] = { "dram__throughput.avg.pct_of_peak_sustained_elapsed", AGG_TIME, U_NONE },
	[M_L2_PCT] = { "lts__throughput.avg.pct_of_peak_sustained_elapsed", AGG_TIME, U_NONE },
	[M_SM_PCT] = { "sm__throughput.avg.pct_of_peak_sustained_elapsed", AGG_TIME, U_NONE },
	[M_LD_SECTORS] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", AGG_SUM, U_NONE },
	[M_LD_REQUESTS] = { "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", AGG_SUM, U_NONE },
	[M_LD_BYTES] = { "sm__sass_data_bytes_mem_global_op_ld.sum", AGG_SUM, U_BYTES },
	[M_ST_SECTORS] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", AGG_SUM, U_NONE },
	[M_ST_REQUESTS] = { "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", AGG_SUM, U_NONE },
	[M_ST_BYTES] = { "sm__sass_data_bytes_mem_global_op_st.sum", AGG_SUM, U_BYTES },
	[M_SH_LD_INST] = { "smsp__sass_inst_executed_op_shared_ld.sum", AGG_SUM, U_NONE },
	[M_SH_ST_INST] = { "smsp__sass_inst_executed_op_shared_st.sum", AGG_SUM, U_NONE },
	[M_SH_LD_WAVES] = { "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", AGG_SUM, U_NONE },
	[M_SH_ST_WAVES] = { "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", AGG_SUM, U_NONE },
	[M_SH_LD_CONFLICTS] = { "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", AGG_SUM, U_NONE },
	[M_SH_ST_CONFLICTS] = { "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", AGG_SUM, U_NONE },
	[M_BR_TARGETS] = { "smsp__sass_branch_targets.sum", AGG_SUM, U_NONE },
	[M_BR_DIVERGENT] = { "smsp__sass_branch_targets_threads_divergent.sum", AGG_SUM, U_NONE },
	[M_BR_UNIFORM] = { "smsp__sass_branch_targets_threads_uniform.sum", AGG_SUM, U_NONE },
	[M_LANES] = { "smsp__thread_inst_executed_per_inst_executed.ratio", AGG_TIME, U_NONE },
	[M_OCC_ACHIEVED] = { "sm__warps_active.avg.pct_of_peak_sustained_active", AGG_TIME, U_NONE },
	[M_OCC_THEORETICAL] = { "sm__maximum_warps_per_active_cycle_pct", AGG_MAIN, U_NONE },
	[M_LIM_REGS] = { "launch__occupancy_limit_registers", AGG_MAIN, U_NONE },
	[M_LIM_SMEM] = { "launch__occupancy_limit_shared_mem", AGG_MAIN, U_NONE },
	[M_LIM_WARPS] = { "launch__occupancy_limit_warps", AGG_MAIN, U_NONE },
	[M_LIM_BLOCKS] = { "launch__occupancy_limit_blocks", AGG_MAIN, U_NONE },
	[M_REGS] = { "launch__registers_per_thread", AGG_MAIN, U_NONE },
	[M_WAVES] = { "launch__waves_per_multiprocessor", AGG_MAIN, U_NONE },
	[M_SMS] = { "device__attribute_multiprocessor_count", AGG_MAIN, U_NONE },
	[M_LOCAL_LD] = { "smsp__sass_inst_executed_op_local_ld.sum", AGG_SUM, U_NONE },
	[M_LOCAL_ST] = { "smsp__sass_inst_executed_op_local_st.sum", AGG_SUM, U_NONE },
	[M_STALL_TOTAL] = { "smsp__average_warp_latency_per_inst_issued.ratio", AGG_TIME, U_NONE },
	[M_STALL_FIRST + 0] = { STALL("barrier"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 1] = { STALL("branch_resolving"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 2] = { STALL("dispatch_stall"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 3] = { STALL("drain"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 4] = { STALL("imc_miss"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 5] = { STALL("lg_throttle"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 6] = { STALL("long_scoreboard"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 7] = { STALL("math_pipe_throttle"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 8] = { STALL("membar"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 9] = { STALL("mio_throttle"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 10] = { STALL("misc"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 11] = { STALL("no_instruction"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 12] = { STALL("not_selected"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 13] = { STALL("short_scoreboard"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 14] = { STALL("sleeping"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 15] = { STALL("tex_throttle"), AGG_TIME, U_NONE },
	[M_STALL_FIRST + 16] = { STALL("wait"), AGG_TIME, U_NONE },
};

const char *prof_metric_name(int m)
{
	return m >= 0 && m < PROF_NMETRICS ? metrics[m].name : NULL;
}

const char *const prof_hint_names[PROF_NHINTS] = {
	[H_COALESCING] = "coalescing", [H_GRID] = "grid",
	[H_OCCUPANCY] = "occupancy", [H_SPILLS] = "spills",
	[H_LATENCY] = "latency", [H_FUSION] = "fusion",
	[H_REREAD] = "reread", [H_BANKS] = "banks",
	[H_DIVERGENCE] = "divergence", [H_LG_THROTTLE] = "lg_throttle",
	[H_BARRIER] = "barrier", [H_INSTRUCTIONS] = "instructions",
};

void prof_group_names(unsigned groups, char *buf, size_t n)
{
	static const char *const names[] = {
		"coalescing", "throughput", "shared", "divergence",
		"occupancy", "stalls",
	};
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (groups & (1u << i) && len < n)
			len += snprintf(buf + len, n - len, "%s%s", len ? " " : "",
					names[i]);
}

/* ---- reading ncu's output ---- */

/* Column roles other than a metric. */
enum { COL_NONE = -1, COL_KERNEL = -2, COL_BLOCK = -3, COL_GRID = -4 };

struct csv_state {
	int have_header;
	int ncols;
	int *role;     /* per column: metric index or COL_*; ncols of them */
	double *scale; /* per column: from the units row */
};

/* The most fields a record of len characters can have: a comma each. */
static size_t max_fields(const char *line)
{
	size_t n = 1;

	for (; *line; line++)
		n += *line == ',';
	return n;
}

/*
 * Split one CSV record in place (RFC 4180: fields in double quotes may hold
 * commas, "" is a quote). Returns the number of fields, at most max.
 */
static int csv_split(char *line, char **field, int max)
{
	char *r = line, *w = line;
	int n = 0;

	while (n < max) {
		field[n++] = w;
		if (*r == '"') {
			for (r++; *r; r++) {
				if (*r == '"' && r[1] == '"')
					*w++ = *r++;
				else if (*r == '"')
					break;
				else
					*w++ = *r;
			}
			if (*r == '"')
				r++;
			while (*r && *r != ',')
				r++; /* junk after the closing quote */
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		if (*r != ',') {
			*w = '\0';
			break;
		}
		r++;
		*w++ = '\0';
	}
	return n;
}

static int metric_index(const char *name)
{
	for (int m = 0; m < PROF_NMETRICS; m++)
		if (strcmp(metrics[m].name, name) == 0)
			return m;
	return COL_NONE;
}

/* SI and binary prefixes of a unit ("Mbyte", "usecond", "Kibyte"). */
static double prefix_scale(const char *unit, const char *base)
{
	size_t ul = strlen(unit), bl = strlen(base);
	const char *p = unit;

	if (ul < bl || strcmp(unit + ul - bl, base) != 0)
		return NAN;
	if (ul - bl == 2 && p[1] == 'i')
		return p[0] == 'K' ? 1024.0 : p[0] == 'M' ? 1048576.0 :
		       p[0] == 'G' ? 1073741824.0 : NAN;
	if (ul == bl)
		return 1;
	if (ul - bl != 1)
		return NAN;
	switch (p[0]) {
	case 'n': return 1e-9;
	case 'u': return 1e-6;
	case 'm': return 1e-3;
	case 'K': return 1e3;
	case 'M': return 1e6;
	case 'G': return 1e9;
	case 'T': return 1e12;
	default: return NAN;
	}
}

/* The factor that brings a value in unit to the metric's canonical unit
 * (nanoseconds, bytes); 1 when there is nothing to scale. */
static double unit_factor(int m, const char *unit)
{
	double f;

	if (m < 0 || !*unit)
		return 1;
	/* ncu 2025.3's base units are "ns" and "byte"; others have printed
	 * "nsecond", "usecond", "Mbyte". */
	if (metrics[m].unit == U_TIME) {
		f = prefix_scale(unit, "second");
		if (isnan(f))
			f = prefix_scale(unit, "s");
		return isnan(f) ? 1 : f * 1e9;
	}
	if (metrics[m].unit == U_BYTES) {
		f = prefix_scale(unit, "byte");
		if (isnan(f))
			f = prefix_scale(unit, "B");
		return isnan(f) ? 1 : f;
	}
	return 1;
}

/* A number as ncu prints it: "1,048,576", "12.5", "n/a" (NAN). */
static double parse_number(const char *s)
{
	char buf[64], *end;
	size_t n = 0;
	double x = 0;

	for (; *s && n < sizeof(buf) - 1; s++)
		if (*s != ',' && !isspace((unsigned char)*s))
			buf[n++] = *s;
	buf[n] = '\0';
	if (!n)
		return NAN;
	x = strtod(buf, &end);
	return *end ? NAN : x;
}

/* "(256, 1, 1)" -> 256. Dimensions are separated by ", "; a comma right
 * before a digit is a thousands separator ("(262,144, 1, 1)"). */
static long parse_dim3(const char *s)
{
	long p = 1, x = 0;
	int k = 0, in = 0;

	for (;; s++) {
		if (isdigit((unsigned char)*s)) {
			x = 10 * x + (*s - '0');
			in = 1;
		} else if (*s == ',' && in && isdigit((unsigned char)s[1])) {
			continue;
		} else if (in) {
			p *= x;
			x = 0;
			in = 0;
			k++;
		}
		if (!*s)
			break;
	}
	return k ? p : 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* 0, or -1 when out of memory (the header is then not taken). */
static int header_row(struct csv_state *st, char **f, int n)
{
	int kernel = 0, *role;
	double *scale;

	for (int i = 0; i < n; i++)
		kernel |= strcmp(f[i], "Kernel Name") == 0;
	if (!kernel)
		return 0;
	role = realloc(st->role, n * sizeof(*role));
	if (role)
		st->role = role;
	scale = realloc(st->scale, n * sizeof(*scale));
	if (scale)
		st->scale = scale;
	if (!role || !scale)
		return -1;
	st->have_header = 1;
	st->ncols = n;
	for (int i = 0; i < n; i++) {
		st->scale[i] = 1;
		st->role[i] = !strcmp(f[i], "Kernel Name") ? COL_KERNEL :
			      !strcmp(f[i], "Block Size")  ? COL_BLOCK :
			      !strcmp(f[i], "Grid Size")   ? COL_GRID :
							     metric_index(f[i]);
	}
	return 0;
}

static void units_row(struct csv_state *st, char **f, int n)
{
	for (int i = 0; i < n && i < st->ncols; i++)
		st->scale[i] = unit_factor(st->role[i], f[i]);
}

static void kernel_row(struct csv_state *st, char **f, int n,
		       struct prof_run *r)
{
	struct prof_kernel *k;

	if (r->nk == PROF_MAX_KERNELS) {
		r->dropped_kernels++;
		return;
	}
	k = &r->k[r->nk++];
	memset(k, 0, sizeof(*k));
	for (int m = 0; m < PROF_NMETRICS; m++)
		k->m[m] = NAN;
	for (int i = 0; i < n && i < st->ncols; i++) {
		int role = st->role[i];

		if (role == COL_KERNEL) {
			/* The function's name: no parameter list. */
			size_t len = strcspn(f[i], "(");

			snprintf(k->name, sizeof(k->name), "%.*s",
				 (int)(len ? len : strlen(f[i])), f[i]);
		} else if (role == COL_BLOCK) {
			k->block = parse_dim3(f[i]);
		} else if (role == COL_GRID) {
			k->grid = parse_dim3(f[i]);
		} else if (role >= 0) {
			k->m[role] = parse_number(f[i]) * st->scale[i];
		}
	}
}

/*
 * "==ERROR== Failed to find metric regex:^name\.(sum|...)$" (or the plain
 * name): keep "name", up to the escaped dot or the end of the name.
 */
static void unknown_metric(const char *line, struct prof_run *r)
{
	const char *p = strstr(line, "regex:");
	size_t n;

	p = p ? p + 6 : strstr(line, "metric") + 6;
	while (*p == '^' || *p == ' ' || *p == '\'' || *p == '"')
		p++;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
	while (n && p[n - 1] == '.')
		n--;
	if (n && r->nunknown < PROF_MAX_UNKNOWN)
		snprintf(r->unknown[r->nunknown++], PROF_NAME_LEN, "%.*s",
			 (int)(n < PROF_NAME_LEN ? n : PROF_NAME_LEN - 1), p);
}

/* One of ncu's own lines: "==ERROR== ...", "==WARNING== ...". */
static void tool_line(const char *line, struct prof_run *r, int *errors)
{
	const char *msg = strstr(line, "==") + 2;

	msg = strstr(msg, "==") ? strstr(msg, "==") + 2 : msg;
	while (*msg == ' ')
		msg++;
	if (strstr(line, "ERR_NVGPUCTRPERM")) {
		r->status = PROF_NO_PERMISSION;
		snprintf(r->why, sizeof(r->why), "ncu may not read this GPU's "
			 "performance counters (ERR_NVGPUCTRPERM): an "
			 "administrator can allow it (docs/nsight-compute.md)");
	} else if (strncmp(line, "==ERROR==", 9) == 0 &&
		   strstr(line, "Failed to find metric")) {
		unknown_metric(line, r);
	} else if (strncmp(line, "==ERROR==", 9) == 0 && !(*errors)++) {
		snprintf(r->why, sizeof(r->why), "ncu: %.*s", G_DETAIL_LEN - 8,
			 msg);
	}
}

enum prof_status prof_parse(const char *text, struct prof_run *r)
{
	struct csv_state st = { 0 };
	const char *p = text ? text : "";
	int errors = 0, units_next = 0;

	memset(r, 0, sizeof(*r));
	r->status = PROF_OK;
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *line = malloc(len + 1), **f = NULL;
		size_t nf = 0;
		int n;

		if (!line)
			break;
		memcpy(line, p, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		p = end ? end + 1 : p + len;
		if (strncmp(line, "==", 2) == 0 && strstr(line + 2, "==")) {
			tool_line(line, r, &errors);
		} else if (line[0] == '"' && (nf = max_fields(line)) &&
			   (f = malloc(nf * sizeof(*f)))) {
			n = csv_split(line, f, (int)nf);
			if (!strcmp(f[0], "ID")) {
				if (header_row(&st, f, n) && !errors++)
					snprintf(r->why, sizeof(r->why), "out of "
						 "memory reading ncu's output");
				units_next = st.have_header;
			} else if (st.have_header && units_next && !*f[0]) {
				units_row(&st, f, n);
				units_next = 0;
			} else if (st.have_header && all_digits(f[0])) {
				kernel_row(&st, f, n, r);
				units_next = 0;
			}
		}
		free(f);
		free(line);
	}
	free(st.role);
	free(st.scale);
	if (r->status == PROF_NO_PERMISSION)
		return r->status;
	if (r->nunknown) {
		r->status = PROF_BAD_METRICS;
		snprintf(r->why, sizeof(r->why), "ncu does not know the metric "
			 "%s", r->unknown[0]);
	} else if (!r->nk) {
		r->status = errors ? PROF_ERROR : PROF_NO_KERNELS;
		if (!errors)
			snprintf(r->why, sizeof(r->why), "no kernel was profiled: "
				 "the code launched none between "
				 "cudaProfilerStart() and cudaProfilerStop()");
	}
	return r->status;
}

/* What the runner's record says about the profiled call. */
enum record { REC_RAN, REC_FAILED, REC_CUT };

static enum record parse_record(const char *text, struct prof_run *r,
				char *why, size_t n)
{
	const char *p = text ? text : "";
	char verdict[32] = "", detail[G_DETAIL_LEN] = "";
	int complete = 0;

	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char line[G_DETAIL_LEN];

		snprintf(line, sizeof(line), "%.*s",
			 (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		p = end ? end + 1 : p + len;
		if (!strcmp(line, "end"))
			complete = 1;
		else if (!strncmp(line, "verdict ", 8))
			snprintf(verdict, sizeof(verdict), "%.*s",
				 (int)sizeof(verdict) - 1, line + 8);
		else if (!strncmp(line, "detail ", 7) && !*detail)
			snprintf(detail, sizeof(detail), "%.*s",
				 (int)sizeof(detail) - 1, line + 7);
		else if (!strncmp(line, "shape ", 6))
			snprintf(r->shape, sizeof(r->shape), "%.*s",
				 (int)sizeof(r->shape) - 1, line + 6);
		else if (!strncmp(line, "profile ", 8))
			r->groups = (unsigned)strtoul(line + 8, NULL, 0);
		else if (!strncmp(line, "bytes ", 6))
			r->min_bytes = atof(line + 6);
		else if (!strncmp(line, "flops ", 6))
			r->flops = atof(line + 6);
	}
	if (complete && !strcmp(verdict, "PASS"))
		return REC_RAN;
	if (!complete) {
		snprintf(why, n, "the run ended before the profiled call "
			 "(grade it with make grade to see why)");
		return REC_CUT;
	}
	if (!strcmp(verdict, "NOT_IMPLEMENTED"))
		snprintf(why, n, "not implemented yet: nothing to profile");
	else
		snprintf(why, n, "the run stopped (%s)%s%.200s", verdict,
			 *detail ? ": " : "", detail);
	return REC_FAILED;
}

enum prof_status prof_read(const char *ncu_text, const char *record_text,
			   struct prof_run *r)
{
	char why[G_DETAIL_LEN];
	enum prof_status st = prof_parse(ncu_text, r);
	enum record rec = parse_record(record_text, r, why, sizeof(why));

	/* Refused counters and unknown metrics are ncu's verdict on every
	 * run; a run that stopped by itself explains a missing profile;
	 * ncu's own error explains more than a run it cut short. */
	if (st == PROF_NO_PERMISSION || (st == PROF_BAD_METRICS && rec != REC_FAILED))
		return st;
	if (rec == REC_FAILED || (rec == REC_CUT && st != PROF_ERROR)) {
		r->status = PROF_RUN_FAILED;
		snprintf(r->why, sizeof(r->why), "%s", why);
	}
	return r->status;
}

/* ---- views: the kernels of one call, combined ---- */

static void view_init(struct prof_view *v, const char *label)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->label, sizeof(v->label), "%s", label);
	for (int m = 0; m < PROF_NMETRICS; m++)
		v->m[m] = NAN;
}

void prof_view_all(const struct prof_run *r, const char *label,
		   struct prof_view *v)
{
	double weight[PROF_NMETRICS] = { 0 };
	int main_k = 0;

	view_init(v, label);
	v->nkernels = r->nk;
	v->min_bytes = r->min_bytes;
	v->flops = r->flops;
	v->share = 1;
	for (int i = 0; i < r->nk; i++) {
		double t = r->k[i].m[M_TIME_NS];

		if (!isnan(t))
			v->time_ns += t;
		if (t > r->k[main_k].m[M_TIME_NS])
			main_k = i;
	}
	for (int i = 0; i < r->nk; i++) {
		const struct prof_kernel *k = &r->k[i];
		/* Without durations every kernel weighs the same. */
		double w = v->time_ns > 0 && !isnan(k->m[M_TIME_NS]) ?
			   k->m[M_TIME_NS] : 1;

		for (int m = 0; m < PROF_NMETRICS; m++) {
			double x = k->m[m];

			if (isnan(x) || metrics[m].agg == AGG_MAIN)
				continue;
			if (isnan(v->m[m]))
				v->m[m] = 0;
			if (metrics[m].agg == AGG_SUM) {
				v->m[m] += x;
			} else {
				v->m[m] += w * x;
				weight[m] += w;
			}
		}
	}
	for (int m = 0; m < PROF_NMETRICS; m++) {
		if (metrics[m].agg == AGG_TIME && weight[m] > 0)
			v->m[m] /= weight[m];
		if (metrics[m].agg == AGG_MAIN && r->nk)
			v->m[m] = r->k[main_k].m[m];
	}
	if (r->nk) {
		v->block = r->k[main_k].block;
		v->grid = r->k[main_k].grid;
		snprintf(v->main_kernel, sizeof(v->main_kernel), "%s",
			 r->k[main_k].name);
	}
}

void prof_view_kernel(const struct prof_run *r, int k, struct prof_view *v)
{
	static struct prof_run one;
	double total = 0;

	one = *r;
	one.k[0] = r->k[k];
	one.nk = 1;
	one.min_bytes = 0; /* the task's minimum is for the whole call */
	prof_view_all(&one, r->k[k].name, v);
	for (int i = 0; i < r->nk; i++)
		if (!isnan(r->k[i].m[M_TIME_NS]))
			total += r->k[i].m[M_TIME_NS];
	if (total > 0 && !isnan(r->k[k].m[M_TIME_NS]))
		v->share = r->k[k].m[M_TIME_NS] / total;
}

/* ---- derived figures ---- */

static int have(const struct prof_view *v, int m)
{
	return !isnan(v->m[m]);
}

static int ratio(double a, double b, double *x)
{
	if (isnan(a) || isnan(b) || b <= 0)
		return 0;
	*x = a / b;
	return 1;
}

int prof_ld_sectors_per_request(const struct prof_view *v, double *x)
{
	return ratio(v->m[M_LD_SECTORS], v->m[M_LD_REQUESTS], x);
}

static int st_sectors_per_request(const struct prof_view *v, double *x)
{
	return ratio(v->m[M_ST_SECTORS], v->m[M_ST_REQUESTS], x);
}

/*
 * The fewest sectors a request could touch: the bytes its threads asked
 * for, in 32-byte sectors, at least one. 4 for a warp of 4-byte loads, 16
 * for float4 loads: the ideal depends on the access width, so coalescing is
 * judged by the ratio to it, not by the raw count.
 */
static int ideal(double bytes, double requests, double *x)
{
	if (!ratio(bytes, requests, x))
		return 0;
	*x /= 32;
	if (*x < 1)
		*x = 1;
	return 1;
}

int prof_ld_ideal(const struct prof_view *v, double *x)
{
	return ideal(v->m[M_LD_BYTES], v->m[M_LD_REQUESTS], x);
}

static int st_ideal(const struct prof_view *v, double *x)
{
	return ideal(v->m[M_ST_BYTES], v->m[M_ST_REQUESTS], x);
}

int prof_ld_excess(const struct prof_view *v, double *x)
{
	double spr, id;

	return prof_ld_sectors_per_request(v, &spr) && prof_ld_ideal(v, &id) &&
	       ratio(spr, id, x);
}

int prof_st_excess(const struct prof_view *v, double *x)
{
	double spr, id;

	return st_sectors_per_request(v, &spr) && st_ideal(v, &id) &&
	       ratio(spr, id, x);
}

/*
 * Bytes moved: DRAM reads plus the bytes written. DRAM writes alone
 * undercount: up to an L2's worth of written data is still in the (write-
 * back) L2 when a kernel ends, and ncu flushes it between passes, outside
 * the kernel; everything written reaches DRAM in the end at these sizes.
 * So writes are counted where they enter the L2: 32 bytes a sector. But a
 * store that fills part of a sector counts a whole one there, and the L2
 * merges the parts of neighbouring stores before they reach DRAM (lab 04's
 * naive transpose, column-wise 4-byte stores: 2.1 GB of L2 sectors for
 * 268 MB stored): no more than the bytes the stores asked for, then.
 */
static int traffic(const struct prof_view *v, double *x)
{
	double wr;

	if (!have(v, M_DRAM_RD))
		return 0;
	if (have(v, M_L2_WR_SECTORS)) {
		wr = 32 * v->m[M_L2_WR_SECTORS];
		if (have(v, M_ST_BYTES) && v->m[M_ST_BYTES] < wr)
			wr = v->m[M_ST_BYTES];
	} else if (have(v, M_DRAM_WR)) {
		wr = v->m[M_DRAM_WR];
	} else {
		return 0;
	}
	*x = v->m[M_DRAM_RD] + wr;
	return 1;
}

int prof_traffic_ratio(const struct prof_view *v, double *x)
{
	double t;

	return v->min_bytes > 0 && traffic(v, &t) && ratio(t, v->min_bytes, x);
}

static int dram_gbps(const struct prof_view *v, double *x)
{
	if (!have(v, M_DRAM_RD) || !have(v, M_DRAM_WR) || v->time_ns <= 0)
		return 0;
	*x = (v->m[M_DRAM_RD] + v->m[M_DRAM_WR]) / v->time_ns;
	return 1;
}

/* Share of shared-memory wavefronts that were bank-conflict replays. */
static int conflict_share(const struct prof_view *v, double *x)
{
	double waves = 0, conflicts = 0;

	if (!have(v, M_SH_LD_WAVES) && !have(v, M_SH_ST_WAVES))
		return 0;
	waves = (have(v, M_SH_LD_WAVES) ? v->m[M_SH_LD_WAVES] : 0) +
		(have(v, M_SH_ST_WAVES) ? v->m[M_SH_ST_WAVES] : 0);
	conflicts = (have(v, M_SH_LD_CONFLICTS) ? v->m[M_SH_LD_CONFLICTS] : 0) +
		    (have(v, M_SH_ST_CONFLICTS) ? v->m[M_SH_ST_CONFLICTS] : 0);
	if (conflicts > waves)
		conflicts = waves;
	return ratio(conflicts, waves, x);
}

static int branch_efficiency(const struct prof_view *v, double *x)
{
	if (!ratio(v->m[M_BR_UNIFORM], v->m[M_BR_TARGETS], x))
		return 0;
	*x *= 100;
	return 1;
}

static int local_accesses(const struct prof_view *v, double *x)
{
	if (!have(v, M_LOCAL_LD) && !have(v, M_LOCAL_ST))
		return 0;
	*x = (have(v, M_LOCAL_LD) ? v->m[M_LOCAL_LD] : 0) +
	     (have(v, M_LOCAL_ST) ? v->m[M_LOCAL_ST] : 0);
	return 1;
}

static int blocks_per_sm(const struct prof_view *v, double *x)
{
	return v->grid > 0 && ratio((double)v->grid, v->m[M_SMS], x);
}

/* The stall reasons of v, largest first (indices into prof_stall_names). */
static int top_stalls(const struct prof_view *v, int *out, int max)
{
	unsigned taken = 0;
	int n = 0;

	while (n < max) {
		int best = -1;

		for (int i = 0; i < PROF_NSTALLS; i++) {
			double x = v->m[M_STALL_FIRST + i];

			if (taken & (1u << i) || isnan(x) || x <= 0)
				continue;
			if (best < 0 || x > v->m[M_STALL_FIRST + best])
				best = i;
		}
		if (best < 0)
			break;
		taken |= 1u << best;
		out[n++] = best;
	}
	return n;
}

static double stall(const struct prof_view *v, const char *name)
{
	for (int i = 0; i < PROF_NSTALLS; i++)
		if (!strcmp(prof_stall_names[i], name))
			return v->m[M_STALL_FIRST + i];
	return NAN;
}

/* Share of a warp's cycles between issues spent on one reason. */
static int stall_share(const struct prof_view *v, const char *name, double *x)
{
	return ratio(stall(v, name), v->m[M_STALL_TOTAL], x);
}

/* Which of the occupancy limits binds: names into buf; the blocks in *k. */
static int limiter(const struct prof_view *v, char *buf, size_t n, double *k)
{
	static const struct { int m; const char *name; } lim[] = {
		{ M_LIM_REGS, "registers" }, { M_LIM_SMEM, "shared memory" },
		{ M_LIM_WARPS, "the block size" },
		{ M_LIM_BLOCKS, "the blocks-per-SM limit" },
	};
	double least = INFINITY;
	size_t len = 0;

	for (unsigned i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		if (have(v, lim[i].m) && v->m[lim[i].m] < least)
			least = v->m[lim[i].m];
	if (isinf(least))
		return 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		if (have(v, lim[i].m) && v->m[lim[i].m] == least && len < n)
			len += snprintf(buf + len, n - len, "%s%s",
					len ? " and " : "", lim[i].name);
	*k = least;
	return 1;
}

static void human_bytes(double b, char *buf, size_t n)
{
	if (b >= 1e9)
		snprintf(buf, n, "%.2f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, n, "%.1f MB", b / 1e6);
	else
		snprintf(buf, n, "%.0f KB", b / 1e3);
}

/* ---- hints: only from measured numbers ---- */

/*
 * The thresholds below were set from the reasoning given with each, then
 * checked on make profile's tables of every naive and solved speed
 * exercise of labs 01-07 on an H100 (ncu 2025.3.1; tests/profile/README.md
 * and tests/gpu/record-ncu.sh): each naive gets its lab's hint, each
 * solution none.
 */

struct hints {
	int n, max;
	int *ids;
	char (*lines)[G_DETAIL_LEN];
	unsigned seen;
};

static void __attribute__((format(printf, 3, 4)))
hint(struct hints *h, enum prof_hint id, const char *fmt, ...)
{
	va_list ap;

	if (h->n >= h->max || h->seen & (1u << id))
		return;
	h->seen |= 1u << id;
	if (h->ids)
		h->ids[h->n] = id;
	if (h->lines) {
		va_start(ap, fmt);
		vsnprintf(h->lines[h->n], G_DETAIL_LEN, fmt, ap);
		va_end(ap);
	}
	h->n++;
}

static int said(const struct hints *h, enum prof_hint id)
{
	return (h->seen & (1u << id)) != 0;
}

/* Fusion: several kernels moving 1.15x the task's minimum (below). */
#define FUSION_TRAFFIC 1.15

/*
 * The memory's speed of light: DRAM at 80% of its peak or more (what a
 * copy reaches), moving no more than the task needs where that is known.
 * Nothing that happens before DRAM can then make the kernel faster: not
 * sectors that a later load finds in L1 (lab 03's grayscale solution reads
 * 3-byte pixels 16 bytes at a time, 2x the sectors per request, at 90% of
 * the DRAM's peak), not warps waiting at barriers between the loads (lab
 * 02's filter solution, 34% of its stall cycles at 85%).
 */
#define SOL_PCT 80.0

static int at_speed_of_light(const struct prof_view *v)
{
	double t;

	if (!have(v, M_DRAM_PCT) || v->m[M_DRAM_PCT] < SOL_PCT)
		return 0;
	return !prof_traffic_ratio(v, &t) || t < FUSION_TRAFFIC;
}

/*
 * Coalescing: 2x the ideal sectors per request. Partial warps at a tail and
 * rows that do not start on a 128-byte line cost up to about 1.3x; a stride
 * of two elements, the mildest access pattern that really wastes bytes,
 * costs exactly 2x. (The seed's uncoalesced kernel had 17.8 sectors per
 * request of 4-byte loads: 4.4x; lab 03's naive matvec, a thread per row,
 * 16.5 where 2.1 would do: 8.0x.) Not at the speed of light.
 */
#define COALESCING_EXCESS 2.0

static void hint_coalescing(const struct prof_view *v, struct hints *h)
{
	double ld = 0, st = 0, spr = 0, id = 0;
	int is_ld;

	prof_ld_excess(v, &ld);
	prof_st_excess(v, &st);
	if ((ld < COALESCING_EXCESS && st < COALESCING_EXCESS) ||
	    at_speed_of_light(v))
		return;
	is_ld = ld >= st;
	if (is_ld) {
		prof_ld_sectors_per_request(v, &spr);
		prof_ld_ideal(v, &id);
	} else {
		st_sectors_per_request(v, &spr);
		st_ideal(v, &id);
	}
	hint(h, H_COALESCING, "coalescing: global %s touch %.1f sectors per "
	     "request where %.1f would do (%.1fx): neighbouring threads should "
	     "access neighbouring addresses (labs/03-coalescing/README.md)",
	     is_ld ? "loads" : "stores", spr, id, is_ld ? ld : st);
}

/*
 * Grid size: under half a wave (ncu's waves per SM: blocks over the blocks
 * all SMs can hold at once), more than half the GPU's block slots stay
 * empty for the whole kernel, whatever the code inside does. Without that
 * figure: under one block per SM.
 */
#define GRID_WAVES 0.5

static int hint_grid(const struct prof_view *v, struct hints *h)
{
	double bps = 0, waves = v->m[M_WAVES];
	char where[64] = "";

	if (!blocks_per_sm(v, &bps) && isnan(waves))
		return 0;
	if (!isnan(waves) ? waves >= GRID_WAVES : bps >= 1)
		return 0;
	if (have(v, M_SMS))
		snprintf(where, sizeof(where), " for %.0f SMs (%.2f per SM)",
			 v->m[M_SMS], bps);
	hint(h, H_GRID, "grid size: %ld blocks of %ld threads%s, %.2f of a "
	     "wave: most of the GPU sits idle; launch enough blocks to fill "
	     "every SM, e.g. a grid over the whole output or a grid-stride "
	     "loop sized to the GPU", v->grid, v->block, where,
	     isnan(waves) ? 0 : waves);
	return 1;
}

/*
 * Latency, and the SMs' share: ncu's own Speed of Light rule calls a
 * kernel whose DRAM and SM throughput are both under 60% of their peaks
 * latency-bound; 60% or more of the SM's peak is a busy SM.
 */
#define LATENCY_PCT 60.0

/*
 * Occupancy: under half the warp slots by the launch's own limits. A
 * memory-bound kernel then keeps enough loads in flight only if each
 * thread issues several independent ones; registers and shared memory are
 * the usual culprits. Not when the SMs are busy anyway (60% of their peak:
 * lab 04's matmul solution, 128 registers per thread for its 8 x 8 tile,
 * runs at 25% occupancy and 79% of the SM's peak, by design), nor at the
 * memory's speed of light.
 */
#define OCCUPANCY_LIMIT_PCT 50.0

static void hint_occupancy(const struct prof_view *v, struct hints *h)
{
	char names[96];
	double k;

	if (!have(v, M_OCC_THEORETICAL) ||
	    v->m[M_OCC_THEORETICAL] >= OCCUPANCY_LIMIT_PCT ||
	    (have(v, M_SM_PCT) && v->m[M_SM_PCT] >= LATENCY_PCT) ||
	    at_speed_of_light(v) || !limiter(v, names, sizeof(names), &k))
		return;
	hint(h, H_OCCUPANCY, "occupancy: at most %.0f%% of the warp slots can "
	     "be used, limited by %s (%.0f blocks of %ld threads per SM): %s",
	     v->m[M_OCC_THEORETICAL], names, k, v->block,
	     strstr(names, "registers") ? "fewer live values per thread, or "
	     "__launch_bounds__ (labs/01-warps/README.md)" :
	     strstr(names, "shared") ? "less shared memory per block "
	     "(labs/04-tiling/README.md)" :
	     "a block size that divides the SM's threads, such as 256 or 512");
}

/*
 * Spills: local-memory accesses above 1% of the global ones. A few at a
 * kernel's start cost nothing; in a loop each is one more memory access
 * per iteration.
 */
#define SPILL_SHARE 0.01

static void hint_spills(const struct prof_view *v, struct hints *h)
{
	double local, global = 0;

	if (!local_accesses(v, &local) || local <= 0)
		return;
	if (have(v, M_LD_REQUESTS))
		global += v->m[M_LD_REQUESTS];
	if (have(v, M_ST_REQUESTS))
		global += v->m[M_ST_REQUESTS];
	if (global > 0 && local < SPILL_SHARE * global)
		return;
	hint(h, H_SPILLS, "spills: %.0f local-memory accesses at %.0f registers "
	     "per thread (register spills, or an array indexed at run time): "
	     "index arrays with constants (unrolled loops) or give the "
	     "compiler more registers (__launch_bounds__) "
	     "(labs/01-warps/README.md)", local, v->m[M_REGS]);
}

static void hint_latency(const struct prof_view *v, struct hints *h)
{
	if (!have(v, M_DRAM_PCT) || !have(v, M_SM_PCT) ||
	    v->m[M_DRAM_PCT] >= LATENCY_PCT || v->m[M_SM_PCT] >= LATENCY_PCT)
		return;
	hint(h, H_LATENCY, "latency-bound: DRAM at %.0f%% and SM at %.0f%% of "
	     "peak, so warps mostly wait: keep more independent loads in "
	     "flight per thread (several 16-byte loads before their first "
	     "use) (labs/05-reduction/README.md)", v->m[M_DRAM_PCT],
	     v->m[M_SM_PCT]);
}

/*
 * Instructions: on a memory-bound task (no flops() in the lab), the SMs at
 * 60% of their peak or more while the DRAM is under 60%: the kernel is not
 * waiting, it is busy with instructions that move no data (index
 * arithmetic, a tree in shared memory, barriers, an atomic per block),
 * paid for a few bytes each. Measured on an H100: lab 05's naive sum, one
 * element per thread and a shared-memory tree per block, SMs at 79% and
 * DRAM at 13%, its solution (~250 elements per thread) 7% and 89%; lab
 * 02's naive segment_sum 71% and 33%. A compute-bound task (matmul) is
 * meant to keep the SMs busy: no hint there.
 */
static void hint_instructions(const struct prof_view *v, struct hints *h)
{
	char each[48] = "";
	double threads = (double)v->grid * (double)v->block;

	if (v->flops > 0 || !have(v, M_DRAM_PCT) || !have(v, M_SM_PCT) ||
	    v->m[M_DRAM_PCT] >= LATENCY_PCT || v->m[M_SM_PCT] < LATENCY_PCT)
		return;
	if (v->nkernels == 1 && v->min_bytes > 0 && threads > 0)
		snprintf(each, sizeof(each), " (%.0f bytes per thread)",
			 v->min_bytes / threads);
	hint(h, H_INSTRUCTIONS, "instruction-bound: SMs at %.0f%% of peak, DRAM "
	     "at %.0f%%, on a memory-bound task%s: the work per element "
	     "(index math, a tree in shared memory, barriers) outweighs the "
	     "loads; give each thread several elements, combined in registers "
	     "and with shuffles (labs/02-shfl, labs/05-reduction READMEs)",
	     v->m[M_SM_PCT], v->m[M_DRAM_PCT], each);
}

/*
 * Fusion (FUSION_TRAFFIC, above): several kernels moving 1.15x the task's
 * minimum. A fused kernel measures about 1.0x; the smallest saving the labs
 * teach (lab 07's add_rmsnorm, five passes instead of four) is 1.25x.
 * Re-reads: one kernel moving 1.5x the minimum with coalesced loads and
 * stores. On a compute-bound task (flops() in the lab, no minimum bytes):
 * global loads asking for 0.5 bytes per floating-point operation or more,
 * the most an SM's L1 delivers at the FP32 peak (128 bytes and 256
 * operations per cycle on Hopper and Ampere): lab 04's naive matmul asks
 * for 1.1, its solution 0.03.
 */
#define REREAD_TRAFFIC 1.5
#define REREAD_BYTES_PER_FLOP 0.5

static void hint_traffic(const struct prof_view *v, struct hints *h)
{
	char moved[32], need[32];
	double x, t, ld = 1, st = 1;

	if (v->flops > 0 && have(v, M_LD_BYTES) &&
	    v->m[M_LD_BYTES] / v->flops >= REREAD_BYTES_PER_FLOP)
		hint(h, H_REREAD, "re-reads: global loads ask for %.2f bytes per "
		     "floating-point operation, more than the L1 can deliver at "
		     "full speed (%.1f): every value is loaded again for each "
		     "use; load tiles into shared memory or registers once and "
		     "reuse them (labs/04-tiling/README.md)",
		     v->m[M_LD_BYTES] / v->flops, REREAD_BYTES_PER_FLOP);
	if (!prof_traffic_ratio(v, &x) || !traffic(v, &t))
		return;
	human_bytes(t, moved, sizeof(moved));
	human_bytes(v->min_bytes, need, sizeof(need));
	if (v->nkernels > 1 && x >= FUSION_TRAFFIC)
		hint(h, H_FUSION, "fusion: %d kernels move %.2fx the bytes the "
		     "task needs (%s where %s would do): intermediates go to "
		     "DRAM and back; one kernel that keeps them in registers "
		     "moves the minimum (labs/07-fusion/README.md)",
		     v->nkernels, x, moved, need);
	prof_ld_excess(v, &ld);
	prof_st_excess(v, &st);
	if (v->nkernels == 1 && x >= REREAD_TRAFFIC && ld < 1.5 && st < 1.5)
		hint(h, H_REREAD, "re-reads: the kernel moves %.1fx the bytes "
		     "the task needs (%s where %s would do) with coalesced "
		     "accesses: the same data comes from DRAM more than once; "
		     "keep what is reused in shared memory or registers "
		     "(labs/04-tiling/README.md)", x, moved, need);
}

/*
 * Bank conflicts: a fifth of the shared-memory wavefronts are replays. The
 * counter also counts a few replays that are not the code's (contention
 * with other L1 traffic), a few percent (lab 02's naive trees: 2-4%; lab
 * 04's transpose solution, a 64 x 65 tile: 10%); an unpadded 32x32 tile
 * read by columns replays 31 of every 32 (lab 04's ladder step: 94%).
 */
#define BANK_SHARE 0.2

static void hint_banks(const struct prof_view *v, struct hints *h)
{
	double share;

	if (!conflict_share(v, &share) || share < BANK_SHARE)
		return;
	hint(h, H_BANKS, "bank conflicts: %.0f%% of the shared-memory "
	     "wavefronts are replays, each access costs %.1fx the wavefronts "
	     "it needs: threads of a warp hit the same bank; pad the tile's "
	     "rows, e.g. [32][33] (labs/04-tiling/README.md)", 100 * share,
	     1 / (1 - share));
}

/*
 * Divergence: under 24 of 32 lanes active per instruction (short if/else
 * bodies are predicated and cost nothing; only lanes that sit idle through
 * long branch bodies do), and either
 *  - three in four branch targets split a warp: the decision alternates
 *    inside every warp (lab 01's naive branch, by lane parity: 100%, 18.0
 *    lanes), which mapping the work to warps removes; or
 *  - under 12 lanes active: most of every warp idles, as when a warp
 *    waits for its heaviest lane (lab 01's naive trip_count: 8.9 lanes).
 * Lab 01's trip_count solution keeps its light elements' loops in place
 * (61% of the branches split, 15.2 lanes) and gets no hint: regrouping
 * those too costs more than the idle lanes.
 */
#define DIVERGENCE_LANES 24.0
#define DIVERGENCE_IDLE_LANES 12.0
#define DIVERGENCE_SPLIT_PCT 75.0

static void hint_divergence(const struct prof_view *v, struct hints *h)
{
	double eff;

	if (!branch_efficiency(v, &eff) || !have(v, M_LANES) ||
	    v->m[M_LANES] >= DIVERGENCE_LANES ||
	    (100 - eff < DIVERGENCE_SPLIT_PCT &&
	     v->m[M_LANES] >= DIVERGENCE_IDLE_LANES))
		return;
	hint(h, H_DIVERGENCE, "divergence: %.0f%% of the branches split a "
	     "warp and %.1f of 32 lanes work per instruction: give the lanes "
	     "of a warp the same path and the same amount of work: map the "
	     "work to warps, or regroup it (labs/01-warps/README.md)",
	     100 - eff, v->m[M_LANES]);
}

/*
 * Stalls: a reason that takes 30% of the cycles between issues. The seed's
 * uncoalesced kernel spent 76% in lg_throttle (lab 03's mean_dim0 ladder
 * step 1, a thread per output with i fastest: 47%); a kernel at the speed
 * of light spreads its stalls, with long_scoreboard (waiting for DRAM)
 * first, and whatever it waits for then costs nothing.
 */
#define STALL_SHARE 0.3

static void hint_stalls(const struct prof_view *v, struct hints *h)
{
	double x = 0;

	if (at_speed_of_light(v))
		return;
	if (stall_share(v, "lg_throttle", &x) && x >= STALL_SHARE)
		hint(h, H_LG_THROTTLE, "memory instruction queue: %.0f%% of a "
		     "warp's cycles wait for room to issue a global load "
		     "(lg_throttle): fewer, wider loads, 16 bytes per thread "
		     "(labs/03-coalescing/README.md)", 100 * x);
	if (stall_share(v, "barrier", &x) && x >= STALL_SHARE)
		hint(h, H_BARRIER, "barriers: %.0f%% of a warp's cycles wait at "
		     "__syncthreads(): fewer barriers per element, e.g. sum "
		     "many elements per thread first and reduce within warps "
		     "with shuffles (labs/02-shfl/README.md)", 100 * x);
}

/*
 * Whether the coalescing hint also explains low throughput: the sectors
 * wasted reach the L2 (60% busy) or DRAM (1.15x the bytes needed). When
 * the L1 absorbs them (lab 03's naive grayscale: three 1-byte loads per
 * pixel, 3x the sectors per request, the L2 at 45% and the bytes at the
 * minimum), low throughput has another reason, and latency may be it.
 */
static int wasted_sectors_load_memory(const struct prof_view *v)
{
	double t;

	return (have(v, M_L2_PCT) && v->m[M_L2_PCT] >= LATENCY_PCT) ||
	       (prof_traffic_ratio(v, &t) && t >= FUSION_TRAFFIC);
}

/* A kernel of a call that takes under this share of its time gets no
 * hint: a one-thread kernel that converts a result is not the problem. */
#define HINT_MIN_SHARE 0.1

int prof_hints(const struct prof_view *v, unsigned groups, int *ids,
	       char lines[][G_DETAIL_LEN], int max)
{
	struct hints h = { .max = max, .ids = ids, .lines = lines };
	int grid = 0, explained;

	if (v->share < HINT_MIN_SHARE)
		return 0;

	if (groups & WB_PROF_COALESCING)
		hint_coalescing(v, &h);
	if (groups & WB_PROF_OCCUPANCY) {
		grid = hint_grid(v, &h);
		hint_occupancy(v, &h);
		hint_spills(v, &h);
	}
	if (groups & WB_PROF_THROUGHPUT)
		hint_traffic(v, &h);
	if (groups & WB_PROF_SHARED)
		hint_banks(v, &h);
	if (groups & WB_PROF_DIVERGENCE)
		hint_divergence(v, &h);
	/* A grid too small, wasted sectors, re-reads, bank conflicts or
	 * idle lanes are the more specific reason for low throughput: say
	 * that, not "latency-bound" as well. */
	explained = grid || said(&h, H_REREAD) || said(&h, H_BANKS) ||
		    said(&h, H_DIVERGENCE) ||
		    (said(&h, H_COALESCING) && wasted_sectors_load_memory(v));
	if (groups & (WB_PROF_THROUGHPUT | WB_PROF_STALLS) && !explained)
		hint_latency(v, &h);
	if (groups & WB_PROF_THROUGHPUT && !grid && !said(&h, H_COALESCING))
		hint_instructions(v, &h);
	if (groups & WB_PROF_STALLS)
		hint_stalls(v, &h);
	return h.n;
}

/* ---- the table ---- */

/* One figure: its value in a cell, its ideal and meaning for the subject. */
struct row {
	unsigned group;
	const char *label;
	int (*cell)(const struct prof_view *v, int arg, char *b, size_t n);
	void (*ideal)(const struct prof_view *v, int arg, char *b, size_t n);
	void (*say)(const struct prof_view *v, int arg, char *b, size_t n);
	int arg;
};

static int cell_fmt(char *b, size_t n, int ok, const char *fmt, double x)
{
	if (ok)
		snprintf(b, n, fmt, x);
	return ok;
}

static int cell_time(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	return cell_fmt(b, n, v->time_ns > 0, "%.1f us", v->time_ns / 1e3);
}

/* The time the task's minimum bytes take at the copy bandwidth: the
 * memory's speed of light for this call. */
static int sol_time_ns(const struct prof_view *v, double *x)
{
	if (v->min_bytes <= 0 || v->copy_gbps <= 0 || v->flops > 0)
		return 0;
	*x = v->min_bytes / v->copy_gbps;
	return 1;
}

static void ideal_time(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x;

	(void)arg;
	if (sol_time_ns(v, &x))
		snprintf(b, n, "%.1f us", x / 1e3);
}

static void say_time(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x;

	(void)arg;
	if (v->time_ns <= 0)
		return;
	if (sol_time_ns(v, &x))
		snprintf(b, n, "%.1fx the time the task's bytes take at the copy "
			 "bandwidth (ncu's pass; the grade's time is the one "
			 "that counts)", v->time_ns / x);
	else
		snprintf(b, n, "the profiled pass, clocks as they are (the "
			 "grade's time is the one that counts)");
}

static int cell_metric_pct(const struct prof_view *v, int m, char *b, size_t n)
{
	return cell_fmt(b, n, have(v, m), "%.0f%%", v->m[m]);
}

static int cell_spr(const struct prof_view *v, int st, char *b, size_t n)
{
	double x = 0;
	int ok = st ? st_sectors_per_request(v, &x) :
		      prof_ld_sectors_per_request(v, &x);

	return cell_fmt(b, n, ok, "%.1f", x);
}

static void ideal_spr(const struct prof_view *v, int st, char *b, size_t n)
{
	double x = 0;

	if (st ? st_ideal(v, &x) : prof_ld_ideal(v, &x))
		snprintf(b, n, "%.1f", x);
}

static void say_spr(const struct prof_view *v, int st, char *b, size_t n)
{
	double x = 0;

	if (!(st ? prof_st_excess(v, &x) : prof_ld_excess(v, &x)))
		snprintf(b, n, "no global %s", st ? "stores" : "loads");
	else if (x <= 1.1)
		snprintf(b, n, "coalesced: the sectors fetched hold just what "
			 "the threads asked for");
	else
		snprintf(b, n, "%.1fx the ideal: %.0f%% of each sector fetched "
			 "is not used", x, 100 * (1 - 1 / x));
}

static void ideal_text(const struct prof_view *v, int arg, char *b, size_t n)
{
	static const char *const text[] = { "> 80%", "0", "100%", "32", "1.00x",
					    "0%" };

	(void)v;
	snprintf(b, n, "%s", text[arg]);
}

static void say_dram(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = v->m[M_DRAM_PCT], t = 0;

	(void)arg;
	if (isnan(x))
		return;
	if (x >= SOL_PCT && prof_traffic_ratio(v, &t) && t >= FUSION_TRAFFIC)
		snprintf(b, n, "the memory is nearly saturated, but with more "
			 "bytes than the task needs (bytes moved, below)");
	else
		snprintf(b, n, "%s", x >= SOL_PCT ? "the memory is nearly saturated: "
			 "memory-bound, near its speed of light" :
			 x >= LATENCY_PCT ? "busy, with room left" :
			 "DRAM mostly idle: bound by latency, or by compute "
			 "(SM row)");
}

static void say_l2(const struct prof_view *v, int arg, char *b, size_t n)
{
	double l2 = v->m[M_L2_PCT], dram = v->m[M_DRAM_PCT];

	(void)arg;
	if (isnan(l2))
		return;
	if (!isnan(dram) && l2 >= 60 && l2 > 1.5 * dram)
		snprintf(b, n, "L2 far busier than DRAM: data re-read from L2, "
			 "or sectors fetched and wasted");
	else
		snprintf(b, n, "the L2 is %.0f%% busy", l2);
}

static void say_sm(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = v->m[M_SM_PCT];

	(void)arg;
	if (!isnan(x))
		snprintf(b, n, "%s", x >= LATENCY_PCT ? "the SMs are busy: "
			 "instructions or arithmetic may be the limit" :
			 "the SMs have capacity to spare");
}

static int cell_gbps(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = dram_gbps(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f", x);
}

static void ideal_gbps(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (v->copy_gbps > 0)
		snprintf(b, n, "%.0f copy", v->copy_gbps);
}

static void say_gbps(const struct prof_view *v, int arg, char *b, size_t n)
{
	char moved[32];
	double x = 0;

	(void)arg;
	if (!dram_gbps(v, &x))
		return;
	human_bytes(v->m[M_DRAM_RD] + v->m[M_DRAM_WR], moved, sizeof(moved));
	if (v->copy_gbps > 0)
		snprintf(b, n, "%.0f%% of the copy bandwidth measured in this "
			 "run (%s in %.1f us)", 100 * x / v->copy_gbps, moved,
			 v->time_ns / 1e3);
	else
		snprintf(b, n, "%s in %.1f us", moved, v->time_ns / 1e3);
}

static int cell_traffic(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = prof_traffic_ratio(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.2fx", x);
}

static void say_traffic(const struct prof_view *v, int arg, char *b, size_t n)
{
	char moved[32], need[32];
	double t;

	(void)arg;
	if (v->min_bytes <= 0 || !traffic(v, &t))
		return;
	human_bytes(t, moved, sizeof(moved));
	human_bytes(v->min_bytes, need, sizeof(need));
	snprintf(b, n, "%s read from DRAM or written, the task needs %s%s",
		 moved, need, v->nkernels > 1 ? " (all kernels)" : "");
}

static int cell_banks(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = conflict_share(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f%%", 100 * x);
}

static void say_banks(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;

	(void)arg;
	if (!conflict_share(v, &x))
		snprintf(b, n, "no shared-memory accesses");
	else if (x < 0.05)
		snprintf(b, n, "conflict-free");
	else
		snprintf(b, n, "share of shared-memory wavefronts that were "
			 "replays: each access costs %.1fx", 1 / (1 - x));
}

static int cell_branch(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = branch_efficiency(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f%%", x);
}

static void say_branch(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (!have(v, M_BR_TARGETS) || !have(v, M_BR_DIVERGENT))
		return;
	snprintf(b, n, "%.0f of %.0f branch targets split a warp",
		 v->m[M_BR_DIVERGENT], v->m[M_BR_TARGETS]);
}

static int cell_lanes(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	return cell_fmt(b, n, have(v, M_LANES), "%.1f", v->m[M_LANES]);
}

static void say_lanes(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (have(v, M_LANES))
		snprintf(b, n, "%.0f%% of the lanes do work per instruction",
			 100 * v->m[M_LANES] / 32);
}

static void ideal_theoretical(const struct prof_view *v, int arg, char *b,
			      size_t n)
{
	(void)arg;
	if (have(v, M_OCC_THEORETICAL))
		snprintf(b, n, "%.0f%%", v->m[M_OCC_THEORETICAL]);
}

static void say_achieved(const struct prof_view *v, int arg, char *b, size_t n)
{
	double a = v->m[M_OCC_ACHIEVED], t = v->m[M_OCC_THEORETICAL];

	(void)arg;
	if (isnan(a) || isnan(t) || t <= 0)
		return;
	snprintf(b, n, "%s", a >= 0.8 * t ? "at the launch's limit" :
		 "well under the launch's limit: too few blocks, a tail, or "
		 "uneven work");
}

static void say_limit(const struct prof_view *v, int arg, char *b, size_t n)
{
	char names[96];
	double k;

	(void)arg;
	if (limiter(v, names, sizeof(names), &k))
		snprintf(b, n, "limited by %s: %.0f blocks of %ld threads per "
			 "SM", names, k, v->block);
}

static int cell_regs(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	return cell_fmt(b, n, have(v, M_REGS), "%.0f", v->m[M_REGS]);
}

static void say_regs(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (have(v, M_REGS) && have(v, M_LIM_REGS))
		snprintf(b, n, "registers allow %.0f blocks of %ld threads per "
			 "SM", v->m[M_LIM_REGS], v->block);
}

static int cell_local(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = local_accesses(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f", x);
}

static void say_local(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;

	(void)arg;
	if (local_accesses(v, &x))
		snprintf(b, n, "%s", x > 0 ? "local loads and stores: register "
			 "spills, or an array indexed at run time" :
			 "nothing spilled to local memory");
}

static int cell_grid(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (v->grid <= 0)
		return 0;
	snprintf(b, n, "%ldx%ld", v->grid, v->block);
	return 1;
}

static void say_grid(const struct prof_view *v, int arg, char *b, size_t n)
{
	double bps;

	(void)arg;
	if (!blocks_per_sm(v, &bps))
		return;
	if (have(v, M_WAVES))
		snprintf(b, n, "blocks x threads: %.2f blocks per SM, %.2f "
			 "waves", bps, v->m[M_WAVES]);
	else
		snprintf(b, n, "blocks x threads: %.2f blocks per SM", bps);
}

static int cell_stall_total(const struct prof_view *v, int arg, char *b,
			    size_t n)
{
	(void)arg;
	return cell_fmt(b, n, have(v, M_STALL_TOTAL), "%.1f",
			v->m[M_STALL_TOTAL]);
}

static void say_stall_total(const struct prof_view *v, int arg, char *b,
			    size_t n)
{
	(void)arg;
	if (have(v, M_STALL_TOTAL))
		snprintf(b, n, "a warp issues one instruction every %.1f cycles",
			 v->m[M_STALL_TOTAL]);
}

static int cell_stall(const struct prof_view *v, int reason, char *b, size_t n)
{
	int m = M_STALL_FIRST + reason;

	return cell_fmt(b, n, have(v, m), "%.1f", v->m[m]);
}

static void say_stall(const struct prof_view *v, int reason, char *b, size_t n)
{
	double x = 0;

	if (stall_share(v, prof_stall_names[reason], &x))
		snprintf(b, n, "%.0f%%: %s", 100 * x, stall_meaning[reason]);
}

enum { I_80, I_0, I_100, I_32, I_1X, I_0PCT };

static const struct row rows[] = {
	{ ~0u, "duration", cell_time, ideal_time, say_time, 0 },
	{ WB_PROF_COALESCING, "global load sectors/request", cell_spr,
	  ideal_spr, say_spr, 0 },
	{ WB_PROF_COALESCING, "global store sectors/request", cell_spr,
	  ideal_spr, say_spr, 1 },
	{ WB_PROF_THROUGHPUT, "DRAM throughput", cell_metric_pct, ideal_text,
	  say_dram, M_DRAM_PCT },
	{ WB_PROF_THROUGHPUT, "L2 throughput", cell_metric_pct, NULL, say_l2,
	  M_L2_PCT },
	{ WB_PROF_THROUGHPUT, "SM throughput", cell_metric_pct, NULL, say_sm,
	  M_SM_PCT },
	{ WB_PROF_THROUGHPUT, "DRAM GB/s", cell_gbps, ideal_gbps, say_gbps, 0 },
	{ WB_PROF_THROUGHPUT, "bytes moved / task minimum", cell_traffic,
	  ideal_text, say_traffic, I_1X },
	{ WB_PROF_SHARED, "shared bank-conflict replays", cell_banks,
	  ideal_text, say_banks, I_0PCT },
	{ WB_PROF_DIVERGENCE, "branch efficiency", cell_branch, ideal_text,
	  say_branch, I_100 },
	{ WB_PROF_DIVERGENCE, "active lanes/instruction", cell_lanes,
	  ideal_text, say_lanes, I_32 },
	{ WB_PROF_OCCUPANCY, "achieved occupancy", cell_metric_pct,
	  ideal_theoretical, say_achieved, M_OCC_ACHIEVED },
	{ WB_PROF_OCCUPANCY, "theoretical occupancy", cell_metric_pct,
	  ideal_text, say_limit, M_OCC_THEORETICAL },
	{ WB_PROF_OCCUPANCY, "registers/thread", cell_regs, NULL, say_regs, 0 },
	{ WB_PROF_OCCUPANCY, "local-memory accesses", cell_local, ideal_text,
	  say_local, I_0 },
	{ WB_PROF_OCCUPANCY, "grid", cell_grid, NULL, say_grid, 0 },
	{ WB_PROF_STALLS, "cycles between issues", cell_stall_total, NULL,
	  say_stall_total, 0 },
};

/* The arg of ideal_text for the rows that use a metric as their arg. */
static int ideal_arg(const struct row *r)
{
	if (r->cell == cell_metric_pct)
		return r->arg == M_DRAM_PCT ? I_80 : I_100;
	return r->arg;
}

#define LABEL_W 30
#define CELL_W 12
#define IDEAL_W 11

struct table {
	char (*out)[G_DETAIL_LEN];
	int n, max;
};

static void __attribute__((format(printf, 2, 3)))
emit(struct table *t, const char *fmt, ...)
{
	va_list ap;

	if (t->n >= t->max)
		return;
	va_start(ap, fmt);
	vsnprintf(t->out[t->n++], G_DETAIL_LEN, fmt, ap);
	va_end(ap);
}

/* One line: label, a cell per view, the ideal and the meaning. */
static void table_line(struct table *t, const char *label,
		       const char cells[][CELL_W + 1], int nviews,
		       const char *ideal, const char *say)
{
	char line[G_DETAIL_LEN];
	size_t len = snprintf(line, sizeof(line), "%-*s", LABEL_W, label);

	for (int i = 0; i < nviews && len < sizeof(line); i++)
		len += snprintf(line + len, sizeof(line) - len, " %*s", CELL_W,
				cells[i]);
	if (len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, " %*s  %s", IDEAL_W,
			 ideal, say);
	emit(t, "%s", line);
}

static void table_row(struct table *t, const struct row *r,
		      const struct prof_view *views, int nviews, int subject,
		      const char *label)
{
	char cells[PROF_MAX_KERNELS + 4][CELL_W + 1], ideal[32] = "", say[200] = "";
	int any = 0;

	for (int i = 0; i < nviews; i++) {
		char b[64];

		if (r->cell(&views[i], r->arg, b, sizeof(b)))
			any = 1;
		else
			snprintf(b, sizeof(b), "-");
		snprintf(cells[i], sizeof(cells[i]), "%.*s", CELL_W, b);
	}
	if (!any)
		return; /* not measured anywhere: no row */
	if (r->ideal)
		r->ideal(&views[subject], ideal_arg(r), ideal, sizeof(ideal));
	if (r->say)
		r->say(&views[subject], r->arg, say, sizeof(say));
	table_line(t, label ? label : r->label, cells, nviews,
		   *ideal ? ideal : "-", say);
}

/* The subject's three largest stall reasons, with every view's value. */
#define SHOWN_STALLS 3

static void stall_rows(struct table *t, const struct prof_view *views,
		       int nviews, int subject)
{
	int top[SHOWN_STALLS], n = top_stalls(&views[subject], top, SHOWN_STALLS);

	for (int i = 0; i < n; i++) {
		struct row r = { WB_PROF_STALLS, NULL, cell_stall, NULL,
				 say_stall, top[i] };
		char label[64];

		snprintf(label, sizeof(label), "  stall: %s",
			 prof_stall_names[top[i]]);
		table_row(t, &r, views, nviews, subject, label);
	}
}

int prof_table(const struct prof_view *views, int nviews, int subject,
	       unsigned groups, char out[][G_DETAIL_LEN], int max)
{
	struct table t = { .out = out, .max = max };
	char cells[PROF_MAX_KERNELS + 4][CELL_W + 1];
	char says[PROF_NAME_LEN + 32];

	if (nviews > PROF_MAX_KERNELS + 4)
		nviews = PROF_MAX_KERNELS + 4;
	for (int i = 0; i < nviews; i++)
		snprintf(cells[i], sizeof(cells[i]), "%.*s", CELL_W,
			 views[i].label);
	snprintf(says, sizeof(says), "what it says%s%s%s", nviews > 1 ? " (" : "",
		 nviews > 1 ? views[subject].label : "", nviews > 1 ? ")" : "");
	table_line(&t, "metric", cells, nviews, "ideal", says);
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!(groups & rows[i].group))
			continue;
		table_row(&t, &rows[i], views, nviews, subject, NULL);
		if (rows[i].cell == cell_stall_total)
			stall_rows(&t, views, nviews, subject);
	}
	for (int i = 0; i < nviews; i++) {
		char lines[PROF_NHINTS][G_DETAIL_LEN];
		int k = prof_hints(&views[i], groups, NULL, lines, PROF_NHINTS);

		if (!k && views[i].share < HINT_MIN_SHARE) {
			emit(&t, "hints for %s: none, it takes %.0f%% of the "
			     "call's time", views[i].label, 100 * views[i].share);
			continue;
		}
		if (!k) {
			emit(&t, "hints%s%s: none, nothing measured points at a "
			     "problem", nviews > 1 ? " for " : "",
			     nviews > 1 ? views[i].label : "");
			continue;
		}
		emit(&t, "hints%s%s:", nviews > 1 ? " for " : "",
		     nviews > 1 ? views[i].label : "");
		for (int j = 0; j < k; j++)
			emit(&t, "  - %s", lines[j]);
	}
	return t.n;
}
