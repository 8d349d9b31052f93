/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 08 (tensor cores): the table of knobs the grader reads, each
 * knob with its reason. Each exercise's CPU reference, input maker and
 * hooks are in a file of their own (ex_<exercise>.c), declared in
 * lab_hooks.h.
 */
#include "harness.h"
#include "tensor_cores.h"
#include "lab_hooks.h"

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * fragments sizes (tiles): one tile (one warp); 2; 31 and 33, around a
 * block of 32 warps if you launch one; 1000 and 100000, many blocks. Not
 * timed: the lesson is the layout.
 */
#define FRAGMENTS_SIZES                                                    \
	{ "1", { 1 } }, { "2", { 2 } }, { "31", { 31 } }, { "33", { 33 } }, \
	{ "1000", { 1000 } }, { "100000", { 100000 } }

/*
 * The warm-up's rules: the exercise is the fragment layout of
 * mma.sync.m16n8k16 and ldmatrix's, so both instructions are required
 * (WMMA hides the layout: its PTX is wmma.mma.sync m16n16k16).
 */
#define MUST_MMA_M16N8K16                                                  \
	{ WB_MUST, WB_PTX, "mma.sync.aligned.m16n8k16",                      \
	  "mma.sync.m16n8k16 (inline PTX)",                                  \
	  "The warm-up is this instruction's fragment layout; WMMA hides "   \
	  "it." }
#define MUST_LDMATRIX                                                      \
	{ WB_MUST, WB_PTX, "ldmatrix", "ldmatrix",                          \
	  "Loading fragments with ldmatrix (.trans for b) is the other "     \
	  "half of the lesson." }

/*
 * hgemm sizes (m x k x n; k and n multiples of 8, the contract): the
 * smallest product (one 8 x 8 block of b); k = 16, one mma's depth; a
 * single row (m = 1) and a tall thin one (m = 300, k = n = 8); 31 x 40 x
 * 24 and 33 x 24 x 40 around a warp's 16-row fragments and short of any
 * 32-deep k-tile; 7 x 8 x 264, n just past a 256-wide tile; 64^3 and
 * 128^3, whole tiles only; 129 x 72 x 136 (every extent one past a tile,
 * k 2.25 k-tiles) and 65 x 32 x 128 (m ragged, k and n whole);
 * 17 x 4096 x 8, a long k on a sliver; 255 x 1000 x 264; then 1000^3 and
 * 1024^3, checked against the GPU reference. Benchmark: 4096^3 (32 MiB
 * per input, 64 MiB of c, 137 GFLOP): compute-bound, and the size GEMMs
 * are usually quoted at.
 */
#define HGEMM_SIZES                                                        \
	{ "1x8x8", { 1, 8, 8 } }, { "2x16x8", { 2, 16, 8 } },               \
	{ "1x512x256", { 1, 512, 256 } }, { "300x8x8", { 300, 8, 8 } },     \
	{ "31x40x24", { 31, 40, 24 } }, { "33x24x40", { 33, 24, 40 } },     \
	{ "7x8x264", { 7, 8, 264 } }, { "64x64x64", { 64, 64, 64 } },       \
	{ "128x128x128", { 128, 128, 128 } },                               \
	{ "129x72x136", { 129, 72, 136 } }, { "65x32x128", { 65, 32, 128 } }, \
	{ "17x4096x8", { 17, 4096, 8 } },                                   \
	{ "255x1000x264", { 255, 1000, 264 } },                             \
	{ "1000x1000x1000", { 1000, 1000, 1000 } },                         \
	{ "1024x1024x1024", { 1024, 1024, 1024 } }

/*
 * attention sizes (heads x seq x dim, then the flags): seq 1 (one key);
 * 31 and 33, either side of a warp and inside one 64-key tile; 64, one
 * whole tile; 100, two partial tiles; 257, five tiles, the last with one
 * key; 384, several query and key tiles (the pipeline, causal skipping);
 * 1000, 16 tiles; 4096 on one head, checked on sampled rows as the
 * benchmark is. Each causal and not, both head sizes; loud inputs (up to
 * 12) where a softmax without its max subtraction overflows.
 */
#define ATTENTION_SIZES                                                    \
	{ "1x1x64", { 1, 1, 64 } },                                         \
	{ "1x1x128-causal", { 1, 1, 128 | AT_CAUSAL } },                    \
	{ "2x31x64", { 2, 31, 64 } },                                       \
	{ "2x31x64-causal", { 2, 31, 64 | AT_CAUSAL } },                    \
	{ "2x33x128", { 2, 33, 128 } },                                     \
	{ "2x33x128-causal", { 2, 33, 128 | AT_CAUSAL } },                  \
	{ "1x64x128-causal", { 1, 64, 128 | AT_CAUSAL } },                  \
	{ "3x100x64", { 3, 100, 64 } },                                     \
	{ "3x100x64-causal", { 3, 100, 64 | AT_CAUSAL } },                  \
	{ "1x257x128", { 1, 257, 128 } },                                   \
	{ "1x257x128-causal", { 1, 257, 128 | AT_CAUSAL } },                \
	{ "4x384x64-causal", { 4, 384, 64 | AT_CAUSAL } },                  \
	{ "4x384x128", { 4, 384, 128 } },                                   \
	{ "2x100x64-loud", { 2, 100, 64 | AT_LOUD } },                      \
	{ "2x100x64-causal-loud", { 2, 100, 64 | AT_CAUSAL | AT_LOUD } },   \
	{ "1x200x128-causal-loud", { 1, 200, 128 | AT_CAUSAL | AT_LOUD } }, \
	{ "2x1000x128-causal", { 2, 1000, 128 | AT_CAUSAL } },              \
	{ "1x1000x64", { 1, 1000, 64 } },                                   \
	{ "1x4096x64-causal", { 1, 4096, 64 | AT_CAUSAL } }

/*
 * Benchmark: 16 heads of 4096 queries and keys, causal at both head sizes
 * (language models' attention is causal) and full at 128, combined by
 * geometric mean. The eager paths' scores are 1.5 GiB there (6 bytes a
 * score), what an 8 GiB card still holds, and the naive takes 45 to 90
 * ms a call (H200), so a grade stays well under a minute; 4096 is long
 * enough that the score matrix, not q, k, v, is the eager path's traffic.
 */
#define ATTENTION_BENCH                                                    \
	{ "16x4096x64-causal", { 16, 4096, 64 | AT_CAUSAL } },              \
	{ "16x4096x128-causal", { 16, 4096, 128 | AT_CAUSAL } },            \
	{ "16x4096x128", { 16, 4096, 128 } }

/*
 * Technique rules (docs/adding-a-lab.md): the tensor cores are the lesson,
 * so the file must use their instructions (wmma's PTX is wmma.mma.sync,
 * mma.sync's and wgmma's are their own); the GEMM is the exercise, so no
 * library.
 */
#define MUST_TENSOR_CORES                                                  \
	{ WB_MUST, WB_PTX, "mma.sync|wmma.|wgmma.",                         \
	  "tensor-core instructions (mma.sync, wmma or wgmma)",              \
	  "The tensor cores are this lab's subject: a float32 GEMM on the "  \
	  "CUDA cores is lab 04's." }
#define NO_LIBRARY_GEMM                                                    \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, cuBLASLt, CUTLASS's device GEMMs)",       \
	  "The kernel is the exercise; cublasGemmEx is the ideal the "       \
	  "tiers are shares of, and make bench's comparison." }

#define NO_LIBRARY_ATTENTION                                               \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, cuDNN, CUB)",                             \
	  "The fused kernel is the exercise; cuBLAS's eager path is the "    \
	  "ideal the tiers are shares of." }

static const struct wb_exercise exercises[] = {
	{
		.name = "fragments",
		.title = "one mma.sync per tile: fragments and ldmatrix",
		.kind = WB_CORRECTNESS,
		.sizes = { FRAGMENTS_SIZES },
		/* A warm-up: a third of hgemm's correctness points. */
		.points_correct = 20,
		.points_speed = 0,
		/* bf16 mma.sync and ldmatrix: sm_80 on. */
		.min_cc = 80,
		/* 100000 tiles are 9.6 MB; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = lab08_fragments_setup,
		.run = lab08_fragments_run,
		.check = lab08_fragments_check,
		.traffic = lab08_fragments_traffic,
		.rules = { MUST_MMA_M16N8K16, MUST_LDMATRIX },
	},
	{
		.name = "hgemm",
		.title = "c = a b, bf16 in, fp32 out, on tensor cores",
		.kind = WB_SPEED,
		.sizes = { HGEMM_SIZES },
		.bench = { { "4096^3", { 4096, 4096, 4096 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the roofline, its FLOPs at the tensor
		 * cores' peak, which a probe measures in the same rounds
		 * (wgmma on a Hopper GPU, mma.sync before it: common/probe.cu,
		 * peak_sm90.cu), or its bytes at the DRAM's rate if longer.
		 * cublasGemmEx is shown beside it, a peer, not the limit.
		 * Five tiers, one for each step that buys time. Measured on
		 * an H200 (tests/gpu/calibrate.sh, 2026-11-28; the wgmma peak
		 * 906 TFLOP/s; cuBLAS's first quartile 180 us, 84%): the
		 * naive (CUDA cores) 0.9%; 1-wmma 3.0% (tier 1, 1.7%: the
		 * tensor cores at all, fragments straight from global
		 * memory); 2-mma-sync 7.3% (tier 2, 4.6%: shared tiles,
		 * ldmatrix and mma.sync by hand); 3-cp-async 10.8% (tier 3,
		 * 8.6%: the pipeline hides the loads; the unpadded rows'
		 * bank conflicts remain); 4-swizzle 28% (tier 4, 18%: the
		 * conflicts gone), steps 5 to 7 27% to 34%; step 8, 45%
		 * (tier 5, 39%: the copies' arithmetic done once, so the
		 * tensor cores stop waiting behind it), the solution on any
		 * GPU from sm_80. Each boundary sits 13% or more from every
		 * step. mma.sync itself reaches about two thirds of wgmma's
		 * rate on a Hopper GPU: the top tier is within reach of it on
		 * every GPU, and a wgmma kernel goes past (the solution's
		 * Hopper path, wgmma fed by the TMA: 82%, 96-97% of cuBLAS,
		 * H200 2026-11-28).
		 */
		.tiers = { { 0.017, 12 }, { 0.046, 24 }, { 0.086, 36 },
			   { 0.18, 48 }, { 0.39, 60 } },
		.ideal = WB_IDEAL_ROOF,
		/* bf16 mma.sync, ldmatrix and cp.async: sm_80 on. */
		.min_cc = 80,
		/* Its FLOPs run on tensor cores: the SUSPICIOUS ceiling is
		 * their peak (grader/score/plausible.c). */
		.tensor_flops = 1,
		/* make profile: the tiles' bank conflicts (ldmatrix on
		 * unswizzled rows), the stalls of a pipeline that waits on
		 * its loads, and occupancy against registers and shared
		 * memory. */
		.profile = WB_PROF_SHARED | WB_PROF_OCCUPANCY | WB_PROF_STALLS |
			   WB_PROF_THROUGHPUT,
		/* The naive takes ~15 ms a call, and each check of the
		 * benchmark compares every element against the GPU
		 * reference (~0.3 s); 120 s only stops hangs. */
		.timeout_s = 120,
		.setup = lab08_hgemm_setup,
		.run = lab08_hgemm_run,
		.check = lab08_hgemm_check,
		.traffic = lab08_hgemm_traffic,
		.rules = { MUST_TENSOR_CORES, NO_LIBRARY_GEMM },
	},
	{
		.name = "attention",
		.title = "fused attention forward: softmax(q k^T / sqrt(d)) v",
		.kind = WB_SPEED,
		.sizes = { ATTENTION_SIZES },
		.bench = { ATTENTION_BENCH },
		/* Correct code earns 40; speed the other 60, as hgemm. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the roofline, its FLOPs (4 heads seq^2
		 * dim, half of it causal) at the tensor cores' peak measured
		 * in the same rounds, as hgemm's. The eager path on cuBLAS
		 * (peers.cu) is shown beside it, a peer: a share of it moved
		 * with the GPU's DRAM bandwidth (the same kernel read 365% on
		 * an H200 and 453% on an H100). Measured on an H200
		 * (tests/gpu/calibrate.sh, 2026-11-28; the wgmma peak 835 to
		 * 907 TFLOP/s by shape): the naive 0.11%; step 2-mma-sync
		 * 3.6%, 3-cp-async 4.1% (tier 1, 2.5%: the tensor cores, and
		 * the score matrix kept on chip); 4-causal-skip 5.5% (tier
		 * 2, 4.8%: the masked tiles skipped); the previous solution
		 * (swizzled tiles, P kept in registers, 64 query rows a
		 * block) 20.6% (tier 3, 18%: the README's design reaches it);
		 * step 5-two-m-tiles (128 rows a block, 32 a warp, so each K
		 * and V fragment feeds two products: the solution's mma.sync
		 * path) 32%, 278 TFLOP/s, tier 3; the solution's Hopper path
		 * (wgmma, the TMA) 56%, 493 TFLOP/s, 6.9x the eager path on
		 * cuBLAS. The tiers stay at the mma.sync steps', so that the
		 * top one is reachable on every GPU the lab runs on.
		 */
		.tiers = { { 0.025, 20 }, { 0.048, 40 }, { 0.18, 60 } },
		.ideal = WB_IDEAL_ROOF,
		/* bf16 mma.sync, ldmatrix and cp.async: sm_80 on. */
		.min_cc = 80,
		/* Both products run on the tensor cores. */
		.tensor_flops = 1,
		/* make profile: ldmatrix's bank conflicts (the swizzle), the
		 * stalls of the pipeline, occupancy against shared memory and
		 * registers, and DRAM bytes (the eager path's score matrix). */
		.profile = WB_PROF_SHARED | WB_PROF_OCCUPANCY | WB_PROF_STALLS |
			   WB_PROF_THROUGHPUT,
		/* The naive takes 45 to 90 ms a call at the benchmark (H200),
		 * ~15 rounds a shape, and each check there samples 256 rows
		 * (~0.3 s on one core); 180 s only stops hangs. */
		.timeout_s = 180,
		.setup = lab08_attention_setup,
		.run = lab08_attention_run,
		.check = lab08_attention_check,
		.traffic = lab08_attention_traffic,
		.rules = { MUST_TENSOR_CORES, NO_LIBRARY_ATTENTION },
	},
};

const struct wb_lab wb_lab = {
	.name = "08-tensor-cores",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
