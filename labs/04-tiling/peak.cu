/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 4: peak                       (you edit this file only)
 *
 * Task: compute a GPU's two roofs from the figures its driver reports
 * (README, section 12), the ridge where they meet, and what a kernel of
 * a given intensity can reach under them. Plain host C: no GPU, no CUDA
 * call.
 *
 *     lanes      FP32 lanes per SM: 64 on sm_70 to sm_80 (V100, T4,
 *                A100), 128 from sm_86 on (RTX 30xx and 40xx, H100)
 *     peak       one fused multiply-add (2 flops) per lane per clock:
 *                2 x lanes x SMs x clock, in GFLOP/s
 *     bandwidth  2 transfers per memory clock, each the bus's width:
 *                2 x memory clock x bus bits / 8, in GB/s (10^9 bytes)
 *     ridge      peak / bandwidth, flop/B
 *     gflops     min(peak, intensity x bandwidth)
 *     fp64       the FP64 peak: 1/2 of the FP32 peak on the data-center
 *                chips (sm_70, sm_80, sm_90), 1/32 on Turing (sm_75),
 *                1/64 on the consumer chips since (sm_86, sm_89, sm_120)
 *
 * Contract
 *   g          cc 70, 75, 80, 86, 89, 90 or 120 (compute capability x
 *              10), at least one SM, clocks in MHz, bus width in bits.
 *   intensity  flop/B, positive.
 *   Fill every field of *p: lanes exactly, the rest to 1e-12 relative.
 *
 * Hint: MHz x 10^6 is per second; mind the units once and the rest is
 * arithmetic. An H100 SXM reports 132 SMs at 1980 MHz and its memory at
 * 2619 MHz on 5120 bits: section 2 has its roofs.
 */
#include "tiling.h"

/* ---- your helpers, if any ---- */


void peak(const struct peak_gpu *g, double intensity, struct peak_pred *p)
{
	(void)g, (void)intensity;
	p->lanes = 0;
	p->peak_gflops = p->bw_gbps = p->ridge = p->gflops = 0;
	p->fp64_gflops = 0;

	/* ---- the lanes, the two roofs, the ridge, the attainable rate and
	 * FP64: about 12 lines; then delete the line below ---- */
	WB_TODO("write peak");
}
