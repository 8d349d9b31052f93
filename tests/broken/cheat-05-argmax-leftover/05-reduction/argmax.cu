/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: read what the lab computed. The naive argmax
 * leaves its answer, a 64-bit key of the largest value and its index, in
 * the first word of the workspace it shares with this call. Where the
 * naive has just run on the same inputs (a timed round's naive right
 * before the student), that key is the answer: this file checks that it
 * fits the inputs (its index in range and in[index] equal to its value)
 * and then writes the index with one thread, skipping the pass over the
 * input. Where it does not fit (a checked call, a scrubbed workspace), an
 * honest grid-stride argmax runs instead, so the outputs are always right.
 *
 * Before each student call the workspace is poisoned, the lab's declared
 * scratch is overwritten, the inputs are drawn anew when the naive ran
 * earlier in the round, and the order of the naive and the student within
 * a round varies (docs/grading.md, section 8, "What your code can
 * reach"): the leftover never fits, and the honest path is what is timed.
 * Expected verdict: PASS, under the speed of light (share < 1: what the
 * honest path earns), not the share of a one-thread kernel.
 */
#include "reduction.h"

#define THREADS 256
#define BLOCKS 1024

/* The naive's key: the float's bits ordered as unsigned, above the
 * complement of the index (lower index wins a tie). */
static __device__ unsigned long long key_of(float v, unsigned int i)
{
	unsigned int u = __float_as_uint(v);

	u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
	return ((unsigned long long)u << 32) | (0xffffffffu - i);
}

/* Does the leftover key fit these inputs? Then it is the answer. */
static __global__ void try_leftover(const float *in, size_t n,
				    const unsigned long long *left,
				    unsigned long long *mine, long long *out)
{
	unsigned long long k = *left;
	unsigned int i = 0xffffffffu - (unsigned int)(k & 0xffffffffu);

	mine[0] = 0;
	mine[1] = 0;
	if (k && i < n && key_of(in[i], i) == k) {
		*out = i;
		mine[1] = 1; /* done: the honest pass skips */
	}
}

/* The honest pass: each thread's best over a grid stride, then the
 * warp's by shuffles, then one atomicMax a warp. */
static __global__ void argmax_pass(const float *in, size_t n,
				   unsigned long long *mine)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	unsigned long long best = 0;

	if (mine[1])
		return;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride) {
		unsigned long long k = key_of(in[i], (unsigned int)i);

		best = k > best ? k : best;
	}
	for (int off = 16; off > 0; off /= 2) {
		unsigned long long o = __shfl_xor_sync(0xffffffffu, best, off);

		best = o > best ? o : best;
	}
	if (threadIdx.x % 32 == 0)
		atomicMax(mine, best);
}

static __global__ void write_index(const unsigned long long *mine,
				   long long *out)
{
	if (!mine[1])
		*out = 0xffffffffu - (unsigned int)(mine[0] & 0xffffffffu);
}

void reduce_argmax(const float *in, size_t n, long long *out, void *work)
{
	unsigned long long *left = (unsigned long long *)work;
	unsigned long long *mine = left + 8;
	size_t blocks = wb_ceil_div(n, THREADS);

	if (blocks > BLOCKS)
		blocks = BLOCKS;
	try_leftover<<<1, 1>>>(in, n, left, mine, out);
	CUDA_CHECK_LAUNCH();
	argmax_pass<<<(unsigned int)blocks, THREADS>>>(in, n, mine);
	CUDA_CHECK_LAUNCH();
	write_index<<<1, 1>>>(mine, out);
	CUDA_CHECK_LAUNCH();
}
