/* SPDX-License-Identifier: MIT */
/*
 * occ_kernels.cu - real kernels of different footprints, for grading the
 * occupancy exercise, and the CUDA runtime's answer for each.
 *
 * The kernels are never launched: the grader only reads their attributes
 * (cudaFuncGetAttributes) and asks the runtime how many of their blocks
 * fit on one SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor). They are
 * still real code, compiled for this GPU, so their register counts are
 * whatever the compiler chose, and the student's calculator has to take
 * them as they come. Their work is arbitrary; what matters is that it
 * keeps the registers or the shared memory in use, so that the compiler
 * cannot shrink the footprint away.
 */
#include <cuda_occupancy.h>

#include "warps.h"
#include "occ_kernels.h"

/*
 * NACC accumulators, all live across a loop with a run-time trip count,
 * each updated from its neighbour: the compiler must keep them all, in
 * registers if it may, in local memory (spills) once __launch_bounds__
 * caps the registers below what the loop needs.
 */
#define OCC_PRESSURE(name, bounds, nacc)                                   \
	static __global__ void bounds name(const float *in, float *out,    \
					   int iters)                      \
	{                                                                  \
		float acc[nacc], s = 0.0f;                                 \
		int t = blockIdx.x * blockDim.x + threadIdx.x;             \
									   \
		_Pragma("unroll") for (int j = 0; j < nacc; j++)           \
			acc[j] = in[t + j];                                \
		for (int i = 0; i < iters; i++) {                          \
			float v = in[t + i];                               \
									   \
			_Pragma("unroll") for (int j = 0; j < nacc; j++)   \
				acc[j] = acc[j] * v + acc[(j + 1) % nacc]; \
		}                                                          \
		_Pragma("unroll") for (int j = 0; j < nacc; j++)           \
			s += acc[j] * (float)(j + 1);                      \
		out[t] = s;                                                \
	}

#define OCC_NO_BOUNDS

OCC_PRESSURE(occ_acc24, OCC_NO_BOUNDS, 24)
OCC_PRESSURE(occ_acc32, OCC_NO_BOUNDS, 32)
OCC_PRESSURE(occ_bound1024, __launch_bounds__(1024, 1), 96)
OCC_PRESSURE(occ_bound640, __launch_bounds__(640, 1), 128)
OCC_PRESSURE(occ_bound256, __launch_bounds__(256, 1), 320)

/* Almost nothing: the fewest registers a kernel uses. */
static __global__ void occ_tiny(unsigned int *out)
{
	out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

/* 9232 bytes of static shared memory: 9 KiB and 16 bytes, so the rounding
 * to the 128-byte allocation unit shows (16, not 4: ptxas reported 9232
 * bytes for a declared 9220). */
#define OCC_STATIC_WORDS 2308

static __global__ void occ_static9k(const float *in, float *out)
{
	__shared__ float buf[OCC_STATIC_WORDS];
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = threadIdx.x; i < OCC_STATIC_WORDS; i += blockDim.x)
		buf[i] = in[t + i];
	__syncthreads();
	out[t] = buf[(threadIdx.x * 7) % OCC_STATIC_WORDS];
}

/* Dynamic shared memory only: its size is the launch's. */
static __global__ void occ_dynamic(const float *in, float *out, int words)
{
	extern __shared__ float dyn[];
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = threadIdx.x; i < words; i += blockDim.x)
		dyn[i] = in[t + i];
	__syncthreads();
	out[t] = dyn[(threadIdx.x * 7) % words];
}

/* Static and dynamic shared memory, and a middling register count. */
#define OCC_MIXED_WORDS 500
#define OCC_MIXED_ACC 32

static __global__ void occ_mixed(const float *in, float *out, int words,
				 int iters)
{
	__shared__ float fixed[OCC_MIXED_WORDS];
	extern __shared__ float dyn[];
	float acc[OCC_MIXED_ACC], s = 0.0f;
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = threadIdx.x; i < OCC_MIXED_WORDS; i += blockDim.x)
		fixed[i] = in[t + i];
	for (int i = threadIdx.x; i < words; i += blockDim.x)
		dyn[i] = in[t + i + 1];
	__syncthreads();
#pragma unroll
	for (int j = 0; j < OCC_MIXED_ACC; j++)
		acc[j] = fixed[(threadIdx.x + j) % OCC_MIXED_WORDS];
	for (int i = 0; i < iters; i++) {
		float v = dyn[(threadIdx.x + i) % words];

#pragma unroll
		for (int j = 0; j < OCC_MIXED_ACC; j++)
			acc[j] = acc[j] * v + acc[(j + 1) % OCC_MIXED_ACC];
	}
#pragma unroll
	for (int j = 0; j < OCC_MIXED_ACC; j++)
		s += acc[j];
	out[t] = s;
}

/* The kernels by id, as the host sees them. */
static const void *occ_func(int id)
{
	switch (id) {
	case OCC_TINY:
		return (const void *)occ_tiny;
	case OCC_ACC24:
		return (const void *)occ_acc24;
	case OCC_ACC32:
		return (const void *)occ_acc32;
	case OCC_BOUND1024:
		return (const void *)occ_bound1024;
	case OCC_BOUND640:
		return (const void *)occ_bound640;
	case OCC_BOUND256:
		return (const void *)occ_bound256;
	case OCC_STATIC9K:
		return (const void *)occ_static9k;
	case OCC_DYNAMIC:
		return (const void *)occ_dynamic;
	default:
		return (const void *)occ_mixed;
	}
}

static const char *const occ_names[OCC_KERNELS] = {
	[OCC_TINY] = "occ_tiny",
	[OCC_ACC24] = "occ_acc24",
	[OCC_ACC32] = "occ_acc32",
	[OCC_BOUND1024] = "occ_bound1024",
	[OCC_BOUND640] = "occ_bound640",
	[OCC_BOUND256] = "occ_bound256",
	[OCC_STATIC9K] = "occ_static9k",
	[OCC_DYNAMIC] = "occ_dynamic",
	[OCC_MIXED] = "occ_mixed",
};

void occ_probe_kernel(int id, struct occ_probe *p)
{
	struct cudaFuncAttributes a;

	CUDA_CHECK(cudaFuncGetAttributes(&a, occ_func(id)));
	p->name = occ_names[id < OCC_KERNELS ? id : OCC_MIXED];
	p->regs = a.numRegs;
	p->static_smem = a.sharedSizeBytes;
	p->max_threads = a.maxThreadsPerBlock;
}

int occ_runtime_blocks(int id, int block_threads, size_t dynamic_smem)
{
	int blocks = 0;

	CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&blocks, occ_func(id), block_threads, dynamic_smem));
	return blocks;
}

int occ_header_blocks(int id, int block_threads, size_t dynamic_smem)
{
	static struct cudaDeviceProp prop;
	static int have_prop;
	struct cudaFuncAttributes a;
	cudaOccResult result;
	cudaOccDeviceState state;

	if (!have_prop) {
		int dev;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
		have_prop = 1;
	}
	CUDA_CHECK(cudaFuncGetAttributes(&a, occ_func(id)));

	cudaOccDeviceProp occ_prop(prop);
	cudaOccFuncAttributes occ_attr(a);

	if (cudaOccMaxActiveBlocksPerMultiprocessor(
		    &result, &occ_prop, &occ_attr, &state, block_threads,
		    dynamic_smem) != CUDA_OCC_SUCCESS)
		return -1;
	return result.activeBlocksPerMultiprocessor;
}
