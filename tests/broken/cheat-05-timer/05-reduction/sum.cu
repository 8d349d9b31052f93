/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: timer_create with SIGEV_THREAD runs a function on a
 * thread the C library starts, later, while the grader is timing the naive
 * reference (here the function only counts; it could spin on the GPU or
 * rewrite outputs). No pthread_create appears in the file. The sum itself
 * is honest. Expected verdict: REJECTED (the file is never run).
 */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "reduction.h"

static volatile int ticks;

static void tick(union sigval v)
{
	(void)v;
	ticks++;
}

#define THREADS 256

/* A grid-stride reduction with a shared-memory tree per block: correct,
 * and not the point of this file. */
static __global__ void sum_blocks(const float *in, size_t n, float *out)
{
	__shared__ float s[THREADS];
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		acc += in[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (threadIdx.x < step)
			s[threadIdx.x] += s[threadIdx.x + step];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}

static void honest_sum(const float *in, size_t n, float *out)
{
	size_t blocks = wb_ceil_div(n, THREADS);

	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_blocks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static timer_t timer;
	static int armed;
	struct sigevent ev;
	struct itimerspec when;

	(void)work;
	if (!armed) {
		memset(&ev, 0, sizeof(ev));
		memset(&when, 0, sizeof(when));
		ev.sigev_notify = SIGEV_THREAD;
		ev.sigev_notify_function = tick;
		when.it_value.tv_nsec = 1000000;
		when.it_interval.tv_nsec = 1000000;
		if (timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0 &&
		    timer_settime(timer, 0, &when, NULL) == 0)
			armed = 1;
	}
	honest_sum(in, n, out);
}
