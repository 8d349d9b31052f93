/* SPDX-License-Identifier: MIT */
/*
 * warps.h - the entry points of lab 01 (warps and divergence).
 *
 * Each exercise file defines one of the functions below. The GPU ones are
 * host functions that get device pointers (256-byte aligned, from
 * cudaMalloc); they launch on the default stream, the grader waits for the
 * device afterwards, and everything they launch counts in the time.
 * blocks_per_sm() is plain host code: no GPU involved.
 *
 * The arithmetic the exercises apply (branch_a, branch_b, trip_f) is
 * defined here, once, for the GPU code and for the grader's CPU reference
 * alike: it is 32-bit unsigned integer arithmetic, exact and identical on
 * both sides, so outputs are compared bit for bit.
 */
#ifndef WARPS_H
#define WARPS_H

#include <stddef.h>
#include "workbook.h"

/* Callable from device code and from the lab's C reference. */
#ifdef __CUDACC__
#define WARPS_FN static __host__ __device__ __forceinline__
#else
#define WARPS_FN static inline
#endif

/* ---- exercise 1: thread_map ---------------------------------------------
 *
 * Every thread of a launch <<<grid, block>>> (any grid, any block up to
 * 1024 threads) writes one record at its global linear index g:
 *
 *   b = blockIdx.x + blockIdx.y * gridDim.x
 *       + blockIdx.z * gridDim.x * gridDim.y      the block's index
 *   t = threadIdx.x + threadIdx.y * blockDim.x
 *       + threadIdx.z * blockDim.x * blockDim.y   the thread's, in the block
 *   g = b * (blockDim.x * blockDim.y * blockDim.z) + t
 *
 *   out[g] = { blockIdx, threadIdx, t / 32, t % 32 }
 *
 * t / 32 and t % 32 are the warp of the block the thread belongs to and its
 * lane in that warp: the hardware cuts a block into warps of 32 in the
 * order of t (x fastest, then y, then z).
 */
struct thread_rec {
	unsigned int block[3];  /* blockIdx.x, .y, .z */
	unsigned int thread[3]; /* threadIdx.x, .y, .z */
	unsigned int warp;      /* t / 32 */
	unsigned int lane;      /* t % 32 */
};

/* ---- exercise 2: branch -------------------------------------------------
 *
 * out[i] = branch_a(in[i]) for even i, branch_b(in[i]) for odd i.
 *
 * Each is BRANCH_ROUNDS rounds of dependent integer arithmetic (a shift,
 * a xor or an add, a multiply-add: two or three instructions), some
 * eighty to a hundred instructions in all: far too long for the compiler
 * to predicate, so a warp whose lanes need both runs both, one after the
 * other. (Only right shifts: a left shift of a product would let the
 * compiler fold it into a second multiply.)
 */
#define BRANCH_ROUNDS 32

WARPS_FN unsigned int branch_a_round(unsigned int x)
{
	return (x ^ (x >> 16)) * 0x7feb352du + 0x165667b1u;
}

WARPS_FN unsigned int branch_b_round(unsigned int x)
{
	return (x + (x >> 13)) * 0x846ca68bu + 0x9e3779b9u;
}

WARPS_FN unsigned int branch_a(unsigned int x)
{
	for (int r = 0; r < BRANCH_ROUNDS; r++)
		x = branch_a_round(x);
	return x;
}

WARPS_FN unsigned int branch_b(unsigned int x)
{
	for (int r = 0; r < BRANCH_ROUNDS; r++)
		x = branch_b_round(x);
	return x;
}

/* ---- exercise 3: trip_count ---------------------------------------------
 *
 * out[i] = trip_f applied cnt[i] times to in[i] (cnt[i] = 0: out[i] =
 * in[i]). cnt[i] may be any byte; the grader draws it skewed: 7 in 8 at
 * most TRIP_LIGHT_MAX, the rest from TRIP_HEAVY_MIN to TRIP_HEAVY_MAX, at
 * random places (two small sizes are all heavy, or uniform over 0..255).
 */
#define TRIP_LIGHT_MAX 8
#define TRIP_HEAVY_MIN 64
#define TRIP_HEAVY_MAX 80

/* Scratch handed to trip_count: one 32-bit word per element of the
 * benchmark size (32M) and 4 KiB more, 256-byte aligned, poisoned. */
#define TRIP_WORK_BYTES ((size_t)4 * (32u << 20) + 4096)

WARPS_FN unsigned int trip_f(unsigned int x)
{
	return (x ^ (x >> 15)) * 0x2c1b3c6du + 0x297a2d39u;
}

/* ---- exercise 4: occupancy ----------------------------------------------
 *
 * How many blocks of a kernel one SM can hold at once. The kernel's
 * footprint and the launch (as cudaFuncGetAttributes reports them, plus
 * the dynamic shared memory of the launch):
 */
struct occ_kernel {
	int regs_per_thread;   /* registers per thread (numRegs) */
	size_t static_smem;    /* __shared__ arrays, bytes per block */
	size_t dynamic_smem;   /* the launch's extern __shared__ bytes */
};

/*
 * The device's limits. The first ones are cudaDeviceGetAttribute()
 * values; the allocation units and the sub-partition count are not
 * queryable and come from the architecture (the values given are those of
 * compute capability 8.0 and later).
 */
struct occ_device {
	int warp_size;               /* 32 */
	int max_threads_per_sm;      /* 2048 on H100 */
	int max_blocks_per_sm;       /* 32 on H100 */
	int regs_per_sm;             /* 65536 */
	int regs_per_block;          /* the most one block may hold: 65536 */
	int max_regs_per_thread;     /* 255 */
	int reg_alloc_unit;          /* a warp's registers come in units of
				      * this many: 256 */
	int sub_partitions;          /* the SM's register file is split in
				      * this many equal parts, one per warp
				      * scheduler, and a warp's registers lie
				      * in one part: 4 */
	size_t smem_per_sm;          /* shared memory an SM can give blocks:
				      * 228 KiB on H100 */
	size_t smem_per_block;       /* the most a block may use without
				      * opting in: 48 KiB */
	size_t smem_reserved_per_block; /* taken by the system from every
					 * block's share: 1 KiB (0 before
					 * compute capability 8.0) */
	size_t smem_alloc_unit;      /* a block's shared memory is allocated
				      * in units of this many bytes: 128 */
};

/*
 * The branch_eff exercise (README, section 15): one `if` executed once by
 * every thread of a 1-D grid of n threads, warps of 32 consecutive
 * thread indices t (the last warp may be partial). Thread t takes the
 * branch when
 *
 *     ((t / div) % mod < below) != invert
 *
 * 1 <= n < 2^40; div, mod >= 1 and div x mod <= 4096; 0 <= below <= mod;
 * invert 0 or 1. ifs is 1 for `if (c) A; else B;` and 2 for the same
 * decision written as two tests, `if (c) A; if (!c) B;`. Each test is a
 * real branch (not predicated): each warp executes it once, all its
 * active lanes at once.
 */
struct branch_pattern {
	unsigned long long n;
	unsigned int div, mod, below;
	int invert;
	int ifs;
};

struct branch_pred {
	unsigned long long warps;     /* warps that execute the decision */
	unsigned long long branches;  /* branch instructions they execute */
	unsigned long long divergent; /* of those, the ones that split a
				       * warp's lanes */
	unsigned long long paths;     /* paths the warps run, one after the
				       * other: a split warp runs both */
	double efficiency;            /* ncu's branch efficiency: uniform
				       * branches over all, in % */
};

/*
 * The spills exercise (README, section 16): a kernel under
 * __launch_bounds__(max_threads, min_blocks) (min_blocks 0: not given)
 * that keeps live_regs 32-bit values live at once and indexes an array
 * of array_floats floats at run time. 1 <= max_threads <= 1024, 0 <=
 * min_blocks <= 32, 1 <= live_regs <= 1000, 0 <= array_floats <= 4096.
 */
struct reg_kernel {
	int max_threads;
	int min_blocks;
	int live_regs;
	int array_floats;
};

struct reg_pred {
	int cap;          /* registers per thread the compiler may use */
	int spills;       /* 1 when the live values do not fit the cap */
	int local_bytes;  /* the least local memory a thread needs: spilled
			   * values and the runtime-indexed array */
};

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise 1: launch <<<grid, block>>> and fill out (one record per
 * thread of the launch, indexed by g as above). */
void thread_map(dim3 grid, dim3 block, struct thread_rec *out);

/* Exercise 2: 1 <= n < 2^31 (no size the grader can check reaches 2^31
 * elements on the GPUs students have; 32-bit element indices are
 * enough). */
void branch(const unsigned int *in, unsigned int *out, size_t n);

/* Exercise 3: 1 <= n <= 32M; work is TRIP_WORK_BYTES of scratch. */
void trip_count(const unsigned int *in, const unsigned char *cnt,
		unsigned int *out, size_t n, void *work);

/* Exercise 4: blocks of k, block_threads threads each (1 to 1024), that
 * fit on one SM of d at once; 0 if not even one does. */
int blocks_per_sm(const struct occ_kernel *k, int block_threads,
		  const struct occ_device *d);

/* The naive references the grader times against (naive.cu): one thread
 * per element. */
void naive_branch(const unsigned int *in, unsigned int *out, size_t n);
void naive_trip_count(const unsigned int *in, const unsigned char *cnt,
		      unsigned int *out, size_t n, void *work);

/* branch's speed of light (limit.cu): the least instruction work the
 * task needs, without divergence; its output is not branch's. */
void limit_branch(const unsigned int *in, unsigned int *out, size_t n);

/* The branch_eff exercise: predict p for the pattern b. Host code. */
void branch_eff(const struct branch_pattern *b, struct branch_pred *p);

/* The spills exercise: predict p for the kernel k. Host code. */
void spills(const struct reg_kernel *k, struct reg_pred *p);

#ifdef __cplusplus
}
#endif

#endif /* WARPS_H */
