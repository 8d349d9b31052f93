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

/*
 * Dense tensor-core FLOPs per clock and SM over the CUDA cores' fp32 FLOPs
 * (gpu_fp32_tflops(): 2 per lane), for 16-bit inputs with fp32
 * accumulation, from NVIDIA's whitepapers: sm_75 1024 / 128 (T4 65
 * TFLOP/s); sm_80 2048 / 128 (A100 312); sm_86 to sm_89 1024 / 256 (A6000
 * 155, L40S 362); sm_90 4096 / 256 (H100 SXM 989); sm_100 on 8192 / 256
 * (B200 2250). An upper bound is what a ceiling needs: consumer cards
 * that halve the fp32-accumulate rate stay under it, and a GPU newer than
 * this table gets the largest ratio.
 */
static double tensor_ratio(int cc)
{
	if (cc < 80)
		return 8;
	if (cc == 80)
		return 16;
	if (cc < 90)
		return 4;
	if (cc < 100)
		return 16;
	return 32;
}

double g_tensor_tflops(const struct g_device *dev)
{
	return dev->fp32_tflops * tensor_ratio(dev->cc);
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
	if (s && s->tensor_flops && dev->fp32_tflops > 0 && r->tflops >
	    PLAUSIBLE_PEAK_MARGIN * g_tensor_tflops(dev)) {
		suspicious(r);
		g_detail(r, "measured %.2f TFLOP/s, above %.0f%% of the tensor "
			    "cores' dense peak of %.0f TFLOP/s: the timed calls "
			    "did not compute their results. No points.",
			 r->tflops, 100 * PLAUSIBLE_PEAK_MARGIN,
			 g_tensor_tflops(dev));
		return 1;
	}
	if ((!s || !s->tensor_flops) && dev->fp32_tflops > 0 && r->tflops >
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
	/* Each benchmark shape on its own: a mean of shapes must not hide
	 * one that no kernel could reach (work left on another stream at a
	 * small shape, too short for the tail to count it). */
	if (!strcmp(r->sol, "dram") && r->share_max > PLAUSIBLE_SHARE_CEILING) {
		suspicious(r);
		g_detail(r, "one benchmark shape measured %.0f%% of its speed of "
			    "light timed in the same rounds (the shapes' details "
			    "give each): no kernel moves that shape's bytes "
			    "that fast. No points.", 100 * r->share_max);
		return 1;
	}
	return 0;
}
