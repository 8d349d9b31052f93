/* SPDX-License-Identifier: MIT */
/*
 * A call the runner cannot link: the lab's library peer (cuBLAS's GEMM,
 * make bench's comparison), declared and called. The peers are linked
 * into the lab's info program only, never into a runner with student
 * code, so the link fails; the message must say which symbol and why,
 * not only that ld returned 1.
 * Expected verdict: COMPILE ERROR, naming peer_hgemm.
 */
#include "tensor_cores.h"

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	peer_hgemm(a, b, c, m, k, n);
}
