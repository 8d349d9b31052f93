/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 3: trip_count                 (you edit this file only)
 *
 * Task: apply trip_f (warps.h) cnt[i] times to in[i], with the work
 * regrouped so that the lanes of a warp have similar amounts of it.
 *
 *     out[i] = trip_f(trip_f(... trip_f(in[i]) ...))    (cnt[i] times)
 *
 * The counts are skewed: 7 elements in 8 need 0 to 8 rounds, the rest 64
 * to 80, at random places. Thread per element (naive.cu), almost every
 * warp holds a heavy element, and all its 32 lanes wait ~80 rounds for
 * it: about 6x more lane-rounds than the work needs.
 *
 * Contract
 *   in    device pointer, n unsigned ints, 256-byte aligned, read only.
 *   cnt   device pointer, n bytes (any value 0..255; at the benchmark
 *         skewed as above), 256-byte aligned, read only.
 *   out   device pointer, n unsigned ints, poisoned on entry: write every
 *         element. Results must match exactly.
 *   work  TRIP_WORK_BYTES of device scratch (a 32-bit word per element of
 *         the benchmark, plus 4 KiB), poisoned on entry: set what you use.
 *   1 <= n <= 32M. Launch on the default stream. Every pass of yours is
 *   timed, any regrouping included: no sorting libraries
 *   (cub::DeviceRadixSort, thrust::sort); CUB's warp and block primitives
 *   are fine.
 *
 * Hint: classify each element as light or heavy from its count. Let each
 * thread do its light elements at once, and collect the heavy ones into a
 * queue (a warp reserves its slots with one atomicAdd of the popcount of
 * a __ballot_sync, each lane takes slot base + the number of heavy lanes
 * below it). Then hand the queue out one item per lane: all lanes of a
 * warp now run 64 to 80 rounds. A queue in shared memory, per block,
 * keeps the heavy elements' loads and stores near the rest of the tile.
 */
#include "warps.h"

/* ---- your kernel(s): about 60 lines ---- */


void trip_count(const unsigned int *in, const unsigned char *cnt,
		unsigned int *out, size_t n, void *work)
{
	(void)in, (void)cnt, (void)out, (void)n, (void)work;

	/* ---- your launch: about 5 lines; then delete the line below ---- */
	WB_TODO("write trip_count's kernel(s) and launch them");
}
