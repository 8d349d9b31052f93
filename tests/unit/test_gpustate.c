/* SPDX-License-Identifier: MIT */
/*
 * test_gpustate.c - grader/run/gpustate.c without a GPU: NVML absent gives one
 * plain line and no failure; the peaks from NVML's figures; how a snapshot
 * reads; which conditions warn; the per-GPU lock keeps a second grader
 * out and says who holds it, and make batch's side of it (gpulock.h) is
 * the same lock.
 */
#include "unit.h"

#include "gpulock.h"
#include "gpustate.h"

static void nvml_absent(void **state)
{
	struct gpu_state g;
	struct gpu_snap s;
	struct g_run run;
	struct g_device dev;

	(void)state;
	assert_int_equal(gpu_open(&g, "libnvidia-ml-not-here.so.1"), -1);
	assert_null(g.nvml);
	assert_contains(g.why, "NVML");
	gpu_snapshot(&g, &s);
	assert_int_equal(s.ok, 0);
	gpu_after_exercise(&g);
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "NVIDIA H200");
	gpu_peaks(&g, &dev);
	assert_near(dev.dram_gbps, 0, 0);
	assert_near(dev.fp32_tflops, 0, 0);
	memset(&run, 0, sizeof(run));
	gpu_report_start(&g, &run, NULL);
	assert_contains(run.condition, "GPU condition: not recorded (NVML");
	/* No lock was taken in this test: it says so too. */
	assert_contains(run.condition, "GPU lock: not taken");
	gpu_report_end(&g, &run, NULL);
	assert_null(strstr(run.condition, "GPU at the end"));
	gpu_close(&g);
}

static void peaks(void **state)
{
	(void)state;
	/* H100 SXM: 2619 MHz, 5120 bits; 132 SMs at 1980 MHz. */
	assert_near(gpu_dram_gbps(2619, 5120), 3352.32, 1e-6);
	assert_near(gpu_fp32_tflops(90, 132, 1980), 66.90816, 1e-9);
	/* A T4 (sm_75, 64 lanes): 40 SMs at 1590 MHz; GDDR6 5001 MHz x 256. */
	assert_near(gpu_fp32_tflops(75, 40, 1590), 8.1408, 1e-9);
	assert_near(gpu_dram_gbps(5001, 256), 320.064, 1e-6);
	assert_near(gpu_dram_gbps(0, 5120), 0, 0);
	assert_near(gpu_fp32_tflops(0, 132, 1980), 0, 0);
}

static void describe(void **state)
{
	struct gpu_snap s = {
		.ok = 1, .sm_mhz = 1980, .mem_mhz = 3201, .temp_c = 41,
		.util = 0, .reasons = 0x1 | 0x4, .procs = 0,
	};
	char line[320];

	(void)state;
	gpu_describe(&s, line, sizeof(line));
	assert_string_equal(line, "SM 1980 MHz, memory 3201 MHz, 41 C, 0% busy, "
				  "clock events: idle, power cap, other "
				  "processes: 0");
	s.reasons = 0;
	gpu_describe(&s, line, sizeof(line));
	assert_contains(line, "clock events: none");
	s.ok = 0;
	gpu_describe(&s, line, sizeof(line));
	assert_string_equal(line, "not read");
}

static void warnings(void **state)
{
	struct gpu_state g;
	char buf[1024];

	(void)state;
	memset(&g, 0, sizeof(g));
	g.start.ok = g.end.ok = 1;
	g.start.reasons = g.end.reasons = 0x1 | 0x4; /* idle, power cap */
	assert_int_equal(gpu_warnings(&g, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");

	g.procs_seen = 2;
	g.start.util = 60;
	g.reasons_seen = 0x40; /* HW thermal slowdown */
	g.max_seen_mhz = 1980;
	g.min_sm_mhz = 1500;
	assert_int_equal(gpu_warnings(&g, buf, sizeof(buf)), 4);
	assert_contains(buf, "another process was using the GPU (2 seen)");
	assert_contains(buf, "60% busy before grading started");
	assert_contains(buf, "HW thermal slowdown");
	assert_contains(buf, "from 1980 MHz to 1500 MHz");

	/* A small dip is not a fall. */
	memset(&g, 0, sizeof(g));
	g.max_seen_mhz = 1980;
	g.min_sm_mhz = 1900;
	assert_int_equal(gpu_warnings(&g, buf, sizeof(buf)), 0);
}

static void lock_keeps_a_second_grader_out(void **state)
{
	struct gpu_state a, b;
	char *dir = unit_tmpdir(), *msg = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	assert_non_null(dir);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.lock_fd = b.lock_fd = -1;
	snprintf(a.uuid, sizeof(a.uuid), "GPU-1234/abcd");
	snprintf(b.uuid, sizeof(b.uuid), "GPU-1234/abcd");
	assert_int_equal(gpu_lock(&a, dir, NULL, 0), 0);
	/* The file is named after the GPU, made safe for a path. */
	assert_contains(a.lock_path, "/cuda-workbook-gpu-GPU-1234_abcd.lock");
	m = open_memstream(&msg, &len);
	assert_int_equal(gpu_lock(&b, dir, m, 0), 1);
	fclose(m);
	assert_contains(msg, "another grading run is using this GPU (pid ");
	free(msg);
	/* Another GPU has its own lock. */
	snprintf(b.uuid, sizeof(b.uuid), "GPU-5678");
	assert_int_equal(gpu_lock(&b, dir, NULL, 0), 0);
	gpu_close(&b);
	/* Released when its holder closes it (or exits). */
	gpu_close(&a);
	snprintf(b.uuid, sizeof(b.uuid), "GPU-1234/abcd");
	assert_int_equal(gpu_lock(&b, dir, NULL, 0), 0);
	gpu_close(&b);
	unit_rmdir(dir);
}

/* make batch's side of the lock (gpulock.h): the path it computes for a
 * GPU is the grader's, and a lock either takes keeps the other out. */
static void batch_and_grader_share_the_lock(void **state)
{
	struct gpu_state g;
	char *dir = unit_tmpdir(), path[512];
	int fd;

	(void)state;
	assert_non_null(dir);
	gpu_lock_path(path, sizeof(path), dir, "MIG-7/x,GPU-2");
	assert_contains(path, "/cuda-workbook-gpu-MIG-7_x.lock");
	gpu_lock_path(path, sizeof(path), "", "cuda1");
	assert_string_equal(path, "/tmp/cuda-workbook-gpu-cuda1.lock");
	memset(&g, 0, sizeof(g));
	g.lock_fd = -1;
	snprintf(g.uuid, sizeof(g.uuid), "GPU-9");
	gpu_lock_path(path, sizeof(path), dir, g.uuid);
	fd = gpu_lock_open(path);
	assert_true(fd >= 0);
	assert_int_equal(gpu_lock_try(fd), 0);
	gpu_lock_note_pid(fd);
	assert_int_equal(gpu_lock(&g, dir, NULL, 0), 1);
	assert_string_equal(g.lock_path, path);
	close(fd);
	assert_int_equal(gpu_lock(&g, dir, NULL, 0), 0);
	fd = gpu_lock_open(path);
	assert_int_equal(gpu_lock_try(fd), -1);
	close(fd);
	gpu_close(&g);
	unit_rmdir(dir);
}

static void lock_without_a_folder(void **state)
{
	struct gpu_state g;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.lock_fd = -1;
	assert_int_equal(gpu_lock(&g, "/nonexistent/wb-lock-dir", NULL, 0), -1);
	assert_int_equal(g.lock_fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvml_absent),
		cmocka_unit_test(peaks),
		cmocka_unit_test(describe),
		cmocka_unit_test(warnings),
		cmocka_unit_test(lock_keeps_a_second_grader_out),
		cmocka_unit_test(batch_and_grader_share_the_lock),
		cmocka_unit_test(lock_without_a_folder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
