/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 3: roofline                   (you edit this file only)
 *
 * Task: predict where a kernel of this lab sits on a GPU's roofline
 * (README, sections 2 and 11) before any profiler measures it: its
 * FLOPs, the bytes it moves through global memory, their ratio, and
 * whether the peak or the bandwidth bounds it. Plain host C: no GPU, no
 * CUDA call.
 *
 *     flops      matmul 2 m n k (a multiply-add per term); transpose 0
 *     bytes      4 per float. transpose: each element read once and
 *                written once. matmul: each block computes a
 *                tile_m x tile_n tile of c and loads, k deep, the rows
 *                of a and the columns of b that tile needs (only those
 *                inside the matrices); every element of c is stored once
 *     intensity  flops / bytes
 *     time_us    max(flops / peak, bytes / bandwidth), in microseconds
 *     bound      compute_bound = 1 when the flops' term is the longer
 *     gflops     flops / time: what the roofline lets the kernel reach
 *
 * Contract
 *   k    the kernel (struct roof_kernel in tiling.h); every extent and
 *        tile at least 1, the counts below 2^53.
 *   g    the GPU: peak_gflops (GFLOP/s) and bw_gbps (GB/s, 10^9 bytes).
 *   Fill every field of *p. flops and bytes are checked exactly, the
 *   rest to 1e-12 relative; no case lies on the ridge itself.
 *
 * Hint: count a's loads and b's loads apart. How many blocks load a
 * given row of a? A tile of 1 x 1 is naive.cu's matmul; a tile as large
 * as c is the least any matmul can move (lab.c's traffic()). The report
 * prints your answer for the lab's kernels on this GPU.
 */
#include "tiling.h"

/* ---- your helpers, if any ---- */


void roofline(const struct roof_kernel *k, const struct roof_gpu *g,
	      struct roof_pred *p)
{
	(void)k, (void)g;
	p->flops = p->bytes = p->intensity = p->time_us = p->gflops = 0;
	p->compute_bound = 0;

	/* ---- the counts and the two roofs: about 15 lines; then delete the
	 * line below ---- */
	WB_TODO("write roofline");
}
