/* SPDX-License-Identifier: MIT */
/*
 * cmd_start.c - what the commands share (cmd.h): the start of a run (the
 * course file, the seed, the GPU and its calibration), its rows and its
 * heading.
 */
#include "cmd.h"

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "labs.h"
#include "proc.h"
#include "sanitize.h"

static unsigned long long fresh_seed(void)
{
	unsigned int x = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &x, sizeof(x)) != (ssize_t)sizeof(x))
		x = (unsigned int)getpid() ^ (unsigned int)time(NULL);
	if (fd >= 0)
		close(fd);
	return x;
}

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3". */
static void model_slug(const char *name, char *out, size_t n)
{
	size_t k = 0;

	for (; *name && k + 1 < n; name++) {
		if (isalnum((unsigned char)*name))
			out[k++] = (char)tolower((unsigned char)*name);
		else if (k && out[k - 1] != '-')
			out[k++] = '-';
	}
	while (k && out[k - 1] == '-')
		k--;
	out[k] = '\0';
}

/*
 * With no COURSE=, the calibration make calibrate wrote for this GPU model
 * (CALIBRATIONS/<model>.conf), if there is one, is read as course settings
 * (the same format): the tiers it measured there. 0, or -1 (why in err)
 * when the file is there but wrong.
 */
static int calibration(struct options *o, const struct g_device *dev,
		       struct course *c, char *err, size_t n)
{
	char slug[128];

	if (o->course || !o->calibrations || o->mode == G_BUILD_ONLY ||
	    !dev->name[0])
		return 0;
	model_slug(dev->name, slug, sizeof(slug));
	snprintf(o->calib_path, sizeof(o->calib_path), "%s/%s.conf",
		 o->calibrations, slug);
	if (!file_exists(o->calib_path))
		return 0;
	if (course_load(o->calib_path, c, err, n) ||
	    course_check_names(c, o->labs_dir, err, n))
		return -1;
	o->course = o->calib_path;
	return 0;
}

static void on_interrupt(int sig)
{
	(void)sig;
	proc_kill_current();
	_exit(130);
}

int cmd_start(struct cmd_state *st)
{
	struct options *o = &st->o;
	struct g_run *run = &st->run;
	char err[1024];

	/* Some exercises always run compute-sanitizer: find it once. */
	o->sanitizer_found = san_locate(o->sanitizer, getenv("CUDA_HOME") ?
					getenv("CUDA_HOME") : "/usr/local/cuda",
					getenv("PATH"), o->sanitizer_at,
					sizeof(o->sanitizer_at));
	if (o->reference_dir)
		mkdir(o->reference_dir, 0755); /* one level: under the build */
	/* A mistake in the course settings stops everything, GPU or not. */
	if (o->course &&
	    (course_load(o->course, &st->course, err, sizeof(err)) ||
	     course_check_names(&st->course, o->labs_dir, err, sizeof(err)))) {
		fprintf(stderr, "grader: %s\n", err);
		return 2;
	}
	memset(run, 0, sizeof(*run));
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	run->source = o->source;
	run->mode = o->mode;
	run->seed = o->have_seed ? o->seed : fresh_seed();
	o->seed = run->seed;
	run->rows = st->rows;
	/* No results file may outlive the run it does not describe. */
	report_outputs_remove(&o->out);
	/* One grading run per GPU, from the bandwidth probe on (gpustate.h). */
	if (o->mode != G_BUILD_ONLY) {
		gpu_begin(&st->gpu);
		if (device_probe(o->devinfo, o->build_dir, o->probe_file,
				 &run->dev))
			return 2;
	}
	gpu_peaks(&st->gpu, &run->dev);
	if (calibration(o, &run->dev, &st->course, err, sizeof(err))) {
		fprintf(stderr, "grader: %s\n", err);
		return 2;
	}
	run->calibration = o->course && o->course == o->calib_path;
	return 0;
}

int cmd_rows(struct cmd_state *st)
{
	struct options *o = &st->o;
	struct labs_query q = { o->labs_dir, o->build_dir, o->lab, o->ex,
				o->mode == G_BUILD_ONLY };
	char err[1024];

	st->run.nrows = labs_collect(&q, o->course ? &st->course : NULL,
				     st->rows, CMD_MAX_ROWS);
	if (st->run.nrows < 0)
		return 2;
	if (o->course &&
	    course_apply_run(&st->course, &st->run, err, sizeof(err))) {
		fprintf(stderr, "grader: %s\n", err);
		return 2;
	}
	return 0;
}

void cmd_header(const struct cmd_state *st)
{
	const struct options *o = &st->o;
	const struct g_run *run = &st->run;

	if (o->mode == G_BUILD_ONLY) {
		printf("Checking %s without a GPU: each exercise built and "
		       "inspected, no kernel run\n", o->source);
		fflush(stdout); /* before any line of the progress */
		return;
	}
	printf("%s %s on %s (sm_%d, %d SMs, %.0f MB L2, driver %s)\n",
	       o->profile_only ? "Profiling" :
	       o->mode == G_BENCH ? "Benchmarking" : "Grading", o->source,
	       run->dev.name, run->dev.cc, run->dev.sms, run->dev.l2_mb,
	       run->dev.driver);
	printf("copy bandwidth %.0f GB/s", run->dev.copy_gbps);
	if (run->dev.launch_us > 0)
		printf(", a kernel launch %.1f us (%.1f us waited for)",
		       run->dev.launch_us, run->dev.launch_sync_us);
	printf(" (measured now); seed %llu\n", run->seed);
}
