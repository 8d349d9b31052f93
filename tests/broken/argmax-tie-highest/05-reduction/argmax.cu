/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: an argmax that gets ties right inside a block and
 * wrong between blocks. Each block of 256 threads owns a contiguous chunk
 * of CHUNK = 4096 elements and finds its best (value, index) with the
 * full rule, lowest index on ties; the blocks then combine with one
 * atomicMax on a 64-bit key whose low half is the index itself, not
 * 0xffffffff - index, so among equal maxima in different blocks the
 * highest index wins.
 *
 * Why the old checks passed it: they planted ties only at n = 33, 255 and
 * 1023 (n % 3 == 0), one block here. Every size of more than one block
 * had a single maximum (2.0 over values in [-1, 1), or -0.5 over
 * [-2, -1)), first or last, which no other value could tie: the key's
 * value half decided alone.
 * Why the new ones fail it, by construction: from n = 4097 on, even sizes
 * (n = 2^22 + 6 first) get three equal maxima, in the first quarter, the
 * middle and the last quarter of the input, at least n / 2 = 2 million
 * elements between the first and the last: in different chunks, so the
 * key of the last one wins and the index returned is not the lowest.
 * Expected verdict: WRONG at n=2^22+6 ("on ties the lowest index wins").
 */
#include <math.h>

#include "reduction.h"

#define THREADS 256
#define CHUNK 4096

struct best {
	float v;
	unsigned int i;
};

/* The full rule: the larger value, or on equal values the lower index. */
static __device__ struct best better(struct best a, struct best b)
{
	return (b.v > a.v || (b.v == a.v && b.i < a.i)) ? b : a;
}

static __device__ struct best warp_best(struct best b)
{
	for (int offset = 16; offset > 0; offset /= 2) {
		struct best o;

		o.v = __shfl_down_sync(0xffffffffu, b.v, offset);
		o.i = __shfl_down_sync(0xffffffffu, b.i, offset);
		b = better(b, o);
	}
	return b;
}

/* The bug: the index itself in the low half, so the higher one wins. */
static __device__ unsigned long long key_of(struct best b)
{
	unsigned int u = __float_as_uint(b.v);

	u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
	return ((unsigned long long)u << 32) | b.i;
}

static __global__ void argmax_chunks(const float *in, size_t n,
				     unsigned long long *key)
{
	__shared__ struct best warp_bests[THREADS / 32];
	size_t start = (size_t)blockIdx.x * CHUNK;
	size_t end = start + CHUNK < n ? start + CHUNK : n;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	struct best b = { -INFINITY, 0xffffffffu };

	/* in increasing order: a strict > keeps the lowest index */
	for (size_t i = start + threadIdx.x; i < end; i += THREADS)
		if (in[i] > b.v) {
			b.v = in[i];
			b.i = (unsigned int)i;
		}
	b = warp_best(b);
	if (lane == 0)
		warp_bests[warp] = b;
	__syncthreads();
	if (warp == 0) {
		struct best none = { -INFINITY, 0xffffffffu };

		b = warp_best(lane < THREADS / 32 ? warp_bests[lane] : none);
		if (lane == 0)
			atomicMax(key, key_of(b));
	}
}

static __global__ void key_to_index(const unsigned long long *key,
				    long long *out)
{
	out[0] = (long long)(unsigned int)(*key & 0xffffffffu);
}

void reduce_argmax(const float *in, size_t n, long long *out, void *work)
{
	unsigned long long *key = (unsigned long long *)work;

	CUDA_CHECK(cudaMemsetAsync(key, 0, sizeof(*key), 0));
	argmax_chunks<<<(unsigned int)wb_ceil_div(n, CHUNK), THREADS>>>(in, n,
									key);
	CUDA_CHECK_LAUNCH();
	key_to_index<<<1, 1>>>(key, out);
	CUDA_CHECK_LAUNCH();
}
