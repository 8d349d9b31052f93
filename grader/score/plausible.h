/* SPDX-License-Identifier: MIT */
/*
 * plausible.h - SUSPICIOUS: a passing exercise measured faster than the
 * hardware allows did not compute its result in the timed calls.
 *
 * The ceilings (docs/grading.md, "Implausible speed"):
 *   bandwidth  105% of the DRAM's peak (NVML: memory clock x bus width x
 *              2), or 125% of the copy bandwidth measured in this run,
 *              whichever is larger (the copy kernel is one kernel's rate,
 *              not a ceiling: memory-bound solutions reach up to 108% of
 *              it on an H200), so either alone suffices;
 *   FLOP/s     105% of the CUDA cores' fp32 peak (NVML's maximum SM
 *              clock x SMs x fp32 lanes per SM x 2; the device's own
 *              clock where NVML gives none), or for an exercise whose
 *              FLOPs run on tensor cores (lab 08), 105% of their dense
 *              16-bit peak (g_tensor_tflops());
 *   share      each kind of ideal its own (g_share_ceiling()): a DRAM
 *              ideal PLAUSIBLE_SHARE_CEILING of the speed of light measured
 *              in the same rounds, as the mean of the benchmark shapes and
 *              at each; an instruction-bound one (the naive's time in
 *              the same rounds over its ideal speedup, or the DRAM time)
 *              the fastest its bytes allow, as a peer's, and at least
 *              PLAUSIBLE_INSTR_CEILING of itself; a peer's (cuBLAS, which honest
 *              code may beat) the fastest the GPU allows over the peer's
 *              time: its bytes at PLAUSIBLE_SHARE_CEILING of the probes'
 *              rates, its FLOPs at the FLOP/s ceiling.
 * SUSPICIOUS earns no points; the figures are shown.
 */
#ifndef GRADER_PLAUSIBLE_H
#define GRADER_PLAUSIBLE_H

#include <stddef.h>
#include <stdio.h>

#include "grade.h"

/* Margins over the ceilings: measurement noise, not a loophole. */
#define PLAUSIBLE_PEAK_MARGIN 1.05
#define PLAUSIBLE_COPY_MARGIN 1.25

/* A memory-bound exercise faster than this share of the speed of light
 * measured beside it did not move its bytes: honest code stays under ~1.05
 * (its last writes can stay in the L2, as the probes' do). */
#define PLAUSIBLE_SHARE_CEILING 1.25

/* The least ceiling of an instruction-bound exercise (lab 01's branch
 * and trip_count): the naive and a divergence-free kernel run on the same
 * integer pipelines, so the naive's time over the ideal speedup is
 * measured beside it. The solutions reach 91% (trip_count) and 102%
 * (branch: its ideal speedup, one chain for two, is exact) on an H100.
 * Where the exercise's bytes allow more (trip_count's, at the probes'
 * rates, about twice its ideal: a kernel that balances its lanes better
 * than the model may get there honestly), the ceiling is that. */
#define PLAUSIBLE_INSTR_CEILING 1.25

/* The naive and the probes may run this much slower beside the student's
 * code than in the grader's reference without it before the run is
 * SUSPICIOUS: two processes, minutes apart, differ by up to ~5% (clocks,
 * placement), so 12% leaves twice that. */
#define PLAUSIBLE_BASELINE_MARGIN 0.12

/* The bandwidth ceiling in GB/s (0: none known); its basis into why. */
double g_bandwidth_ceiling(const struct g_device *dev, char *why, size_t n);

/* The tensor cores' dense peak for 16-bit inputs and fp32 accumulation,
 * TFLOP/s, from the fp32 peak and the compute capability (0: unknown). */
double g_tensor_tflops(const struct g_device *dev);

/* The highest share of its ideal a result of s can plausibly reach, by the
 * kind of its ideal (r->sol), with its basis into why; 0: none known. */
double g_share_ceiling(const struct g_spec *s, const struct g_result *r,
		       const struct g_device *dev, char *why, size_t n);

/* After g_score(): PASS faster than a ceiling becomes SUSPICIOUS, with no
 * points and the figures as details. Returns 1 when it did. */
int g_plausible(const struct g_spec *s, struct g_result *r,
		const struct g_device *dev);

#endif /* GRADER_PLAUSIBLE_H */
