/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): a row softmax in the style of
 * Triton's tutorial kernel, one block per row with an online max and sum,
 * written as C++ code often is: a launcher helper that is not static, a
 * function-local static object with a destructor that caches the launch
 * configuration (its destructor registers an exit handler), and
 * <iostream> for a diagnostic that never prints. Each of these once cost
 * an honest file its grade ("declare it static", "it registers code to
 * run after your call"); the build now seals every definition but the
 * entry point, and the runner runs no exit handler, so none of them
 * matters. Expected: PASS; statically BUILT.
 */
#include <iostream>
#include <string>

#include "fusion.h"

#define THREADS 256

/* The launch configuration, computed once and kept (a destructor: the
 * string). */
struct launch_config {
	int threads;
	std::string name;

	launch_config() : threads(THREADS), name("softmax_online") {}
	~launch_config() {}
};

static const launch_config &config(void)
{
	static launch_config c;

	return c;
}

/* One pass over the row: each thread's running max and sum, rescaled as
 * the max grows; then the block's, in shared memory. */
static __global__ void softmax_online(const float *x, float *y, size_t cols)
{
	__shared__ float smax[THREADS], ssum[THREADS];
	const float *row = x + (size_t)blockIdx.x * cols;
	float *out = y + (size_t)blockIdx.x * cols;
	float m = -INFINITY, s = 0.0f;
	unsigned int t = threadIdx.x;

	for (size_t c = t; c < cols; c += blockDim.x) {
		float v = row[c];

		if (v > m) {
			s *= __expf(m - v);
			m = v;
		}
		s += __expf(v - m);
	}
	smax[t] = m;
	ssum[t] = s;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (t < step) {
			float m2 = smax[t + step], s2 = ssum[t + step];
			float mm = fmaxf(smax[t], m2);

			ssum[t] = (smax[t] == -INFINITY ? 0.0f : ssum[t] * __expf(smax[t] - mm)) +
				  (m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mm));
			smax[t] = mm;
		}
		__syncthreads();
	}
	m = smax[0];
	s = 1.0f / ssum[0];
	for (size_t c = t; c < cols; c += blockDim.x)
		out[c] = __expf(row[c] - m) * s;
}

/* Not static: a helper another file of the project might share. */
int softmax_blocks_ok(size_t rows)
{
	if (rows > 0x7fffffffu) {
		std::cerr << config().name << ": too many rows\n";
		return 0;
	}
	return 1;
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	if (!softmax_blocks_ok(rows))
		return;
	softmax_online<<<(unsigned int)rows, config().threads>>>(x, y, cols);
	CUDA_CHECK_LAUNCH();
}
