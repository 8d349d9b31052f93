/* SPDX-License-Identifier: MIT */
/*
 * device.c - the GPU and its measured rates, from devinfo --probe in a
 * child process (device.h).
 */
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "proc.h"

#define DEVICE_PATH 1024

/* Seconds allowed to the device probe. */
#define PROBE_TIMEOUT_S 120.0

/* How old a --probe-file may be and still stand for a probe of now: make
 * grade writes it seconds before the grader starts; an older one (a build
 * that waited, a file left behind) is not used. */
#define PROBE_FRESH_S 120

/*
 * devinfo --probe, its output to out: key value lines; exit 2 and one line
 * when no GPU, which is printed. 0, or -1 (out then removed). The lines
 * are written beside out first, so that out is never a partial probe.
 */
int device_probe_to(const char *devinfo, const char *out)
{
	char tmp[DEVICE_PATH + 8], *text;
	char *argv[] = { (char *)devinfo, "--probe", NULL };
	struct proc_result pr;

	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	remove(out);
	if (!file_exists(devinfo)) {
		fprintf(stderr, "grader: %s is not built\n", devinfo);
		return -1;
	}
	if (proc_run(argv, tmp, PROBE_TIMEOUT_S, &pr) < 0)
		return -1;
	if (pr.exited && pr.code == 0)
		return rename(tmp, out) ? -1 : 0;
	text = read_file(tmp, 1 << 16);
	if (text) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = '\0';
	}
	printf("%s\n", text && *text ? text : "no usable CUDA GPU was found");
	free(text);
	remove(tmp);
	return -1;
}

/* Is path a probe written in the last PROBE_FRESH_S seconds? */
static int probe_fresh(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) && time(NULL) - st.st_mtime >= 0 &&
	       time(NULL) - st.st_mtime <= PROBE_FRESH_S;
}

/*
 * The GPU and its measured rates: probe_file when make grade has just
 * probed beside the build (under the same GPU lock a grading run takes:
 * the probe never overlaps another run's timing), else devinfo --probe
 * now. -1 when there is no usable GPU (said) or the probe failed.
 */
int device_probe(const char *devinfo, const char *build_dir,
		 const char *probe_file, struct g_device *dev)
{
	char out[DEVICE_PATH], *text, *save = NULL;
	const char *path = out;

	snprintf(out, sizeof(out), "%s/devinfo.out", build_dir);
	if (probe_fresh(probe_file))
		path = probe_file;
	else if (device_probe_to(devinfo, out))
		return -1;
	text = read_file(path, 1 << 16);
	if (!text)
		return -1;
	memset(dev, 0, sizeof(*dev));
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "name ", 5))
			snprintf(dev->name, sizeof(dev->name), "%s", l + 5);
		else if (!strncmp(l, "driver ", 7))
			snprintf(dev->driver, sizeof(dev->driver), "%s", l + 7);
		else if (sscanf(l, "cc %d", &dev->cc) != 1 &&
			 sscanf(l, "sms %d", &dev->sms) != 1 &&
			 sscanf(l, "l2_mb %lf", &dev->l2_mb) != 1 &&
			 sscanf(l, "mem_gb %lf", &dev->mem_gb) != 1 &&
			 sscanf(l, "read_gbps %lf", &dev->read_gbps) != 1 &&
			 sscanf(l, "write_gbps %lf", &dev->write_gbps) != 1 &&
			 sscanf(l, "clock_mhz %lf", &dev->clock_mhz) != 1 &&
			 sscanf(l, "fp32_tflops %lf", &dev->fp32_tflops) != 1 &&
			 sscanf(l, "launch_us %lf", &dev->launch_us) != 1 &&
			 sscanf(l, "launch_sync_us %lf",
				&dev->launch_sync_us) != 1)
			sscanf(l, "copy_gbps %lf", &dev->copy_gbps);
	}
	free(text);
	/* Used once: a later run probes again unless make grade did. */
	if (path != out)
		remove(path);
	return 0;
}

