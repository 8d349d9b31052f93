/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: sectors is graded against the lab's own rule in
 * labs/03-coalescing/lab.c; this file opens that source at run time to
 * see whether the rule can be read from it (here it only checks that the
 * file is there, and predicts one sector). A submission may not open
 * files, whatever it does with them.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <stdio.h>

#include "coalescing.h"

int sectors_per_request(const struct warp_load *w)
{
	FILE *f = fopen("labs/03-coalescing/lab.c", "r");

	(void)w;
	if (f)
		fclose(f);
	return 1;
}
