/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: make system calls without the C library, so that
 * no symbol shows them: openat and write by inline assembly (x86-64 Linux
 * system call numbers 257 and 1). Here it opens /dev/null and writes
 * nothing to it; it could open the result file and write a verdict. The
 * sum itself is honest. Expected verdict: REJECTED (the file is never
 * run): its host code holds `syscall` instructions.
 */
#include "reduction.h"

static long raw_syscall(long nr, long a, long b, long c, long d)
{
	long ret;
	register long r10 __asm__("r10") = d;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
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
	static long fd = -1;

	(void)work;
	if (fd < 0) {
		/* openat(AT_FDCWD, "/dev/null", O_WRONLY, 0) */
		fd = raw_syscall(257, -100, (long)"/dev/null", 1, 0);
		if (fd >= 0)
			raw_syscall(1, fd, (long)"", 0, 0); /* write */
	}
	honest_sum(in, n, out);
}
