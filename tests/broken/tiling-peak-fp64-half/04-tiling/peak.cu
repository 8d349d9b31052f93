/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: FP64 at half the FP32 rate on every GPU, as on the
 * data-center chips. A GeForce card (sm_86, sm_89, sm_120) runs FP64 at
 * 1/64 of its FP32 rate, a T4 at 1/32: a double-precision reference
 * that is cheap on an H100 is not on them.
 * Expected verdict: WRONG.
 */
#include "tiling.h"

void peak(const struct peak_gpu *g, double intensity, struct peak_pred *p)
{
	double under;

	/* Volta, Turing and the A100 have 64 FP32 lanes an SM; Ampere's
	 * consumer chips doubled them, and every later chip kept 128. */
	p->lanes = g->cc < 86 ? 64 : 128;
	p->peak_gflops = 2.0 * p->lanes * g->sms * (g->clock_mhz * 1e-3);
	p->bw_gbps = g->mem_clock_mhz * 1e-3 * 2.0 * g->bus_bits / 8.0;
	p->ridge = p->peak_gflops / p->bw_gbps;
	under = p->bw_gbps * intensity;
	p->gflops = p->peak_gflops < under ? p->peak_gflops : under;
	/* FP64 units per SM: half the FP32 lanes on the data-center chips,
	 * two on the consumer ones since Ampere, four on Turing. */
	p->fp64_gflops = p->peak_gflops / 2;
}
