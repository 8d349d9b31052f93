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
	   copy4_blocks, perturb_blocks, fma_blocks,
	   mma_blocks;
static int cc_major; /* mma.sync with bf16: sm_80 on */
static int l2_bytes; /* the L2's size (the phased probe's rule) */
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

/*
 * Read nr and write nw 16-byte words in one kernel: the speed of light of
 * an exercise that both reads and writes, one launch like the kernel it
 * judges (two probes, one for each direction, counted a launch's fixed
 * cost, and a grid's ramp and drain, twice). Each block takes tiles of
 * U x blockDim words of the longer side, contiguous, and with each the
 * matching stretch of the other side (the same share of it), so reads and
 * writes are spread in the exercise's proportion over the whole kernel
 * and each block's accesses stay within a few DRAM pages, as a kernel's
 * that streams rows does. U loads in flight per thread; the stores write
 * a pattern, so they never wait on the loads. The grid has a block per
 * tile (wb_probe_rw()): on an H200 that ran 3% (read only) to 7% (as
 * much read as written) faster than as many blocks as fit at once, each
 * looping over tiles, and as fast as cudaMemcpyAsync where it applies.
 */
#define RW_KERNEL(name, U, T)                                               \
	static __global__ void __launch_bounds__(T)                         \
	name(const uint4 *__restrict__ src, size_t nr, uint4 *__restrict__ dst, \
	     size_t nw, unsigned *out)                                      \
	{                                                                   \
		size_t n = nr > nw ? nr : nw, ts = (size_t)(U) * blockDim.x; \
		size_t tiles = (n + ts - 1) / ts;                           \
		uint4 w = make_uint4(0x5eedu, 1u, 2u, 3u);                  \
		unsigned acc = 0;                                           \
                                                                            \
		for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {    \
			size_t a = t * ts, b = a + ts < n ? a + ts : n;     \
			size_t ra = a, rb = b, wa = a, wb = b;              \
			uint4 v[(U)];                                       \
                                                                            \
			if (nr >= nw) {                                     \
				wa = (size_t)((double)a * nw / nr);         \
				wb = (size_t)((double)b * nw / nr);         \
			} else {                                            \
				ra = (size_t)((double)a * nr / nw);         \
				rb = (size_t)((double)b * nr / nw);         \
			}                                                   \
			if (b == n) {                                       \
				rb = nr;                                    \
				wb = nw;                                    \
			}                                                   \
			_Pragma("unroll")                                   \
			for (int k = 0; k < (U); k++) {                     \
				size_t i = ra + k * blockDim.x + threadIdx.x; \
				if (i < rb)                                 \
					v[k] = src[i];                      \
			}                                                   \
			for (size_t i = wa + threadIdx.x; i < wb;           \
			     i += blockDim.x)                               \
				dst[i] = w;                                 \
			_Pragma("unroll")                                   \
			for (int k = 0; k < (U); k++) {                     \
				size_t i = ra + k * blockDim.x + threadIdx.x; \
				if (i < rb)                                 \
					acc ^= v[k].x ^ v[k].y ^ v[k].z ^   \
					       v[k].w;                      \
			}                                                   \
		}                                                           \
		if (acc == 0x9e3779b9u)                                     \
			*out = acc;                                         \
	}

RW_KERNEL(rw4_kernel, 4, PROBE_THREADS)
RW_KERNEL(rw8_kernel, 8, PROBE_THREADS)

/*
 * RW_KERNEL's tiles, but each store writes a value made from its tile's
 * loads, so it leaves only once they have landed: a copy's order, load
 * then store, where RW_KERNEL's stores go out while its loads are in
 * flight. Two words a thread and blocks of 128 threads. On an H200
 * (2026-11-28, L2 clean, medians of 27) 3% faster than rw4 where as much
 * is written as read (126 against 130 us for 268 MB each way: lab 02's
 * segment_scan, a copy with shuffles in it, had run 3% past rw4), 0.4%
 * where twice as much is read, and within 1% of it at 3:1 and 4:1.
 */
#define DEP_U 2
#define DEP_THREADS 128

static __global__ void __launch_bounds__(DEP_THREADS)
dep2_kernel(const uint4 *__restrict__ src, size_t nr, uint4 *__restrict__ dst,
	    size_t nw, unsigned *out)
{
	size_t n = nr > nw ? nr : nw, ts = (size_t)DEP_U * blockDim.x;
	size_t tiles = (n + ts - 1) / ts;

	(void)out;
	for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
		size_t a = t * ts, b = a + ts < n ? a + ts : n;
		size_t ra = a, rb = b, wa = a, wb = b;
		uint4 v[DEP_U], x = make_uint4(0x5eedu, 1u, 2u, 3u);

		if (nr >= nw) {
			wa = (size_t)((double)a * nw / nr);
			wb = (size_t)((double)b * nw / nr);
		} else {
			ra = (size_t)((double)a * nr / nw);
			rb = (size_t)((double)b * nr / nw);
		}
		if (b == n) {
			rb = nr;
			wb = nw;
		}
#pragma unroll
		for (int k = 0; k < DEP_U; k++) {
			size_t i = ra + k * blockDim.x + threadIdx.x;

			v[k] = i < rb ? src[i] : x;
		}
#pragma unroll
		for (int k = 0; k < DEP_U; k++) {
			x.x ^= v[k].x;
			x.y ^= v[k].y;
			x.z ^= v[k].z;
			x.w ^= v[k].w;
		}
		for (size_t i = wa + threadIdx.x; i < wb; i += blockDim.x)
			dst[i] = x;
	}
}

/*
 * Reads first, then writes, in one launch: the first blocks read nr words
 * (PH_U a thread, as PH_U distant streams), the last blocks, launched
 * after them, write nw. DRAM then serves a stream of reads and a stream
 * of writes instead of turning its bus around between the two all along:
 * on an H200 (2026-11-28) 3-5% faster than any interleaved probe where
 * the writes are a few percent of the bytes, 5-9% where they are half.
 * A kernel can do the same only if it can hold what it writes until its
 * reads are done, so the probe is one of the variants only where the
 * written bytes fit in the L2 (wb_probe_phased_ok()): lab 03's mean over
 * dimension 0 writes 4 MB after reading 268 MB, its whole grid resident
 * at once, and ran 3% past the interleaved probes.
 */
#define PH_U 8
#define PH_THREADS 512

static __global__ void __launch_bounds__(PH_THREADS)
phased_kernel(const uint4 *__restrict__ src, size_t nr,
	      uint4 *__restrict__ dst, size_t nw, unsigned *out)
{
	size_t per = (size_t)PH_U * blockDim.x;
	size_t rblocks = (nr + per - 1) / per;
	uint4 w = make_uint4(0x5eedu, 1u, 2u, 3u);

	if (blockIdx.x < rblocks) {
		size_t len = rblocks * blockDim.x;
		size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
		uint4 v[PH_U];
		unsigned acc = 0;

#pragma unroll
		for (int k = 0; k < PH_U; k++) {
			size_t i = k * len + p;

			v[k] = i < nr ? src[i] : w;
		}
#pragma unroll
		for (int k = 0; k < PH_U; k++)
			acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
		if (acc == 0x9e3779b9u)
			*out = acc;
	} else {
		size_t base = (blockIdx.x - rblocks) * per + threadIdx.x;

#pragma unroll
		for (int k = 0; k < PH_U; k++) {
			size_t i = base + k * blockDim.x;

			if (i < nw)
				dst[i] = w;
		}
	}
}

/*
 * The CUDA cores' fp32 rate: each thread runs 8 independent FMA chains
 * (an FMA's latency is 4 cycles; 8 chains of a few warps keep every lane
 * busy), FMA_UNROLL FMAs of each per trip so the loop's own instructions
 * cost ~1%. m < 1 keeps the values finite. The result is written only
 * when it cannot be, so the chains stay alive.
 */
#define FMA_CHAINS 8
#define FMA_UNROLL 16

static __global__ void __launch_bounds__(PROBE_THREADS)
fma_kernel(long long iters, float m, float c, float *out)
{
	float a[FMA_CHAINS];

#pragma unroll
	for (int j = 0; j < FMA_CHAINS; j++)
		a[j] = (float)(threadIdx.x + j);
	for (long long t = 0; t < iters; t++) {
#pragma unroll
		for (int u = 0; u < FMA_UNROLL; u++) {
#pragma unroll
			for (int j = 0; j < FMA_CHAINS; j++)
				a[j] = fmaf(a[j], m, c);
		}
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < FMA_CHAINS; j++)
		s += a[j];
	if (s == -1.0f)
		*out = s;
}

/*
 * The tensor cores' rate through mma.sync (bf16 in, fp32 accumulate,
 * m16n8k16: 4096 FLOPs a warp): MMA_CHAINS independent accumulators per
 * warp, so several mma are in flight while one finishes. The fragments
 * are a thread's own registers, made once from its lane: random-looking
 * values, since the tensor cores' power (and so their clock) depends on
 * the data they multiply, as in a real GEMM.
 */
#define MMA_CHAINS 8
#define MMA_UNROLL 4

static __global__ void __launch_bounds__(PROBE_THREADS)
mma_kernel(long long iters, float *out)
{
#if __CUDA_ARCH__ >= 800
	unsigned a[4], b[2];
	float d[MMA_CHAINS][4];

	for (int j = 0; j < 4; j++)
		a[j] = wb_fresh_hash(threadIdx.x * 8 + j, 0xa11u) & 0xbf7fbf7fu;
	for (int j = 0; j < 2; j++)
		b[j] = wb_fresh_hash(threadIdx.x * 8 + j, 0xb22u) & 0xbf7fbf7fu;
#pragma unroll
	for (int j = 0; j < MMA_CHAINS; j++)
		d[j][0] = d[j][1] = d[j][2] = d[j][3] = 0;
	for (long long t = 0; t < iters; t++) {
#pragma unroll
		for (int u = 0; u < MMA_UNROLL; u++) {
#pragma unroll
			for (int j = 0; j < MMA_CHAINS; j++)
				asm volatile(
					"mma.sync.aligned.m16n8k16.row.col.f32."
					"bf16.bf16.f32 {%0,%1,%2,%3}, "
					"{%4,%5,%6,%7}, {%8,%9}, "
					"{%0,%1,%2,%3};"
					: "+f"(d[j][0]), "+f"(d[j][1]),
					  "+f"(d[j][2]), "+f"(d[j][3])
					: "r"(a[0]), "r"(a[1]), "r"(a[2]),
					  "r"(a[3]), "r"(b[0]), "r"(b[1]));
		}
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < MMA_CHAINS; j++)
		s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
	if (s == -1.0f)
		*out = s;
#else
	(void)iters;
	(void)out;
#endif
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
		e = fill_grid((const void *)fma_kernel, &fma_blocks);
	if (e == cudaSuccess)
		e = fill_grid((const void *)mma_kernel, &mma_blocks);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize,
					   dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&cc_major,
					   cudaDevAttrComputeCapabilityMajor, dev);
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

/* Blocks of u x threads 16-byte words for n words: one per tile. */
static unsigned rw_grid(size_t n, int u, int threads)
{
	size_t ts = (size_t)u * threads, g = (n + ts - 1) / ts;

	return g < 1 ? 1 : g > 0x7fffffffu ? 0x7fffffffu : (unsigned)g;
}

/* The phased probe's blocks: the readers', then the writers'. */
static unsigned phased_grid(size_t nr, size_t nw)
{
	size_t per = (size_t)PH_U * PH_THREADS;
	size_t g = (nr + per - 1) / per + (nw + per - 1) / per;

	return g < 1 ? 1 : g > 0x7fffffffu ? 0x7fffffffu : (unsigned)g;
}

int wb_probe_phased_ok(size_t wbytes)
{
	return wbytes <= (size_t)l2_bytes;
}

cudaError_t wb_probe_rw(enum wb_probe p, const void *src, size_t rbytes,
			void *dst, size_t wbytes)
{
	size_t nr = rbytes / 16, nw = wbytes / 16, n = nr > nw ? nr : nw;
	const uint4 *s = (const uint4 *)src;
	uint4 *d = (uint4 *)dst;

	if (p == WB_PROBE_RW4)
		rw4_kernel<<<rw_grid(n, 4, PROBE_THREADS), PROBE_THREADS>>>(
			s, nr, d, nw, sink);
	else if (p == WB_PROBE_RW8)
		rw8_kernel<<<rw_grid(n, 8, PROBE_THREADS), PROBE_THREADS>>>(
			s, nr, d, nw, sink);
	else if (p == WB_PROBE_DEP2)
		dep2_kernel<<<rw_grid(n, DEP_U, DEP_THREADS), DEP_THREADS>>>(
			s, nr, d, nw, sink);
	else if (p == WB_PROBE_PHASED)
		phased_kernel<<<phased_grid(nr, nw), PH_THREADS>>>(s, nr, d, nw,
								   sink);
	else
		return cudaErrorInvalidValue;
	return cudaGetLastError();
}

int wb_peak_usable(enum wb_probe p)
{
	switch (p) {
	case WB_PROBE_FMA:
		return 1;
	case WB_PROBE_MMA:
		return cc_major >= 8;
	case WB_PROBE_WGMMA2:
	case WB_PROBE_WGMMA3:
		return wb_wgmma_usable();
	default:
		return 0;
	}
}

cudaError_t wb_peak_run(enum wb_probe p, long long iters)
{
	switch (p) {
	case WB_PROBE_FMA:
		/* 0.9999 x + 1e-4: converges, never overflows */
		fma_kernel<<<fma_blocks, PROBE_THREADS>>>(iters, 0.9999f, 1e-4f,
							   (float *)sink);
		break;
	case WB_PROBE_MMA:
		mma_kernel<<<mma_blocks, PROBE_THREADS>>>(iters, (float *)sink);
		break;
	case WB_PROBE_WGMMA2:
		return wb_wgmma_run(2, iters, (float *)sink);
	case WB_PROBE_WGMMA3:
		return wb_wgmma_run(3, iters, (float *)sink);
	default:
		return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}

double wb_peak_flops(enum wb_probe p, long long iters)
{
	double threads;

	switch (p) {
	case WB_PROBE_FMA:
		threads = (double)fma_blocks * PROBE_THREADS;
		return threads * iters * FMA_UNROLL * FMA_CHAINS * 2.0;
	case WB_PROBE_MMA:
		threads = (double)mma_blocks * PROBE_THREADS;
		return threads / 32 * iters * MMA_UNROLL * MMA_CHAINS * 4096.0;
	case WB_PROBE_WGMMA2:
		return wb_wgmma_flops(2, iters);
	case WB_PROBE_WGMMA3:
		return wb_wgmma_flops(3, iters);
	default:
		return 0;
	}
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
		[WB_PROBE_RW4] = "read and write, 4 loads in flight",
		[WB_PROBE_RW8] = "read and write, 8 loads in flight",
		[WB_PROBE_DEP2] = "read and write, each store after its loads",
		[WB_PROBE_PHASED] = "read, then write",
		[WB_PROBE_FMA] = "fp32 FMA",
		[WB_PROBE_MMA] = "mma.sync bf16",
		[WB_PROBE_WGMMA2] = "wgmma bf16, 2 warp groups",
		[WB_PROBE_WGMMA3] = "wgmma bf16, 3 warp groups",
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
