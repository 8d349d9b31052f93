/* SPDX-License-Identifier: MIT */
/*
 * Lab 08, warm-up: fragments - solution.
 *
 * One warp per tile, 4 warps a block. The warp copies its a (32 chunks of
 * 16 bytes: one a lane) and b (16 chunks) into shared memory, loads a's
 * fragment with ldmatrix.x4 and b's with ldmatrix.x2.trans, multiplies
 * with one mma.sync, and stores its 4 floats a lane as two float2.
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
	/* b: lanes 0-15 point at rows k = 0..15; .trans gives each lane
	 * (k = 2t, 2t + 1; n = g). Lanes 16-31's addresses are not used. */
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 "
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
