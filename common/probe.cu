/* SPDX-License-Identifier: MIT */
/*
 * probe.cu - the harness's own kernels: the spacer before each sample, the
 * L2 clean after the flush, the speed-of-light probes and the per-round
 * perturbation of the inputs (see probe.h for what each is for).
 *
 * Every kernel is static: no submission can name one. Grids are sized
 * once per process from the occupancy calculator, so that each kernel
 * fills every SM of whatever GPU this is.
 */
#include "probe.h"

/* Threads per block of every harness kernel. */
#define PROBE_THREADS 256

static int n_sms;
static int spacer_blocks, read4_blocks, read8_blocks, write4_blocks,
	   copy4_blocks, perturb_blocks;
static double *spacer_mhz_host; /* mapped: the spacer writes it directly */
static double *spacer_mhz_dev;
static unsigned *sink; /* a probe writes here only on an impossible sum */

static __device__ __forceinline__ unsigned long long global_ns(void)
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/*
 * Every thread spins until ns have passed on the global timer. With as
 * many blocks as fit on every SM at once, no other kernel (of this stream
 * or another) can start before the spacer ends. Block 0's first thread
 * reports the SM clock over the spin: cycles over nanoseconds. A global
 * timer that does not move (it should always) cannot hang it: it also
 * stops after as many cycles as 5 GHz would take.
 */
static __global__ void __launch_bounds__(PROBE_THREADS)
spacer_kernel(unsigned long long ns, double *mhz)
{
	unsigned long long t0 = global_ns(), t1;
	long long c0 = clock64(), c1;

	do {
		t1 = global_ns();
		c1 = clock64();
	} while (t1 - t0 < ns && (unsigned long long)(c1 - c0) < 5 * ns);
	if (blockIdx.x == 0 && threadIdx.x == 0)
		*mhz = t1 > t0 ? (double)(c1 - c0) * 1e3 / (double)(t1 - t0) : 0;
}

/*
 * Read n 16-byte words, U in flight per thread in a grid-stride loop (the
 * loads of one iteration are independent). The XOR keeps the loads alive;
 * it is written only if it hits a value no pattern gives in practice.
 */
#define READ_KERNEL(name, U)                                                \
	static __global__ void __launch_bounds__(PROBE_THREADS)             \
	name(const uint4 *__restrict__ p, size_t n, unsigned *out)          \
	{                                                                   \
		size_t stride = (size_t)gridDim.x * blockDim.x;             \
		size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;   \
		unsigned acc = 0;                                           \
                                                                            \
		for (; i + ((U) - 1) * stride < n; i += (U) * stride) {     \
			uint4 v[(U)];                                       \
                                                                            \
			_Pragma("unroll")                                   \
			for (int k = 0; k < (U); k++)                       \
				v[k] = p[i + k * stride];                   \
			_Pragma("unroll")                                   \
			for (int k = 0; k < (U); k++)                       \
				acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;   \
		}                                                           \
		for (; i < n; i += stride)                                  \
			acc ^= p[i].x ^ p[i].y ^ p[i].z ^ p[i].w;           \
		if (acc == 0x9e3779b9u)                                     \
			*out = acc;                                         \
	}

READ_KERNEL(read4_kernel, 4)
READ_KERNEL(read8_kernel, 8)

/* Write n 16-byte words, four stores per thread per iteration. */
static __global__ void __launch_bounds__(PROBE_THREADS)
write4_kernel(uint4 *__restrict__ p, size_t n, unsigned seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint4 v = make_uint4(seed, seed ^ 1u, seed ^ 2u, seed ^ 3u);

	for (; i + 3 * stride < n; i += 4 * stride) {
#pragma unroll
		for (int k = 0; k < 4; k++)
			p[i + k * stride] = v;
	}
	for (; i < n; i += stride)
		p[i] = v;
}

/* Copy n 16-byte words, four loads in flight before four stores. */
static __global__ void __launch_bounds__(PROBE_THREADS)
copy4_kernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst,
	     size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + 3 * stride < n; i += 4 * stride) {
		uint4 v[4];

#pragma unroll
		for (int k = 0; k < 4; k++)
			v[k] = src[i + k * stride];
#pragma unroll
		for (int k = 0; k < 4; k++)
			dst[i + k * stride] = v[k];
	}
	for (; i < n; i += stride)
		dst[i] = src[i];
}

/* dst = src with the bits fresh_hash.h chooses flipped: whole words, then
 * the last bytes of a size that is not a multiple of 4. */
static __global__ void __launch_bounds__(PROBE_THREADS)
perturb_kernel(unsigned *__restrict__ dst, const unsigned *__restrict__ src,
	       size_t bytes, enum wb_fresh kind, unsigned long long key)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t words = bytes / 4;

	for (size_t w = i; w < words; w += stride)
		dst[w] = src[w] ^ wb_fresh_word_mask(kind, w, key);
	if (i == 0) {
		unsigned char *d = (unsigned char *)dst;
		const unsigned char *s = (const unsigned char *)src;

		for (size_t b = 4 * words; b < bytes; b++)
			d[b] = s[b] ^ wb_fresh_byte_mask(kind, b, key);
	}
}

static __global__ void __launch_bounds__(PROBE_THREADS)
fill_kernel(unsigned *__restrict__ dst, size_t words, unsigned seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	     w < words; w += stride)
		dst[w] = wb_fresh_hash(w, seed);
}

/* Nothing, on as many blocks as a probe: what any launch costs. */
static __global__ void __launch_bounds__(PROBE_THREADS) empty_kernel(void)
{
}

/* Blocks of kernel k that fit on every SM at once. */
static cudaError_t fill_grid(const void *k, int *blocks)
{
	int per_sm = 0;
	cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&per_sm, k, PROBE_THREADS, 0);

	*blocks = (per_sm > 0 ? per_sm : 1) * n_sms;
	return e;
}

cudaError_t wb_probe_init(void)
{
	cudaError_t e;
	int dev;

	if (n_sms)
		return cudaSuccess;
	e = cudaGetDevice(&dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&n_sms, cudaDevAttrMultiProcessorCount,
					   dev);
	if (e == cudaSuccess)
		e = fill_grid((const void *)spacer_kernel, &spacer_blocks);
	if (e == cudaSuccess)
		e = fill_grid((const void *)read4_kernel, &read4_blocks);
	if (e == cudaSuccess)
		e = fill_grid((const void *)read8_kernel, &read8_blocks);
	if (e == cudaSuccess)
		e = fill_grid((const void *)write4_kernel, &write4_blocks);
	if (e == cudaSuccess)
		e = fill_grid((const void *)copy4_kernel, &copy4_blocks);
	if (e == cudaSuccess)
		e = fill_grid((const void *)perturb_kernel, &perturb_blocks);
	if (e == cudaSuccess)
		e = cudaHostAlloc((void **)&spacer_mhz_host, sizeof(double),
				  cudaHostAllocMapped);
	if (e == cudaSuccess)
		e = cudaHostGetDevicePointer((void **)&spacer_mhz_dev,
					     spacer_mhz_host, 0);
	if (e == cudaSuccess)
		e = cudaMalloc((void **)&sink, sizeof(unsigned));
	if (e != cudaSuccess)
		n_sms = 0;
	return e;
}

cudaError_t wb_spacer(double us)
{
	*spacer_mhz_host = 0;
	spacer_kernel<<<spacer_blocks, PROBE_THREADS>>>(
		(unsigned long long)(us * 1e3), spacer_mhz_dev);
	return cudaGetLastError();
}

double wb_spacer_mhz(void)
{
	return spacer_mhz_host ? *(volatile double *)spacer_mhz_host : 0;
}

cudaError_t wb_probe_run(enum wb_probe p, const void *src, void *dst,
			 size_t bytes)
{
	size_t n = bytes / 16;

	switch (p) {
	case WB_PROBE_READ4:
		read4_kernel<<<read4_blocks, PROBE_THREADS>>>(
			(const uint4 *)src, n, sink);
		break;
	case WB_PROBE_READ8:
		read8_kernel<<<read8_blocks, PROBE_THREADS>>>(
			(const uint4 *)src, n, sink);
		break;
	case WB_PROBE_WRITE4:
		write4_kernel<<<write4_blocks, PROBE_THREADS>>>((uint4 *)dst, n,
								 0x5eedu);
		break;
	case WB_PROBE_MEMSET:
		return cudaMemsetAsync(dst, 0x5e, 16 * n, 0);
	case WB_PROBE_COPY4:
		copy4_kernel<<<copy4_blocks, PROBE_THREADS>>>(
			(const uint4 *)src, (uint4 *)dst, n);
		break;
	case WB_PROBE_MEMCPY:
		return cudaMemcpyAsync(dst, src, 16 * n,
				       cudaMemcpyDeviceToDevice, 0);
	case WB_PROBE_LAUNCH:
		empty_kernel<<<write4_blocks, PROBE_THREADS>>>();
		break;
	default:
		return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}

double wb_probe_moved(enum wb_probe p, size_t bytes)
{
	double b = (double)(bytes / 16 * 16);

	if (p == WB_PROBE_LAUNCH)
		return 0;
	return p == WB_PROBE_COPY4 || p == WB_PROBE_MEMCPY ? 2 * b : b;
}

const char *wb_probe_name(enum wb_probe p)
{
	static const char *const names[WB_PROBE_COUNT] = {
		[WB_PROBE_READ4] = "read, 4 loads in flight",
		[WB_PROBE_READ8] = "read, 8 loads in flight",
		[WB_PROBE_WRITE4] = "write, 4 stores",
		[WB_PROBE_MEMSET] = "write, cudaMemsetAsync",
		[WB_PROBE_COPY4] = "copy, 4 loads in flight",
		[WB_PROBE_MEMCPY] = "copy, cudaMemcpyAsync",
		[WB_PROBE_LAUNCH] = "an empty kernel",
	};

	return p >= 0 && p < WB_PROBE_COUNT ? names[p] : "?";
}

cudaError_t wb_perturb(void *dst, const void *src, size_t bytes,
		       enum wb_fresh kind, uint64_t key)
{
	if (kind == WB_FRESH_NONE)
		return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
				       0);
	perturb_kernel<<<perturb_blocks, PROBE_THREADS>>>(
		(unsigned *)dst, (const unsigned *)src, bytes, kind,
		(unsigned long long)key);
	return cudaGetLastError();
}

cudaError_t wb_fill_pattern(void *dst, size_t bytes, uint32_t seed)
{
	fill_kernel<<<perturb_blocks, PROBE_THREADS>>>((unsigned *)dst,
							bytes / 4, seed);
	return cudaGetLastError();
}
