/* SPDX-License-Identifier: MIT */
/*
 * plausible.c - the speed of light as a referee (see plausible.h).
 *
 * A kernel that must read and write bytes() cannot beat the DRAM: with the
 * L2 flushed before every sample and benchmark inputs several times its
 * size, every byte comes from DRAM. A submission faster than that kept
 * results from earlier calls and replayed them (recognising its inputs),
 * or skipped work the checks did not see.
 */
#include "plausible.h"

#include <stdio.h>
#include <string.h>

#include "record.h"

double g_bandwidth_ceiling(const struct g_device *dev, char *why, size_t n)
{
	double peak = PLAUSIBLE_PEAK_MARGIN * dev->dram_gbps;
	double copy = PLAUSIBLE_COPY_MARGIN * dev->copy_gbps;

	/* The larger of the two: a peak NVML misreports low cannot make
	 * honest code suspicious. */
	if (peak > 0 && peak >= copy) {
		snprintf(why, n, "%.0f%% of the DRAM's peak, %.0f GB/s, from "
				 "NVML", 100 * PLAUSIBLE_PEAK_MARGIN, dev->dram_gbps);
		return peak;
	}
	if (copy > 0) {
		snprintf(why, n, "%.0f%% of the copy bandwidth measured in this "
				 "run, %.0f GB/s", 100 * PLAUSIBLE_COPY_MARGIN,
			 dev->copy_gbps);
		return copy;
	}
	snprintf(why, n, "no bandwidth reference");
	return 0;
}

static void suspicious(struct g_result *r)
{
	r->verdict = WB_V_SUSPICIOUS;
	r->points = 0;
	r->tier = 0;
	r->next_target = 0;
}

int g_plausible(const struct g_spec *s, struct g_result *r,
		const struct g_device *dev)
{
	char why[160];
	double bw = g_bandwidth_ceiling(dev, why, sizeof(why));

	(void)s;
	if (r->verdict != WB_V_PASS || !r->t[G_STUDENT].have)
		return 0;
	if (bw > 0 && r->gbps > bw) {
		suspicious(r);
		g_detail(r, "measured %.0f GB/s (%.1f us for %.0f bytes), above "
			    "the ceiling of %.0f GB/s (%s): no kernel moves the "
			    "bytes this exercise needs that fast, so the timed "
			    "calls did not compute their results. No points.",
			 r->gbps, r->t[G_STUDENT].median_us, r->bytes, bw, why);
		return 1;
	}
	if (dev->fp32_tflops > 0 && r->tflops >
	    PLAUSIBLE_PEAK_MARGIN * dev->fp32_tflops) {
		suspicious(r);
		g_detail(r, "measured %.2f TFLOP/s, above %.0f%% of the CUDA "
			    "cores' fp32 peak of %.2f TFLOP/s: the timed calls "
			    "did not compute their results. No points.",
			 r->tflops, 100 * PLAUSIBLE_PEAK_MARGIN, dev->fp32_tflops);
		return 1;
	}
	if (!strcmp(r->sol, "dram") && r->share > PLAUSIBLE_SHARE_CEILING) {
		suspicious(r);
		g_detail(r, "measured %.0f%% of the speed of light timed in the "
			    "same rounds (%.1f us for what the probes read and "
			    "write in %.1f us): no kernel moves the bytes this "
			    "exercise needs that fast. No points.",
			 100 * r->share, r->t[G_STUDENT].median_us,
			 r->t[G_IDEAL].median_us);
		return 1;
	}
	return 0;
}
