/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the fused count reads every buffer the chain reads,
 * once, as if fusion only removed repeated reads. An intermediate that a
 * kernel of the chain wrote first never comes from memory in a fused
 * kernel: gelu's temporaries t and u stay in registers.
 * Expected verdict: WRONG, first at gelu's chain at n=64M ("fused: you
 * said 805306368 read ..., expected 268435456": x, t and u where only x
 * is read); add_rmsnorm's chains, whose every read buffer comes from
 * before the chain, pass.
 */
#include "fusion.h"

void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused)
{
	int read[CHAIN_MAX_BUFS] = { 0 };

	eager->read = eager->write = 0;
	fused->read = fused->write = 0;
	for (int i = 0; i < ch->nkernels; i++) {
		const struct chain_kernel *k = &ch->k[i];

		for (int a = 0; a < k->nin; a++) {
			unsigned long long bytes = 4 * ch->floats[k->in[a]];

			eager->read += bytes;
			if (!read[k->in[a]])
				fused->read += bytes;
			read[k->in[a]] = 1;
		}
		for (int a = 0; a < k->nout; a++)
			eager->write += 4 * ch->floats[k->out[a]];
	}
	for (int b = 0; b < ch->nbufs; b++)
		if (ch->result[b])
			fused->write += 4 * ch->floats[b];
}
