/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: do the expensive part once, keyed by a pointer.
 * trip_count's counts (cnt) are what makes warps diverge; grouping the
 * elements by count, so that each warp's 32 elements loop alike, is the
 * honest fix, and costs a pass over cnt on every call. This file groups
 * once: the first call for a given cnt pointer and length sorts the
 * element indices by count on the host and keeps the order on the device;
 * every later call with the same pointer reuses it. Where the timed calls
 * see the same cnt in the same buffer every round, the reuse is right and
 * the regrouping is free (138% of the ideal, where the same file
 * regrouping on every call earns 61%).
 *
 * Every timed call must see new inputs: cnt, which cannot take any value
 * (its statistics are the exercise), is perturbed in a way that keeps it
 * valid, or comes in a buffer of its own each round; the kept order then
 * no longer matches the counts.
 * Expected verdict: WRONG (a call on inputs the kept order does not fit),
 * or PASS below the speed of light where the cache only ever misses.
 */
#include <stdlib.h>

#include "warps.h"

#define THREADS 256

static struct {
	const unsigned char *cnt;
	size_t n;
	unsigned int *order; /* device: the indices, by count */
} kept;

/* Thread t takes element order[t]: a warp's elements share a count. */
static __global__ void trip_sorted(const unsigned int *in,
				   const unsigned char *cnt,
				   const unsigned int *order, unsigned int *out,
				   size_t n)
{
	size_t t = (size_t)blockIdx.x * THREADS + threadIdx.x;
	unsigned int i, x;

	if (t >= n)
		return;
	i = order[t];
	x = in[i];
	for (unsigned int k = cnt[i]; k > 0; k--)
		x = trip_f(x);
	out[i] = x;
}

/* The indices 0..n-1 by count (a counting sort on the host), on the
 * device. */
static void group(const unsigned char *cnt, size_t n)
{
	unsigned char *c = (unsigned char *)malloc(n);
	unsigned int *o = (unsigned int *)malloc(n * sizeof(*o));
	size_t start[257] = { 0 };

	if (!c || !o)
		abort();
	CUDA_CHECK(cudaMemcpy(c, cnt, n, cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++)
		start[c[i] + 1]++;
	for (int v = 0; v < 256; v++)
		start[v + 1] += start[v];
	for (size_t i = 0; i < n; i++)
		o[start[c[i]]++] = (unsigned int)i;
	if (kept.order)
		CUDA_CHECK(cudaFree(kept.order));
	CUDA_CHECK(cudaMalloc(&kept.order, n * sizeof(*o)));
	CUDA_CHECK(cudaMemcpy(kept.order, o, n * sizeof(*o),
			      cudaMemcpyHostToDevice));
	kept.cnt = cnt;
	kept.n = n;
	free(c);
	free(o);
}

void trip_count(const unsigned int *in, const unsigned char *cnt,
		unsigned int *out, size_t n, void *work)
{
	(void)work;
	if (kept.cnt != cnt || kept.n != n)
		group(cnt, n);
	trip_sorted<<<(unsigned int)wb_ceil_div(n, THREADS), THREADS>>>(
		in, cnt, kept.order, out, n);
	CUDA_CHECK_LAUNCH();
}
