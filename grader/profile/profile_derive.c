/* SPDX-License-Identifier: MIT */
/*
 * profile_derive.c - what Nsight Compute's numbers mean (profile_derive.h):
 * a call's kernels combined into a view, the figures derived from a view
 * (sectors per request against their ideal, bytes moved against the task's
 * minimum, bank-conflict replays, the binding occupancy limit, the largest
 * stalls), and the hints, each only from a measured number.
 *
 * It neither reads ncu's output (ncu_csv.c) nor lays out the table
 * (profile_render.c); it prints nothing. A hint's one line of text is the
 * one thing here that is worded for the student.
 */
#include "profile_derive.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"

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

			if (isnan(x) || metric_agg(m) == AGG_MAIN)
				continue;
			if (isnan(v->m[m]))
				v->m[m] = 0;
			if (metric_agg(m) == AGG_SUM) {
				v->m[m] += x;
			} else {
				v->m[m] += w * x;
				weight[m] += w;
			}
		}
	}
	for (int m = 0; m < PROF_NMETRICS; m++) {
		if (metric_agg(m) == AGG_TIME && weight[m] > 0)
			v->m[m] /= weight[m];
		if (metric_agg(m) == AGG_MAIN && r->nk)
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

int prof_st_sectors_per_request(const struct prof_view *v, double *x)
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

int prof_st_ideal(const struct prof_view *v, double *x)
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

	return prof_st_sectors_per_request(v, &spr) && prof_st_ideal(v, &id) &&
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
int prof_traffic(const struct prof_view *v, double *x)
{
	double wr;

	if (!prof_have(v, M_DRAM_RD))
		return 0;
	if (prof_have(v, M_L2_WR_SECTORS)) {
		wr = 32 * v->m[M_L2_WR_SECTORS];
		if (prof_have(v, M_ST_BYTES) && v->m[M_ST_BYTES] < wr)
			wr = v->m[M_ST_BYTES];
	} else if (prof_have(v, M_DRAM_WR)) {
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

	return v->min_bytes > 0 && prof_traffic(v, &t) &&
	       ratio(t, v->min_bytes, x);
}

int prof_dram_gbps(const struct prof_view *v, double *x)
{
	if (!prof_have(v, M_DRAM_RD) || !prof_have(v, M_DRAM_WR) ||
	    v->time_ns <= 0)
		return 0;
	*x = (v->m[M_DRAM_RD] + v->m[M_DRAM_WR]) / v->time_ns;
	return 1;
}

/* Share of shared-memory wavefronts that were bank-conflict replays. */
int prof_conflict_share(const struct prof_view *v, double *x)
{
	double waves = 0, conflicts = 0;

	if (!prof_have(v, M_SH_LD_WAVES) && !prof_have(v, M_SH_ST_WAVES))
		return 0;
	waves = (prof_have(v, M_SH_LD_WAVES) ? v->m[M_SH_LD_WAVES] : 0) +
		(prof_have(v, M_SH_ST_WAVES) ? v->m[M_SH_ST_WAVES] : 0);
	conflicts = (prof_have(v, M_SH_LD_CONFLICTS) ?
		     v->m[M_SH_LD_CONFLICTS] : 0) +
		    (prof_have(v, M_SH_ST_CONFLICTS) ?
		     v->m[M_SH_ST_CONFLICTS] : 0);
	if (conflicts > waves)
		conflicts = waves;
	return ratio(conflicts, waves, x);
}

int prof_branch_efficiency(const struct prof_view *v, double *x)
{
	if (!ratio(v->m[M_BR_UNIFORM], v->m[M_BR_TARGETS], x))
		return 0;
	*x *= 100;
	return 1;
}

int prof_local_accesses(const struct prof_view *v, double *x)
{
	if (!prof_have(v, M_LOCAL_LD) && !prof_have(v, M_LOCAL_ST))
		return 0;
	*x = (prof_have(v, M_LOCAL_LD) ? v->m[M_LOCAL_LD] : 0) +
	     (prof_have(v, M_LOCAL_ST) ? v->m[M_LOCAL_ST] : 0);
	return 1;
}

int prof_blocks_per_sm(const struct prof_view *v, double *x)
{
	return v->grid > 0 && ratio((double)v->grid, v->m[M_SMS], x);
}

/* The stall reasons of v, largest first (indices into metric_stall_names). */
int prof_top_stalls(const struct prof_view *v, int *out, int max)
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
		if (!strcmp(metric_stall_names[i], name))
			return v->m[M_STALL_FIRST + i];
	return NAN;
}

/* Share of a warp's cycles between issues spent on one reason. */
int prof_stall_share(const struct prof_view *v, const char *name, double *x)
{
	return ratio(stall(v, name), v->m[M_STALL_TOTAL], x);
}

/* Which of the occupancy limits binds: names into buf; the blocks in *k. */
int prof_limiter(const struct prof_view *v, char *buf, size_t n, double *k)
{
	static const struct { int m; const char *name; } lim[] = {
		{ M_LIM_REGS, "registers" }, { M_LIM_SMEM, "shared memory" },
		{ M_LIM_WARPS, "the block size" },
		{ M_LIM_BLOCKS, "the blocks-per-SM limit" },
	};
	double least = INFINITY;
	size_t len = 0;

	for (unsigned i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		if (prof_have(v, lim[i].m) && v->m[lim[i].m] < least)
			least = v->m[lim[i].m];
	if (isinf(least))
		return 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		if (prof_have(v, lim[i].m) && v->m[lim[i].m] == least &&
		    len < n)
			len += snprintf(buf + len, n - len, "%s%s",
					len ? " and " : "", lim[i].name);
	*k = least;
	return 1;
}

void prof_human_bytes(double b, char *buf, size_t n)
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
 * The thresholds below, and those the table's wording shares
 * (profile_derive.h), were set from the reasoning given with each, then
 * checked on make profile's tables of every naive and solved speed
 * exercise of labs 01-07 on an H100 (ncu 2025.3.1; tests/profile/README.md
 * and tests/gpu/record-ncu.sh): each naive gets its lab's hint, each
 * solution none.
 */

/* The hints' names, as make profile's TSV writes them (ncu.c). */
const char *const prof_hint_names[PROF_NHINTS] = {
	[H_COALESCING] = "coalescing", [H_GRID] = "grid",
	[H_OCCUPANCY] = "occupancy", [H_SPILLS] = "spills",
	[H_LATENCY] = "latency", [H_FUSION] = "fusion",
	[H_REREAD] = "reread", [H_BANKS] = "banks",
	[H_DIVERGENCE] = "divergence", [H_LG_THROTTLE] = "lg_throttle",
	[H_BARRIER] = "barrier", [H_INSTRUCTIONS] = "instructions",
	[H_SCHEDULER] = "scheduler",
};

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

/* At the memory's speed of light (PROF_SOL_PCT, profile_derive.h). */
static int at_speed_of_light(const struct prof_view *v)
{
	double t;

	if (!prof_have(v, M_DRAM_PCT) || v->m[M_DRAM_PCT] < PROF_SOL_PCT)
		return 0;
	return !prof_traffic_ratio(v, &t) || t < PROF_FUSION_TRAFFIC;
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
		prof_st_sectors_per_request(v, &spr);
		prof_st_ideal(v, &id);
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

	if (!prof_blocks_per_sm(v, &bps) && isnan(waves))
		return 0;
	if (!isnan(waves) ? waves >= GRID_WAVES : bps >= 1)
		return 0;
	if (prof_have(v, M_SMS))
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

	if (!prof_have(v, M_OCC_THEORETICAL) ||
	    v->m[M_OCC_THEORETICAL] >= OCCUPANCY_LIMIT_PCT ||
	    (prof_have(v, M_SM_PCT) && v->m[M_SM_PCT] >= PROF_LATENCY_PCT) ||
	    at_speed_of_light(v) || !prof_limiter(v, names, sizeof(names), &k))
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

	if (!prof_local_accesses(v, &local) || local <= 0)
		return;
	if (prof_have(v, M_LD_REQUESTS))
		global += v->m[M_LD_REQUESTS];
	if (prof_have(v, M_ST_REQUESTS))
		global += v->m[M_ST_REQUESTS];
	if (global > 0 && local < SPILL_SHARE * global)
		return;
	hint(h, H_SPILLS, "spills: %.0f local-memory accesses at %.0f registers "
	     "per thread (register spills, or an array indexed at run time): "
	     "index arrays with constants (unrolled loops) or give the "
	     "compiler more registers (__launch_bounds__) "
	     "(labs/01-warps/README.md)", local, v->m[M_REGS]);
}

/* Latency: DRAM and SMs both under PROF_LATENCY_PCT (profile_derive.h). */
static void hint_latency(const struct prof_view *v, struct hints *h)
{
	if (!prof_have(v, M_DRAM_PCT) || !prof_have(v, M_SM_PCT) ||
	    v->m[M_DRAM_PCT] >= PROF_LATENCY_PCT ||
	    v->m[M_SM_PCT] >= PROF_LATENCY_PCT)
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

	if (v->flops > 0 || !prof_have(v, M_DRAM_PCT) ||
	    !prof_have(v, M_SM_PCT) || v->m[M_DRAM_PCT] >= PROF_LATENCY_PCT ||
	    v->m[M_SM_PCT] < PROF_LATENCY_PCT)
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
 * Fusion (PROF_FUSION_TRAFFIC, profile_derive.h): several kernels moving
 * 1.15x the task's minimum. A fused kernel measures about 1.0x; the
 * smallest saving the labs teach (lab 07's add_rmsnorm, five passes
 * instead of four) is 1.25x.
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

	if (v->flops > 0 && prof_have(v, M_LD_BYTES) &&
	    v->m[M_LD_BYTES] / v->flops >= REREAD_BYTES_PER_FLOP)
		hint(h, H_REREAD, "re-reads: global loads ask for %.2f bytes per "
		     "floating-point operation, more than the L1 can deliver at "
		     "full speed (%.1f): every value is loaded again for each "
		     "use; load tiles into shared memory or registers once and "
		     "reuse them (labs/04-tiling/README.md)",
		     v->m[M_LD_BYTES] / v->flops, REREAD_BYTES_PER_FLOP);
	if (!prof_traffic_ratio(v, &x) || !prof_traffic(v, &t))
		return;
	prof_human_bytes(t, moved, sizeof(moved));
	prof_human_bytes(v->min_bytes, need, sizeof(need));
	if (v->nkernels > 1 && x >= PROF_FUSION_TRAFFIC)
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

	if (!prof_conflict_share(v, &share) || share < BANK_SHARE)
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

	if (!prof_branch_efficiency(v, &eff) || !prof_have(v, M_LANES) ||
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
	if (prof_stall_share(v, "lg_throttle", &x) && x >= STALL_SHARE)
		hint(h, H_LG_THROTTLE, "memory instruction queue: %.0f%% of a "
		     "warp's cycles wait for room to issue a global load "
		     "(lg_throttle): fewer, wider loads, 16 bytes per thread "
		     "(labs/03-coalescing/README.md)", 100 * x);
	if (prof_stall_share(v, "barrier", &x) && x >= STALL_SHARE)
		hint(h, H_BARRIER, "barriers: %.0f%% of a warp's cycles wait at "
		     "__syncthreads(): fewer barriers per element, e.g. sum "
		     "many elements per thread first and reduce within warps "
		     "with shuffles (labs/02-shfl/README.md)", 100 * x);
}

/*
 * Schedulers: fewer than one eligible warp a cycle and under 60% of the
 * issue slots used (PROF_LATENCY_PCT), on a kernel the DRAM does not
 * bound (under 60% of its peak) and that is not at the speed of light.
 * Each scheduler issues at most one instruction a cycle from the warps
 * ready then; its rate is about its resident warps over the cycles each
 * waits between issues (Little's law), so more warps (occupancy) or
 * shorter waits (independent instructions in flight, ILP) raise it.
 * Where a grid too small or the latency hint already explains the idle
 * SMs, this one would repeat it: not given.
 */
#define SCHED_ELIGIBLE 1.0

static void hint_scheduler(const struct prof_view *v, struct hints *h)
{
	if (!prof_have(v, M_ISSUE_ACTIVE) || !prof_have(v, M_WARPS_ELIGIBLE) ||
	    !prof_have(v, M_WARPS_ACTIVE) || at_speed_of_light(v) ||
	    v->m[M_ISSUE_ACTIVE] >= PROF_LATENCY_PCT ||
	    v->m[M_WARPS_ELIGIBLE] >= SCHED_ELIGIBLE ||
	    (prof_have(v, M_DRAM_PCT) && v->m[M_DRAM_PCT] >= PROF_LATENCY_PCT))
		return;
	hint(h, H_SCHEDULER, "idle schedulers: %.2f of %.1f warps ready a "
	     "cycle, an instruction issued in %.0f%% of cycles: more warps "
	     "per SM (occupancy) or more independent instructions per warp "
	     "(several loads or accumulators in flight) keep one ready "
	     "(labs/01-warps/README.md)", v->m[M_WARPS_ELIGIBLE],
	     v->m[M_WARPS_ACTIVE], v->m[M_ISSUE_ACTIVE]);
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

	return (prof_have(v, M_L2_PCT) && v->m[M_L2_PCT] >= PROF_LATENCY_PCT) ||
	       (prof_traffic_ratio(v, &t) && t >= PROF_FUSION_TRAFFIC);
}

int prof_hints(const struct prof_view *v, unsigned groups, int *ids,
	       char lines[][G_DETAIL_LEN], int max)
{
	struct hints h = { .max = max, .ids = ids, .lines = lines };
	int grid = 0, explained;

	if (v->share < PROF_HINT_MIN_SHARE)
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
	if (groups & WB_PROF_STALLS) {
		hint_stalls(v, &h);
		if (!grid && !said(&h, H_LATENCY))
			hint_scheduler(v, &h);
	}
	return h.n;
}

