/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: GeLU as one thrust::transform. It is
 * correct and, being one elementwise kernel, about as fast as a fused
 * kernel can be; writing that kernel is the exercise. The technique check
 * finds the library's kernel (CUB's transform, which Thrust calls) in this
 * file's object.
 * Expected verdict: PASS with the correctness points only (technique
 * failed: the performance points are withheld).
 */
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include "fusion.h"

/* The formula, for the library to apply to every element. */
struct gelu_op {
	__host__ __device__ float operator()(float x) const
	{
		return 0.5f * x *
		       (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
	}
};

void gelu(const float *x, float *y, size_t n)
{
	thrust::transform(thrust::device, x, x + n, y, gelu_op());
	CUDA_CHECK_LAUNCH();
}
