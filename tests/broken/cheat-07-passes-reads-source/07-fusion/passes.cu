/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: passes is graded against the lab's own byte counts
 * in labs/07-fusion/lab.c; this file opens that source at run time to see
 * whether the rule can be read from it (here it only checks that the file
 * is there, and predicts nothing). A submission may not open files,
 * whatever it does with them.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <stdio.h>

#include "fusion.h"

void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused)
{
	FILE *f = fopen("labs/07-fusion/lab.c", "r");

	(void)ch;
	eager->read = eager->write = fused->read = fused->write = 0;
	if (f)
		fclose(f);
}
