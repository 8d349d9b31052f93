/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: the lab's own code, whose reference for this
 * exercise is the answer. The instructor's copy keeps it in answers.c
 * (the handout has none); it is included by its path in the repository,
 * and the exercise hands its warp to the lab's reference.
 *
 * A submission's compile may open only the lab's public header, the CUDA
 * Toolkit's and the system's (grader/build.sh).
 * Expected verdict: COMPILE ERROR.
 */
#include "../../../../labs/03-coalescing/answers.c"

int sectors_per_request(const struct warp_load *w)
{
	return lab_sectors(w);
}
