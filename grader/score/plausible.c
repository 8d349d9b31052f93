/* SPDX-License-Identifier: MIT */
/*
 * plausible.c - the speed of light as a referee (see plausible.h).
 *
 * A kernel that must read and write bytes() cannot beat the DRAM: with the
 * L2 flushed before every sample and benchmark inputs several times its
 * size, every byte comes from DRAM. A submission faster than that kept
 * results from earlier calls and replayed them (recognising its inputs),
 * or skipped work the checks did not see. Every kind of ideal has a share
 * ceiling of its own (g_share_ceiling()): the DRAM's and the instructions'
 * ideals are measured limits themselves; a peer's is not (a fused kernel
 * beats cuBLAS's eager path), so its ceiling is what the GPU allows.
 */
#include "plausible.h"

#include <stdio.h>
#include <string.h>

#include "record.h"
#include "settle.h"

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

/* The probes' time for the exercise's bytes, in us: its bytes at the
 * read and write rates measured in the same rounds (0: not probed). */
static double dram_us(const struct g_result *r)
{
	double us = 0;

	if (r->read_bytes > 0 && r->read_gbps > 0)
		us += r->read_bytes / r->read_gbps / 1e3;
	if (r->write_bytes > 0 && r->write_gbps > 0)
		us += r->write_bytes / r->write_gbps / 1e3;
	return us;
}

/* The FLOP/s ceiling (TFLOP/s, 0: unknown) and what it is, for s. */
static double flops_ceiling(const struct g_spec *s, const struct g_device *dev,
			    const char **what)
{
	if (s && s->tensor_flops) {
		*what = "the tensor cores' dense peak";
		return PLAUSIBLE_PEAK_MARGIN * g_tensor_tflops(dev);
	}
	*what = "the CUDA cores' fp32 peak";
	return PLAUSIBLE_PEAK_MARGIN * dev->fp32_tflops;
}

/*
 * A peer's ideal is a library's time, which honest code can beat (lab
 * 08's fused attention runs 3x cuBLAS's eager path): its ceiling is the
 * GPU's, the fastest time its limits allow, over the ideal. Those limits:
 * its bytes at PLAUSIBLE_SHARE_CEILING times the probes' rates, measured
 * in the same rounds; its FLOPs at the FLOP/s ceiling. 0: neither known.
 */
static double peer_ceiling(const struct g_spec *s, const struct g_result *r,
			   const struct g_device *dev, char *why, size_t n)
{
	double fastest = dram_us(r) / PLAUSIBLE_SHARE_CEILING, fl_us = 0;
	double ideal = r->t[G_IDEAL].have ? r->t[G_IDEAL].median_us : 0;
	double tf;
	const char *what;

	tf = flops_ceiling(s, dev, &what);
	if (r->flops > 0 && tf > 0)
		fl_us = r->flops / (tf * 1e6);
	if (fl_us > fastest)
		fastest = fl_us;
	if (!(fastest > 0) || !(ideal > 0))
		return 0;
	if (fl_us >= fastest)
		snprintf(why, n, "its FLOPs at %.0f%% of %s, %.1f us",
			 100 * PLAUSIBLE_PEAK_MARGIN, what, fl_us);
	else
		snprintf(why, n, "its bytes at %.0f%% of the rates the probes "
				 "measured in the same rounds, %.1f us",
			 100 * PLAUSIBLE_SHARE_CEILING, fastest);
	return ideal / fastest;
}

/*
 * An instruction-bound ideal (the naive's time over the ideal speedup the
 * lab's model gives) is not a physical limit: a kernel that balances its
 * lanes better than the model assumes may beat it honestly. Its ceiling is
 * the GPU's, as a peer's (its bytes at the probes' rates: trip_count's is
 * about twice its ideal), and never below PLAUSIBLE_INSTR_CEILING.
 */
static double instr_ceiling(const struct g_spec *s, const struct g_result *r,
			    const struct g_device *dev, char *why, size_t n)
{
	double c = peer_ceiling(s, r, dev, why, n);

	if (c > PLAUSIBLE_INSTR_CEILING)
		return c;
	snprintf(why, n, "%.0f%% of the instruction-bound ideal: the naive's "
			 "time in the same rounds over its ideal speedup, or "
			 "the DRAM time if longer",
		 100 * PLAUSIBLE_INSTR_CEILING);
	return PLAUSIBLE_INSTR_CEILING;
}

/*
 * Is r's ideal a limit measured in the same rounds, that no honest kernel
 * passes by more than noise? A DRAM ideal is, and a lab's limit kernel
 * (the least instruction work the task needs, issued without waste); a
 * roofline is where its
 * compute probe ran on the fastest instruction the GPU has for it: fp32
 * FMA, wgmma, or mma.sync before Hopper (on sm_90 without sm_90a code, or
 * on a later GPU, mma.sync is not the tensor cores' fastest path).
 */
static int measured_limit(const struct g_result *r, const struct g_device *dev)
{
	if (!strcmp(r->sol, "dram") || !strcmp(r->sol, "limit"))
		return 1;
	if (strcmp(r->sol, "roof"))
		return 0;
	return !strcmp(r->peak, "fma") || !strcmp(r->peak, "wgmma") ||
	       (!strcmp(r->peak, "mma") && dev->cc > 0 && dev->cc < 90);
}

double g_share_ceiling(const struct g_spec *s, const struct g_result *r,
		       const struct g_device *dev, char *why, size_t n)
{
	if (measured_limit(r, dev)) {
		snprintf(why, n, "%.0f%% of the speed of light timed in the "
				 "same rounds", 100 * PLAUSIBLE_SHARE_CEILING);
		return PLAUSIBLE_SHARE_CEILING;
	}
	if (!strcmp(r->sol, "roof"))
		return peer_ceiling(s, r, dev, why, n);
	if (!strcmp(r->sol, "instr"))
		return instr_ceiling(s, r, dev, why, n);
	if (!strcmp(r->sol, "peer"))
		return peer_ceiling(s, r, dev, why, n);
	snprintf(why, n, "no ideal measured");
	return 0;
}

static void suspicious(struct g_result *r)
{
	g_settle(r, WB_V_SUSPICIOUS);
	r->points = 0;
	r->tier = 0;
	r->next_target = 0;
}

/* An instruction-bound or a peer's share above its ceiling (a DRAM
 * ideal's is judged in g_plausible(), in words of its own): 1 when it
 * was. */
static int share_beyond(const struct g_spec *s, struct g_result *r,
			const struct g_device *dev)
{
	char why[192];
	double ceiling;

	if (measured_limit(r, dev))
		return 0;
	ceiling = g_share_ceiling(s, r, dev, why, sizeof(why));
	if (!(ceiling > 0) || !(r->share > ceiling))
		return 0;
	suspicious(r);
	g_detail(r, "measured %.0f%% of its ideal (%.1f us against %.1f us), "
		    "above its ceiling of %.0f%% (%s): the timed calls did not "
		    "do their work. No points.",
		 100 * r->share, r->t[G_STUDENT].median_us,
		 r->t[G_IDEAL].median_us, 100 * ceiling, why);
	return 1;
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
	if (measured_limit(r, dev) && r->share > PLAUSIBLE_SHARE_CEILING) {
		suspicious(r);
		g_detail(r, "measured %.0f%% of the speed of light timed in the "
			    "same rounds (%.1f us for what the probes %s in "
			    "%.1f us): no kernel does the work this exercise "
			    "needs that fast. No points.",
			 100 * r->share, r->t[G_STUDENT].median_us,
			 strcmp(r->sol, "roof") ? "read and write" :
			 "compute, read and write", r->t[G_IDEAL].median_us);
		return 1;
	}
	if (share_beyond(s, r, dev))
		return 1;
	/* Each benchmark shape on its own: a mean of shapes must not hide
	 * one that no kernel could reach (work left on another stream at a
	 * small shape, too short for the tail to count it). */
	if (measured_limit(r, dev) && r->share_max > PLAUSIBLE_SHARE_CEILING) {
		suspicious(r);
		g_detail(r, "one benchmark shape measured %.0f%% of its speed of "
			    "light timed in the same rounds (the shapes' details "
			    "give each): no kernel moves that shape's bytes "
			    "that fast. No points.", 100 * r->share_max);
		return 1;
	}
	return 0;
}
