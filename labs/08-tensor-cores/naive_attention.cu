/* SPDX-License-Identifier: MIT */
/*
 * naive_attention.cu - attention's naive reference: the eager path, on the
 * CUDA cores, and the scratch it and the peer keep their scores in.
 *
 * Three kernels, the score matrix in global memory between them, as a
 * framework without fusion runs attention (contract: tensor_cores.h):
 *
 *   scores    S[i][j] = scale * sum_d Q[i][d] K[j][d]      one thread a score
 *   softmax   P[i][j] = softmax_j(S[i][j]), masked keys 0  one block a row
 *   output    O[i][d] = bf16(sum_j P[i][j] V[j][d])        one thread an output
 *
 * All float32, P included (so the naive is, if anything, more accurate
 * than the fused kernel). S lives in `work` (4 bytes a score); softmax
 * overwrites it with P. At seq 4096 that is 64 MiB a head written and
 * read three times: the traffic the fused kernel removes.
 */
#include <math.h>
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define AN_TILE 16			/* scores kernel: 16 x 16 threads */
#define AN_ROW_THREADS 256		/* softmax: one block a row */

/* S = scale Q K^T; x runs over keys, y over queries, z over heads. */
static __global__ void naive_scores(const __nv_bfloat16 *q,
				    const __nv_bfloat16 *k, float *s, int seq,
				    int dim, float scale)
{
	int j = blockIdx.x * AN_TILE + threadIdx.x;
	int i = blockIdx.y * AN_TILE + threadIdx.y;
	size_t head = (size_t)blockIdx.z * seq;
	float sum = 0.0f;

	if (i >= seq || j >= seq)
		return;
	for (int d = 0; d < dim; d++)
		sum += __bfloat162float(q[(head + i) * dim + d]) *
		       __bfloat162float(k[(head + j) * dim + d]);
	s[(head + i) * seq + j] = sum * scale;
}

/* Tree reduction of one value per thread over the block; op 0 max, 1 sum. */
static __device__ float block_reduce(float x, float *buf, int op)
{
	buf[threadIdx.x] = x;
	__syncthreads();
	for (int n = AN_ROW_THREADS / 2; n > 0; n /= 2) {
		if (threadIdx.x < n)
			buf[threadIdx.x] = op ? buf[threadIdx.x] +
						buf[threadIdx.x + n]
					      : fmaxf(buf[threadIdx.x],
						      buf[threadIdx.x + n]);
		__syncthreads();
	}
	x = buf[0];
	__syncthreads();	/* buf is reused by the next call */
	return x;
}

/* Row r = head * seq + i of S, in place: max, sum of exponentials, scale. */
static __global__ void naive_softmax(float *s, int seq, int causal)
{
	__shared__ float buf[AN_ROW_THREADS];
	size_t r = blockIdx.x;
	int i = (int)(r % seq);
	int n = causal ? i + 1 : seq;	/* keys j < n are kept */
	float *row = s + r * seq;
	float mx = -INFINITY, sum = 0.0f;

	for (int j = threadIdx.x; j < n; j += AN_ROW_THREADS)
		mx = fmaxf(mx, row[j]);
	mx = block_reduce(mx, buf, 0);
	for (int j = threadIdx.x; j < n; j += AN_ROW_THREADS)
		sum += expf(row[j] - mx);
	sum = block_reduce(sum, buf, 1);
	for (int j = threadIdx.x; j < seq; j += AN_ROW_THREADS)
		row[j] = j < n ? expf(row[j] - mx) / sum : 0.0f;
}

/* O = P V; x runs over dims, y over queries, z over heads. */
static __global__ void naive_output(const float *p, const __nv_bfloat16 *v,
			     __nv_bfloat16 *o, int seq, int dim)
{
	int d = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	size_t head = (size_t)blockIdx.z * seq;
	float sum = 0.0f;

	if (i >= seq || d >= dim)
		return;
	for (int j = 0; j < seq; j++)
		sum += p[(head + i) * seq + j] *
		       __bfloat162float(v[(head + j) * dim + d]);
	o[(head + i) * dim + d] = __float2bfloat16(sum);
}

void naive_attention(const bf16_bits *q, const bf16_bits *k,
		     const bf16_bits *v, bf16_bits *o, int heads, int seq,
		     int dim, int causal, void *work)
{
	float *s = (float *)work;
	int tiles = (seq + AN_TILE - 1) / AN_TILE;
	dim3 sgrid(tiles, tiles, heads);
	dim3 oblock(32, 8);
	dim3 ogrid((dim + 31) / 32, (seq + 7) / 8, heads);
	unsigned int rows = (unsigned int)((size_t)heads * seq);

	naive_scores<<<sgrid, dim3(AN_TILE, AN_TILE)>>>(
		(const __nv_bfloat16 *)q, (const __nv_bfloat16 *)k, s, seq,
		dim, (float)(1.0 / sqrt((double)dim)));
	CUDA_CHECK_LAUNCH();
	naive_softmax<<<rows, AN_ROW_THREADS>>>(s, seq, causal);
	CUDA_CHECK_LAUNCH();
	naive_output<<<ogrid, oblock>>>(s, (const __nv_bfloat16 *)v,
					(__nv_bfloat16 *)o, seq, dim);
	CUDA_CHECK_LAUNCH();
}

/*
 * One allocation for the whole process, grown to the largest size asked
 * for so far: the benchmark's scores are 1.5 GiB, too much to
 * allocate again for each size or to hand to the harness as a workspace
 * (which poisons it and reads it back on every call).
 */
static void *work_dev;
static size_t work_have;

void *attn_work(size_t bytes)
{
	if (bytes <= work_have)
		return work_dev;
	cudaFree(work_dev);
	work_dev = NULL;
	work_have = 0;
	if (cudaMalloc(&work_dev, bytes) != cudaSuccess) {
		work_dev = NULL;
		(void)cudaGetLastError();	/* not sticky: clear it */
		return NULL;
	}
	work_have = bytes;
	return work_dev;
}
