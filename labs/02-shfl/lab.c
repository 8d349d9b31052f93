/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 02 (warp shuffle): the table of knobs the grader reads, each
 * knob with its reason. Each exercise's CPU reference, input maker and
 * hooks are in a file of their own (ex_<exercise>.c; segment_sum and
 * segment_scan share ex_segments.c), declared in lab_hooks.h.
 */
#include "harness.h"
#include "shfl.h"
#include "lab_hooks.h"

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * neighbors block shapes (x by y by z threads): the seed's 8x8x8; one
 * thread; one warp along x (32), along y and z (4x4x2, 1x1x64 has lanes
 * ordered by z); 31 and 33 either side of a warp; 5x7x3 (105 = 3 warps and
 * 9 lanes), 3x3x3 (27: the only warp is partial), 7x5x9 (315, a partial
 * warp of 27) and 10x10x10 (1000, 8 lanes over): partial warps, where a
 * full mask names lanes that do not exist; 16x16x4, the largest block.
 */
#define NEIGHBORS_SIZES                                                    \
	{ "8x8x8", { 8, 8, 8 } }, { "1x1x1", { 1, 1, 1 } },                 \
	{ "32x1x1", { 32, 1, 1 } }, { "4x4x2", { 4, 4, 2 } },               \
	{ "1x1x64", { 1, 1, 64 } }, { "31x1x1", { 31, 1, 1 } },             \
	{ "33x1x1", { 33, 1, 1 } }, { "5x7x3", { 5, 7, 3 } },               \
	{ "3x3x3", { 3, 3, 3 } }, { "7x5x9", { 7, 5, 9 } },                 \
	{ "10x10x10", { 10, 10, 10 } }, { "16x16x4", { 16, 16, 4 } }

/*
 * segment sizes: 1, 2 and 31 (one partial segment), 32 and 33 (one full,
 * then a one-element segment), 63, 255..257 and 1000, 1023 (partial
 * segments after full ones, around a block of 256), 1025 (a whole 1024-
 * float tile and one element), 4097, 65537, 1000003 (n % 4 = 1 or 3: a
 * float4 path needs a scalar tail), 2^22 + 6 (large enough that a one-wave
 * grid-stride loop goes around several times).
 */
#define SEG_SIZES                                                          \
	{ "n=1", { 1 } }, { "n=2", { 2 } }, { "n=31", { 31 } },             \
	{ "n=32", { 32 } }, { "n=33", { 33 } }, { "n=63", { 63 } },         \
	{ "n=255", { 255 } }, { "n=256", { 256 } }, { "n=257", { 257 } },   \
	{ "n=1000", { 1000 } }, { "n=1023", { 1023 } },                     \
	{ "n=1025", { 1025 } }, { "n=4097", { 4097 } },                     \
	{ "n=65537", { 65537 } }, { "n=1000003", { 1000003 } },             \
	{ "n=2^22+6", { (1u << 22) + 6 } }

/*
 * filter sizes (n, which threshold): the segment sizes' awkward n, each
 * with half of the inputs kept unless marked: all kept (1, 256, 4099,
 * 65537: the count equals n, every slot of out is written), none kept (32:
 * count 0, out untouched), sparse (~5%: 255, 1023, 2^22 + 6, where most
 * warps keep nothing).
 */
#define FILTER_SIZES                                                       \
	{ "n=1 all", { 1, KEEP_ALL } }, { "n=2", { 2, KEEP_HALF } },        \
	{ "n=31", { 31, KEEP_HALF } }, { "n=32 none", { 32, KEEP_NONE } },  \
	{ "n=33", { 33, KEEP_HALF } },                                      \
	{ "n=255 sparse", { 255, KEEP_SPARSE } },                           \
	{ "n=256 all", { 256, KEEP_ALL } }, { "n=257", { 257, KEEP_HALF } }, \
	{ "n=1000", { 1000, KEEP_HALF } },                                  \
	{ "n=1023 sparse", { 1023, KEEP_SPARSE } },                         \
	{ "n=4097", { 4097, KEEP_HALF } },                                  \
	{ "n=4099 all", { 4099, KEEP_ALL } },                               \
	{ "n=65537 all", { 65537, KEEP_ALL } },                             \
	{ "n=1000003", { 1000003, KEEP_HALF } },                            \
	{ "n=2^22+6 sparse", { (1u << 22) + 6, KEEP_SPARSE } },             \
	{ "n=2^22+6", { (1u << 22) + 6, KEEP_HALF } }

/*
 * lockstep sizes (rows x cols): one element; one row shorter than a warp
 * (31) and one longer (33: lane 0 adds two products); 7 x 1 (a single
 * product per row: lanes 1..31 contribute zeros); 31 x 33 and 33 x 31,
 * row counts that leave the last block's warps partly without a row; 257 x
 * 1000 and 1000 x 3; 4097 x 64 (many blocks); 2 x 100003 (long rows).
 * Small on purpose: racecheck and synccheck run every size at about a
 * hundredth of the plain speed.
 */
#define LOCKSTEP_SIZES                                                     \
	{ "1x1", { 1, 1 } }, { "1x31", { 1, 31 } }, { "1x33", { 1, 33 } },  \
	{ "7x1", { 7, 1 } }, { "31x33", { 31, 33 } },                       \
	{ "33x31", { 33, 31 } }, { "257x1000", { 257, 1000 } },             \
	{ "1000x3", { 1000, 3 } }, { "4097x64", { 4097, 64 } },             \
	{ "2x100003", { 2, 100003 } }

/*
 * Technique rules (docs/adding-a-lab.md): the lab teaches the warp-level
 * primitives, so the speed exercises must contain them, and the device-
 * wide library forms that make bench compares against are not allowed
 * (CUB's WarpReduce, WarpScan and block primitives are: they compile to
 * shuffles). ptxas's own warp aggregation of a plain atomicAdd appears in
 * the SASS only, never the PTX: ladder step 2-atomicadd fails the filter
 * rule on purpose, since its author wrote no warp-level code.
 */
#define MUST_SHUFFLE                                                       \
	{ WB_MUST, WB_PTX, "shfl.sync", "warp shuffles (__shfl*_sync)",    \
	  "Exchanging values between lanes through registers is what this " \
	  "exercise teaches, in place of a tree in shared memory." }
#define MUST_WARP_VOTE                                                     \
	{ WB_MUST, WB_PTX, "vote.sync|shfl.sync",                           \
	  "a warp vote or shuffle (__ballot_sync, __shfl_sync, CUB's warp " \
	  "or block scan)",                                                  \
	  "Counting a warp's kept elements with a vote (or a warp scan) "    \
	  "instead of one atomic each is what this exercise teaches." }
#define NO_LIBRARY_SHFL                                                    \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a device-wide library algorithm (CUB's Device*, Thrust)",         \
	  "The exercise is your own kernel: cub::DeviceSegmentedReduce, "    \
	  "DeviceScan and DeviceSelect are make bench's comparison only." }

static const struct wb_exercise exercises[] = {
	{
		.name = "neighbors",
		.title = "every lane's (x, y, z) through __shfl_sync",
		.kind = WB_CORRECTNESS,
		.sizes = { NEIGHBORS_SIZES },
		/* A warm-up with no speed part: the correctness share of a
		 * speed exercise. */
		.points_correct = 40,
		/* One block per size: 30 s only stops a hang (a mask naming
		 * a lane that never arrives). */
		.timeout_s = 30,
		.setup = lab02_neighbors_setup,
		.run = lab02_neighbors_run,
		.check = lab02_neighbors_check,
		.rules = { MUST_SHUFFLE },
	},
	{
		.name = "segment_sum",
		.title = "sum of every 32-element segment",
		.kind = WB_SPEED,
		.sizes = { SEG_SIZES },
		/* 128M floats (512 MiB) read and 16 MiB written: eight times
		 * an H200's L2, and ~150 us at copy bandwidth, so timing
		 * measures DRAM with room to spare above launch overheads. */
		.bench = { { "n=128M", { 128u << 20 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (the input read once, a
		 * float per segment written, at the rates the probes measure
		 * in the same rounds). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive shared-
		 * memory tree 499.5 us, 37%. Thread-per-element shuffles
		 * (ladder 1-shuffle) 49%, tier 1; one float4 per thread with
		 * width-8 shuffles (ladder 3-float4) 100% and the solution (8
		 * float4 in flight, a reduce-scatter) 98%: on the H100 wide
		 * loads alone reach the ceiling. Tier 2 (63%) separates the
		 * two steps; the top tier (80%) leaves the solution a 18%
		 * margin. CUB's segmented reduce took 185.7 us, the solution
		 * 188.4 us (README: why).
		 */
		.tiers = { { 0.44, 20 }, { 0.63, 40 }, { 0.80, 60 } },
		/* make profile: the naive's tree in shared memory (its
		 * traffic and stalls) against shuffles in registers, and the
		 * DRAM throughput wide loads reach. */
		.profile = WB_PROF_SHARED | WB_PROF_STALLS | WB_PROF_THROUGHPUT,
		/* The naive takes ~0.5 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = lab02_segment_sum_setup,
		.run = lab02_segment_sum_run,
		.check = lab02_segment_sum_check,
		.traffic = lab02_segment_sum_traffic,
		.rules = { MUST_SHUFFLE, NO_LIBRARY_SHFL },
	},
	{
		.name = "segment_scan",
		.title = "inclusive prefix sum inside every 32-element segment",
		.kind = WB_SPEED,
		.sizes = { SEG_SIZES },
		/* 64M floats read and written (256 MiB each way): four times
		 * an H200's L2, ~145 us at copy bandwidth. */
		.bench = { { "n=64M", { 64u << 20 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (4 bytes read and 4
		 * written per element). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive Hillis-
		 * Steele in shared memory 308.0 us already reaches 56%, so
		 * little is left. Thread-per-element __shfl_up_sync (ladder
		 * 1-shuffle) 73%, tier 2; one float4 per thread with width-8
		 * shuffles (ladder 3-float4) 100% and the solution (then four
		 * float4 in flight) 96%. Tier 1 (63%) lies above the naive;
		 * the top tier (80%) leaves the solution a 17% margin. Since
		 * 2026-11-28 the solution is one float4 a lane, one tile a
		 * warp: 101.6% on an H200 (126.1 us, the one-probe speed of
		 * light), level with the CUB peer and a float4 copy.
		 */
		.tiers = { { 0.63, 20 }, { 0.68, 40 }, { 0.80, 60 } },
		/* make profile: as for segment_sum. */
		.profile = WB_PROF_SHARED | WB_PROF_STALLS | WB_PROF_THROUGHPUT,
		.timeout_s = 60,
		.setup = lab02_segment_scan_setup,
		.run = lab02_segment_scan_run,
		.check = lab02_segment_scan_check,
		.traffic = lab02_segment_scan_traffic,
		.rules = { MUST_SHUFFLE, NO_LIBRARY_SHFL },
	},
	{
		.name = "filter",
		.title = "keep the elements above a threshold (stream compaction)",
		.kind = WB_SPEED,
		.sizes = { FILTER_SIZES },
		/* 64M floats, half kept: 256 MiB read, ~128 MiB written,
		 * and 32M kept elements, each one atomic for the naive. */
		.bench = { { "n=64M", { 64u << 20, KEEP_HALF } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (every input read, the
		 * kept half and the count written). The naive's 32M
		 * atomicInc on one address serialise in the L2: 25.1 ms on an
		 * H100 80GB HBM3, 0.5% of it. It uses atomicInc because
		 * ptxas aggregates a plain atomicAdd(count, 1) per warp by
		 * itself: the naive's shape with atomicAdd (ladder
		 * 2-atomicadd) runs as fast as warp aggregation by hand
		 * (ladder 1-shuffle), both ~13.6x, 8% (tier 1 at 5%). One
		 * atomic per 256-element block (ladder 3-float4) ~71x, 43%,
		 * tier 2 (29%). The solution (4096-element tiles, float4)
		 * ~150x, near the speed of light: the top tier (76%) leaves
		 * it a margin of a fifth. (Speedups from the 2026-11-25
		 * H100 calibration before the speed of light was measured:
		 * tests/gpu/calibrate.sh records the shares.)
		 */
		.tiers = { { 0.05, 20 }, { 0.29, 40 }, { 0.76, 60 } },
		/* make profile: one atomic per kept element serialises in
		 * the L2 (DRAM idle, warps waiting); one per tile does not. */
		.profile = WB_PROF_THROUGHPUT | WB_PROF_STALLS,
		/* The naive may take tens of ms per call, and the benchmark
		 * size is checked three times (a 32M-element sort each):
		 * 120 s only stops real hangs. */
		.timeout_s = 120,
		.work_bytes = FILTER_WORK_BYTES,
		.setup = lab02_filter_setup,
		.run = lab02_filter_run,
		.check = lab02_filter_check,
		.traffic = lab02_filter_traffic,
		.rules = { MUST_WARP_VOTE, NO_LIBRARY_SHFL },
	},
	{
		.name = "lockstep",
		.title = "fix pre-Volta warp-synchronous code (a matvec row "
			 "per warp)",
		.kind = WB_CORRECTNESS,
		.sizes = { LOCKSTEP_SIZES },
		/* Correctness only, as neighbors: the lesson is a race, not
		 * a speed. */
		.points_correct = 40,
		/*
		 * The legacy code's race almost always gives the right
		 * answer, so the value checks cannot grade the fix: every
		 * grade runs racecheck (shared-memory hazards between the
		 * lanes, with no __syncwarp between them) and synccheck (a
		 * __syncwarp whose mask names lanes that do not call it),
		 * and a grade that cannot run them awards nothing.
		 */
		.sanitize = WB_SAN_RACECHECK | WB_SAN_SYNCCHECK,
		/* Ten small sizes: 30 s only stops a hang (a __syncwarp
		 * waiting for a lane that never arrives). The sanitizer
		 * tools have their own limit (docs/grading.md). */
		.timeout_s = 30,
		.setup = lab02_lockstep_setup,
		.run = lab02_lockstep_run,
		.check = lab02_lockstep_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "02-shfl",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
