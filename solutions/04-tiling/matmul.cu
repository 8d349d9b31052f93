/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 2: matmul - a solution.
 *
 * What it changes from the naive, and why:
 *  - Block tiling: a block of 256 threads computes a 128 x 128 piece of c.
 *    It walks k in steps of 8, each time staging a 128 x 8 slice of a and
 *    an 8 x 128 slice of b in shared memory: every element fetched from
 *    global memory is then used 128 times, not once (the naive's caches
 *    notwithstanding). 32 flops per byte of global traffic.
 *  - Register blocking: each thread computes an 8 x 8 piece of c in 64
 *    registers. Per step of k it reads 8 values of a and 8 of b from shared
 *    memory (four 16-byte loads) and does 64 multiply-adds with them: 2
 *    flops per byte of shared traffic, where a thread computing one
 *    element does 2 flops per 8 bytes. Shared memory's bandwidth, not
 *    DRAM's, is what limits the simple tiled kernel (README, section 6).
 *  - The thread's 8 x 8 piece is four 4 x 4 pieces 64 apart (rows ty*4
 *    and 64 + ty*4, columns tx*4 and 64 + tx*4), so the 16 threads of a
 *    row read 16 consecutive float4 of b's slice: no bank conflicts. The
 *    slice of a is stored transposed (k-major), so its 8 values are two
 *    float4 too; its rows are padded to 132 floats so that the transposing
 *    stores do not conflict either.
 *  - Global loads are float4 (a row of a's slice is 8 floats: two threads;
 *    a row of b's slice is 128: 32 threads). They are aligned only when k
 *    and n are multiples of 4; otherwise the same kernel body runs with
 *    scalar loads and stores (the case is a constant of two kernels).
 *  - Double buffering: two slices of each in shared memory. The loads of
 *    step t + 1 are issued into registers before the multiply-adds of
 *    step t, so their latency hides behind the arithmetic, and stored
 *    into the other buffer after it: one barrier per step, not two.
 *  - Edges: loads outside a, b give 0, which adds nothing; stores are
 *    guarded. Any m, k, n work; full 128 x 128 tiles pay only the tests.
 */
#include "tiling.h"

#define MM_BM 128      /* rows of c per block */
#define MM_BN 128      /* columns of c per block */
#define MM_BK 8        /* depth of one k step */
#define MM_THREADS 256 /* 16 x 16 threads, each 8 x 8 elements of c */
#define MM_APAD 4      /* a's slice rows: 132 floats, still 16-byte aligned */

/*
 * Four floats from q[0..3], of which `have` (0 to 4) are inside the matrix;
 * zeros for the rest. vec: the row is 16-byte aligned and the four are all
 * inside or all outside, so one float4 load does.
 */
static __device__ __forceinline__ float4 load4(const float *q, int have,
					       int vec)
{
	float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	if (have <= 0)
		return v;
	if (vec)
		return *(const float4 *)q;
	v.x = q[0];
	if (have > 1)
		v.y = q[1];
	if (have > 2)
		v.z = q[2];
	if (have > 3)
		v.w = q[3];
	return v;
}

/* q[0..3] = v, the first `have` of them (vec as above). */
static __device__ __forceinline__ void store4(float *q, int have, float4 v,
					      int vec)
{
	if (have <= 0)
		return;
	if (vec) {
		*(float4 *)q = v;
		return;
	}
	q[0] = v.x;
	if (have > 1)
		q[1] = v.y;
	if (have > 2)
		q[2] = v.z;
	if (have > 3)
		q[3] = v.w;
}

/* Put this thread's share of one step's slices into buffer `as`, `bs`:
 * a's four values transposed (k-major), b's as one float4. */
static __device__ __forceinline__ void stash(float (*as)[MM_BM + MM_APAD],
					     float (*bs)[MM_BN], int ar, int ak,
					     int bk, int bc, float4 va,
					     float4 vb)
{
	as[ak + 0][ar] = va.x;
	as[ak + 1][ar] = va.y;
	as[ak + 2][ar] = va.z;
	as[ak + 3][ar] = va.w;
	*(float4 *)&bs[bk][bc] = vb;
}

/*
 * Indices are ints: every extent is at most 10^6 and every matrix has
 * fewer than 2^31 elements (tiling.h), and 64-bit index arithmetic would
 * cost registers the 64 accumulators need (256 threads, 2 blocks per SM:
 * 128 registers each, no spills).
 */
static __device__ __forceinline__ void
matmul_body(const float *__restrict__ a, const float *__restrict__ b,
	    float *__restrict__ c, int m, int k, int n, int vec)
{
	__shared__ __align__(16) float as[2][MM_BK][MM_BM + MM_APAD];
	__shared__ __align__(16) float bs[2][MM_BK][MM_BN];
	int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	int row0 = blockIdx.y * MM_BM, col0 = blockIdx.x * MM_BN;
	/* This thread's loads: a[arow][k0 + ak .. + 3] and
	 * b[k0 + bk][bcol .. + 3]; a row outside a or a column outside b
	 * loads zeros at every step. */
	int ar = tid / 2, ak = (tid % 2) * 4;
	int bk = tid / 32, bc = (tid % 32) * 4;
	int arow = row0 + ar, bcol = col0 + bc;
	int acols = arow < m ? k : 0, bcols = n - bcol;
	const float *pa = a + (size_t)(arow < m ? arow : 0) * k + ak;
	const float *pb = b + (size_t)bk * n + (bcol < n ? bcol : 0);
	float acc[8][8];
	float4 va, vb;

#pragma unroll
	for (int i = 0; i < 8; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			acc[i][j] = 0.0f;

	va = load4(pa, acols - ak, vec);
	vb = load4(pb, bk < k ? bcols : 0, vec);
	stash(as[0], bs[0], ar, ak, bk, bc, va, vb);
	__syncthreads();

	for (int k0 = 0; k0 < k; k0 += MM_BK) {
		int cur = (k0 / MM_BK) % 2, next = k0 + MM_BK;

		if (next < k) {
			va = load4(pa + next, acols - next - ak, vec);
			vb = load4(pb + (size_t)next * n,
				   next + bk < k ? bcols : 0, vec);
		}
#pragma unroll
		for (int p = 0; p < MM_BK; p++) {
			float4 a0 = *(const float4 *)&as[cur][p][ty * 4];
			float4 a1 = *(const float4 *)&as[cur][p][64 + ty * 4];
			float4 b0 = *(const float4 *)&bs[cur][p][tx * 4];
			float4 b1 = *(const float4 *)&bs[cur][p][64 + tx * 4];
			float fa[8] = { a0.x, a0.y, a0.z, a0.w,
					a1.x, a1.y, a1.z, a1.w };
			float fb[8] = { b0.x, b0.y, b0.z, b0.w,
					b1.x, b1.y, b1.z, b1.w };

#pragma unroll
			for (int i = 0; i < 8; i++)
#pragma unroll
				for (int j = 0; j < 8; j++)
					acc[i][j] = fmaf(fa[i], fb[j],
							 acc[i][j]);
		}
		/* The other buffer: its last readers passed the barrier
		 * that ended the step before. */
		if (next < k)
			stash(as[cur ^ 1], bs[cur ^ 1], ar, ak, bk, bc, va, vb);
		__syncthreads();
	}

#pragma unroll
	for (int i = 0; i < 8; i++) {
		int r = row0 + (i / 4) * 64 + ty * 4 + i % 4;

		if (r >= m)
			break;
#pragma unroll
		for (int h = 0; h < 2; h++) {
			int col = col0 + h * 64 + tx * 4;
			float4 v = make_float4(acc[i][4 * h], acc[i][4 * h + 1],
					       acc[i][4 * h + 2],
					       acc[i][4 * h + 3]);

			store4(c + (size_t)r * n + col, n - col, v, vec);
		}
	}
}

/* k % 4 == 0 and n % 4 == 0: float4 loads and stores throughout. */
static __global__ void __launch_bounds__(MM_THREADS, 2)
matmul_vec(const float *__restrict__ a, const float *__restrict__ b,
	   float *__restrict__ c, int m, int k, int n)
{
	matmul_body(a, b, c, m, k, n, 1);
}

/* Any other shape: the same tiles, filled and emptied element by element. */
static __global__ void __launch_bounds__(MM_THREADS, 2)
matmul_scalar(const float *__restrict__ a, const float *__restrict__ b,
	      float *__restrict__ c, int m, int k, int n)
{
	matmul_body(a, b, c, m, k, n, 0);
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, MM_BN),
		  (unsigned int)wb_ceil_div(m, MM_BM));

	if (k % 4 == 0 && n % 4 == 0)
		matmul_vec<<<grid, MM_THREADS>>>(a, b, c, (int)m, (int)k,
						 (int)n);
	else
		matmul_scalar<<<grid, MM_THREADS>>>(a, b, c, (int)m, (int)k,
						    (int)n);
	CUDA_CHECK_LAUNCH();
}
