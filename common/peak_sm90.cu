/* SPDX-License-Identifier: MIT */
/*
 * peak_sm90.cu - the tensor cores' rate on a Hopper GPU (sm_90), through
 * wgmma: the instruction a Hopper GEMM or attention at the field's level
 * runs on, about 1.5x what mma.sync reaches there (see probe.h: the
 * speed of light of a compute-bound exercise is its FLOPs at the fastest
 * rate the GPU's own instructions reach, measured in the same rounds).
 *
 * Built for sm_90a alone (the Makefile): wgmma exists on no other
 * architecture, and no PTX of this file is kept for a later one. On any
 * other GPU wb_wgmma_usable() says no and the probes use mma.sync.
 *
 * A warp group (4 warps, 128 threads) issues wgmma.m64n256k16 (bf16 in,
 * fp32 accumulate: 524288 FLOPs) with both operands in shared memory,
 * WG_UNROLL of them into one accumulator per commit group, and waits for
 * the group: with two or three warp groups on an SM, one's wait is
 * covered by another's products. The operands are random bf16 values
 * (the tensor cores' power, so their clock, depends on the data), laid
 * out without swizzle: each 8 x 16-byte core matrix contiguous, 128 bytes
 * between core matrices along k, 256 along m or n. What they hold is never
 * read back: only the rate counts.
 */
#include "probe.h"

#define WG_THREADS 128
#define WG_UNROLL 4
#define WG_FLOPS (2.0 * 64 * 256 * 16)
#define SMEM_A 0
#define SMEM_B 2048
#define SMEM_BYTES (2048 + 8192)

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* A wgmma matrix descriptor: address, leading and stride byte offsets
 * (each in 16-byte units), no swizzle. */
static __device__ __forceinline__ unsigned long long desc(unsigned addr)
{
	return (unsigned long long)((addr & 0x3ffff) >> 4) |
	       ((unsigned long long)(128 >> 4) << 16) |
	       ((unsigned long long)(256 >> 4) << 32);
}
#endif

static __global__ void __launch_bounds__(3 * WG_THREADS, 1)
wgmma_kernel(long long iters, float *out)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
	__shared__ __align__(1024) unsigned char smem[SMEM_BYTES];
	float d[128];
	unsigned base = (unsigned)__cvta_generic_to_shared(smem);
	unsigned long long da = desc(base + SMEM_A), db = desc(base + SMEM_B);

	for (unsigned i = threadIdx.x; i < SMEM_BYTES / 4; i += blockDim.x)
		((unsigned *)smem)[i] = wb_fresh_hash(i, 0xc33u) & 0xbf7fbf7fu;
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
#pragma unroll
	for (int j = 0; j < 128; j++)
		d[j] = 0;
/* The 128 accumulators as read-write operands %0..%127, 16 at a time. */
#define WG_D4(i) "+f"(d[i]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3])
#define WG_D16(i) WG_D4(i), WG_D4((i) + 4), WG_D4((i) + 8), WG_D4((i) + 12)
	for (long long t = 0; t < iters; t++) {
		asm volatile(
			"{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
			"wgmma.fence.sync.aligned;\n"
#define WG_ONE "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " \
	"{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}, %128, %129, p, 1, 1, 0, 0;\n"
			WG_ONE WG_ONE WG_ONE WG_ONE
#undef WG_ONE
			"wgmma.commit_group.sync.aligned;\n"
			"wgmma.wait_group.sync.aligned 0;\n}\n"
			: WG_D16(0), WG_D16(16), WG_D16(32), WG_D16(48),
			  WG_D16(64), WG_D16(80), WG_D16(96), WG_D16(112)
			: "l"(da), "l"(db)
			: "memory");
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < 128; j++)
		s += d[j];
	if (s == -1.0f)
		*out = s;
#else
	(void)iters;
	(void)out;
#endif
}

static int wg_blocks;

int wb_wgmma_usable(void)
{
	static int known, usable;
	struct cudaFuncAttributes fa;
	int dev, major = 0, minor = 0, sms = 0;

	if (known)
		return usable;
	known = 1;
	if (cudaGetDevice(&dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
				   dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
				   dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
				   dev) != cudaSuccess)
		return cudaGetLastError(), 0;
	/* No sm_90a code in this build, or not a Hopper GPU: no wgmma. */
	if (major != 9 || minor != 0 ||
	    cudaFuncGetAttributes(&fa, wgmma_kernel) != cudaSuccess ||
	    fa.binaryVersion != 90)
		return cudaGetLastError(), 0;
	wg_blocks = sms;
	usable = 1;
	return usable;
}

cudaError_t wb_wgmma_run(int groups, long long iters, float *sink)
{
	if (!wb_wgmma_usable())
		return cudaErrorNotSupported;
	wgmma_kernel<<<wg_blocks, groups * WG_THREADS>>>(iters, sink);
	return cudaGetLastError();
}

double wb_wgmma_flops(int groups, long long iters)
{
	if (!wb_wgmma_usable())
		return 0;
	return (double)wg_blocks * groups * (double)iters * WG_UNROLL * WG_FLOPS;
}
