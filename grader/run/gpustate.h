/* SPDX-License-Identifier: MIT */
/*
 * gpustate.h - the GPU's condition during a grading run, and one grading
 * run per GPU at a time (docs/grading.md, "GPU condition").
 *
 * NVML, which ships with the driver, is opened with dlopen: no build
 * dependency, and without it one plain line says the condition was not
 * recorded. The driver records the device, driver, SM and memory clocks,
 * temperature and clock-event (throttle) reasons at the start, after every
 * exercise and at the end; it warns when another process used the GPU,
 * the GPU was busy before grading, a thermal or hardware slowdown was
 * active, or the SM clock fell during the run. It also gives the DRAM's and
 * the fp32 cores' peaks for the SUSPICIOUS ceilings (plausible.h).
 *
 * The lock: an exclusive flock() on /tmp/cuda-workbook-gpu-<UUID>.lock (or
 * $WB_LOCK_DIR), held from before the copy-bandwidth probe to the end, so
 * that two grading runs on one GPU never time each other.
 */
#ifndef GRADER_GPUSTATE_H
#define GRADER_GPUSTATE_H

#include <stdio.h>

#include "grade.h"

struct gpu_snap {
	int ok;
	unsigned sm_mhz, mem_mhz, temp_c, util;
	unsigned long long reasons; /* NVML clock-event reasons (bits) */
	unsigned procs;             /* other processes NVML can see */
};

struct gpu_nvml; /* the dlopen'ed functions (gpustate.c) */

struct gpu_state {
	struct gpu_nvml *nvml;  /* NULL: NVML not available */
	void *dev;              /* its nvmlDevice_t */
	char why[160];          /* why not, when not */
	char name[96];
	char uuid[96];
	char driver[32];
	unsigned max_sm_mhz, max_mem_mhz, bus_bits;
	struct gpu_snap start, end;
	unsigned min_sm_mhz;    /* lowest SM clock seen after an exercise */
	unsigned max_seen_mhz;  /* highest */
	unsigned long long reasons_seen;
	unsigned procs_seen;
	int lock_fd;
	char lock_path[512];
};

/*
 * Open NVML from lib (NULL: "libnvidia-ml.so.1") and pick the device the
 * runners use (CUDA_VISIBLE_DEVICES' first entry, else device 0).
 * Returns 0, or -1 with the reason in g->why; never fails the run.
 */
int gpu_open(struct gpu_state *g, const char *lib);
void gpu_close(struct gpu_state *g);

/* Read the device's condition now. */
void gpu_snapshot(struct gpu_state *g, struct gpu_snap *s);

/* After an exercise: note its clocks, reasons and other processes. */
void gpu_after_exercise(struct gpu_state *g);

/*
 * Take the GPU's lock in dir (NULL: $WB_LOCK_DIR or /tmp). When another
 * grading run holds it, say so on msg and wait (wait = 1) or return 1.
 * 0 when taken; -1 when no lock file can be made (the run then goes on
 * unlocked, and says so).
 */
int gpu_lock(struct gpu_state *g, const char *dir, FILE *msg, int wait);

/* All of the start: open NVML, take the lock (waiting with a message on
 * stderr), and read the condition before anything of ours runs. */
void gpu_begin(struct gpu_state *g);

/* The DRAM's peak in GB/s from NVML's memory clock and bus width, and
 * the CUDA cores' fp32 peak in TFLOP/s; 0 when an input is unknown. */
double gpu_dram_gbps(unsigned max_mem_mhz, unsigned bus_bits);
double gpu_fp32_tflops(int cc, int sms, unsigned max_sm_mhz);

/* Fill dev's peaks from NVML, if it describes the device devinfo found. */
void gpu_peaks(struct gpu_state *g, struct g_device *dev);

/* One snapshot as a line: "SM 1980 MHz, memory 3201 MHz, 41 C, ...". */
void gpu_describe(const struct gpu_snap *s, char *buf, size_t n);

/* The start line(s), for the header and run->condition. */
void gpu_report_start(struct gpu_state *g, struct g_run *run, FILE *f);
/* The end snapshot and the warnings, into run->condition (and f). */
void gpu_report_end(struct gpu_state *g, struct g_run *run, FILE *f);

/* The warnings for what was seen; returns how many (lines into buf). */
int gpu_warnings(const struct gpu_state *g, char *buf, size_t n);

#endif /* GRADER_GPUSTATE_H */
