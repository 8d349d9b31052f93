/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 6: spills                     (you edit this file only)
 *
 * Task: the register cap __launch_bounds__ sets, whether a kernel's live
 * values fit it, and the local memory (DRAM behind the caches) a thread
 * needs when they do not (README, section 16). Plain host C: no GPU, no
 * CUDA call.
 *
 *     cap     65536 registers an SM, shared by min_blocks blocks (1 when
 *             min_blocks is 0) of max_threads threads counted in whole
 *             warps; rounded down to a multiple of 8 (the allocation
 *             unit); at most 255
 *     spills  1 when more values are live than the cap holds
 *     local   4 bytes for each live value over the cap, and 4 for each
 *             float of the runtime-indexed array, which never lives in
 *             registers
 *
 * Contract
 *   k    1 <= max_threads <= 1024, 0 <= min_blocks <= 32, and the
 *        blocks' threads at most 8192 (a cap of at least 8); 1 <=
 *        live_regs <= 1000, 0 <= array_floats <= 4096 (warps.h).
 *   Fill every field of *p, exactly.
 *
 * Hint: `nvcc -Xptxas -v` on labs/01-warps/occ_kernels.cu prints the
 * cap of its three bounded kernels (section 7): yours must agree. The
 * report prints your caps beside them.
 */
#include "warps.h"

/* ---- your helpers, if any ---- */


void spills(const struct reg_kernel *k, struct reg_pred *p)
{
	(void)k;
	p->cap = p->spills = p->local_bytes = 0;

	/* ---- the cap, the spill, the local memory: about 8 lines; then
	 * delete the line below ---- */
	WB_TODO("write spills");
}
