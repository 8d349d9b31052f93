/* SPDX-License-Identifier: MIT */
/*
 * knobs.h - the harness's global measurement settings, each with its reason.
 * Per-exercise knobs (sizes, tolerances, tiers, points, timeouts) live in
 * each lab's lab.c; these apply to every exercise alike.
 */
#ifndef WB_KNOBS_H
#define WB_KNOBS_H

/* Untimed rounds first, for at least this long and this many rounds:
 * module load, lazy loading of kernels, first-touch page mapping and the
 * clock ramp of a GPU that was idle (an idle H100 sits at 345 MHz) stay
 * out of the samples; the spacer's clock reading shows the rest. */
#define WB_WARMUP_MS 200.0
#define WB_WARMUP_ROUNDS 3

/* The warm-up ends sooner, after WB_WARMUP_ROUNDS, once the spacer has
 * seen the SM clock at this share of the GPU's highest clock
 * (cudaDevAttrClockRate) in WB_WARMUP_HOT_ROUNDS rounds in a row: there is
 * no ramp left to wait for (a GPU that the exercise before kept busy
 * starts there; an idle H100 takes ~100 ms). A GPU whose loaded clock
 * stays under that share waits WB_WARMUP_MS, as before. On the H100,
 * 0.2 s of each exercise's 1.5 to 6 s. */
#define WB_WARMUP_CLOCK_FRAC 0.95
#define WB_WARMUP_HOT_ROUNDS 2

/* At least this many rounds (every implementation once each): below ~15
 * the order statistics that bound the median are themselves unreliable. */
#define WB_MIN_SAMPLES 15

/* Never more than this many rounds (odd from when sampling stopped only
 * after a forward round; each round now runs in an order of its own). */
#define WB_MAX_SAMPLES 401

/* Stop when the 95% confidence interval of the exercise's points (from
 * the order statistics of the paired per-round ratios) is this narrow:
 * the grade is then known to half a point either way, wherever it lies
 * between or beyond the tiers. */
#define WB_POINTS_TOL 1.0
#define WB_CI_Z 1.96

/* The interval a report states for a speedup or a share is at least this
 * much either way of its median, so that it covers a rerun, not only this
 * run's rounds: five grading runs of every solution on an H100 (tests/gpu/
 * stability.sh, 2026-11-25) moved shares by up to 1.6% (rmsnorm_bf16;
 * 0.1-0.9% elsewhere), beyond the rounds' own 95% interval for 12 of 18
 * exercises: what is fixed per process (placement, clocks, the probes).
 * Only what is stated widens; sampling still stops on the rounds' own
 * interval (WB_POINTS_TOL), which more rounds can narrow and this cannot. */
#define WB_RUN_TO_RUN 0.02

/* The same for a share of a library peer's time (WB_IDEAL_PEER; no lab
 * has one since the rooflines, 2026-11-28), which the grader times once,
 * in another process: three H100 machines on 2026-11-25 gave matmul's
 * solution 85.8%, 87.3-87.7% and 88.8-89.3% of cuBLAS (4.1% apart) while
 * its speedup over the naive held at 14.16-14.24x: cuBLAS's time moves
 * between machines more than the student's. */
#define WB_RUN_TO_RUN_PEER 0.05

/* The same for a small shape (WB_LAUNCH_BYTES: lab 07's 1-2 MiB shapes):
 * its times are a few microseconds, and what one process's launches cost
 * is not what the next one's do. Five runs on an H100 with two probes
 * (tests/gpu/stability.sh, 2026-11-27): softmax's 256x1024 shape's ideal
 * measured 4.4 to 5.0 us and its share 0.83 to 1.00, 20% apart, while
 * each run's rounds knew it to a few percent. With the one probe (five
 * H200 runs, 2026-11-28) the lab 07 exercises' shares moved by up to
 * 4.5%: the width stays until more GPUs have been measured. */
#define WB_RUN_TO_RUN_SMALL 0.20

/* Reference runs (no student code: make bench, the grader's reference of
 * each exercise) stop when each median's estimated relative standard
 * error is under this. */
#define WB_TARGET_REL_ERR 0.005

/* Cap on one exercise's timing loop (seconds of wall clock), so a very slow
 * submission cannot stretch a class's grading run. */
#define WB_MAX_TIMING_S 6.0

/* The spacer before each sample keeps every SM busy this long: more than
 * the host needs to queue the start event and the code's first launch
 * (~5-10 us), so launch latency is not timed, and long enough for the SM
 * clock it measures to be known to a few percent. */
#define WB_SPACER_US 30.0

/* A round whose spacer saw the SM clock below this share of the median
 * clock so far is thrown away (a throttled or ramping GPU), unless more
 * than WB_THROTTLE_MAX_SHARE of the rounds would go: then the GPU runs
 * throttled, every round counts, and the report says so. */
#define WB_THROTTLE_FRAC 0.90
#define WB_THROTTLE_MAX_SHARE 0.25

/* Device work still running after the code returned (another stream) is
 * counted when the device-wide synchronisation after the stop event ends
 * later than for an empty region, and than for the naive and the probes
 * of the same round, by more than three of the empty region's
 * interquartile ranges or this, whichever is larger (bench.c,
 * recount_tails). */
#define WB_TAIL_MIN_US 5.0

/* Timed calls whose outputs are checked: each round's student call with
 * this probability, at most WB_VERIFY_MAX of them, then one more call on
 * new inputs after the timing, always. */
#define WB_VERIFY_P 0.125
#define WB_VERIFY_MAX 3

/* Threads a lab's check may use to make its double-precision reference
 * (wb_check_chunks), and setup() its inputs (wb_parallel_for): the CPU's
 * work at the benchmark sizes is most of a grade's time
 * (tests/gpu/phases.sh), and the GPU machines have 16 CPUs. Never more
 * than the CPUs online. */
#define WB_CHECK_THREADS 16

/* Inputs larger than this (floats, or bytes) are made in stretches of it,
 * each from its own generator, on threads (wb_fill_uniform): making a
 * 1 GiB input one draw at a time took about a second. A power of two, so
 * that stretches stay aligned to any element size. */
#define WB_FILL_STRETCH ((size_t)1 << 20)

/* Traffic below this many bytes (the 4-byte result of a sum) is not
 * probed: its time is within the noise of the rest. */
#define WB_PROBE_MIN_BYTES (1u << 20)

/*
 * Shapes that read and write fewer bytes than this are small: a sample is
 * a few microseconds, and what the report states of them widens by
 * WB_RUN_TO_RUN_SMALL. Their speed of light is the memory probe's one
 * launch, as every shape's (bench.c): a read probe and a write probe each
 * timed, as before 2026-11-28, counted a launch twice, at 2 MiB most of
 * the ideal.
 */
#define WB_LAUNCH_BYTES (64ull << 20)

/*
 * Points are 0 up to WB_ZERO_SPEEDUP over the naive (5%: the most two runs
 * of one code differ; below it a code is not measurably faster than the
 * naive), then linear from tier to tier, the tiers as the lab wrote them
 * (shares of the speed of light) on every GPU (scale.h). Where the gate is
 * above the first tier (a GPU whose naive comes close to the speed of
 * light) points rise from the first tier's share / WB_TIER_STEP, as where
 * it is not, cut at the gate; a course's fixed speedups start at the first
 * one's / WB_TIER_STEP where the gate is above it.
 */
#define WB_ZERO_SPEEDUP 1.05
#define WB_TIER_STEP 1.03

/* The L2 flush writes max(2 x L2, this) bytes before every sample: twice
 * the L2 evicts every line whatever the replacement policy. */
#define WB_FLUSH_MIN_BYTES (32u << 20)

/* Guard regions around every buffer (inputs, outputs and the workspace).
 * 256 bytes before keeps the buffer at
 * cudaMalloc's 256-byte alignment; 4 KiB after catches a missing tail guard
 * even when a whole block of 1024 threads runs past the end. */
#define WB_GUARD_BEFORE 256u
#define WB_GUARD_AFTER 4096u

#endif /* WB_KNOBS_H */
