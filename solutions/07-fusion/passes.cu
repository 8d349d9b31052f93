/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 5: passes - a solution.
 *
 * Buffer by buffer. Eagerly, a buffer moves whole each time a kernel
 * lists it: its reads and its writes, counted over the chain. Fused, what
 * matters is its first use: a buffer first read is data from before the
 * chain, read from memory once; one first written is an intermediate the
 * fused kernel keeps in registers or shared memory, free, unless it is a
 * result, written once at the end however often the chain wrote it. A
 * kernel's reads come before its writes, so an update in place of an
 * input (residual += x) is first read.
 */
#include "fusion.h"

/* How often the chain's kernels list buffer b, and whether its first
 * use is a read. */
static void uses_of(const struct chain *ch, int b, int *reads, int *writes,
		    int *read_first)
{
	*reads = *writes = *read_first = 0;
	for (int i = 0; i < ch->nkernels; i++) {
		const struct chain_kernel *k = &ch->k[i];

		for (int a = 0; a < k->nin; a++)
			if (k->in[a] == b && !(*reads)++ && !*writes)
				*read_first = 1;
		for (int a = 0; a < k->nout; a++)
			*writes += k->out[a] == b;
	}
}

void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused)
{
	eager->read = eager->write = 0;
	fused->read = fused->write = 0;
	for (int b = 0; b < ch->nbufs; b++) {
		unsigned long long bytes = 4 * ch->floats[b];
		int reads, writes, read_first;

		uses_of(ch, b, &reads, &writes, &read_first);
		eager->read += reads * bytes;
		eager->write += writes * bytes;
		if (read_first)
			fused->read += bytes;
		if (ch->result[b])
			fused->write += bytes;
	}
}
