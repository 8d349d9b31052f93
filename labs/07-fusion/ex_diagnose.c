/* SPDX-License-Identifier: MIT */
/*
 * ex_diagnose.c - lab 07's diagnose (a host exercise): the Nsight Compute
 * recordings it reads (diagnose_reports.h) and the reports drawn around
 * them, the lab's model of what limits a kernel, and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fusion.h"
#include "lab_hooks.h"

/* ---- diagnose ---- */

#include "diagnose_reports.h"

#define DIAG_COUNT (sizeof(diag_recordings) / sizeof(diag_recordings[0]))

/* The columns read, in the order of diagnose_reports.h's cut. */
enum {
	DC_NAME, DC_TIME, DC_DRAM_PCT, DC_SM_PCT, DC_DRAM_RD, DC_DRAM_WR,
	DC_LD_SEC, DC_LD_REQ, DC_LD_BYTES, DC_ST_SEC, DC_ST_REQ, DC_ST_BYTES,
	DC_SH_LD_WAVES, DC_SH_ST_WAVES, DC_SH_LD_CONF, DC_SH_ST_CONF,
	DC_BR_TARGETS, DC_BR_DIV, DC_BR_UNI, DC_LANES, DC_WAVES, DC_COUNT
};

static const char *const diag_columns[DC_COUNT] = {
	"Kernel Name", "gpu__time_duration.sum",
	"dram__throughput.avg.pct_of_peak_sustained_elapsed",
	"sm__throughput.avg.pct_of_peak_sustained_elapsed",
	"dram__bytes_read.sum", "dram__bytes_write.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
	"sm__sass_data_bytes_mem_global_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
	"sm__sass_data_bytes_mem_global_op_st.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
	"smsp__sass_branch_targets.sum",
	"smsp__sass_branch_targets_threads_divergent.sum",
	"smsp__sass_branch_targets_threads_uniform.sum",
	"smsp__thread_inst_executed_per_inst_executed.ratio",
	"launch__waves_per_multiprocessor",
};

/*
 * A recording parsed into a report: the header row names the columns
 * (any order), the units row follows it (ncu's base units: ns, byte),
 * then a row per kernel, combined as fusion.h says. Returns 0, or -1
 * when the recording lacks a column or a kernel (a bug of the lab).
 */
static int diag_parse(const struct diag_recording *rec,
		      struct diag_report *r)
{
	char f[DC_COUNT][96];
	int pos[DC_COUNT], row = 0;
	const char *p = rec->csv;
	double longest = -1;

	memset(r, 0, sizeof(*r));
	while (*p) {
		int n = lab07_csv_fields(p, &p, f, DC_COUNT);
		double v[DC_COUNT];

		if (row++ == 0) {
			for (int c = 0; c < DC_COUNT; c++) {
				pos[c] = -1;
				for (int i = 0; i < n; i++)
					if (!strcmp(f[i], diag_columns[c]))
						pos[c] = i;
				if (pos[c] < 0)
					return -1;
			}
			continue;
		}
		if (row == 2 || n < DC_COUNT)
			continue; /* the units */
		for (int c = 1; c < DC_COUNT; c++)
			v[c] = lab07_csv_number(f[pos[c]]);
		r->kernels++;
		r->time_ns += v[DC_TIME];
		r->dram_pct += v[DC_DRAM_PCT] * v[DC_TIME];
		r->sm_pct += v[DC_SM_PCT] * v[DC_TIME];
		r->dram_bytes += v[DC_DRAM_RD] + v[DC_DRAM_WR];
		r->ld_sectors += v[DC_LD_SEC];
		r->ld_requests += v[DC_LD_REQ];
		r->ld_bytes += v[DC_LD_BYTES];
		r->st_sectors += v[DC_ST_SEC];
		r->st_requests += v[DC_ST_REQ];
		r->st_bytes += v[DC_ST_BYTES];
		r->sh_wavefronts += v[DC_SH_LD_WAVES] + v[DC_SH_ST_WAVES];
		r->sh_conflicts += v[DC_SH_LD_CONF] + v[DC_SH_ST_CONF];
		r->br_targets += v[DC_BR_TARGETS];
		r->br_divergent += v[DC_BR_DIV];
		r->br_uniform += v[DC_BR_UNI];
		r->lanes += v[DC_LANES] * v[DC_TIME];
		if (v[DC_TIME] > longest) {
			longest = v[DC_TIME];
			r->waves = v[DC_WAVES];
		}
	}
	if (!r->kernels || r->time_ns <= 0)
		return -1;
	r->dram_pct /= r->time_ns;
	r->sm_pct /= r->time_ns;
	r->lanes /= r->time_ns;
	r->min_bytes = rec->min_bytes;
	r->flops = rec->flops;
	return 0;
}

static double diag_abs(double x)
{
	return x < 0 ? -x : x;
}

/* x / y, or 0 where y is 0 (fusion.h). */
static double diag_ratio(double x, double y)
{
	return y <= 0 ? 0 : x / y;
}

/* Sectors per request over the fewest a request could touch: its bytes
 * in 32-byte sectors, at least one (lab 03's sectors; make profile's
 * coalescing figure). */
static double diag_excess(double sectors, double requests, double bytes)
{
	double least = diag_ratio(bytes, 32 * requests);

	if (least < 1)
		least = 1;
	return diag_ratio(sectors, requests) / least;
}

#define DIAG_NMETRICS (DIAG_DRAM_PCT + 1)

/* Every metric's value in a report, as fusion.h and section 12 define
 * them. */
static void diag_figures(const struct diag_report *r,
			 double f[DIAG_NMETRICS])
{
	double ld = diag_excess(r->ld_sectors, r->ld_requests, r->ld_bytes);
	double st = diag_excess(r->st_sectors, r->st_requests, r->st_bytes);

	f[DIAG_WAVES] = r->waves;
	f[DIAG_SECTOR_EXCESS] = st > ld ? st : ld;
	f[DIAG_TRAFFIC] = diag_ratio(r->dram_bytes, r->min_bytes);
	f[DIAG_BYTES_PER_FLOP] = diag_ratio(r->ld_bytes, r->flops);
	f[DIAG_CONFLICTS] = diag_ratio(r->sh_conflicts, r->sh_wavefronts);
	f[DIAG_BRANCH_EFF] = r->br_targets <= 0 ? 100 :
			     r->br_uniform / r->br_targets * 100;
	f[DIAG_SM_PCT] = r->sm_pct;
	f[DIAG_DRAM_PCT] = r->dram_pct;
}

static double diag_value(const struct diag_report *r, enum diag_metric m)
{
	double f[DIAG_NMETRICS];

	diag_figures(r, f);
	return (unsigned)m < DIAG_NMETRICS ? f[m] : 0;
}

/*
 * The lab's model (README, section 12), which make profile's hints apply
 * too (grader/profile/profile_derive.c, the same thresholds). The bound is ncu's
 * speed-of-light rule: 60% of the memory's or the SMs' peak, the larger
 * deciding; under both, latency. The fix is the first of these that the
 * report shows, in the order that one blocks the next: an idle GPU
 * (under half a wave), wasted sectors (more than 2x: exactly 2x is what
 * half a warp's lanes storing costs, lab 01's naive branch), a chain's
 * intermediates (several kernels moving 1.5x the task's bytes), re-reads
 * (0.5 bytes of loads a FLOP), bank conflicts (a fifth of the
 * wavefronts), divergence (branch efficiency under 50%); else by the
 * bound: fewer instructions (compute), more in flight (latency), nothing
 * (memory).
 */
#define DIAG_SOL_PCT 60.0

/* When a rule's fix is due: its figure under, from or over the limit. */
enum diag_when { DIAG_UNDER, DIAG_FROM, DIAG_OVER };

struct diag_rule_row {
	enum diag_fix gives;
	enum diag_metric metric;
	double limit;
	enum diag_when when;
	int min_kernels;
};

static const struct diag_rule_row diag_rules[] = {
	{ DIAG_FIX_GRID, DIAG_WAVES, 0.5, DIAG_UNDER, 1 },
	{ DIAG_FIX_COALESCE, DIAG_SECTOR_EXCESS, 2.0, DIAG_OVER, 1 },
	{ DIAG_FIX_FUSE, DIAG_TRAFFIC, 1.5, DIAG_FROM, 2 },
	{ DIAG_FIX_TILE, DIAG_BYTES_PER_FLOP, 0.5, DIAG_FROM, 1 },
	{ DIAG_FIX_PAD, DIAG_CONFLICTS, 0.2, DIAG_FROM, 1 },
	{ DIAG_FIX_BRANCH, DIAG_BRANCH_EFF, 50.0, DIAG_UNDER, 1 },
};

#define DIAG_NRULES (sizeof(diag_rules) / sizeof(diag_rules[0]))

static int diag_due(const struct diag_report *r, const double *f,
		    const struct diag_rule_row *row)
{
	double v = f[row->metric];

	if (r->kernels < row->min_kernels)
		return 0;
	if (row->when == DIAG_UNDER)
		return v < row->limit;
	if (row->when == DIAG_OVER)
		return v > row->limit;
	return v >= row->limit;
}

static void diag_rule(const struct diag_report *r, struct diag_answer *a)
{
	/* Where no rule is due: the fix and figure each bound gives. */
	static const enum diag_fix last_fix[] = {
		[DIAG_MEMORY] = DIAG_FIX_NONE,
		[DIAG_COMPUTE] = DIAG_FIX_FEWER_INSTR,
		[DIAG_LATENCY] = DIAG_FIX_IN_FLIGHT,
	};
	static const enum diag_metric last_metric[] = {
		[DIAG_MEMORY] = DIAG_DRAM_PCT,
		[DIAG_COMPUTE] = DIAG_SM_PCT,
		[DIAG_LATENCY] = DIAG_DRAM_PCT,
	};
	double f[DIAG_NMETRICS];
	size_t i;

	diag_figures(r, f);
	if (r->dram_pct < DIAG_SOL_PCT && r->sm_pct < DIAG_SOL_PCT)
		a->bound = DIAG_LATENCY;
	else if (r->sm_pct > r->dram_pct)
		a->bound = DIAG_COMPUTE;
	else
		a->bound = DIAG_MEMORY;
	for (i = 0; i < DIAG_NRULES && !diag_due(r, f, &diag_rules[i]); i++)
		;
	a->fix = i < DIAG_NRULES ? diag_rules[i].gives : last_fix[a->bound];
	a->metric = i < DIAG_NRULES ? diag_rules[i].metric :
				      last_metric[a->bound];
	a->value = f[a->metric];
}

/* Is any threshold's figure within 1e-6 of its limit (a drawn report
 * there could take either answer, by rounding alone)? */
static int diag_near_limit(const struct diag_report *r)
{
	double lim[] = { DIAG_SOL_PCT, DIAG_SOL_PCT };
	double fig[] = { r->dram_pct, r->sm_pct };
	double f[DIAG_NMETRICS];

	diag_figures(r, f);
	for (size_t i = 0; i < DIAG_NRULES; i++) {
		double v = f[diag_rules[i].metric];
		double limit = diag_rules[i].limit;

		if (diag_abs(v - limit) <= 1e-6 * limit)
			return 1;
	}
	for (int i = 0; i < 2; i++)
		if (diag_abs(fig[i] - lim[i]) <= 1e-6 * lim[i])
			return 1;
	return diag_abs(r->dram_pct - r->sm_pct) <= 1e-9;
}

#define DIAG_DRAWN_COUNT 300

struct diag_case {
	struct diag_report r;
	int rec; /* the recording it is, or was drawn from */
	int drawn;
};

/*
 * A report drawn around a recording: the throughputs redrawn from 0 to
 * 100%; each other figure a rule reads kept or, one time in two, scaled
 * by 2^k (1 + u) (k from -3 to 2: 1/8 to 8; the waves' k from -4 to 9);
 * the conflicts and divergent branches redrawn as shares; one time in
 * four, another number of kernels. So every rule, and every bound, is
 * crossed both ways across the group (the report counts the fixes). Not
 * a recording: what a profile of some other kernel could say.
 */
static double diag_scale(struct wb_rng *rng, int lo, int n)
{
	double k = (double)(1u << wb_rng_below(rng, (uint64_t)n)) /
		   (double)(1u << -lo);

	if (wb_rng_below(rng, 2))
		return 1;
	return k * (1 + wb_rng_unit(rng)); /* no libm: hostcheck.c's link
					      * leaves it weak */
}

/* Sectors scaled, but never below the fewest the requests need. */
static double diag_sectors(struct wb_rng *rng, double sectors,
			   double requests, double bytes)
{
	double least = diag_ratio(bytes, 32);

	sectors *= diag_scale(rng, -3, 6);
	if (least < requests)
		least = requests;
	return sectors < least ? least : sectors;
}

static void diag_draw(struct wb_rng *rng, struct diag_report *r)
{
	r->dram_pct = 100 * wb_rng_unit(rng);
	r->sm_pct = 100 * wb_rng_unit(rng);
	r->waves = (r->waves + 0.01) * diag_scale(rng, -4, 14);
	r->ld_sectors = diag_sectors(rng, r->ld_sectors, r->ld_requests,
				     r->ld_bytes);
	r->st_sectors = diag_sectors(rng, r->st_sectors, r->st_requests,
				     r->st_bytes);
	r->dram_bytes *= diag_scale(rng, -3, 6);
	r->ld_bytes *= diag_scale(rng, -3, 6);
	if (wb_rng_below(rng, 2))
		r->sh_conflicts = r->sh_wavefronts * wb_rng_unit(rng) * 0.5;
	if (wb_rng_below(rng, 2)) {
		r->br_divergent = r->br_targets * wb_rng_unit(rng);
		r->br_uniform = r->br_targets - r->br_divergent;
	}
	if (wb_rng_below(rng, 4) == 0)
		r->kernels = 1 + (int)wb_rng_below(rng, 9);
}

int lab07_diagnose_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0] == DIAG_RECORDED ? DIAG_COUNT :
						    DIAG_DRAWN_COUNT;
	struct diag_case *in = wb_input(c, "reports", n * sizeof(*in));
	int order[DIAG_COUNT];

	for (size_t i = 0; i < DIAG_COUNT; i++)
		order[i] = (int)i;
	for (size_t i = DIAG_COUNT - 1; i > 0; i--) {
		size_t j = wb_rng_below(&c->rng, i + 1);
		int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		struct diag_case *d = &in[i];

		memset(d, 0, sizeof(*d));
		d->rec = order[i % DIAG_COUNT];
		if (diag_parse(&diag_recordings[d->rec], &d->r))
			return -1;
		if (c->size->n[0] == DIAG_RECORDED)
			continue;
		d->drawn = 1;
		do {
			diag_parse(&diag_recordings[d->rec], &d->r);
			diag_draw(&c->rng, &d->r);
		} while (diag_near_limit(&d->r));
	}
	wb_output(c, "answers", n * sizeof(struct diag_answer));
	return 0;
}

enum { DG_REPORTS, DG_ANSWERS };

static size_t diag_count(const struct wb_ctx *c)
{
	return c->buf[DG_REPORTS].bytes / sizeof(struct diag_case);
}

/* Your answer for every report, copied to the output. Each call gets its
 * own copy of the report, and a poisoned answer. */
int lab07_diagnose_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct diag_answer got[DIAG_DRAWN_COUNT + DIAG_COUNT];
	const struct diag_case *in = c->buf[DG_REPORTS].host;
	size_t n = diag_count(c);

	if (impl != WB_STUDENT || !diagnose)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct diag_report r = in[i].r;

		memset(&got[i], 0xff, sizeof(got[i]));
		diagnose(&r, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, DG_ANSWERS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

static const char *const diag_bound_names[] = { "memory", "compute",
						"latency" };
static const char *const diag_metric_names[] = {
	"DIAG_WAVES", "DIAG_SECTOR_EXCESS", "DIAG_TRAFFIC",
	"DIAG_BYTES_PER_FLOP", "DIAG_CONFLICTS", "DIAG_BRANCH_EFF",
	"DIAG_SM_PCT", "DIAG_DRAM_PCT",
};
static const char *const diag_fix_names[] = {
	"DIAG_FIX_GRID", "DIAG_FIX_COALESCE", "DIAG_FIX_FUSE",
	"DIAG_FIX_TILE", "DIAG_FIX_PAD", "DIAG_FIX_BRANCH",
	"DIAG_FIX_FEWER_INSTR", "DIAG_FIX_IN_FLIGHT", "DIAG_FIX_NONE",
};

#define DIAG_NAME(tab, v)                                                  \
	((unsigned)(v) < sizeof(tab) / sizeof(tab[0]) ? tab[v] : "(none)")

/* Why answer a is wrong for report r, or NULL. The value is checked to
 * 1e-9 relative: a ratio of the same counters in another order. */
static const char *diag_wrong(const struct diag_report *r,
			      const struct diag_answer *a,
			      const struct diag_answer *w)
{
	double v;

	if (a->bound != w->bound)
		return "the bound";
	if (a->fix != w->fix)
		return "the fix";
	if (a->metric != w->metric)
		return "the metric that shows the fix is due";
	v = diag_value(r, a->metric);
	if (!(diag_abs(a->value - v) <= 1e-9 * diag_abs(v)))
		return "the value of that metric";
	return NULL;
}

#define DIAG_SHOWN 3

void lab07_diagnose_check(struct wb_ctx *c)
{
	const struct diag_case *in = c->buf[DG_REPORTS].host;
	const struct diag_answer *got = c->buf[DG_ANSWERS].host;
	size_t n = diag_count(c), bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct diag_report *r = &in[i].r;
		const struct diag_answer *a = &got[i];
		struct diag_answer w;
		const char *why;

		diag_rule(r, &w);
		why = diag_wrong(r, a, &w);
		if (!why || bad++ >= DIAG_SHOWN)
			continue;
		wb_fail(c, "report %zu, %s%s: %s is wrong", i,
			diag_recordings[in[i].rec].name,
			in[i].drawn ? " with its figures redrawn" : "", why);
		wb_fail(c, "  DRAM %.2f%%, SM %.2f%%, %d kernel(s), waves "
			   "%.4g, sector excess %.4g, traffic %.4g, load "
			   "bytes/FLOP %.4g, conflicts %.4g, branch eff %.4g%%",
			r->dram_pct, r->sm_pct, r->kernels, r->waves,
			diag_value(r, DIAG_SECTOR_EXCESS),
			diag_value(r, DIAG_TRAFFIC),
			diag_value(r, DIAG_BYTES_PER_FLOP),
			diag_value(r, DIAG_CONFLICTS),
			diag_value(r, DIAG_BRANCH_EFF));
		wb_fail(c, "  you: %s-bound, %s = %.6g, %s",
			DIAG_NAME(diag_bound_names, a->bound),
			DIAG_NAME(diag_metric_names, a->metric), a->value,
			DIAG_NAME(diag_fix_names, a->fix));
		wb_fail(c, "  the model: %s-bound, %s = %.6g, %s",
			diag_bound_names[w.bound],
			diag_metric_names[w.metric], w.value,
			diag_fix_names[w.fix]);
	}
	if (bad > DIAG_SHOWN)
		wb_fail(c, "... and %zu more of %zu reports", bad - DIAG_SHOWN,
			n);
	if (!bad && c->size->n[0] == DIAG_DRAWN) {
		int count[DIAG_FIX_NONE + 1] = { 0 };

		for (size_t i = 0; i < n; i++)
			count[got[i].fix]++;
		printf("  the drawn reports' fixes:");
		for (int f = 0; f <= DIAG_FIX_NONE; f++)
			printf(" %s %d", diag_fix_names[f] + 9, count[f]);
		printf("\n");
	}
	if (!bad && c->size->n[0] == DIAG_RECORDED) {
		printf("  the recordings (H100), as you read them:\n");
		for (size_t i = 0; i < n; i++)
			printf("    %-22s %s-bound, %s = %.4g: %s\n",
			       diag_recordings[in[i].rec].name,
			       diag_bound_names[got[i].bound],
			       diag_metric_names[got[i].metric],
			       got[i].value, diag_fix_names[got[i].fix]);
	}
}
