/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: no kernel at all. The segment sums are zeros
 * written with cudaMemsetAsync, which is fast and, for inputs that average
 * out, not far from the truth. The poison before every call makes sure
 * that what is checked is what this call wrote.
 * (Its object has no shuffle either: the technique check fails too, which
 * the WRONG verdict makes moot.)
 * Expected verdict: WRONG at every size, "every wrong value is 0".
 */
#include "shfl.h"

void segment_sum(const float *in, size_t n, float *out)
{
	(void)in;
	CUDA_CHECK(cudaMemsetAsync(out, 0, (n + 31) / 32 * sizeof(*out), 0));
}
