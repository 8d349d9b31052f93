/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the two-kernel regrouping of ladder step 2 (light
 * elements at once, heavy ones appended to a list in work, then handed
 * out one per thread), with the wrong lane in the warp-aggregated append.
 * The first heavy lane reserves the warp's slots with one atomicAdd, but
 * the base is then broadcast from lane 0, which did not reserve anything
 * unless it is itself heavy: its base is 0. Those warps all write their
 * heavy indices to the first slots of the list, over each other, and the
 * slots they did reserve keep the workspace's poison (skipped by the
 * i >= n guard, which turns a crash into lost work).
 * Expected verdict: WRONG, "some never written (still poison)": at the
 * small sizes a single warp's base is 0 anyway, so those pass; every size
 * with several warps of heavy elements fails. The fix: broadcast from the
 * lane that did the atomic, __shfl_sync(FULL_MASK, base, leader).
 */
#include "warps.h"

#define LIST_THREADS 256
#define LIST_QUEUE_AT 16      /* larger counts go to the list */
#define LIST_WORDS_BEFORE 64  /* work: the length, then the list at 256 B */
#define FULL_MASK 0xffffffffu

static __device__ __forceinline__ unsigned int rounds(unsigned int x,
						      unsigned int k)
{
	for (; k > 0; k--)
		x = trip_f(x);
	return x;
}

/* Light elements at once; heavy ones appended to the list. */
static __global__ void light_and_list(const unsigned int *in,
				      const unsigned char *cnt,
				      unsigned int *out, size_t n,
				      unsigned int *length, unsigned int *list)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int lane = threadIdx.x % 32, c = i < n ? cnt[i] : 0;
	int heavy = c > LIST_QUEUE_AT;
	unsigned int mask = __ballot_sync(FULL_MASK, heavy);
	int leader = mask ? __ffs(mask) - 1 : 0;
	unsigned int base = 0;

	if (heavy && (int)lane == leader)
		base = atomicAdd(length, __popc(mask));
	base = __shfl_sync(FULL_MASK, base, 0); /* BUG: lane 0, not leader */
	if (heavy)
		list[base + __popc(mask & ((1u << lane) - 1))] =
			(unsigned int)i;
	else if (i < n)
		out[i] = rounds(in[i], c);
}

/* The heavy elements, one per thread, over a grid-stride loop. */
static __global__ void heavy_from_list(const unsigned int *in,
				       const unsigned char *cnt,
				       unsigned int *out, size_t n,
				       const unsigned int *length,
				       const unsigned int *list)
{
	unsigned int total = *length;

	for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	     q < total; q += (size_t)gridDim.x * blockDim.x) {
		unsigned int i = list[q];

		if (i >= n) /* a slot nobody wrote: still poison */
			continue;
		out[i] = rounds(in[i], cnt[i]);
	}
}

static int sm_count(void)
{
	static int sms;

	if (!sms) {
		int dev;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(
			&sms, cudaDevAttrMultiProcessorCount, dev));
	}
	return sms;
}

void trip_count(const unsigned int *in, const unsigned char *cnt,
		unsigned int *out, size_t n, void *work)
{
	unsigned int *length = (unsigned int *)work;
	unsigned int *list = length + LIST_WORDS_BEFORE;

	CUDA_CHECK(cudaMemsetAsync(length, 0, sizeof(*length), 0));
	light_and_list<<<wb_ceil_div(n, LIST_THREADS), LIST_THREADS>>>(
		in, cnt, out, n, length, list);
	CUDA_CHECK_LAUNCH();
	heavy_from_list<<<sm_count() * 2048 / LIST_THREADS, LIST_THREADS>>>(
		in, cnt, out, n, length, list);
	CUDA_CHECK_LAUNCH();
}
