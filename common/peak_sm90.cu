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
			: "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]),
		  "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
		  "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
		  "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
		  "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
		  "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
		  "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]),
		  "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
		  "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]),
		  "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]),
		  "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
		  "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
		  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),
		  "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
		  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]),
		  "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
		  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
		  "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
		  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
		  "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
		  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]),
		  "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
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
