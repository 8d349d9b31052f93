/* SPDX-License-Identifier: MIT */
/*
 * timing.h - one timed sample (timing.c; its header comment gives the
 * method: settings put back, L2 flushed, the spacer, the tail event).
 * Runner internals: bench.c takes the samples.
 */
#ifndef WB_TIMING_H
#define WB_TIMING_H

#include <stddef.h>
#include <cuda_runtime.h>

#define WB_STATE_LIMITS 5
struct wb_timer {
	cudaEvent_t start, stop, tail;
	void *flush;
	size_t flush_bytes;
	unsigned flush_value;
	double tail0_ms;    /* stop-to-tail of an empty region: its median */
	double tail_tol_ms; /* work after the stop event counts beyond this */
	/* device-wide settings as the runner found them, put back before
	 * every sample */
	size_t limit[WB_STATE_LIMITS];
	int limit_ok[WB_STATE_LIMITS];
	enum cudaFuncCache cache;
	int cache_ok;
	int persisting_l2;  /* the GPU keeps persisting L2 lines: reset them */
	int resets;         /* samples before which something was put back */
};

struct wb_sample {
	double ms;       /* the time counted: event_ms + extra_ms */
	double event_ms; /* start to stop event */
	double extra_ms; /* device work that outlived the call, counted */
	double tail_ms;  /* stop event to the event after the device-wide
			  * synchronisation: tail0_ms when nothing outlived it */
	double mhz;      /* the SM clock the spacer measured just before */
};

typedef void wb_work_fn(void *arg);

void wb_timer_init(struct wb_timer *t);
void wb_timer_free(struct wb_timer *t);
/* Time one call of work(arg), cold L2; what was queued before (poison,
 * inputs) completes first, untimed. */
void wb_time_sample(struct wb_timer *t, wb_work_fn *work, void *arg,
		    struct wb_sample *s);
/*
 * Count a sample's extra again against the noise of the trusted samples
 * (the naive, the probes, a library peer) of the same round: their
 * largest stop-to-tail gap, noise_ms (0: none were taken). Work of
 * another stream is counted beyond max(tail0_ms, noise_ms) +
 * tail_tol_ms. A trusted sample itself counts no extra (trusted = 1):
 * it launches on no other stream, so its gap is the noise.
 */
void wb_sample_recount(const struct wb_timer *t, struct wb_sample *s,
		       double noise_ms, int trusted);

#endif /* WB_TIMING_H */
