/* SPDX-License-Identifier: MIT */
/*
 * probe.h - the harness's own kernels (probe.cu), callable from C.
 *
 *   the spacer   runs on every SM just before each timed sample, so that
 *                the sample's start event fires only once the host has
 *                queued the code under test (its launch latency is not
 *                timed) and no other stream's kernel can start early; it
 *                also measures the SM clock of that moment;
 *   the L2 clean a read pass over the flush buffer after the memset, so
 *                the sample starts with an L2 of clean lines and no
 *                write-back of the flush lands in the timed region;
 *   the probes   a kernel that reads and writes the bytes an exercise must
 *                (several 16-byte accesses in flight per thread, one
 *                launch like the code it judges): the speed of light of
 *                memory-bound exercises; and the compute peaks: fp32 FMA
 *                chains on the CUDA cores, mma.sync on the tensor cores,
 *                and wgmma on a Hopper GPU (peak_sm90.cu), the speed of
 *                light of compute-bound ones; all timed like the code they
 *                judge, in the same rounds;
 *   the perturbation  the fresh inputs of each timed round (fresh_hash.h).
 *
 * All of them run on the legacy default stream. Names of kernels are
 * internal to probe.cu: a submission cannot refer to them.
 */
#ifndef WB_PROBE_H
#define WB_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "fresh_hash.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The probe variants; each kind's best is picked per run (bench.c). */
enum wb_probe {
	WB_PROBE_READ4,   /* read, four 16-byte loads in flight per thread */
	WB_PROBE_READ8,   /* read, eight */
	WB_PROBE_WRITE4,  /* write, four 16-byte stores per thread */
	WB_PROBE_MEMSET,  /* write, cudaMemsetAsync */
	WB_PROBE_COPY4,   /* read and write, four of each in flight */
	WB_PROBE_MEMCPY,  /* read and write, cudaMemcpyAsync device to device */
	WB_PROBE_LAUNCH,  /* nothing: an empty kernel on the probes' grid, the
			   * fixed cost of one launch as a sample sees it */
	WB_PROBE_RW4,     /* read and write, any two sizes, in one kernel:
			   * four loads in flight */
	WB_PROBE_RW8,     /* the same, eight */
	WB_PROBE_DEP2,    /* the same, each store after its tile's loads */
	WB_PROBE_PHASED,  /* the same, all reads before all writes */
	/* compute peaks (wb_peak_run) */
	WB_PROBE_FMA,     /* fp32 FMA chains on the CUDA cores */
	WB_PROBE_MMA,     /* mma.sync m16n8k16, bf16 in, fp32 accumulate */
	WB_PROBE_WGMMA2,  /* wgmma m64n256k16 (sm_90), two warp groups an SM */
	WB_PROBE_WGMMA3,  /* the same, three */
	WB_PROBE_COUNT
};

/* Size the grids for this device. Every function returns the first CUDA
 * error it met, cudaSuccess otherwise. */
cudaError_t wb_probe_init(void);

/* Queue the spacer: every SM busy for about us microseconds. */
cudaError_t wb_spacer(double us);
/* The SM clock (MHz) the last spacer measured; valid after a sync. */
double wb_spacer_mhz(void);

/* Queue probe p over bytes of src and/or dst (16-byte aligned). */
cudaError_t wb_probe_run(enum wb_probe p, const void *src, void *dst,
			 size_t bytes);
/* Queue probe p (WB_PROBE_RW4, RW8, DEP2, PHASED) reading rbytes of src
 * and writing wbytes of dst, in one kernel; either may be 0. */
cudaError_t wb_probe_rw(enum wb_probe p, const void *src, size_t rbytes,
			void *dst, size_t wbytes);
/* Queue compute probe p for iters trips of its loop; FLOPs one launch of
 * that many trips does; whether this GPU and build can run it at all
 * (wgmma: a Hopper GPU and sm_90a code). */
cudaError_t wb_peak_run(enum wb_probe p, long long iters);
double wb_peak_flops(enum wb_probe p, long long iters);
int wb_peak_usable(enum wb_probe p);
/* peak_sm90.cu: its wgmma kernel with `groups` warp groups a block. */
int wb_wgmma_usable(void);
cudaError_t wb_wgmma_run(int groups, long long iters, float *sink);
double wb_wgmma_flops(int groups, long long iters);

/* Whether a kernel could hold wbytes of output until its reads are done
 * (they fit in the L2): where the phased probe is a limit. */
int wb_probe_phased_ok(size_t wbytes);
/* Bytes a probe of size bytes moves: twice the size for a copy. */
double wb_probe_moved(enum wb_probe p, size_t bytes);
const char *wb_probe_name(enum wb_probe p);

/* Queue dst = src with the bits of `kind` flipped by key (fresh_hash.h). */
cudaError_t wb_perturb(void *dst, const void *src, size_t bytes,
		       enum wb_fresh kind, uint64_t key);

/* Queue fill of bytes at dst with a pattern (probe sources). */
cudaError_t wb_fill_pattern(void *dst, size_t bytes, uint32_t seed);

#ifdef __cplusplus
}
#endif

#endif /* WB_PROBE_H */
