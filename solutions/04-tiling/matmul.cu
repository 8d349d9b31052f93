/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 2: matmul - a solution.
 *
 * What it changes from the naive, and why:
 *  - Block tiling: a block computes a MM_BM x MM_BN (128 x 256) piece of c. It
 *    walks k in steps of MM_BK (16), each time staging a 128 x 16 slice of a
 *    and a 16 x 256 slice of b in shared memory: every element fetched from
 *    global memory is then used 256 (or 128) times, not once.
 *  - Register blocking: each of the 256 threads computes an 8 x 16 piece of c
 *    in 128 registers. Per step of k it reads 8 values of a and 16 of b from
 *    shared memory (six 16-byte loads) and does 128 multiply-adds with them.
 *    Shared memory's bandwidth, not DRAM's, is what limits the simple tiled
 *    kernel (README, section 6).
 *  - Warp tiling: the 32 lanes of a warp are 2 x 16 threads of the block's 16
 *    x 16 grid of threads, so a float4 load of a's slice has 2 distinct
 *    addresses (32 bytes, one pass) and one of b's 16 (256 bytes, two).
 *    Measured on the H200 with the order of multiply-adds below: 2.2% faster
 *    at 4096^3 than 4 x 8 lanes (64 and 128 bytes, one pass each), which was
 *    as fast as 8 x 4; 4 x 8, 8 x 4 and 2 x 16 were within 0.2% of each
 *    other at 128 x 128 tiles. Shared memory's bandwidth is not what limits
 *    this kernel: nvcc's choice of registers and order is (last bullet).
 *  - The multiply-adds of a k step go row by row, each row's 16 in the
 *    opposite direction from the row before (0..15, then 15..0), so that a
 *    row starts with the value of b the last one ended with: 1% faster at
 *    4096^3, 2% at 2048^3 than every row from 0 (column by column: 11%
 *    slower).
 *  - The thread's piece is made of 4 x 4 pieces spread over the tile (rows
 *    ty*4 + i*64, columns tx*4 + j*64), so lanes read consecutive float4 of a
 *    slice: no bank conflicts. The slice of a is stored transposed (k-major),
 *    so its values are float4 too; its rows are padded to 132 floats, so that
 *    each warp's 32 transposing stores land in 32 banks.
 *  - Global loads are float4; each half-warp reads 32 bytes of 16 rows of a
 *    (whole sectors), each warp 512 bytes of a row of b. They are aligned only
 *    when k and n are multiples of 4; otherwise the same kernel body runs with
 *    scalar loads and stores (the case is a constant of two kernels).
 *  - Double buffering: two slices of each in shared memory (48.5 KiB in all,
 *    over the 48 KiB a kernel gets unasked: asked for once). The loads of step
 *    t + 1 are issued into registers before the multiply-adds of step t, so
 *    their latency hides behind the arithmetic, and stored into the other
 *    buffer after them: one barrier per step. The loads are issued
 *    unconditionally (see the main loop): when nvcc was given an if around
 *    them, it sank them past the multiply-adds, and the kernel ran 16% (at 128
 *    x 128 x 8) to 20% (this shape) slower.
 *  - Why this shape. Measured on an NVIDIA H200 (2026-11-28, 4096^3, L2
 *    flushed, medians of 25 rounds interleaved with cublasSgemm; with 4 x 8
 *    lanes and rows in order): 2991 us, 45.96 TFLOP/s, 92.1% of cuBLAS's
 *    2756 us (the previous solution, 128 x 128 tiles with 8 x 8 per thread
 *    and k steps of 8: 3115 us, 88.5%). With the lanes and the order above:
 *    2914 us, 47.17 TFLOP/s, 92.4% of cuBLAS's 2691 us in that bench, 95%
 *    of its 2772 us in the grader's reference run. The 8
 *    x 16 piece does 128 multiply-adds per six shared loads where 8 x 8 does
 *    64 per four, and steps of 16 halve the barriers and loop overhead per
 *    multiply-add: multiply-adds are 74% of the float4 kernel's instructions
 *    (counted in its SASS), 56% at 128 x 128 x 8. It needs 239 registers, so
 *    one block (8 warps) per SM; 128 independent sums per thread keep them
 *    busy. The same code at 128 x 128 x 8 ran 3156 us (87%), 128 x 256 x 8
 *    3230 us, 256 x 128 x 16 (16 x 8 per thread) 3508 us, 128 x 128 x 16 (2
 *    blocks per SM, registers spilled) 3303 us; launching blocks in groups of
 *    rows for L2 reuse, or splitting a step's loads in two halves, cost 0.5 to
 *    1%. The macros keep the shapes and the split loads a -D away (MM_BM,
 *    MM_BN, MM_BK, MM_TM, MM_TN, MM_WX, MM_MINB, MM_SPLIT).
 *  - One shape on every GPU, chosen on sm_90 (the only architecture
 *    measured). It fits any GPU of compute capability 7.5 or newer (239
 *    registers, 48.5 KiB of shared memory).
 *  - The last wave. One block of this size fits an SM, so the GPU runs
 *    `slots` tiles at a time (132 on an H200) and the product's tiles go in
 *    waves; the last wave is part-full. 3072^3 makes 288 tiles: two full
 *    waves and one of 24, which leaves 108 SMs idle for a third of the
 *    time; 1024^3 makes 32 tiles, a quarter of the GPU. So the rows of
 *    tiles that fill whole waves run as above, and the rest are each split
 *    into `parts` parts along k (mm_plan picks how many, 2 to 8, when that
 *    saves 5%: at 3072^3 5 parts, at 1024^3 4), so that the parts fill the
 *    GPU. Part 0 of a tile stores its sums; each next part waits for its
 *    turn (a flag in mm_turn, set by the part before, which has a lower
 *    block index and so was started first), adds its sums to c and passes
 *    the turn on; the sums are added in the same order every run. Measured
 *    on the H200 (medians of 25, beside cublasSgemm; with 4 x 8 lanes):
 *    3072^3 1666 us -> 1283 us (77% -> 100% of cuBLAS's 1284 us), 1024^3
 *    193 -> 85 us (33% -> 76%); with the lanes and order above 1248 us
 *    (103%) and 83 us. 4096^3, 2048^3 and 8192^3 run no parts (4096^3: 512
 *    tiles, 3.9 waves, the fourth 88% full: splitting it in 9 to fill it
 *    cost 12%, the parts waiting for their turns). The tiles split are
 *    whole rows of tiles, so the tile-a-block kernels keep
 *    a 2-d grid and their main loop runs to k, a kernel argument: with the
 *    tile and the k range computed per block, nvcc kept 4 more registers
 *    across the loop, delayed the next step's loads, and the loop ran 8%
 *    slower (measured). The parts kernels pay that, on a part of the work.
 *  - What is left to cuBLAS at 4096^3 (Nsight Compute, one launch each):
 *    its kernel (sm80_xmma_gemm_f32f32..._tilesize256x128x8_stage3, 256
 *    threads, 254 registers) runs the same 512 blocks, and issues an
 *    instruction in 88% of the cycles where this one does in 77% (75% with
 *    4 x 8 lanes and rows in order): per instruction issued, its warps wait
 *    0.10 cycles on the dispatcher to this one's 0.19 (0.22), 0.01 on
 *    fixed-latency dependencies to 0.05 (0.10), and 0.19 on shared memory
 *    to 0.32 (0.26). That is instruction scheduling and register
 *    allocation (SASS), which CUDA C steers only indirectly. Tried and
 *    measured slower here: cp.async copies of the slices (no staging
 *    registers; 2 to 4 slices in flight) 6-9%, 32-deep steps, stream-K
 *    (persistent blocks sharing all tiles' steps: its main loop lost 4 to
 *    10% to the registers its loop over pieces kept).
 *  - Edges: loads outside a, b give 0, which adds nothing; stores are guarded.
 *    Any m, k, n work; full tiles pay only the tests.
 */
#include "tiling.h"

#ifndef MM_BM
#define MM_BM 128 /* rows of c per block */
#endif
#ifndef MM_BN
#define MM_BN 256 /* columns of c per block */
#endif
#ifndef MM_BK
#define MM_BK 16 /* depth of one k step: a multiple of 8 */
#endif
#ifndef MM_TM
#define MM_TM 8 /* rows of c per thread: a multiple of 4 */
#endif
#ifndef MM_TN
#define MM_TN 16 /* columns of c per thread: a multiple of 4 */
#endif
#ifndef MM_WX
#define MM_WX 16 /* a warp's lanes along n; 32 / MM_WX along m */
#endif
#ifndef MM_MINB
#define MM_MINB 1 /* blocks per SM the registers must allow */
#endif
#ifndef MM_APAD
#define MM_APAD 4 /* a's slice rows: MM_BM + 4 floats, 16-byte aligned */
#endif
#ifndef MM_SPLIT
#define MM_SPLIT 0 /* 1: a's loads over half a step, b's over the other */
#endif
#ifndef MM_MAX_PARTS
#define MM_MAX_PARTS 8 /* most parts a tile of the last wave is split in */
#endif
#ifndef MM_PART_COST
#define MM_PART_COST 0.03 /* an extra part's turn to add, in tiles' time */
#endif
#ifndef MM_PARTS_GAIN
#define MM_PARTS_GAIN 0.95 /* split only to save 5% or more */
#endif

#define MM_TX (MM_BN / MM_TN)       /* threads along n */
#define MM_TY (MM_BM / MM_TM)       /* threads along m */
#define MM_THREADS (MM_TX * MM_TY)
#define MM_WY (32 / MM_WX)
#define MM_AS (MM_BM + MM_APAD)     /* a's slice row length */
#define MM_NA4 (MM_BM * MM_BK / 4 / MM_THREADS) /* float4 of a per thread */
#define MM_NB4 (MM_BK * MM_BN / 4 / MM_THREADS) /* float4 of b per thread */
#define MM_SMEM (2 * MM_BK * (MM_AS + MM_BN) * (int)sizeof(float))

#if MM_BK % 8 || MM_TM % 4 || MM_TN % 4 || MM_TX % MM_WX || MM_TY % MM_WY
#error "matmul: the tile shape does not divide into warps and float4"
#endif
#if MM_NA4 < 1 || MM_NB4 < 1 || MM_NA4 * MM_THREADS * 4 != MM_BM * MM_BK || \
	MM_NB4 * MM_THREADS * 4 != MM_BK * MM_BN
#error "matmul: the slices do not divide evenly into float4 per thread"
#endif

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

/*
 * This thread's loads of one step. Float4 i of a's slice is row ar[i] of
 * the slice, k offset ak[i] (a half-warp reads 16 rows, 32 bytes of each);
 * float4 i of b's slice is row bk[i], column bc[i]. pa, pb point at step
 * 0's; acols and bcols count the floats left in their rows (0: a row or a
 * column outside the matrix, which loads zeros at every step).
 */
struct mm_loads {
	const float *pa[MM_NA4], *pb[MM_NB4];
	int ar[MM_NA4], ak[MM_NA4], acols[MM_NA4];
	int bk[MM_NB4], bc[MM_NB4], bcols[MM_NB4];
};

static __device__ __forceinline__ void
mm_loads_init(struct mm_loads *l, const float *a, const float *b, int m,
	      int k, int n, int row0, int col0, int tid)
{
#pragma unroll
	for (int i = 0; i < MM_NA4; i++) {
		int idx = tid + i * MM_THREADS, lane = idx % 32, w = idx / 32;
		int r;

		l->ak[i] = 4 * (lane / 16 + 2 * (w % (MM_BK / 8)));
		l->ar[i] = lane % 16 + 16 * (w / (MM_BK / 8));
		r = row0 + l->ar[i];
		l->acols[i] = r < m ? k - l->ak[i] : 0;
		l->pa[i] = a + (size_t)(r < m ? r : 0) * k + l->ak[i];
	}
#pragma unroll
	for (int i = 0; i < MM_NB4; i++) {
		int idx = tid + i * MM_THREADS, c;

		l->bk[i] = idx / (MM_BN / 4);
		l->bc[i] = idx % (MM_BN / 4) * 4;
		c = col0 + l->bc[i];
		l->bcols[i] = n - c;
		l->pb[i] = b + (size_t)l->bk[i] * n + (c < n ? c : 0);
	}
}

/* Load a's share of the step at k0 into registers. */
static __device__ __forceinline__ void mm_fetch_a(const struct mm_loads *l,
						  int k0, float4 *va, int vec)
{
#pragma unroll
	for (int i = 0; i < MM_NA4; i++)
		va[i] = load4(l->pa[i] + k0, l->acols[i] - k0, vec);
}

/* The same for b (rows past k load zeros). */
static __device__ __forceinline__ void mm_fetch_b(const struct mm_loads *l,
						  int k0, int k, int n,
						  float4 *vb, int vec)
{
#pragma unroll
	for (int i = 0; i < MM_NB4; i++)
		vb[i] = load4(l->pb[i] + (size_t)k0 * n,
			      k0 + l->bk[i] < k ? l->bcols[i] : 0, vec);
}

/* Put a's share into a buffer, transposed (k-major). */
static __device__ __forceinline__ void mm_stash_a(const struct mm_loads *l,
						  float *as, const float4 *va)
{
#pragma unroll
	for (int i = 0; i < MM_NA4; i++) {
		float *q = as + l->ak[i] * MM_AS + l->ar[i];

		q[0 * MM_AS] = va[i].x;
		q[1 * MM_AS] = va[i].y;
		q[2 * MM_AS] = va[i].z;
		q[3 * MM_AS] = va[i].w;
	}
}

/* Put b's share into a buffer, as float4. */
static __device__ __forceinline__ void mm_stash_b(const struct mm_loads *l,
						  float *bs, const float4 *vb)
{
#pragma unroll
	for (int i = 0; i < MM_NB4; i++)
		*(float4 *)(bs + l->bk[i] * MM_BN + l->bc[i]) = vb[i];
}

/* Steps p0 .. p1 - 1 of the slices ac, bc: the multiply-adds. */
static __device__ __forceinline__ void
mm_compute(float (*acc)[MM_TN], const float *ac, const float *bc, int tx,
	   int ty, int p0, int p1)
{
#pragma unroll
	for (int p = p0; p < p1; p++) {
		float fa[MM_TM], fb[MM_TN];

#pragma unroll
		for (int i = 0; i < MM_TM / 4; i++) {
			float4 v = *(const float4 *)(ac + p * MM_AS +
						     i * MM_TY * 4 + ty * 4);

			fa[4 * i] = v.x;
			fa[4 * i + 1] = v.y;
			fa[4 * i + 2] = v.z;
			fa[4 * i + 3] = v.w;
		}
#pragma unroll
		for (int j = 0; j < MM_TN / 4; j++) {
			float4 v = *(const float4 *)(bc + p * MM_BN +
						     j * MM_TX * 4 + tx * 4);

			fb[4 * j] = v.x;
			fb[4 * j + 1] = v.y;
			fb[4 * j + 2] = v.z;
			fb[4 * j + 3] = v.w;
		}
#pragma unroll
		for (int i = 0; i < MM_TM; i++)
#pragma unroll
			for (int jj = 0; jj < MM_TN; jj++) {
				/* odd rows backwards: see the header */
				int j = i % 2 ? MM_TN - 1 - jj : jj;

				acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
			}
	}
}

/*
 * blockIdx.x, read afresh each time (a volatile asm is not merged): what
 * is derived from it is then computed again after the main loop rather
 * than held in registers across it.
 */
static __device__ __forceinline__ int mm_ctaid(void)
{
	int b;

	asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(b));
	return b;
}

/*
 * The block's share of the launch: tile t0 + blockIdx.x / split of c, at
 * (row0, col0), part blockIdx.x % split of its k steps: k from *kb to
 * *ke (multiples of MM_BK; the last may pass k).
 */
static __device__ __forceinline__ void mm_share(int k, int n, int t0,
						int split, int *row0,
						int *col0, int *kb, int *ke)
{
	int bid = mm_ctaid(), t = t0 + bid / split, part = bid % split;
	int gn = (n + MM_BN - 1) / MM_BN, steps = (k + MM_BK - 1) / MM_BK;

	*row0 = t / gn * MM_BM;
	*col0 = t % gn * MM_BN;
	*kb = steps * part / split * MM_BK;
	*ke = steps * (part + 1) / split * MM_BK;
}

/*
 * Split tiles' hand-over: mm_turn[i] is the part of the launch's tile i
 * whose turn it is to add itself to c. Part 0 stores, each next part
 * waits for its turn, adds, and passes it on; the last sets it back to 0
 * for the next launch. A part waits only for parts with lower block
 * indices, which the GPU started first. The flags are the module's, so
 * two products must not run at once: matmul launches on the legacy
 * default stream, which never overlaps the work of another (blocking)
 * stream.
 */
#define MM_MAX_SPLIT_TILES 4096
static __device__ unsigned int mm_turn[MM_MAX_SPLIT_TILES];

/* Wait until it is part's turn to add to the tile (part 0: at once). */
static __device__ __forceinline__ void mm_wait_turn(int tile, int part)
{
	volatile unsigned int *turn = mm_turn;

	if (part > 0 && threadIdx.x == 0)
		while (turn[tile] != (unsigned int)part)
			__nanosleep(100);
	__syncthreads();
	__threadfence(); /* the earlier parts' sums, seen before read */
}

/* This part's sums are in c: the next part's turn (none after the last). */
static __device__ __forceinline__ void mm_pass_turn(int tile, int part,
						    int split)
{
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		((volatile unsigned int *)mm_turn)[tile] =
			part + 1 < split ? part + 1 : 0;
}

/* v plus what c holds at q (the `have` floats inside c), read from L2. */
static __device__ __forceinline__ float4 mm_add_c(const float *q, int have,
						  float4 v, int vec)
{
	if (have <= 0)
		return v;
	if (vec) {
		float4 o = __ldcg((const float4 *)q);

		return make_float4(v.x + o.x, v.y + o.y, v.z + o.z, v.w + o.w);
	}
	v.x += __ldcg(q);
	if (have > 1)
		v.y += __ldcg(q + 1);
	if (have > 2)
		v.z += __ldcg(q + 2);
	if (have > 3)
		v.w += __ldcg(q + 3);
	return v;
}

/*
 * Indices are ints: every extent is at most 10^6 and every matrix has
 * fewer than 2^31 elements (tiling.h), and 64-bit index arithmetic would
 * cost registers the accumulators need.
 */
static __device__ __forceinline__ void
matmul_body(const float *__restrict__ a, const float *__restrict__ b,
	    float *__restrict__ c, int m, int k, int n, int t0, int split,
	    int vec, int parts)
{
	extern __shared__ float4 mm_smem[];
	float *as = (float *)mm_smem, *bs = as + 2 * MM_BK * MM_AS;
	int tid = threadIdx.x, lane = tid % 32, w = tid / 32;
	int tx = w % (MM_TX / MM_WX) * MM_WX + lane % MM_WX;
	int ty = w / (MM_TX / MM_WX) * MM_WY + lane / MM_WX;
	int row0, col0, kb, ke, first;
	struct mm_loads l;
	float acc[MM_TM][MM_TN];
	float4 va[MM_NA4], vb[MM_NB4];

	if (parts) {
		mm_share(k, n, t0, split, &row0, &col0, &kb, &ke);
	} else {
		row0 = blockIdx.y * MM_BM;
		col0 = blockIdx.x * MM_BN;
		kb = 0;
		ke = k; /* the same steps, but a bound nvcc reads as is */
	}
	mm_loads_init(&l, a, b, m, k, n, row0, col0, tid);
#pragma unroll
	for (int i = 0; i < MM_TM; i++)
#pragma unroll
		for (int j = 0; j < MM_TN; j++)
			acc[i][j] = 0.0f;

	first = kb / MM_BK % 2; /* the buffer of step kb */
	mm_fetch_a(&l, kb, va, vec);
	mm_fetch_b(&l, kb, k, n, vb, vec);
	mm_stash_a(&l, as + first * MM_BK * MM_AS, va);
	mm_stash_b(&l, bs + first * MM_BK * MM_BN, vb);
	__syncthreads();

	for (int k0 = kb; k0 < ke; k0 += MM_BK) {
		int cur = (k0 / MM_BK) % 2, next = k0 + MM_BK;
		const float *ac = as + cur * MM_BK * MM_AS;
		const float *bc = bs + cur * MM_BK * MM_BN;
		/*
		 * The other buffer: its last readers passed the barrier
		 * that ended the step before, so it can be filled any time
		 * during this one. The loads are not under an if (next <
		 * k): past k they load nothing (load4 gets have <= 0) and
		 * the last step fills a buffer no one reads. Under an if,
		 * nvcc merged the fetch with the stash after the multiply-
		 * adds, and every step waited out the loads' full latency.
		 */
		float *an = as + (cur ^ 1) * MM_BK * MM_AS;
		float *bn = bs + (cur ^ 1) * MM_BK * MM_BN;

#if MM_SPLIT
		/* a's loads in flight over the first half of the step, b's
		 * over the second: half the staging registers. */
		mm_fetch_a(&l, next, va, vec);
		mm_compute(acc, ac, bc, tx, ty, 0, MM_BK / 2);
		mm_stash_a(&l, an, va);
		mm_fetch_b(&l, next, k, n, vb, vec);
		mm_compute(acc, ac, bc, tx, ty, MM_BK / 2, MM_BK);
		mm_stash_b(&l, bn, vb);
#else
		mm_fetch_a(&l, next, va, vec);
		mm_fetch_b(&l, next, k, n, vb, vec);
		mm_compute(acc, ac, bc, tx, ty, 0, MM_BK);
		mm_stash_a(&l, an, va);
		mm_stash_b(&l, bn, vb);
#endif
		__syncthreads();
	}

	if (parts) {
		mm_share(k, n, t0, split, &row0, &col0, &kb, &ke);
		mm_wait_turn(blockIdx.x / split, blockIdx.x % split);
	}
#pragma unroll
	for (int i = 0; i < MM_TM; i++) {
		int r = row0 + (i / 4) * MM_TY * 4 + ty * 4 + i % 4;

		if (r >= m)
			continue;
#pragma unroll
		for (int j = 0; j < MM_TN / 4; j++) {
			int col = col0 + j * MM_TX * 4 + tx * 4;
			float *q = c + (size_t)r * n + col;
			float4 v = make_float4(acc[i][4 * j], acc[i][4 * j + 1],
					       acc[i][4 * j + 2],
					       acc[i][4 * j + 3]);

			if (parts && blockIdx.x % split)
				v = mm_add_c(q, n - col, v, vec);
			store4(q, n - col, v, vec);
		}
	}
	if (parts)
		mm_pass_turn(blockIdx.x / split, blockIdx.x % split, split);
}

/*
 * The kernels: float4 loads and stores throughout (k % 4 == 0 and n % 4
 * == 0) or element by element (any other shape); a tile a block (a 2-d
 * grid) or tiles split into parts along k (t0, split: mm_share). Four
 * kernels, so that each compiles only its own case: in the tile-a-block
 * kernels the main loop runs to k itself, a kernel argument, which costs
 * no register (a bound computed per block cost 4 more, and 8% of the
 * speed: nvcc then delayed the next step's loads).
 */
static __global__ void __launch_bounds__(MM_THREADS, MM_MINB)
matmul_vec(const float *__restrict__ a, const float *__restrict__ b,
	   float *__restrict__ c, int m, int k, int n)
{
	matmul_body(a, b, c, m, k, n, 0, 1, 1, 0);
}

static __global__ void __launch_bounds__(MM_THREADS, MM_MINB)
matmul_scalar(const float *__restrict__ a, const float *__restrict__ b,
	      float *__restrict__ c, int m, int k, int n)
{
	matmul_body(a, b, c, m, k, n, 0, 1, 0, 0);
}

static __global__ void __launch_bounds__(MM_THREADS, MM_MINB)
matmul_vec_parts(const float *__restrict__ a, const float *__restrict__ b,
		 float *__restrict__ c, int m, int k, int n, int t0,
		 int split)
{
	matmul_body(a, b, c, m, k, n, t0, split, 1, 1);
}

static __global__ void __launch_bounds__(MM_THREADS, MM_MINB)
matmul_scalar_parts(const float *__restrict__ a, const float *__restrict__ b,
		    float *__restrict__ c, int m, int k, int n, int t0,
		    int split)
{
	matmul_body(a, b, c, m, k, n, t0, split, 0, 1);
}

/*
 * Shared memory over 48 KiB must be asked for, once per kernel; and the
 * number of blocks the GPU runs at once (SMs x blocks an SM holds), once
 * per device.
 */
#define MM_SMEM_ATTR cudaFuncAttributeMaxDynamicSharedMemorySize

static int mm_setup(void)
{
	static int resident[64];
	int dev, sms, per_sm;

	CUDA_CHECK(cudaGetDevice(&dev));
	if (dev < 64 && resident[dev])
		return resident[dev];
	if (MM_SMEM > 48 * 1024) {
		CUDA_CHECK(cudaFuncSetAttribute(matmul_vec, MM_SMEM_ATTR,
						MM_SMEM));
		CUDA_CHECK(cudaFuncSetAttribute(matmul_scalar, MM_SMEM_ATTR,
						MM_SMEM));
		CUDA_CHECK(cudaFuncSetAttribute(matmul_vec_parts,
						MM_SMEM_ATTR, MM_SMEM));
		CUDA_CHECK(cudaFuncSetAttribute(matmul_scalar_parts,
						MM_SMEM_ATTR, MM_SMEM));
	}
	CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
					  dev));
	CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&per_sm, matmul_vec, MM_THREADS, MM_SMEM));
	per_sm = per_sm > 0 ? per_sm : 1;
	if (dev < 64)
		resident[dev] = sms * per_sm;
	return sms * per_sm;
}

/*
 * The first `rows` rows of tiles, a tile a block, on a 2-d grid; tiles
 * [t0, t0 + tiles), each in `split` parts along k, on a 1-d grid.
 */
static void mm_launch_rows(const float *a, const float *b, float *c, int m,
			   int k, int n, int rows)
{
	dim3 grid((unsigned int)((n + MM_BN - 1) / MM_BN), (unsigned int)rows);

	if (k % 4 == 0 && n % 4 == 0)
		matmul_vec<<<grid, MM_THREADS, MM_SMEM>>>(a, b, c, m, k, n);
	else
		matmul_scalar<<<grid, MM_THREADS, MM_SMEM>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}

static void mm_launch_parts(const float *a, const float *b, float *c, int m,
			    int k, int n, int t0, int tiles, int split)
{
	unsigned int grid = (unsigned int)tiles * (unsigned int)split;

	if (k % 4 == 0 && n % 4 == 0)
		matmul_vec_parts<<<grid, MM_THREADS, MM_SMEM>>>(a, b, c, m, k,
								n, t0, split);
	else
		matmul_scalar_parts<<<grid, MM_THREADS, MM_SMEM>>>(
			a, b, c, m, k, n, t0, split);
	CUDA_CHECK_LAUNCH();
}

/*
 * Filling the GPU's last wave. With `slots` blocks running at once, the
 * tiles go in ceil(tiles / slots) waves, the last part-full. Instead: the
 * rows of tiles that fit in whole waves, one tile a block; the rest, each
 * split into `parts` parts along k (a part's sums added to the others'
 * in turn), so that there are enough to keep every SM busy. In waves of
 * a tile's time, with each extra part charged MM_PART_COST (its turn to
 * add), the best split; taken only when it saves MM_PARTS_GAIN.
 * Returns the rows of whole tiles; *parts: the split of the rest.
 */
static int mm_plan(int gm, int gn, int steps, int slots, int *parts)
{
	int tiles = gm * gn, rows = tiles / slots * slots / gn;
	int rest = tiles - rows * gn;
	double whole = (double)((rows * gn + slots - 1) / slots);
	double best = (double)((tiles + slots - 1) / slots) * MM_PARTS_GAIN;

	*parts = 1;
	if (rest > MM_MAX_SPLIT_TILES)
		return gm;
	for (int s = 2; s <= MM_MAX_PARTS && s <= steps; s++) {
		double waves = (double)((rest * s + slots - 1) / slots) / s;
		double t = whole + waves + MM_PART_COST * (s - 1);

		if (t < best) {
			best = t;
			*parts = s;
		}
	}
	return *parts > 1 ? rows : gm;
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	int gm = (int)wb_ceil_div(m, MM_BM), gn = (int)wb_ceil_div(n, MM_BN);
	int steps = (int)wb_ceil_div(k, MM_BK), parts;
	int rows = mm_plan(gm, gn, steps, mm_setup(), &parts);

	if (rows > 0)
		mm_launch_rows(a, b, c, (int)m, (int)k, (int)n, rows);
	if (rows < gm)
		mm_launch_parts(a, b, c, (int)m, (int)k, (int)n, rows * gn,
				(gm - rows) * gn, parts);
}
