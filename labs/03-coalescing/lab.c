/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 03 (memory coalescing): the table of knobs the grader reads,
 * each knob with its reason. Each exercise's CPU reference, input maker
 * and hooks are in a file of their own (ex_<exercise>.c), declared in
 * lab_hooks.h.
 */
#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * matvec sizes (m x n): one element; a single row and a single column;
 * 31 x 33 and 33 x 31 around a warp, rows not 16-byte aligned; 3 x 4096
 * (aligned, few rows); 5 x 4097 and 17 x 4099, long rows whose starts
 * fall on every alignment mod 16 bytes (a float4 load there faults);
 * 257 x 1000 (aligned, not a multiple of a warp's float4 sweep); many
 * short rows (1000 x 3, 65537 x 5: shorter than a warp); one long prime
 * row pair (2 x 100003); 4097 x 64, tall with rows of half a sweep.
 * Benchmark: 16384 x 8192, 512 MiB of matrix, over 8x an H200's L2.
 */
#define MATVEC_SIZES                                                       \
	{ "1x1", { 1, 1 } }, { "1x7", { 1, 7 } }, { "7x1", { 7, 1 } },      \
	{ "31x33", { 31, 33 } }, { "33x31", { 33, 31 } },                   \
	{ "3x4096", { 3, 4096 } }, { "5x4097", { 5, 4097 } },               \
	{ "17x4099", { 17, 4099 } }, { "257x1000", { 257, 1000 } },         \
	{ "1000x3", { 1000, 3 } }, { "65537x5", { 65537, 5 } },             \
	{ "2x100003", { 2, 100003 } }, { "4097x64", { 4097, 64 } }

/*
 * mean_dim0 sizes (k x l x m): one element; k = 1 (the mean is a copy);
 * one output of 64 terms; small odd shapes; l >> m and l << m, where
 * confusing the roles of i and j shows; k = 1000 (a long loop over
 * dimension 0); l = 70001, more than a grid's 65535 in y or z, so a
 * launch that puts i on blockIdx.y fails; one long prime row; 13 x 64 x
 * 4096 (slices 16-byte aligned: a float4 path) and 3 x 1023 x 1025
 * (l * m odd: every slice after the first is misaligned).
 * Benchmark: the seed's 64 x 1024 x 1024, 256 MiB, 4x an H200's L2.
 */
#define MEAN_SIZES                                                         \
	{ "1x1x1", { 1, 1, 1 } }, { "1x31x33", { 1, 31, 33 } },             \
	{ "64x1x1", { 64, 1, 1 } }, { "3x5x7", { 3, 5, 7 } },               \
	{ "7x33x31", { 7, 33, 31 } }, { "5x1000x3", { 5, 1000, 3 } },       \
	{ "4x3x1000", { 4, 3, 1000 } }, { "1000x3x5", { 1000, 3, 5 } },     \
	{ "2x70001x3", { 2, 70001, 3 } },                                   \
	{ "2x1x1000003", { 2, 1, 1000003 } },                               \
	{ "13x64x4096", { 13, 64, 4096 } },                                 \
	{ "3x1023x1025", { 3, 1023, 1025 } }

/*
 * grayscale sizes (height x width): fewer pixels than one 16-pixel group
 * (1, 15), exactly one (16) and one more (17); small odd images; full HD
 * 1080 x 1920 (a multiple of 16); a long prime row. The pixel counts
 * leave remainders 0, 1, 3, 7, 13 and 15 mod 16 (and odd remainders mod
 * 4), so a 4- or 16-pixel group needs its tail.
 * Benchmark: 8192 x 8192, 64M pixels: 192 MiB in, 64 MiB out.
 */
#define GRAY_SIZES                                                         \
	{ "1x1", { 1, 1 } }, { "1x15", { 1, 15 } }, { "1x16", { 1, 16 } },  \
	{ "1x17", { 1, 17 } }, { "3x5", { 3, 5 } },                         \
	{ "31x33", { 31, 33 } }, { "33x31", { 33, 31 } },                   \
	{ "479x643", { 479, 643 } }, { "17x4099", { 17, 4099 } },           \
	{ "1080x1920", { 1080, 1920 } }, { "1x1000003", { 1, 1000003 } },   \
	{ "7x65537", { 7, 65537 } }

/*
 * sectors sizes: one group of loads each, named by its label. First the
 * loads of the lab's own kernels (the naives, the coalesced ladder step,
 * the solutions' float4 and uint4) at every checked shape of the three
 * exercises and at the benchmark shape, each at the first, second and
 * last warp (a partial one) and at the first, middle and last step of
 * its loop; then the patterns around them: one field of a structure of 1
 * to 1000 elements, consecutive elements from every aligned start, every
 * lane count from 1 to 32, lanes walking down; the worked cases
 * (sectors_worked.h: the README's and more, with the rule's answers, the
 * exact check where no rule is linked); and 2048 loads drawn from the
 * run's seed. Each group's loads are asked again as their twins.
 */
#define SECTORS_SIZES                                                      \
	{ "naive matvec", { SEC_NAIVE_MATVEC } },                           \
	{ "warp-per-row matvec", { SEC_WARP_MATVEC } },                     \
	{ "naive mean_dim0", { SEC_NAIVE_MEAN } },                          \
	{ "flat mean_dim0", { SEC_FLAT_MEAN } },                            \
	{ "grayscale", { SEC_GRAY } },                                      \
	{ "struct fields", { SEC_FIELDS } },                                \
	{ "offsets", { SEC_OFFSETS } },                                     \
	{ "partial warps", { SEC_PARTIAL } },                               \
	{ "negative strides", { SEC_REVERSED } },                           \
	{ "worked", { SEC_WORKED } },                                       \
	{ "random", { SEC_RANDOM } }

/*
 * particles sizes (n particles, in the layout particles_layout() chose):
 * one particle; 2 and 3 (fewer than a float4 of them); 31, 32, 33 around
 * a warp and an AoSoA tile; 63, 64, 65 around two tiles (the last tile
 * padded, or whole); 255 and 1023 (n % 4 = 3: the SoA fields after the
 * first start misaligned for float4, field f at element f n); 1000 and
 * 4096 (aligned); 4097 and 65537 (n % 4 = 1); 1000003 (prime-ish, many
 * blocks and a tail).
 * Benchmark: 16M particles: 512 MiB of particles in each of the two
 * copies (the naive's AoS and the student's layout), of which 256 MiB
 * are needed, and 64 MiB written: all several times the L2, which is
 * flushed before every sample anyway.
 */
#define PARTICLES_SIZES                                                    \
	{ "n=1", { 1 } }, { "n=2", { 2 } }, { "n=3", { 3 } },               \
	{ "n=31", { 31 } }, { "n=32", { 32 } }, { "n=33", { 33 } },         \
	{ "n=63", { 63 } }, { "n=64", { 64 } }, { "n=65", { 65 } },         \
	{ "n=255", { 255 } }, { "n=1000", { 1000 } },                       \
	{ "n=1023", { 1023 } }, { "n=4096", { 4096 } },                     \
	{ "n=4097", { 4097 } }, { "n=65537", { 65537 } },                   \
	{ "n=1000003", { 1000003 } }

/*
 * Technique rules (docs/adding-a-lab.md): the access pattern of your own
 * kernel is the lesson; a library call has its own.
 */
#define NO_LIBRARY_COALESCING                                              \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, CUB's Device*, Thrust)",                  \
	  "Coalescing your own kernel's loads is the exercise; cublasSgemv " \
	  "is make bench's comparison only." }

static const struct wb_exercise exercises[] = {
	{
		.name = "matvec",
		.title = "y = A x, A row-major float32",
		.kind = WB_SPEED,
		.sizes = { MATVEC_SIZES },
		.bench = { { "16384x8192", { 16384, 8192 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (a and x read once, y
		 * written). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 2026-11-25): the naive, a thread per row,
		 * 1131.0 us, 16%. A warp per row with scalar loads (ladder
		 * 2-coalesced-scalar) 98%, the solution, the same with float4
		 * loads, 99%: on the H100 coalescing alone reaches the top
		 * tier (79%), which leaves the solution a 20% margin; float4
		 * barely helps. No step lies between: tier 1 (32%) lies
		 * clearly above the naive, tier 2 (56%) grades partial
		 * fixes. cublasSgemv took 197.4 us, the solution 178.0 us.
		 */
		.tiers = { { 0.32, 20 }, { 0.56, 40 }, { 0.79, 60 } },
		/* make profile: a thread per row reads 32 rows per warp load
		 * (sectors per request) from a grid of 64 blocks; a warp per
		 * row fixes both. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY,
		/* The naive takes ~1.2 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = lab03_matvec_setup,
		.run = lab03_matvec_run,
		.check = lab03_matvec_check,
		.traffic = lab03_matvec_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "mean_dim0",
		.title = "mean over dimension 0 of a [k][l][m] tensor",
		.kind = WB_SPEED,
		.sizes = { MEAN_SIZES },
		.bench = { { "64x1024x1024", { 64, 1024, 1024 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (in read once, out
		 * written). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 2026-11-25): the naive, a thread per index i,
		 * 5331.6 us, 1.8%. Tier 1 (7%) rewards parallelism alone: a
		 * thread per output with i as the fast index (ladder
		 * 1-parallel-uncoalesced, still 32 sectors per request)
		 * 16%. With j fast, coalesced and scalar (ladder
		 * 2-coalesced-scalar) 102%, and the solution (float4, loads
		 * in flight) 105%: float4 only confirms the coalescing.
		 * Tier 2 (37%) lies between the two steps, so coalescing is
		 * what earns it; the top tier (78%) leaves a 23% margin.
		 */
		.tiers = { { 0.07, 20 }, { 0.37, 40 }, { 0.78, 60 } },
		/* make profile: the walk-through of docs/nsight-compute.md:
		 * a grid of 8 blocks, then lanes m floats apart (sectors per
		 * request, lg_throttle), then coalesced at DRAM speed. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		/* The naive takes ~9 ms a call, at most 6 s of samples;
		 * 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = lab03_mean_setup,
		.run = lab03_mean_run,
		.check = lab03_mean_check,
		.traffic = lab03_mean_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "grayscale",
		.title = "RGB to gray, 8-bit, exact integer formula",
		.kind = WB_SPEED,
		.sizes = { GRAY_SIZES },
		.bench = { { "8192x8192", { 8192, 8192 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (three bytes read and
		 * one written per pixel). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive 191.2 us,
		 * 47% (coalesced, but three 1-byte loads per thread keep too
		 * few bytes in flight). 4 pixels per thread with 4-byte words
		 * (ladder 2-coalesced-scalar) 100%; the solution, 16 pixels
		 * per thread with 16-byte loads and stores, 106%. The top
		 * tier (82%) leaves the solution a 22% margin and is reached
		 * with 4-byte words already. Tier 1 (55%) lies clearly above
		 * the naive, tier 2 (69%) grades partial fixes.
		 */
		.tiers = { { 0.55, 20 }, { 0.69, 40 }, { 0.82, 60 } },
		/* make profile: coalesced but narrow, 1-byte loads (sectors
		 * per request at their ideal of 1), too few bytes in flight
		 * (DRAM throughput, stalls). */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_STALLS,
		/* The naive takes ~0.2 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = lab03_gray_setup,
		.run = lab03_gray_run,
		.check = lab03_gray_check,
		.traffic = lab03_gray_traffic,
	},
	{
		.name = "sectors",
		.title = "sectors per request of a warp's load, predicted",
		.kind = WB_CORRECTNESS,
		.sizes = { SECTORS_SIZES },
		/* One rule in a dozen lines of host code, as thread_map is
		 * one mapping: half an exercise. */
		.points_correct = 50,
		/* ~8,000 calls of host code (the loads and their twins); 60 s
		 * only stops hangs. */
		.timeout_s = 60,
		.setup = lab03_sectors_setup,
		.run = lab03_sectors_run,
		.check = lab03_sectors_check,
	},
	{
		.name = "particles",
		.title = "kinetic energy of particles in the layout you choose",
		.kind = WB_SPEED,
		.sizes = { PARTICLES_SIZES },
		.bench = { { "n=16M", { 16u << 20 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light of the task (vx, vy,
		 * vz and m read, 16 bytes a particle, and ke written, 4),
		 * whatever the layout. AoS moves whole 32-byte records, 36
		 * bytes a particle: at most 20 / 36 = 56% of it, which the
		 * naive (AoS, a thread per particle) already reaches (H200,
		 * 2026-11-27, the exercise's first version: 138.0 us against
		 * 139.6 us for 36 bytes a particle). So tier 1 (65%) lies
		 * above anything AoS can do: a layout that moves only the
		 * needed fields (SoA, AoSoA) is what earns points, and
		 * moving them at DRAM speed earns all of them (a thread per
		 * particle with scalar loads read SoA at 100% of its bytes
		 * there: 81.6 us against 81.3). Tier 2 (78%) and the top
		 * (85%) leave such code a 15% margin. Measured on an H100
		 * 80GB HBM3 (tests/gpu/particles.sh, 2026-11-27): the naive
		 * 57% (196 us against 112), ladder 3-particles-aos (the best
		 * AoS kernel) 57%, tier 0; the solution (SoA) 103% and 104%
		 * in two runs, 4-particles-aosoa 103%, the top tier.
		 */
		.tiers = { { 0.65, 20 }, { 0.78, 40 }, { 0.85, 60 } },
		/* make profile: sectors per request of the naive's AoS
		 * loads, and the DRAM bytes each layout moves against
		 * traffic() (36 bytes a particle in AoS against 20). */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT,
		/* ~0.1 ms a call; the checks and packing of 16M particles on
		 * the host take seconds; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = lab03_particles_setup,
		.run = lab03_particles_run,
		.check = lab03_particles_check,
		.traffic = lab03_particles_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "inflight",
		.title = "bytes in flight by Little's law, and the bandwidth "
			 "a kernel's loads allow",
		.kind = WB_CORRECTNESS,
		/* The README's GPUs and the lab's loads; the worked cases;
		 * 500 systems drawn from the seed. Each also as its twin
		 * (twice the latency, half the bandwidth). */
		.sizes = { { "lab", { IF_LAB } }, { "worked", { IF_WORKED } },
			   { "random", { IF_RANDOM } } },
		/* One law, one rounding and one minimum: a fifth of an
		 * exercise. */
		.points_correct = 20,
		/* ~1,000 cases of host code; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = lab03_inflight_setup,
		.run = lab03_inflight_run,
		.check = lab03_inflight_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "03-coalescing",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
