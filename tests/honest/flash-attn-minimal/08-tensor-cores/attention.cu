/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): attention in the style of
 * tspeterkim/flash-attention-minimal, FlashAttention's forward pass in
 * plain CUDA: tiles of Q, K and V in shared memory (sram), one thread per
 * query row, S = Q K^T for a tile of keys, the row's running max m and
 * sum l, and the online-softmax rescale of O as each tile arrives. What it
 * changes to fit this lab's contract: bf16 q, k, v and o (converted to
 * float32 on the way into shared memory, rounded once on the way out),
 * [heads][seq][dim] with dim 64 or 128 (a template each), any seq, the
 * causal mask; and, to finish seq 4096 x 16 heads in milliseconds, the
 * loops of FlashAttention-2: a block per Br = 64 query rows and head,
 * walking the key tiles (Bc = 32) with O, m and l kept on chip (O in
 * shared memory, unnormalized, divided by l once at the end), no HBM
 * scratch for O, l and m. Scores in log2 units (q scaled by log2(e) /
 * sqrt(dim) as it is staged) for exp2f; a thread's Bc scores in
 * registers; K stored transposed and the per-thread rows padded, so that
 * the inner loops read float4 broadcasts and conflict-free rows. Dynamic
 * shared memory (50 KiB at dim 64, 98 KiB at dim 128) past the 48 KiB
 * default: cudaFuncSetAttribute first. Everything in float32 on the CUDA
 * cores, as the public kernel: no tensor-core instruction, so lab 08's
 * technique rule fails while every output is right.
 * Expected: PASS, correctness points only (points < 41); statically
 * BUILT, technique failed.
 */
#include <math.h>
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define BR 64		/* query rows per block: one thread each */
#define BC 32		/* keys per tile */
#define PAD 4		/* floats after each per-thread row (see ROW) */

/*
 * Row stride of the per-thread rows of Q and O: dim + 4 floats, 4 banks
 * on from the row before, so that the 8 threads of a float4 access
 * (a quarter warp) cover all 32 banks.
 */
#define ROW(dim) ((dim) + PAD)

/* Shared bytes: Q and O rows (BR each), K^T and V tiles (BC keys each). */
#define SRAM_BYTES(dim) \
	((size_t)(2 * BR * ROW(dim) + 2 * BC * (dim)) * sizeof(float))

/* Eight bf16 from 16 aligned bytes at src into f, exactly; zeros if !ok. */
static __device__ __forceinline__ void load8(const __nv_bfloat16 *src, bool ok,
					     float f[8])
{
	uint4 u = ok ? *(const uint4 *)src : make_uint4(0, 0, 0, 0);
	unsigned int w[4] = { u.x, u.y, u.z, u.w };

#pragma unroll
	for (int e = 0; e < 4; e++) {
		f[2 * e] = __uint_as_float(w[e] << 16);
		f[2 * e + 1] = __uint_as_float(w[e] & 0xffff0000u);
	}
}

/* Stage the block's BR query rows, scaled; rows past seq are zeros. */
template <int DIM>
static __device__ void load_q(const __nv_bfloat16 *q, float *qi, int q0,
			      int seq, float scale)
{
	for (int c = threadIdx.x; c < BR * DIM / 8; c += BR) {
		int r = c / (DIM / 8), x = c % (DIM / 8) * 8;
		float f[8];

		load8(q + (size_t)(q0 + r) * DIM + x, q0 + r < seq, f);
#pragma unroll
		for (int e = 0; e < 8; e++)
			qi[r * ROW(DIM) + x + e] = f[e] * scale;
	}
}

/*
 * Stage the key tile at j0: K transposed (kj[x][y], so that a thread's
 * scores read Bc keys of one column as float4 broadcasts; lanes take
 * consecutive keys, so the transposing stores hit 32 banks) and V as it
 * is (vj[y][x]). Keys past seq are zeros: their scores are masked, and a
 * zero V keeps their weight of 0 from meeting garbage.
 */
template <int DIM>
static __device__ void load_kv(const __nv_bfloat16 *k,
			       const __nv_bfloat16 *v, float *kj, float *vj,
			       int j0, int seq)
{
	for (int c = threadIdx.x; c < BC * DIM / 8; c += BR) {
		int y = c % BC, x = c / BC * 8;
		float f[8];
		float4 *dst;

		load8(k + (size_t)(j0 + y) * DIM + x, j0 + y < seq, f);
#pragma unroll
		for (int e = 0; e < 8; e++)
			kj[(x + e) * BC + y] = f[e];

		y = c / (DIM / 8);
		x = c % (DIM / 8) * 8;
		load8(v + (size_t)(j0 + y) * DIM + x, j0 + y < seq, f);
		dst = (float4 *)&vj[y * DIM + x];
		dst[0] = make_float4(f[0], f[1], f[2], f[3]);
		dst[1] = make_float4(f[4], f[5], f[6], f[7]);
	}
}

/* s[y] = q . k_y for the tile's Bc keys (q already scaled). */
template <int DIM>
static __device__ __forceinline__ void scores(const float *qrow,
					      const float *kj, float s[BC])
{
#pragma unroll
	for (int y = 0; y < BC; y++)
		s[y] = 0.0f;
#pragma unroll 2
	for (int x = 0; x < DIM; x += 4) {
		float4 q4 = *(const float4 *)&qrow[x];
		float qx[4] = { q4.x, q4.y, q4.z, q4.w };

#pragma unroll
		for (int e = 0; e < 4; e++)
#pragma unroll
			for (int y = 0; y < BC; y += 4) {
				float4 k4 =
					*(const float4 *)&kj[(x + e) * BC + y];

				s[y] += qx[e] * k4.x;
				s[y + 1] += qx[e] * k4.y;
				s[y + 2] += qx[e] * k4.z;
				s[y + 3] += qx[e] * k4.w;
			}
	}
}

/* o = alpha o + sum over y of p[y] v_y: the rescale, then P V, 4 columns
 * a step. */
template <int DIM>
static __device__ __forceinline__ void accumulate(float *orow,
						  const float *vj,
						  const float p[BC],
						  float alpha)
{
#pragma unroll 2
	for (int x = 0; x < DIM; x += 4) {
		float4 o4 = *(float4 *)&orow[x];

		o4.x *= alpha;
		o4.y *= alpha;
		o4.z *= alpha;
		o4.w *= alpha;
#pragma unroll
		for (int y = 0; y < BC; y++) {
			float4 v4 = *(const float4 *)&vj[y * DIM + x];

			o4.x += p[y] * v4.x;
			o4.y += p[y] * v4.y;
			o4.z += p[y] * v4.z;
			o4.w += p[y] * v4.w;
		}
		*(float4 *)&orow[x] = o4;
	}
}

/* o = orow * inv_l, rounded to bf16, 16 bytes at a time. */
template <int DIM>
static __device__ void store_row(__nv_bfloat16 *o, const float *orow,
				 float inv_l)
{
	for (int x = 0; x < DIM; x += 8) {
		unsigned int w[4];

#pragma unroll
		for (int e = 0; e < 4; e++) {
			float f0 = orow[x + 2 * e] * inv_l;
			float f1 = orow[x + 2 * e + 1] * inv_l;
			unsigned int lo =
				__bfloat16_as_ushort(__float2bfloat16_rn(f0));
			unsigned int hi =
				__bfloat16_as_ushort(__float2bfloat16_rn(f1));

			w[e] = lo | hi << 16;
		}
		*(uint4 *)(o + x) = make_uint4(w[0], w[1], w[2], w[3]);
	}
}

/*
 * One block: query rows q0 .. q0 + BR - 1 of head blockIdx.y. Tiles are
 * taken last first (blockIdx.x from the end) so that a causal grid
 * starts its longest blocks first. Causal blocks stop at the tile that
 * holds their last row's key; within a tile each thread masks its own
 * keys j > i (and every thread the keys past seq) to -inf. Tile 0 always
 * holds key 0, which no row masks, so m is finite from the first tile on
 * and exp2f(m_old - m_new) is 0, not NaN, when m_old is still -inf.
 */
template <int DIM>
static __global__ void __launch_bounds__(BR)
flash_fwd(const __nv_bfloat16 *__restrict__ q,
	  const __nv_bfloat16 *__restrict__ k,
	  const __nv_bfloat16 *__restrict__ v, __nv_bfloat16 *__restrict__ o,
	  int seq, int causal, float scale_log2)
{
	extern __shared__ float4 sram4[];
	float *qi = (float *)sram4;		/* BR x ROW(DIM) */
	float *oi = qi + BR * ROW(DIM);		/* BR x ROW(DIM) */
	float *kj = oi + BR * ROW(DIM);		/* DIM x BC, transposed */
	float *vj = kj + DIM * BC;		/* BC x DIM */
	int tx = threadIdx.x;
	int q0 = (gridDim.x - 1 - blockIdx.x) * BR, i = q0 + tx;
	size_t head = (size_t)blockIdx.y * seq * DIM;
	int keys = causal ? min(q0 + BR, seq) : seq;
	int tc = (keys + BC - 1) / BC;
	float *orow = oi + tx * ROW(DIM);
	float row_m = -INFINITY, row_l = 0.0f;

	load_q<DIM>(q + head, qi, q0, seq, scale_log2);
	for (int x = 0; x < DIM; x += 4)
		*(float4 *)&orow[x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	for (int j = 0; j < tc; j++) {
		int j0 = j * BC;
		float s[BC], tile_m = -INFINITY, sum = 0.0f, m_new, alpha;

		__syncthreads();	/* the last tile's readers are done */
		load_kv<DIM>(k + head, v + head, kj, vj, j0, seq);
		__syncthreads();	/* this tile (and Q) are in */

		scores<DIM>(qi + tx * ROW(DIM), kj, s);
#pragma unroll
		for (int y = 0; y < BC; y++) {
			if (j0 + y >= seq || (causal && j0 + y > i))
				s[y] = -INFINITY;
			tile_m = fmaxf(tile_m, s[y]);
		}
		m_new = fmaxf(row_m, tile_m);
		alpha = exp2f(row_m - m_new);
#pragma unroll
		for (int y = 0; y < BC; y++) {
			s[y] = exp2f(s[y] - m_new);
			sum += s[y];
		}
		row_l = row_l * alpha + sum;
		row_m = m_new;
		accumulate<DIM>(orow, vj, s, alpha);
	}
	if (i < seq)
		store_row<DIM>(o + head + (size_t)i * DIM, orow, 1.0f / row_l);
}

/* The launch for one head size: opt in to its shared memory, then go. */
template <int DIM>
static void launch(const __nv_bfloat16 *q, const __nv_bfloat16 *k,
		   const __nv_bfloat16 *v, __nv_bfloat16 *o, int heads,
		   int seq, int causal)
{
	dim3 grid((unsigned int)wb_ceil_div((size_t)seq, BR),
		  (unsigned int)heads);
	float scale_log2 = (float)(M_LOG2E / sqrt((double)DIM));

	CUDA_CHECK(cudaFuncSetAttribute(
		flash_fwd<DIM>, cudaFuncAttributeMaxDynamicSharedMemorySize,
		(int)SRAM_BYTES(DIM)));
	flash_fwd<DIM><<<grid, BR, SRAM_BYTES(DIM)>>>(q, k, v, o, seq,
						      causal ? 1 : 0,
						      scale_log2);
	CUDA_CHECK_LAUNCH();
}

void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal)
{
	const __nv_bfloat16 *qb = (const __nv_bfloat16 *)q;
	const __nv_bfloat16 *kb = (const __nv_bfloat16 *)k;
	const __nv_bfloat16 *vb = (const __nv_bfloat16 *)v;
	__nv_bfloat16 *ob = (__nv_bfloat16 *)o;

	if (dim == 64)
		launch<64>(qb, kb, vb, ob, heads, seq, causal);
	else if (dim == 128)
		launch<128>(qb, kb, vb, ob, heads, seq, causal);
	else
		wb_cuda_fatal(cudaErrorInvalidValue,
			      "attention: dim not 64 or 128", __FILE__,
			      __LINE__);
}
