/* SPDX-License-Identifier: MIT */
/*
 * profile_derive.h - what Nsight Compute's numbers mean (profile_derive.c):
 * views (a call's kernels combined), the figures derived from them, and the
 * hints. The thresholds here are those the table's wording shares with the
 * hints (profile_render.c); the hints' own are in profile_derive.c.
 */
#ifndef GRADER_PROFILE_DERIVE_H
#define GRADER_PROFILE_DERIVE_H

#include <math.h>
#include <stddef.h>

#include "profile.h"

/* Fusion: several kernels moving 1.15x the task's minimum (the fusion
 * hint, profile_derive.c). */
#define PROF_FUSION_TRAFFIC 1.15

/*
 * The memory's speed of light: DRAM at 80% of its peak or more (what a
 * copy reaches), moving no more than the task needs where that is known.
 * Nothing that happens before DRAM can then make the kernel faster: not
 * sectors that a later load finds in L1 (lab 03's grayscale solution reads
 * 3-byte pixels 16 bytes at a time, 2x the sectors per request, at 90% of
 * the DRAM's peak), not warps waiting at barriers between the loads (lab
 * 02's filter solution, 34% of its stall cycles at 85%).
 */
#define PROF_SOL_PCT 80.0

/*
 * Latency, and the SMs' share: ncu's own Speed of Light rule calls a
 * kernel whose DRAM and SM throughput are both under 60% of their peaks
 * latency-bound; 60% or more of the SM's peak is a busy SM.
 */
#define PROF_LATENCY_PCT 60.0

/* A kernel of a call that takes under this share of its time gets no
 * hint: a one-thread kernel that converts a result is not the problem. */
#define PROF_HINT_MIN_SHARE 0.1

/* The hints, each a lesson with the README that teaches it. */
enum prof_hint {
	H_COALESCING, H_GRID, H_OCCUPANCY, H_SPILLS, H_LATENCY, H_FUSION,
	H_REREAD, H_BANKS, H_DIVERGENCE, H_LG_THROTTLE, H_BARRIER,
	H_INSTRUCTIONS, H_SCHEDULER, PROF_NHINTS
};

extern const char *const prof_hint_names[PROF_NHINTS];

/* Whether metric m of v was measured. */
static inline int prof_have(const struct prof_view *v, int m)
{
	return !isnan(v->m[m]);
}

/* ---- views ---- */

/* All kernels of r combined, under label. */
void prof_view_all(const struct prof_run *r, const char *label,
		   struct prof_view *v);
/* Kernel k of r alone, labelled with its name; no task minimum (that is
 * the whole call's), and its share of the call's time. */
void prof_view_kernel(const struct prof_run *r, int k, struct prof_view *v);

/* ---- derived figures of a view: 1 when measured, the value in *x ---- */

/* Global load and store sectors per request, and the fewest they could
 * be (the bytes asked per request, in 32-byte sectors); excess: their
 * ratio. */
int prof_ld_sectors_per_request(const struct prof_view *v, double *x);
int prof_st_sectors_per_request(const struct prof_view *v, double *x);
int prof_ld_ideal(const struct prof_view *v, double *x);
int prof_st_ideal(const struct prof_view *v, double *x);
int prof_ld_excess(const struct prof_view *v, double *x);
int prof_st_excess(const struct prof_view *v, double *x);
/* Bytes read from DRAM or written; and that over the task's minimum. */
int prof_traffic(const struct prof_view *v, double *x);
int prof_traffic_ratio(const struct prof_view *v, double *x);
/* DRAM bytes per nanosecond (GB/s). */
int prof_dram_gbps(const struct prof_view *v, double *x);
/* Share of shared-memory wavefronts that were bank-conflict replays. */
int prof_conflict_share(const struct prof_view *v, double *x);
/* Branch targets that did not split a warp, in percent. */
int prof_branch_efficiency(const struct prof_view *v, double *x);
/* Local-memory load and store instructions. */
int prof_local_accesses(const struct prof_view *v, double *x);
/* Blocks of the grid per SM. */
int prof_blocks_per_sm(const struct prof_view *v, double *x);
/* Share of a warp's cycles between issues spent on stall reason name. */
int prof_stall_share(const struct prof_view *v, const char *name, double *x);

/* v's stall reasons, largest first: up to max indices into
 * metric_stall_names (metrics.h) into out. Returns their count. */
int prof_top_stalls(const struct prof_view *v, int *out, int max);

/* Which occupancy limits bind: their names into buf, the blocks per SM
 * they allow in *k. 0 when none was measured. */
int prof_limiter(const struct prof_view *v, char *buf, size_t n, double *k);

/* b bytes as "1.25 GB", "3.4 MB" or "12 KB". */
void prof_human_bytes(double b, char *buf, size_t n);

/* ---- hints ---- */

/*
 * The hints that v's numbers justify, for the groups shown: ids into ids[]
 * and one line each into lines[] (either may be NULL). Returns the count.
 */
int prof_hints(const struct prof_view *v, unsigned groups, int *ids,
	       char lines[][G_DETAIL_LEN], int max);

#endif /* GRADER_PROFILE_DERIVE_H */
