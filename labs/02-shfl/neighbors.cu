/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 1: neighbors                  (you edit this file only)
 *
 * Task: launch one block of bx x by x bz threads in which every thread
 * learns, through __shfl_sync, the (x, y, z) thread index of each of the
 * 32 lanes of its own warp. No shared memory, no global memory in between:
 * the values travel from register to register.
 *
 *     t = threadIdx.x + bx * (threadIdx.y + by * threadIdx.z)
 *     out[(t * 32 + j) * 3 + c] = coordinate c of the thread 32 * (t / 32) + j
 *                                 (or -1 when that thread does not exist)
 *
 * For the seed's 8x8x8 block this is the array out[8][8][8][32][3] indexed
 * [z][y][x][lane][coordinate]: the first four threads of a warp, for
 * example, report (0,0,0), (1,0,0), (2,0,0), (3,0,0).
 *
 * Contract
 *   out   device pointer to bx * by * bz * 32 * 3 ints, poisoned (every
 *         int -1) on entry.
 *   1 <= bx * by * bz <= 1024. When that is not a multiple of 32 the last
 *   warp is partial: it has only (bx * by * bz) % 32 lanes, and the
 *   entries for its missing lanes must be -1, -1, -1.
 *   Launch exactly one block of dim3(bx, by, bz) on the default stream.
 *   Correctness only: no timing, no speed points.
 *
 * Hint: __shfl_sync(mask, v, j) returns the v of lane j to every lane
 * named in mask, and every lane named in mask must execute it. Which lanes
 * exist in a partial warp, and what must the mask be there?
 */
#include "shfl.h"

/* ---- your kernel: about 20 lines ---- */


void neighbors(int *out, unsigned int bx, unsigned int by, unsigned int bz)
{
	(void)out, (void)bx, (void)by, (void)bz;

	/* ---- your launch: 2 lines; then delete the line below ---- */
	WB_TODO("write neighbors' kernel and launch one block of bx x by x bz");
}
