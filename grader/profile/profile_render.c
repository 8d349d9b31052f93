/* SPDX-License-Identifier: MIT */
/*
 * profile_render.c - the profile as the student reads it
 * (profile_render.h): a table with a column per view, one row per figure
 * of the groups shown (its value in each column, the ideal and one line
 * of meaning for the subject), the three largest stall reasons, then each
 * view's hints; and the names of the groups.
 *
 * It lays out lines of text and nothing else: the figures and the hints
 * are profile_derive.c's, and where the lines go (a report's details, the
 * terminal) is ncu.c's.
 */
#include "profile_render.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "metrics.h"
#include "profile_derive.h"

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

/* ---- the rows ---- */

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
	return cell_fmt(b, n, prof_have(v, m), "%.0f%%", v->m[m]);
}

static int cell_spr(const struct prof_view *v, int st, char *b, size_t n)
{
	double x = 0;
	int ok = st ? prof_st_sectors_per_request(v, &x) :
		      prof_ld_sectors_per_request(v, &x);

	return cell_fmt(b, n, ok, "%.1f", x);
}

static void ideal_spr(const struct prof_view *v, int st, char *b, size_t n)
{
	double x = 0;

	if (st ? prof_st_ideal(v, &x) : prof_ld_ideal(v, &x))
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
	if (x >= PROF_SOL_PCT && prof_traffic_ratio(v, &t) &&
	    t >= PROF_FUSION_TRAFFIC)
		snprintf(b, n, "the memory is nearly saturated, but with more "
			 "bytes than the task needs (bytes moved, below)");
	else
		snprintf(b, n, "%s", x >= PROF_SOL_PCT ? "the memory is nearly "
			 "saturated: memory-bound, near its speed of light" :
			 x >= PROF_LATENCY_PCT ? "busy, with room left" :
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
		snprintf(b, n, "%s", x >= PROF_LATENCY_PCT ? "the SMs are "
			 "busy: instructions or arithmetic may be the limit" :
			 "the SMs have capacity to spare");
}

static int cell_gbps(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = prof_dram_gbps(v, &x);

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
	if (!prof_dram_gbps(v, &x))
		return;
	prof_human_bytes(v->m[M_DRAM_RD] + v->m[M_DRAM_WR], moved,
			 sizeof(moved));
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
	if (v->min_bytes <= 0 || !prof_traffic(v, &t))
		return;
	prof_human_bytes(t, moved, sizeof(moved));
	prof_human_bytes(v->min_bytes, need, sizeof(need));
	snprintf(b, n, "%s read from DRAM or written, the task needs %s%s",
		 moved, need, v->nkernels > 1 ? " (all kernels)" : "");
}

static int cell_banks(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = prof_conflict_share(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f%%", 100 * x);
}

static void say_banks(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;

	(void)arg;
	if (!prof_conflict_share(v, &x))
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
	int ok = prof_branch_efficiency(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f%%", x);
}

static void say_branch(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (!prof_have(v, M_BR_TARGETS) || !prof_have(v, M_BR_DIVERGENT))
		return;
	snprintf(b, n, "%.0f of %.0f branch targets split a warp",
		 v->m[M_BR_DIVERGENT], v->m[M_BR_TARGETS]);
}

static int cell_lanes(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	return cell_fmt(b, n, prof_have(v, M_LANES), "%.1f", v->m[M_LANES]);
}

static void say_lanes(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (prof_have(v, M_LANES))
		snprintf(b, n, "%.0f%% of the lanes do work per instruction",
			 100 * v->m[M_LANES] / 32);
}

static void ideal_theoretical(const struct prof_view *v, int arg, char *b,
			      size_t n)
{
	(void)arg;
	if (prof_have(v, M_OCC_THEORETICAL))
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
	if (prof_limiter(v, names, sizeof(names), &k))
		snprintf(b, n, "limited by %s: %.0f blocks of %ld threads per "
			 "SM", names, k, v->block);
}

static int cell_regs(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	return cell_fmt(b, n, prof_have(v, M_REGS), "%.0f", v->m[M_REGS]);
}

static void say_regs(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	if (prof_have(v, M_REGS) && prof_have(v, M_LIM_REGS))
		snprintf(b, n, "registers allow %.0f blocks of %ld threads per "
			 "SM", v->m[M_LIM_REGS], v->block);
}

static int cell_local(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;
	int ok = prof_local_accesses(v, &x);

	(void)arg;
	return cell_fmt(b, n, ok, "%.0f", x);
}

static void say_local(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = 0;

	(void)arg;
	if (prof_local_accesses(v, &x))
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
	if (!prof_blocks_per_sm(v, &bps))
		return;
	if (prof_have(v, M_WAVES))
		snprintf(b, n, "blocks x threads: %.2f blocks per SM, %.2f "
			 "waves", bps, v->m[M_WAVES]);
	else
		snprintf(b, n, "blocks x threads: %.2f blocks per SM", bps);
}

static int cell_stall_total(const struct prof_view *v, int arg, char *b,
			    size_t n)
{
	(void)arg;
	return cell_fmt(b, n, prof_have(v, M_STALL_TOTAL), "%.1f",
			v->m[M_STALL_TOTAL]);
}

static void say_stall_total(const struct prof_view *v, int arg, char *b,
			    size_t n)
{
	(void)arg;
	if (prof_have(v, M_STALL_TOTAL))
		snprintf(b, n, "a warp issues one instruction every %.1f cycles",
			 v->m[M_STALL_TOTAL]);
}

/* The schedulers: how often one issued, and how many warps it could pick
 * from (ncu's Scheduler Statistics). */
static int cell_issue(const struct prof_view *v, int arg, char *b, size_t n)
{
	(void)arg;
	return cell_fmt(b, n, prof_have(v, M_ISSUE_ACTIVE), "%.0f%%",
			v->m[M_ISSUE_ACTIVE]);
}

static void say_issue(const struct prof_view *v, int arg, char *b, size_t n)
{
	double x = v->m[M_ISSUE_ACTIVE];

	(void)arg;
	if (!prof_have(v, M_ISSUE_ACTIVE))
		return;
	if (prof_have(v, M_WARPS_ACTIVE) && prof_have(v, M_STALL_TOTAL) &&
	    v->m[M_STALL_TOTAL] > 0)
		snprintf(b, n, "in %.0f%% of cycles no warp was ready: %.1f "
			 "warps issuing every %.1f cycles each make %.2f "
			 "instructions a cycle", 100 - x, v->m[M_WARPS_ACTIVE],
			 v->m[M_STALL_TOTAL],
			 v->m[M_WARPS_ACTIVE] / v->m[M_STALL_TOTAL]);
	else
		snprintf(b, n, "in %.0f%% of cycles no warp was ready", 100 - x);
}

static int cell_eligible(const struct prof_view *v, int arg, char *b,
			 size_t n)
{
	(void)arg;
	if (!prof_have(v, M_WARPS_ELIGIBLE) || !prof_have(v, M_WARPS_ACTIVE))
		return cell_fmt(b, n, 0, "", 0);
	snprintf(b, n, "%.2f/%.1f", v->m[M_WARPS_ELIGIBLE],
		 v->m[M_WARPS_ACTIVE]);
	return 1;
}

static void say_eligible(const struct prof_view *v, int arg, char *b,
			 size_t n)
{
	(void)arg;
	if (!prof_have(v, M_WARPS_ELIGIBLE) || !prof_have(v, M_WARPS_ACTIVE))
		return;
	snprintf(b, n, "of %.1f resident warps a scheduler had %.2f ready a "
		 "cycle%s", v->m[M_WARPS_ACTIVE], v->m[M_WARPS_ELIGIBLE],
		 v->m[M_WARPS_ELIGIBLE] < 1 ? ": under 1, it often waits" : "");
}

static int cell_stall(const struct prof_view *v, int reason, char *b, size_t n)
{
	int m = M_STALL_FIRST + reason;

	return cell_fmt(b, n, prof_have(v, m), "%.1f", v->m[m]);
}

static void say_stall(const struct prof_view *v, int reason, char *b, size_t n)
{
	double x = 0;

	if (prof_stall_share(v, metric_stall_names[reason], &x))
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
	{ WB_PROF_STALLS, "scheduler issue slots used", cell_issue, NULL,
	  say_issue, 0 },
	{ WB_PROF_STALLS, "warps eligible/active", cell_eligible, NULL,
	  say_eligible, 0 },
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

/* ---- the table ---- */

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
	int top[SHOWN_STALLS];
	int n = prof_top_stalls(&views[subject], top, SHOWN_STALLS);

	for (int i = 0; i < n; i++) {
		struct row r = { WB_PROF_STALLS, NULL, cell_stall, NULL,
				 say_stall, top[i] };
		char label[64];

		snprintf(label, sizeof(label), "  stall: %s",
			 metric_stall_names[top[i]]);
		table_row(t, &r, views, nviews, subject, label);
	}
}

int render_table(const struct prof_view *views, int nviews, int subject,
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

		if (!k && views[i].share < PROF_HINT_MIN_SHARE) {
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

/* ---- the groups' names ---- */

void render_group_names(unsigned groups, char *buf, size_t n)
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
