/* SPDX-License-Identifier: MIT */
/*
 * devinfo.cu - what GPU is here, and how fast can it read, write, copy?
 *
 *   devinfo           a human summary (make doctor)
 *   devinfo --probe   "key value" lines for the grader's driver
 *   devinfo --check   nothing when a usable GPU is there (exit 0)
 *
 * With no usable GPU it prints one line saying why and exits 2.
 *
 * The bandwidths are measured with the harness's own probes (probe.h):
 * the best of two read-only kernels, of a write-only kernel and
 * cudaMemsetAsync, of a copy kernel and cudaMemcpyAsync, over 256 MiB (far
 * past any L2), each the median of PROBE_RUNS timed runs, and what an
 * empty kernel's launch costs (launch_cost()). The copy counts
 * bytes read plus bytes written. The runners measure the read and write
 * rates again, beside the code they judge; these, taken where no student
 * code was loaded, are what the grader compares them with.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe.h"
#include "workbook.h"

#define PROBE_BYTES (256u << 20)
#define PROBE_RUNS 15

void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line)
{
	printf("CUDA error %s in %s at %s:%d\n", cudaGetErrorName(err), call,
	       file, line);
	exit(3);
}

void wb_todo(const char *what, const char *file, int line)
{
	(void)what, (void)file, (void)line;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* GB/s of probe p over PROBE_BYTES: the median of PROBE_RUNS runs. */
static double probe_gbps(enum wb_probe p, void *a, void *b)
{
	float ms[PROBE_RUNS];
	cudaEvent_t e0, e1;

	CUDA_CHECK(cudaEventCreate(&e0));
	CUDA_CHECK(cudaEventCreate(&e1));
	for (int i = -3; i < PROBE_RUNS; i++) {
		CUDA_CHECK(cudaEventRecord(e0, 0));
		CUDA_CHECK(wb_probe_run(p, a, b, PROBE_BYTES));
		CUDA_CHECK(cudaEventRecord(e1, 0));
		CUDA_CHECK(cudaEventSynchronize(e1));
		if (i >= 0)
			CUDA_CHECK(cudaEventElapsedTime(&ms[i], e0, e1));
	}
	qsort(ms, PROBE_RUNS, sizeof(float), cmp_float);
	CUDA_CHECK(cudaEventDestroy(e0));
	CUDA_CHECK(cudaEventDestroy(e1));
	return wb_probe_moved(p, PROBE_BYTES) / (ms[PROBE_RUNS / 2] * 1e-3) / 1e9;
}

struct rates {
	double read, write, copy;
	double launch_us, launch_sync_us;
};

static double best(enum wb_probe p, enum wb_probe q, void *a, void *b)
{
	double x = probe_gbps(p, a, b), y = probe_gbps(q, a, b);

	return x > y ? x : y;
}

static void measure(struct rates *r)
{
	void *a, *b;

	CUDA_CHECK(wb_probe_init());
	CUDA_CHECK(cudaMalloc(&a, PROBE_BYTES));
	CUDA_CHECK(cudaMalloc(&b, PROBE_BYTES));
	CUDA_CHECK(wb_fill_pattern(a, PROBE_BYTES, 1));
	r->read = best(WB_PROBE_READ4, WB_PROBE_READ8, a, b);
	r->write = best(WB_PROBE_WRITE4, WB_PROBE_MEMSET, a, b);
	r->copy = best(WB_PROBE_COPY4, WB_PROBE_MEMCPY, a, b);
	CUDA_CHECK(cudaFree(a));
	CUDA_CHECK(cudaFree(b));
}

/*
 * What a launch costs. Queued: LAUNCH_BATCH empty kernels (probe.h's, on
 * a full grid) queued behind a spacer that outlasts their queueing, so
 * the events time the GPU going from one to the next: the cost each
 * extra kernel of an eager chain adds to a timed call. Waited for: one
 * launch and cudaDeviceSynchronize() on the host's clock, what a loop
 * that synchronises after every kernel pays. Medians of PROBE_RUNS.
 */
#define LAUNCH_BATCH 100

static double host_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void launch_cost(double *queued_us, double *waited_us)
{
	float ms[PROBE_RUNS], us[PROBE_RUNS];
	cudaEvent_t e0, e1;

	CUDA_CHECK(cudaEventCreate(&e0));
	CUDA_CHECK(cudaEventCreate(&e1));
	for (int i = -3; i < PROBE_RUNS; i++) {
		double t0;

		CUDA_CHECK(wb_spacer(LAUNCH_BATCH * 20.0));
		CUDA_CHECK(cudaEventRecord(e0, 0));
		for (int k = 0; k < LAUNCH_BATCH; k++)
			CUDA_CHECK(wb_probe_run(WB_PROBE_LAUNCH, NULL, NULL, 0));
		CUDA_CHECK(cudaEventRecord(e1, 0));
		CUDA_CHECK(cudaEventSynchronize(e1));
		t0 = host_us();
		CUDA_CHECK(wb_probe_run(WB_PROBE_LAUNCH, NULL, NULL, 0));
		CUDA_CHECK(cudaDeviceSynchronize());
		if (i < 0)
			continue;
		us[i] = (float)(host_us() - t0);
		CUDA_CHECK(cudaEventElapsedTime(&ms[i], e0, e1));
		ms[i] *= 1e3f / LAUNCH_BATCH;
	}
	qsort(ms, PROBE_RUNS, sizeof(float), cmp_float);
	qsort(us, PROBE_RUNS, sizeof(float), cmp_float);
	*queued_us = ms[PROBE_RUNS / 2];
	*waited_us = us[PROBE_RUNS / 2];
	CUDA_CHECK(cudaEventDestroy(e0));
	CUDA_CHECK(cudaEventDestroy(e1));
}

/* FP32 lanes per SM: 64 on Turing and the A100, 128 since (sm_86 on). */
static int fp32_lanes(int major, int minor)
{
	return major < 8 || (major == 8 && minor == 0) ? 64 : 128;
}

static void version(int v, char *buf, size_t n)
{
	snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

int main(int argc, char **argv)
{
	int probe = argc > 1 && strcmp(argv[1], "--probe") == 0;
	int check = argc > 1 && strcmp(argv[1], "--check") == 0;
	int count = 0, drv = 0, rt = 0, clock_khz = 0;
	char dbuf[16], rbuf[16];
	struct rates r;
	double fp32;
	cudaDeviceProp p;
	cudaError_t err = cudaGetDeviceCount(&count);

	if (err != cudaSuccess || count == 0) {
		printf("no CUDA GPU found: %s\n",
		       err == cudaErrorInsufficientDriver ?
			       "no NVIDIA driver is loaded (or it is older than "
			       "this CUDA toolkit)" :
		       err != cudaSuccess ? cudaGetErrorString(err) :
					    "the driver reports no devices");
		return 2;
	}
	CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
	CUDA_CHECK(cudaDriverGetVersion(&drv));
	CUDA_CHECK(cudaRuntimeGetVersion(&rt));
	version(drv, dbuf, sizeof(dbuf));
	version(rt, rbuf, sizeof(rbuf));
	if (p.major * 10 + p.minor < 75) {
		printf("the GPU %s has compute capability %d.%d; the workbook "
		       "needs 7.5 or newer\n", p.name, p.major, p.minor);
		return 2;
	}
	if (check)
		return 0;
	CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
	measure(&r);
	launch_cost(&r.launch_us, &r.launch_sync_us);
	/* The CUDA cores' fp32 peak at the highest SM clock: the ceiling of
	 * FLOP/s where NVML gives no clock (grader/score/plausible.c). */
	fp32 = 2.0 * p.multiProcessorCount * fp32_lanes(p.major, p.minor) *
	       clock_khz * 1e3 / 1e12;
	if (probe) {
		printf("name %s\ncc %d%d\nsms %d\nl2_mb %.1f\nmem_gb %.1f\n"
		       "driver %s\nruntime %s\ncopy_gbps %.1f\nread_gbps %.1f\n"
		       "write_gbps %.1f\nclock_mhz %.0f\nfp32_tflops %.2f\n"
		       "launch_us %.2f\nlaunch_sync_us %.2f\n",
		       p.name, p.major, p.minor, p.multiProcessorCount,
		       p.l2CacheSize / 1048576.0, p.totalGlobalMem / 1e9, dbuf,
		       rbuf, r.copy, r.read, r.write, clock_khz / 1e3, fp32,
		       r.launch_us, r.launch_sync_us);
		return 0;
	}
	printf("GPU          %s (%d visible)\n", p.name, count);
	printf("compute      %d.%d (build with SM=%d%d), %d SMs at up to %.0f "
	       "MHz\n", p.major, p.minor, p.major, p.minor,
	       p.multiProcessorCount, clock_khz / 1e3);
	printf("memory       %.1f GB, L2 %.0f MB\n", p.totalGlobalMem / 1e9,
	       p.l2CacheSize / 1048576.0);
	printf("CUDA         driver supports %s, runtime %s\n", dbuf, rbuf);
	printf("bandwidth    read %.0f, write %.0f, copy %.0f GB/s (256 MiB, the "
	       "best of the grader's probes; copy counts read + write)\n",
	       r.read, r.write, r.copy);
	printf("fp32         %.1f TFLOP/s peak on the CUDA cores\n", fp32);
	printf("launch       %.1f us an empty kernel, queued behind others; "
	       "%.1f us launched and waited for\n", r.launch_us,
	       r.launch_sync_us);
	return 0;
}
