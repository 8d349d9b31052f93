/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (trip_count): regrouping through global memory, in two
 * kernels. The first gives each element a thread, does the light ones at
 * once and appends the index of every heavy one to a list in work
 * (warp-aggregated: one atomicAdd per warp). The second hands the list
 * out, one heavy element per thread, so each warp's lanes run 64 to 80
 * rounds together. The divergence is gone, but the heavy elements are
 * gathered and scattered through DRAM (a 32-byte sector for each 4-byte
 * value, twice) and there are two launches: expected well above the
 * naive, short of the in-block queue of the solution.
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
	base = __shfl_sync(FULL_MASK, base, leader);
	if (heavy)
		list[base + __popc(mask & ((1u << lane) - 1))] =
			(unsigned int)i;
	else if (i < n)
		out[i] = rounds(in[i], c);
}

/* The heavy elements, one per thread, over a grid-stride loop. */
static __global__ void heavy_from_list(const unsigned int *in,
				       const unsigned char *cnt,
				       unsigned int *out,
				       const unsigned int *length,
				       const unsigned int *list)
{
	unsigned int total = *length;

	for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	     q < total; q += (size_t)gridDim.x * blockDim.x) {
		unsigned int i = list[q];

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
		in, cnt, out, length, list);
	CUDA_CHECK_LAUNCH();
}
