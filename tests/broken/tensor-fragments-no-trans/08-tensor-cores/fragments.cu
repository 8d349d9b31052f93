/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the warm-up's solution with b's fragment loaded by
 * ldmatrix without .trans. b is stored k-major; without the transpose
 * each lane holds two neighbours along n where the mma wants two along
 * k, so every tile multiplies by a scrambled b.
 * Expected verdict: WRONG.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define WARPS 4

static __device__ __forceinline__ unsigned int smem_addr(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}

static __global__ void fragments_kernel(const uint4 *a, const uint4 *b,
					float *c, size_t tiles)
{
	__shared__ __align__(16) uint4 as[WARPS][32]; /* 16 rows x 2 chunks */
	__shared__ __align__(16) uint4 bs[WARPS][16]; /* 16 rows x 1 chunk */
	int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
	size_t tile = (size_t)blockIdx.x * WARPS + w;
	unsigned int af[4], bf[2];
	float d[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	int g = lane >> 2, t = lane & 3;
	float *ct;

	if (tile >= tiles)
		return;
	as[w][lane] = a[tile * 32 + lane];
	if (lane < 16)
		bs[w][lane] = b[tile * 16 + lane];
	__syncwarp();
	/* a: lane l points at row l % 16, chunk l / 16: matrices (rows 0-7,
	 * k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (8-15, 8-15). */
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];\n"
		     : "=r"(af[0]), "=r"(af[1]), "=r"(af[2]), "=r"(af[3])
		     : "r"(smem_addr(&as[w][(lane & 15) * 2 + (lane >> 4)])));
	/* BUG: without .trans each lane gets (k = g; n = 2t, 2t + 1), a
	 * row of b where the mma wants a column. */
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 "
		     "{%0, %1}, [%2];\n"
		     : "=r"(bf[0]), "=r"(bf[1])
		     : "r"(smem_addr(&bs[w][lane & 15])));
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
		     "{%0, %1, %2, %3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(af[0]), "r"(af[1]), "r"(af[2]), "r"(af[3]),
		       "r"(bf[0]), "r"(bf[1]));
	ct = c + tile * 128;
	*(float2 *)(ct + g * 8 + 2 * t) = make_float2(d[0], d[1]);
	*(float2 *)(ct + (g + 8) * 8 + 2 * t) = make_float2(d[2], d[3]);
}

void fragments(const bf16_bits *a, const bf16_bits *b, float *c, size_t tiles)
{
	fragments_kernel<<<(unsigned int)wb_ceil_div(tiles, WARPS),
			   WARPS * 32>>>((const uint4 *)a, (const uint4 *)b, c,
					 tiles);
	CUDA_CHECK_LAUNCH();
}
