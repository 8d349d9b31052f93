/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 8: stalls - a solution.
 *
 * Four throttles, four queues: lg_throttle waits on the LSU's queue of
 * global and local memory instructions, mio_throttle on the MIO queue
 * (shared memory, special functions, shuffles), tex_throttle on the
 * texture unit's, math_pipe_throttle on one arithmetic pipe. A throttle
 * is worth acting on only when it takes a large share (make profile's
 * 30%) and the kernel is not already at its memory's speed of light,
 * where the warps may wait on anything at no cost.
 */
#include "fusion.h"

static enum stall_cause queue_of(enum stall_reason why)
{
	switch (why) {
	case STALL_LG_THROTTLE: return CAUSE_GLOBAL_LOCAL;
	case STALL_MIO_THROTTLE: return CAUSE_SHARED_MIO;
	case STALL_TEX_THROTTLE: return CAUSE_TEXTURE;
	case STALL_MATH_PIPE_THROTTLE: return CAUSE_MATH_PIPE;
	default: return CAUSE_NONE;
	}
}

void stalls(const struct stall_report *r, struct stall_answer *a)
{
	static const enum stall_reason throttles[] = {
		STALL_LG_THROTTLE, STALL_MIO_THROTTLE, STALL_TEX_THROTTLE,
		STALL_MATH_PIPE_THROTTLE,
	};
	const int nthrottles = sizeof(throttles) / sizeof(throttles[0]);
	enum stall_reason worst = throttles[0];
	int most = 0, busy;

	for (int k = 1; k < STALL_COUNT; k++)
		if (r->stall[k] > r->stall[most])
			most = k;
	a->top = (enum stall_reason)most;
	a->top_share = r->stall[most] / r->cycles;

	for (int k = 1; k < nthrottles; k++)
		if (r->stall[throttles[k]] > r->stall[worst])
			worst = throttles[k];
	/* at the memory's speed of light: DRAM busy, no bytes to spare */
	busy = r->dram_pct >= 80 &&
	       (r->min_bytes <= 0 || r->dram_bytes < 1.15 * r->min_bytes);
	if (busy || r->stall[worst] < 0.3 * r->cycles)
		worst = STALL_NONE;
	a->throttle = worst;
	a->throttle_share = worst == STALL_NONE ? 0 :
			    r->stall[worst] / r->cycles;
	a->cause = queue_of(worst);
}
