/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 6: inflight                   (you edit this file only)
 *
 * Task: by Little's law (README, section 17), how many bytes must be on
 * their way from memory at every moment for a GPU to stream at its
 * bandwidth, how many loads each resident thread must keep in flight for
 * that, and what bandwidth a kernel that keeps a given number reaches.
 * Plain host C: no GPU, no CUDA call.
 *
 *     need_bytes   latency x bandwidth (ns x GB/s = bytes)
 *     need_per_sm  need_bytes / SMs
 *     need_loads   the fewest whole loads of load_bytes each per thread
 *                  that carry need_per_sm over threads_per_sm threads
 *     have_bytes   SMs x threads_per_sm x load_bytes x loads_in_flight
 *     gbps         min(bandwidth, have_bytes / latency)
 *
 * Contract
 *   s    latency_ns and bw_gbps positive; every count at least 1,
 *        threads_per_sm at most 2048, load_bytes 1 to 16.
 *   Fill every field of *p: need_loads exactly, the rest to 1e-12
 *   relative. No drawn case puts need_loads within 1e-9 of a whole
 *   number, nor the kernel's rate within 1e-9 of the bandwidth.
 *
 * Hint: a byte per nanosecond is a GB/s. The report prints your need on
 * an H100 and a T4: compare it with what one 4-byte load per thread
 * keeps in flight.
 */
#include "coalescing.h"

/* ---- your helpers, if any ---- */


void inflight(const struct mem_system *s, struct inflight_pred *p)
{
	(void)s;
	p->need_bytes = p->need_per_sm = p->have_bytes = p->gbps = 0;
	p->need_loads = 0;

	/* ---- Little's law, a rounding and a minimum: about 10 lines; then
	 * delete the line below ---- */
	WB_TODO("write inflight");
}
