/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 04 (shared-memory tiling): the table of knobs the grader
 * reads, each knob with its reason. Each exercise's CPU reference, input
 * maker and hooks are in a file of their own (ex_<exercise>.c; roofline
 * and peak share ex_roofline.c), declared in lab_hooks.h.
 */
#include "harness.h"
#include "tiling.h"
#include "lab_hooks.h"

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * transpose sizes (rows x cols): one element; a single row and a single
 * column (b is then a column or a row); 31 x 33, 33 x 31 and 63 x 65,
 * around the 32- and 64-wide tiles; 32 x 32 and 64 x 64, whole tiles
 * only; 127 x 129 and 257 x 1023, partial tiles on both edges; 4097 x 3
 * and 3 x 4097, tall and flat; 2047 x 2053, primes-ish, a 16 MiB pair
 * whose tiles mostly are full. Only 32 x 32 and 64 x 64 divide into tiles.
 * Benchmark: 8192 x 8192, 256 MiB each way, four times an H200's L2.
 */
#define TRANSPOSE_SIZES                                                    \
	{ "1x1", { 1, 1 } }, { "1x33", { 1, 33 } }, { "33x1", { 33, 1 } },  \
	{ "31x33", { 31, 33 } }, { "32x32", { 32, 32 } },                   \
	{ "33x31", { 33, 31 } }, { "64x64", { 64, 64 } },                   \
	{ "63x65", { 63, 65 } }, { "127x129", { 127, 129 } },               \
	{ "257x1023", { 257, 1023 } }, { "4097x3", { 4097, 3 } },           \
	{ "3x4097", { 3, 4097 } }, { "2047x2053", { 2047, 2053 } }

/*
 * matmul sizes (m x k x n): one element; k = 1 (a rank-1 product) and
 * k = 3 (shorter than one float4, and than any k-tile); vectors (m = 1,
 * n = 1); 31 x 33 x 35 and 33 x 31 x 29 around a warp and a tile; 64^3
 * and 128^3, whole tiles only; 129 x 8 x 127 (k one 8-deep tile, n odd),
 * 65 x 33 x 128 (k odd, n aligned) and 130 x 64 x 132 (k and n multiples
 * of 4, so float4 paths run, but m and n end mid-tile); 255 x 1000 x 257;
 * then 1000 x 1001 x 999 and 1024^3, checked by sampled rows and columns.
 * Benchmark: 4096^3 (64 MiB per matrix, 137 GFLOP): compute-bound, far
 * from any cache, and the size cuBLAS is usually quoted at.
 */
#define MATMUL_SIZES                                                       \
	{ "1x1x1", { 1, 1, 1 } }, { "2x1x7", { 2, 1, 7 } },                  \
	{ "7x3x5", { 7, 3, 5 } }, { "1x515x257", { 1, 515, 257 } },          \
	{ "257x515x1", { 257, 515, 1 } }, { "31x33x35", { 31, 33, 35 } },    \
	{ "33x31x29", { 33, 31, 29 } }, { "64x64x64", { 64, 64, 64 } },      \
	{ "128x128x128", { 128, 128, 128 } },                               \
	{ "129x8x127", { 129, 8, 127 } }, { "65x33x128", { 65, 33, 128 } },  \
	{ "130x64x132", { 130, 64, 132 } },                                 \
	{ "255x1000x257", { 255, 1000, 257 } },                             \
	{ "1000x1001x999", { 1000, 1001, 999 } },                           \
	{ "1024x1024x1024", { 1024, 1024, 1024 } }

/*
 * roofline sizes: one group of cases each, named by its label: the lab's
 * matmul kernels (naive.cu, the ladder's tiles, the solution's) and its
 * transpose at the benchmark and some checked shapes, on this GPU and
 * six data sheets' GPUs; then what those do not reach (hand-made); then
 * 1000 cases drawn from the run's seed.
 */
#define ROOFLINE_SIZES                                                     \
	{ "lab", { ROOF_LAB } }, { "hand-made", { ROOF_EDGES } },           \
	{ "worked", { ROOF_WORKED } }, { "random", { ROOF_RANDOM } }

/*
 * Technique rules (docs/adding-a-lab.md): tiles in shared memory are the
 * lesson of both exercises; matmul is float32 on the CUDA cores, with no
 * library GEMM and no tensor cores (tiling.h, the contract).
 */
#define MUST_SHARED                                                        \
	{ WB_MUST, WB_PTX, ".shared", "shared memory (__shared__ tiles)",  \
	  "Staging tiles in shared memory is what this lab teaches." }
#define NO_LIBRARY_TILING                                                  \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, CUB's Device*, Thrust)",                  \
	  "The kernel is the exercise; cublasSgeam and cublasSgemm are "     \
	  "make bench's comparison only." }
#define NO_TENSOR_CORES                                                    \
	{ WB_MUST_NOT, WB_PTX, "mma.sync|wmma.|wgmma.|tf32",                \
	  "tensor-core or TF32 instructions (mma, wmma, wgmma, tf32)",       \
	  "The exercise is a float32 GEMM on the CUDA cores; tensor cores "  \
	  "and TF32 would change both the arithmetic and the comparison." }

static const struct wb_exercise exercises[] = {
	{
		.name = "transpose",
		.title = "b = a^T through a shared-memory tile",
		.kind = WB_SPEED,
		.sizes = { TRANSPOSE_SIZES },
		.bench = { { "8192x8192", { 8192, 8192 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (each element read and
		 * written once). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 8192 x 8192, 2026-11-25): the naive, strided
		 * writes, 1273.9 us, 14%. A 32 x 32 shared tile read down its
		 * columns with 32-way bank conflicts (ladder 1-shared-tile)
		 * 56%, tier 2 (52%). The same tile padded to 32 x 33 (ladder
		 * 2-padded-tile) 93%; the solution (a 64 x 65 tile, 16
		 * elements per thread) 91%, cublasSgeam 95% (183.7 us against
		 * the solution's 190.9 us: README). The top tier (80%) leaves
		 * the solution a 12% margin, so padding is what earns it;
		 * tier 1 (29%) lies clearly above the naive. Since
		 * 2026-11-28 the solution moves float4 on both sides through
		 * an XOR-swizzled 64 x 64 tile: 96.7% on an H200 (132.9 us,
		 * the one-probe speed of light), ahead of cublasSgeam.
		 */
		.tiers = { { 0.29, 20 }, { 0.52, 40 }, { 0.80, 60 } },
		/* make profile: the naive's strided stores (sectors per
		 * request), then the tile's bank conflicts until it is
		 * padded, and DRAM throughput near copy at the end. */
		.profile = WB_PROF_COALESCING | WB_PROF_SHARED |
			   WB_PROF_THROUGHPUT,
		/* The naive takes ~1 ms a call; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = lab04_transpose_setup,
		.run = lab04_transpose_run,
		.check = lab04_transpose_check,
		.traffic = lab04_transpose_traffic,
		.rules = { MUST_SHARED, NO_LIBRARY_TILING },
	},
	{
		.name = "matmul",
		.title = "c = a b in float32, no tensor cores",
		.kind = WB_SPEED,
		.sizes = { MATMUL_SIZES },
		.bench = { { "4096^3", { 4096, 4096, 4096 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the roofline, its FLOPs at the CUDA
		 * cores' fp32 FMA rate, which a probe measures in the same
		 * rounds (common/probe.cu), or its bytes at the DRAM's if
		 * longer (never, at 4096^3). cublasSgemm (fp32, no TF32) is
		 * shown beside it, a peer, not the limit. Measured on an
		 * H200 (tests/gpu/calibrate.sh, 4096^3, 2026-11-28): the FMA
		 * peak 63 TFLOP/s, the naive 45.6 ms (4.6%);
		 * 16 x 16 shared tiles (ladder 1-shared-tile) 13%, tier 1
		 * (10%): tiling alone. A 64 x 64 block with a 4 x 4 register
		 * tile per thread (ladder 3-register-tile) 36%, tier 2 (28%):
		 * register blocking. The previous solution (128 x 128
		 * blocks, 8 x 8 per thread, float4 loads, double buffering)
		 * 70%, 44.0 TFLOP/s; the solution (128 x 256 blocks, 8 x 16
		 * per thread, k steps of 16, 2 x 16 lanes a warp) 75%, 47.2
		 * TFLOP/s, 95% of cuBLAS (49.6 TFLOP/s that run): the top
		 * tier (58%) leaves it a 28% margin. Each boundary sits 20%
		 * or more from every step.
		 */
		.tiers = { { 0.10, 20 }, { 0.28, 40 }, { 0.58, 60 } },
		.ideal = WB_IDEAL_ROOF,
		/* make profile: compute-bound (SM throughput, the stalls);
		 * the tiles' bank conflicts, and the registers and shared
		 * memory a bigger tile costs in occupancy. */
		.profile = WB_PROF_SHARED | WB_PROF_OCCUPANCY | WB_PROF_STALLS |
			   WB_PROF_THROUGHPUT,
		/* The naive takes ~25 ms a call, and each check compares
		 * every element against the GPU reference (ref.cu) on
		 * fresh inputs; 120 s only stops hangs. */
		.timeout_s = 120,
		.setup = lab04_matmul_setup,
		.run = lab04_matmul_run,
		.check = lab04_matmul_check,
		/* Compute-bound: its ideal is its roofline (the FMA peak
		 * measured beside it); the report shows TFLOP/s beside GB/s
		 * and cuBLAS's time from the grader's reference run. */
		.traffic = lab04_matmul_traffic,
		.rules = { MUST_SHARED, NO_LIBRARY_TILING, NO_TENSOR_CORES },
	},
	{
		.name = "roofline",
		.title = "arithmetic intensity and the roofline, predicted",
		.kind = WB_CORRECTNESS,
		.sizes = { ROOFLINE_SIZES },
		/* A few formulas in host code, as sectors (lab 03) and
		 * passes (lab 07): half an exercise. */
		.points_correct = 50,
		/* ~2,000 cases of host code (the cases and their twins); 60 s
		 * only stops hangs. */
		.timeout_s = 60,
		.setup = lab04_roofline_setup,
		.run = lab04_roofline_run,
		.check = lab04_roofline_check,
	},
	{
		.name = "peak",
		.title = "a GPU's FP32 peak, bandwidth and ridge, from its "
			 "driver's figures",
		.kind = WB_CORRECTNESS,
		/* The lab's kernels on this GPU and five data sheets' GPUs;
		 * the worked cases; 500 GPUs drawn from the seed. Each also
		 * as its twin (twice the SMs and the memory clock). */
		.sizes = { { "lab", { PEAK_LAB } },
			   { "worked", { PEAK_WORKED } },
			   { "random", { PEAK_RANDOM } } },
		/* Three formulas and a table of lanes: a fifth of an
		 * exercise. */
		.points_correct = 20,
		/* ~1,200 cases of host code; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = lab04_peak_setup,
		.run = lab04_peak_run,
		.check = lab04_peak_check,
	},
	{
		.name = "constant",
		.title = "a __constant__ read's passes, broadcast or "
			 "serialised, beside a global load's sectors",
		.kind = WB_CORRECTNESS,
		/* The README's reads (section 13); the worked cases; 500
		 * reads drawn from the seed. Each also as its twin (the step
		 * negated, the base a whole table away). */
		.sizes = { { "lab", { CONST_LAB } },
			   { "worked", { CONST_WORKED } },
			   { "random", { CONST_RANDOM } } },
		/* Two counts and an expectation: a fifth of an exercise. */
		.points_correct = 20,
		/* ~1,000 reads of host code; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = lab04_constant_setup,
		.run = lab04_constant_run,
		.check = lab04_constant_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "04-tiling",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
