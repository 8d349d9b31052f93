/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: each kernel's writes are noted before its reads, so
 * a buffer a kernel updates in place looks written first. The residual
 * of add_rmsnorm (residual += x, first thing) is data from before the
 * chain: the fused kernel must read it.
 * Expected verdict: WRONG, first at add_rmsnorm's chain at 16384x4096
 * ("fused: you said 268451840 read ..., expected 536887296": x and w
 * without the residual); gelu's and softmax's chains, where no kernel
 * updates an input, pass.
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

		for (int a = 0; a < k->nout; a++) {
			eager->write += 4 * ch->floats[k->out[a]];
			touched[k->out[a]] = 1;
		}
		for (int a = 0; a < k->nin; a++) {
			unsigned long long bytes = 4 * ch->floats[k->in[a]];

			eager->read += bytes;
			if (!touched[k->in[a]])
				fused->read += bytes;
			touched[k->in[a]] = 1;
		}
	}
	for (int b = 0; b < ch->nbufs; b++)
		if (ch->result[b])
			fused->write += 4 * ch->floats[b];
}
