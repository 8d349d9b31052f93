/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): an fp32 SGEMM in the style of the
 * public cp.async double-buffered SGEMM kernels (the double-buffering
 * steps at the end of siboehm's SGEMM_CUDA, which copy a's slice
 * transposed 4 bytes at a time with memcpy_async, and the sgemm kernels
 * with CP_ASYNC macros of many CUDA notes repositories): 128 x 128 tiles
 * of c per block of 256 threads, 8 x 8 per thread in registers, k in
 * slices of 16, and a 2-stage pipeline of inline-PTX copies
 * (cp.async.ca / cp.async.cg, cp.async.commit_group,
 * cp.async.wait_group): the copies of slice t + 1 fly while slice t is
 * multiplied. a's slice is copied 4 bytes at a time straight into its
 * transposed (k-major) place, which any k allows; b's rows 16 bytes at a
 * time when n % 4 == 0 (rows 16-byte aligned), else 4 bytes at a time.
 * Copies past an edge use cp.async's source size 0, which writes zeros.
 * c is stored as float4 when n % 4 == 0, else element by element, all of
 * it guarded. cp.async needs sm_80: compiled for an older GPU (CI's sm_75
 * without one) the same helpers copy synchronously instead (an #if on
 * __CUDA_ARCH__), and commit and wait do nothing. No tensor cores, no
 * library.
 * Expected: PASS; statically BUILT, technique ok.
 */
#include "tiling.h"

#define BM 128			/* rows of c per block */
#define BN 128			/* columns of c per block */
#define BK 16			/* depth of one slice of k */
#define THREADS 256		/* 16 x 16 threads, 8 x 8 elements of c each */
#define AS_LD (BM + 4)		/* a's k-major rows: 132 floats, 16 B aligned */
#define STAGES 2		/* slices in flight: one read, one filled */

/* The asynchronous copy exists from sm_80 on. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HAVE_CP_ASYNC 1
#else
#define HAVE_CP_ASYNC 0
#endif

#if HAVE_CP_ASYNC
/* The shared-state address cp.async takes, from a generic pointer. */
static __device__ __forceinline__ unsigned int smem_u32(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}
#endif

/* 4 bytes global -> shared; !ok writes 4 zero bytes and reads nothing. */
static __device__ __forceinline__ void cp_async4(float *dst, const float *src,
						 bool ok)
{
#if HAVE_CP_ASYNC
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
		     :: "r"(smem_u32(dst)), "l"(src), "r"(ok ? 4 : 0)
		     : "memory");
#else
	*dst = ok ? *src : 0.0f;
#endif
}

/* 16 bytes global -> shared, both 16-byte aligned; !ok writes zeros. */
static __device__ __forceinline__ void cp_async16(float *dst, const float *src,
						  bool ok)
{
#if HAVE_CP_ASYNC
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
		     :: "r"(smem_u32(dst)), "l"(src), "r"(ok ? 16 : 0)
		     : "memory");
#else
	*(float4 *)dst = ok ? *(const float4 *)src :
			      make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#endif
}

/* Close this thread's group of copies (one group per slice). */
static __device__ __forceinline__ void cp_async_commit(void)
{
#if HAVE_CP_ASYNC
	asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* Wait until at most one group, the newest, is still in flight. */
static __device__ __forceinline__ void cp_async_wait_prev(void)
{
#if HAVE_CP_ASYNC
	asm volatile("cp.async.wait_group 1;\n" ::: "memory");
#endif
}

/*
 * Copy a's BM x BK slice at k0 into as, transposed: as[kk][r]. The
 * thread copies rows r0 + 32 g (g < 4) at columns c0 + 8 h (h < 2) of
 * the slice, r0 = tid / 8, c0 = tid % 8: a warp reads 4 rows x 8 floats
 * (a 32-byte sector each) and, AS_LD being 4 mod 32, writes 32 different
 * banks. base is the offset of (row0 + r0, c0) in a; rows = m - row0.
 * Offsets are unsigned (a row past m may wrap; it is never read) and
 * exact below 2^31 wherever a copy is made (tiling.h's limit).
 */
static __device__ __forceinline__ void load_a(const float *a, float *as,
					      unsigned int base, int rows,
					      int k, int k0)
{
	int r0 = threadIdx.x / 8, c0 = threadIdx.x % 8;

#pragma unroll
	for (int g = 0; g < BM / 32; g++)
#pragma unroll
		for (int h = 0; h < BK / 8; h++) {
			bool ok = r0 + 32 * g < rows && k0 + c0 + 8 * h < k;
			unsigned int off = base + 32u * g * k + k0 + 8 * h;

			cp_async4(&as[(c0 + 8 * h) * AS_LD + r0 + 32 * g],
				  a + (ok ? off : 0), ok);
		}
}

/*
 * Copy b's BK x BN slice at k0 into bs, row-major; cols = n - col0. VEC
 * (n % 4 == 0): the thread copies the 16-byte chunk at column c0 = tid %
 * 32 * 4 of rows r0 + 8 i (r0 = tid / 32, i < 2), each chunk wholly
 * inside or wholly outside the matrix. Otherwise one float per copy:
 * column tid % 128 of rows tid / 128 + 2 i (i < 8). base is the offset
 * of (r0, col0 + c0) in b.
 */
template <bool VEC>
static __device__ __forceinline__ void load_b(const float *b, float *bs,
					      unsigned int base, int cols,
					      int k, int n, int k0)
{
	const int per = VEC ? 4 : 1;		/* floats per copy */
	const int step = THREADS * per / BN;	/* rows from copy to copy */
	int r0 = threadIdx.x * per / BN, c0 = threadIdx.x * per % BN;

#pragma unroll
	for (int i = 0; i < BK / step; i++) {
		bool ok = k0 + r0 + step * i < k && c0 < cols;
		unsigned int off = base + (unsigned int)(k0 + step * i) * n;
		float *dst = &bs[(r0 + step * i) * BN + c0];

		if (VEC)
			cp_async16(dst, b + (ok ? off : 0), ok);
		else
			cp_async4(dst, b + (ok ? off : 0), ok);
	}
}

/*
 * The multiply-adds of one slice. The thread's 8 x 8 is four 4 x 4
 * pieces 64 apart (rows ty * 4 and 64 + ty * 4, columns tx * 4 and 64 +
 * tx * 4): per step of k two float4 of a's column and two of b's row.
 */
static __device__ __forceinline__ void multiply_slice(const float *as,
						      const float *bs,
						      float acc[8][8], int tx,
						      int ty)
{
#pragma unroll
	for (int kk = 0; kk < BK; kk++) {
		float4 a0 = *(const float4 *)&as[kk * AS_LD + ty * 4];
		float4 a1 = *(const float4 *)&as[kk * AS_LD + BM / 2 + ty * 4];
		float4 b0 = *(const float4 *)&bs[kk * BN + tx * 4];
		float4 b1 = *(const float4 *)&bs[kk * BN + BN / 2 + tx * 4];
		float ra[8] = { a0.x, a0.y, a0.z, a0.w,
				  a1.x, a1.y, a1.z, a1.w };
		float rb[8] = { b0.x, b0.y, b0.z, b0.w,
				  b1.x, b1.y, b1.z, b1.w };

#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int j = 0; j < 8; j++)
				acc[i][j] += ra[i] * rb[j];
	}
}

/* Store the thread's 8 x 8 (the layout above); nothing outside c. */
template <bool VEC>
static __device__ __forceinline__ void store_c(float *c, float acc[8][8],
					       int m, int n, int row0,
					       int col0, int tx, int ty)
{
#pragma unroll
	for (int i = 0; i < 8; i++) {
		int r = row0 + (i / 4) * (BM / 2) + ty * 4 + i % 4;

		if (r >= m)
			continue;
#pragma unroll
		for (int h = 0; h < 2; h++) {
			int col = col0 + h * (BN / 2) + tx * 4;

			if (col >= n)
				continue;
			float *p = c + (size_t)r * n + col;

			if (VEC) {
				*(float4 *)p = make_float4(acc[i][4 * h],
							   acc[i][4 * h + 1],
							   acc[i][4 * h + 2],
							   acc[i][4 * h + 3]);
			} else {
#pragma unroll
				for (int e = 0; e < 4; e++)
					if (col + e < n)
						p[e] = acc[i][4 * h + e];
			}
		}
	}
}

/*
 * The pipeline: slice 0's copies go out before the loop; each step
 * issues slice t + 1's into the other stage (always committing a group,
 * empty at the end, so that "all but the newest" is slice t), waits for
 * slice t, and multiplies it. The barrier after the multiply-adds keeps
 * the next step's copies out of the stage still being read.
 */
template <bool VEC>
static __global__ void __launch_bounds__(THREADS, 2)
sgemm_cp_async(const float *__restrict__ a, const float *__restrict__ b,
	       float *__restrict__ c, int m, int k, int n)
{
	__shared__ __align__(16) float as[STAGES][BK * AS_LD];
	__shared__ __align__(16) float bs[STAGES][BK * BN];
	int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	int tiles = (k + BK - 1) / BK;
	int per = VEC ? 4 : 1;
	unsigned int abase = (unsigned int)(row0 + threadIdx.x / 8) * k +
			     threadIdx.x % 8;
	unsigned int bbase = threadIdx.x * per / BN * (unsigned int)n + col0 +
			     threadIdx.x * per % BN;
	float acc[8][8];

#pragma unroll
	for (int i = 0; i < 8; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			acc[i][j] = 0.0f;

	load_a(a, as[0], abase, m - row0, k, 0);
	load_b<VEC>(b, bs[0], bbase, n - col0, k, n, 0);
	cp_async_commit();
	for (int t = 0; t < tiles; t++) {
		int cur = t % STAGES, nxt = (t + 1) % STAGES;

		if (t + 1 < tiles) {
			load_a(a, as[nxt], abase, m - row0, k, (t + 1) * BK);
			load_b<VEC>(b, bs[nxt], bbase, n - col0, k, n,
				    (t + 1) * BK);
		}
		cp_async_commit();
		cp_async_wait_prev();
		__syncthreads();
		multiply_slice(as[cur], bs[cur], acc, tx, ty);
		__syncthreads();
	}
	store_c<VEC>(c, acc, m, n, row0, col0, tx, ty);
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	/* Extents are at most 10^6 (tiling.h): int indices, size_t offsets. */
	dim3 grid((unsigned int)wb_ceil_div(n, BN),
		  (unsigned int)wb_ceil_div(m, BM));

	if (n % 4 == 0)
		sgemm_cp_async<true><<<grid, THREADS>>>(a, b, c, (int)m,
							 (int)k, (int)n);
	else
		sgemm_cp_async<false><<<grid, THREADS>>>(a, b, c, (int)m,
							  (int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}
