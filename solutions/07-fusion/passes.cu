/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 5: passes - a solution.
 *
 * One walk over the kernels in launch order. Eagerly, every listed
 * buffer moves whole each time it is listed. Fused, a buffer that some
 * kernel reads before any kernel writes it is data from before the
 * chain: read from memory once. One that a kernel wrote first is an
 * intermediate the fused kernel keeps in registers or shared memory,
 * free, unless it is a result, which is written once at the end however
 * often the chain wrote it. A kernel's reads come before its writes, so
 * an update in place of an input (residual += x) reads it.
 */
#include "fusion.h"

void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused)
{
	int touched[CHAIN_MAX_BUFS] = { 0 };

	eager->read = eager->write = 0;
	fused->read = fused->write = 0;
	for (int i = 0; i < ch->nkernels; i++) {
		const struct chain_kernel *k = &ch->k[i];

		for (int a = 0; a < k->nin; a++) {
			unsigned long long bytes = 4 * ch->floats[k->in[a]];

			eager->read += bytes;
			if (!touched[k->in[a]])
				fused->read += bytes;
			touched[k->in[a]] = 1;
		}
		for (int a = 0; a < k->nout; a++) {
			eager->write += 4 * ch->floats[k->out[a]];
			touched[k->out[a]] = 1;
		}
	}
	for (int b = 0; b < ch->nbufs; b++)
		if (ch->result[b])
			fused->write += 4 * ch->floats[b];
}
