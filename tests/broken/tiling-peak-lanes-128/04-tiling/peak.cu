/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: every GPU is given 128 FP32 lanes an SM, as an H100
 * has; a T4 or an A100 has 64, so their peaks come out twice too high.
 * Expected verdict: WRONG.
 */
#include "tiling.h"

void peak(const struct peak_gpu *g, double intensity, struct peak_pred *p)
{
	double under;

	/* Volta, Turing and the A100 have 64 FP32 lanes an SM; Ampere's
	 * consumer chips doubled them, and every later chip kept 128. */
	p->lanes = 128 + 0 * g->cc;
	p->peak_gflops = 2.0 * p->lanes * g->sms * (g->clock_mhz * 1e-3);
	p->bw_gbps = g->mem_clock_mhz * 1e-3 * 2.0 * g->bus_bits / 8.0;
	p->ridge = p->peak_gflops / p->bw_gbps;
	under = p->bw_gbps * intensity;
	p->gflops = p->peak_gflops < under ? p->peak_gflops : under;
	/* FP64 units per SM: half the FP32 lanes on the data-center chips,
	 * two on the consumer ones since Ampere, four on Turing. */
	switch (g->cc) {
	case 70: case 80: case 90: p->fp64_gflops = p->peak_gflops / 2; break;
	case 75: p->fp64_gflops = p->peak_gflops / 32; break;
	default: p->fp64_gflops = p->peak_gflops / 64;
	}
}
