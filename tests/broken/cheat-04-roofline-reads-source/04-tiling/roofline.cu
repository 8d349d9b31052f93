/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: a prediction exercise is graded against the lab's
 * own byte and FLOP counts, which live in labs/04-tiling/lab.c; this file
 * opens that source at run time to see whether it can read the rule
 * (here it only checks that the file is there, then predicts nothing
 * useful). A submission may not open files, whatever it does with them.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <stdio.h>

#include "tiling.h"

void roofline(const struct roof_kernel *k, const struct roof_gpu *g,
	      struct roof_pred *p)
{
	FILE *f = fopen("labs/04-tiling/lab.c", "r");

	(void)k, (void)g;
	p->flops = p->bytes = p->intensity = p->time_us = p->gflops = 0;
	p->compute_bound = f != NULL;
	if (f)
		fclose(f);
}
