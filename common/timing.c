/* SPDX-License-Identifier: MIT */
/*
 * timing.c - one timed sample, the way the grader always takes it.
 *
 * Before the sample, with the device idle afterwards:
 *   device-wide settings that outlive a call are put back as they were
 *   when the runner started (the persisting-L2 lines and limit, the cache
 *   configuration, the heap and printf limits), so no earlier call can
 *   slow or speed the next;
 *   the L2 is flushed: a memset of at least twice its size (a new value
 *   each time: nothing can skip a repeated write), then a read pass over
 *   the same buffer, so the L2 holds clean lines and no write-back of the
 *   flush lands in the timed region.
 * The sample:
 *   the spacer (probe.h) keeps every SM busy while the host queues the
 *   start event and the code under test, so the start event fires when the
 *   code's first kernel can start: the host's launch latency is not timed,
 *   and no kernel of another stream can start before it;
 *   events on the legacy default stream bracket the code;
 *   then a device-wide synchronisation and one more event: if that event
 *   comes later after the stop event than it does for an empty region
 *   (more than the noise measured at the start), device work was still
 *   running when the code returned (another stream) and the difference is
 *   counted.
 */
#include <stdlib.h>
#include <string.h>

#include "fate.h"
#include "knobs.h"
#include "probe.h"
#include "stats.h"
#include "timing.h"
#include "workbook.h"

/* Limits the runtime does not change on its own; the stack size is left
 * out, since the runtime grows it for kernels that need more. */
static const enum cudaLimit kept_limits[WB_STATE_LIMITS] = {
	cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize,
	cudaLimitDevRuntimePendingLaunchCount, cudaLimitMaxL2FetchGranularity,
	cudaLimitPersistingL2CacheSize,
};

static void state_save(struct wb_timer *t, int dev)
{
	int persist = 0;

	for (int i = 0; i < WB_STATE_LIMITS; i++) {
		t->limit_ok[i] = cudaDeviceGetLimit(&t->limit[i],
						    kept_limits[i]) == cudaSuccess;
		cudaGetLastError(); /* a limit this GPU lacks is not an error */
	}
	t->cache_ok = cudaDeviceGetCacheConfig(&t->cache) == cudaSuccess;
	cudaGetLastError();
	if (cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize,
				   dev) != cudaSuccess)
		persist = 0;
	cudaGetLastError();
	t->persisting_l2 = persist > 0;
}

/* Put back what a call may have changed; 1 if anything had changed. */
static int state_restore(struct wb_timer *t)
{
	enum cudaFuncCache cache;
	int changed = 0;

	for (int i = 0; i < WB_STATE_LIMITS; i++) {
		size_t now;

		if (!t->limit_ok[i] ||
		    cudaDeviceGetLimit(&now, kept_limits[i]) != cudaSuccess ||
		    now == t->limit[i])
			continue;
		WB_CUDA(cudaDeviceSetLimit(kept_limits[i], t->limit[i]));
		changed = 1;
	}
	if (t->cache_ok && cudaDeviceGetCacheConfig(&cache) == cudaSuccess &&
	    cache != t->cache) {
		WB_CUDA(cudaDeviceSetCacheConfig(t->cache));
		changed = 1;
	}
	if (t->persisting_l2)
		WB_CUDA(cudaCtxResetPersistingL2Cache());
	cudaGetLastError();
	return changed;
}

/* The stop-to-tail time of an empty region: what no extra work looks like. */
static void measure_tail(struct wb_timer *t)
{
	double d[31];
	struct wb_summary s;

	for (int i = 0; i < 31; i++) {
		float ms;

		WB_CUDA(cudaEventRecord(t->stop, 0));
		WB_CUDA(cudaDeviceSynchronize());
		WB_CUDA(cudaEventRecord(t->tail, 0));
		WB_CUDA(cudaEventSynchronize(t->tail));
		WB_CUDA(cudaEventElapsedTime(&ms, t->stop, t->tail));
		d[i] = ms;
	}
	wb_summarize(d, 31, &s);
	t->tail0_ms = s.median;
	t->tail_tol_ms = 3 * (s.q3 - s.q1);
	if (t->tail_tol_ms < WB_TAIL_MIN_US * 1e-3)
		t->tail_tol_ms = WB_TAIL_MIN_US * 1e-3;
}

void wb_timer_init(struct wb_timer *t)
{
	int dev, l2 = 0;

	memset(t, 0, sizeof(*t));
	wb_where("setting up the timer");
	WB_CUDA(wb_probe_init());
	WB_CUDA(cudaGetDevice(&dev));
	WB_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	t->flush_bytes = 2 * (size_t)l2;
	if (t->flush_bytes < WB_FLUSH_MIN_BYTES)
		t->flush_bytes = WB_FLUSH_MIN_BYTES;
	t->flush_bytes = t->flush_bytes / 16 * 16;
	WB_CUDA(cudaMalloc(&t->flush, t->flush_bytes));
	WB_CUDA(cudaEventCreate(&t->start));
	WB_CUDA(cudaEventCreate(&t->stop));
	WB_CUDA(cudaEventCreate(&t->tail));
	state_save(t, dev);
	measure_tail(t);
}

void wb_timer_free(struct wb_timer *t)
{
	cudaFree(t->flush);
	cudaEventDestroy(t->start);
	cudaEventDestroy(t->stop);
	cudaEventDestroy(t->tail);
}

void wb_time_sample(struct wb_timer *t, wb_work_fn *work, void *arg,
		    struct wb_sample *s)
{
	float ev, tail;

	memset(s, 0, sizeof(*s));
	t->resets += state_restore(t);
	WB_CUDA(cudaMemsetAsync(t->flush, (int)(++t->flush_value & 0x7f),
				t->flush_bytes, 0));
	/* A read pass after the memset: the flush's dirty lines are written
	 * back here, not inside the timed region. */
	WB_CUDA(wb_probe_run(WB_PROBE_READ4, t->flush, NULL, t->flush_bytes));
	WB_CUDA(cudaDeviceSynchronize());

	WB_CUDA(wb_spacer(WB_SPACER_US));
	WB_CUDA(cudaEventRecord(t->start, 0));
	work(arg);
	WB_CUDA(cudaEventRecord(t->stop, 0));
	WB_CUDA(cudaDeviceSynchronize());
	WB_CUDA(cudaEventRecord(t->tail, 0));
	WB_CUDA(cudaEventSynchronize(t->tail));
	WB_CUDA(cudaGetLastError());
	WB_CUDA(cudaEventElapsedTime(&ev, t->start, t->stop));
	WB_CUDA(cudaEventElapsedTime(&tail, t->stop, t->tail));

	s->event_ms = ev;
	s->tail_ms = tail;
	wb_sample_recount(t, s, 0, 0);
	s->mhz = wb_spacer_mhz();
	if (!(s->mhz > 0 && s->mhz < 1e5))
		s->mhz = 0; /* not measured: no round is dropped for it */
}

void wb_sample_recount(const struct wb_timer *t, struct wb_sample *s,
		       double noise_ms, int trusted)
{
	double base = noise_ms > t->tail0_ms ? noise_ms : t->tail0_ms;

	s->extra_ms = 0;
	if (!trusted && s->tail_ms - base > t->tail_tol_ms)
		s->extra_ms = s->tail_ms - base;
	s->ms = s->event_ms + s->extra_ms;
}
