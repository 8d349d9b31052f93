/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references the grader times the submissions against.
 *
 * One thread per element, as a first CUDA version would be written:
 *
 *   segment_sum   each 32-element segment summed by a tree in shared
 *                 memory, a __syncthreads() after each of its 5 steps
 *   segment_scan  each segment scanned in shared memory (Hillis-Steele),
 *                 two __syncthreads() per step
 *   filter        one atomic on a global counter per kept element, which
 *                 hands out the element's slot in the output
 *
 * The first two exchange values between the lanes of a warp through shared
 * memory and block-wide barriers, which is what warp shuffles replace. The
 * third serialises every kept element on one address in the L2.
 */
#include "shfl.h"

#define NAIVE_THREADS 256

/* ---- segment_sum ---- */

/*
 * The textbook tree with sequential addressing: at each step the lower
 * half of the segment's lanes adds the upper half, so no lane is idle for
 * a bad reason and no shared-memory bank is hit twice. Every step still
 * needs a barrier for the whole block, although only a warp's own lanes
 * ever exchange data: the barrier is the price of going through shared
 * memory. Lanes past n hold 0, so the last segment may be partial.
 */
static __global__ void naive_segment_sum_kernel(const float *in, size_t n,
						float *out)
{
	__shared__ float s[NAIVE_THREADS];
	unsigned int tid = threadIdx.x, lane = tid % SHFL_SEG;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	s[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (unsigned int step = SHFL_SEG / 2; step > 0; step /= 2) {
		if (lane < step)
			s[tid] += s[tid + step];
		__syncthreads();
	}
	if (lane == 0 && i < n)
		out[i / SHFL_SEG] = s[tid];
}

void naive_segment_sum(const float *in, size_t n, float *out)
{
	naive_segment_sum_kernel<<<wb_ceil_div(n, NAIVE_THREADS),
				   NAIVE_THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

/* ---- segment_scan ---- */

/*
 * Hillis-Steele: at step d (1, 2, 4, 8, 16) every lane at or past d adds
 * the value d lanes below it, so after five steps lane j holds the sum of
 * lanes 0..j of its segment. All reads of a step must finish before any
 * write (one barrier) and all writes before the next step's reads (a
 * second barrier): 10 block-wide barriers for a warp-local job.
 */
static __global__ void naive_segment_scan_kernel(const float *in, size_t n,
						 float *out)
{
	__shared__ float s[NAIVE_THREADS];
	unsigned int tid = threadIdx.x, lane = tid % SHFL_SEG;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	s[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (unsigned int d = 1; d < SHFL_SEG; d *= 2) {
		float below = lane >= d ? s[tid - d] : 0.0f;

		__syncthreads();
		s[tid] += below;
		__syncthreads();
	}
	if (i < n)
		out[i] = s[tid];
}

void naive_segment_scan(const float *in, size_t n, float *out)
{
	naive_segment_scan_kernel<<<wb_ceil_div(n, NAIVE_THREADS),
				    NAIVE_THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

/* ---- filter ---- */

/*
 * Each kept element takes its slot with one atomic on the counter. This is
 * atomicInc with the output's capacity as its limit (the counter would
 * wrap to 0 past it; at most n elements are kept, so it never does), not
 * atomicAdd(count, 1): for atomicAdd(count, 1), and even for atomicInc
 * with the limit 0xffffffff, ptxas (CUDA 13, sm_90) already emits the
 * warp-aggregated form, one atomic per warp plus a vote, a popc and a
 * shuffle, which is the exercise. atomicInc with a run-time limit does not
 * combine across lanes and stays one ATOMG per kept element: the cost this
 * lab teaches how to remove (README, section 6).
 */
static __global__ void naive_filter_kernel(const float *in, size_t n,
					   float thr, float *out,
					   unsigned int *count)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n && in[i] > thr) {
		unsigned int slot = atomicInc(count, (unsigned int)n);

		out[slot] = in[i];
	}
}

void naive_filter(const float *in, size_t n, float thr, float *out,
		  int *count, void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(*count), 0));
	naive_filter_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(
		in, n, thr, out, (unsigned int *)count);
	CUDA_CHECK_LAUNCH();
}
