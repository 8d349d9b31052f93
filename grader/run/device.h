/* SPDX-License-Identifier: MIT */
/*
 * device.h - the GPU a run grades on: devinfo --probe (common/devinfo.cu)
 * run in a child, its key-value lines read into a struct g_device. The
 * grader itself never touches the GPU.
 *
 * May use: the base (grade.h, proc.h).
 */
#ifndef GRADER_DEVICE_H
#define GRADER_DEVICE_H

#include "grade.h"

/* devinfo --probe into out; 0, or -1 with the probe's one line (no GPU)
 * printed. */
int device_probe_to(const char *devinfo, const char *out);

/* The GPU: probe_file where make grade has just probed beside the build
 * (and it is fresh), else a probe now into build_dir/devinfo.out. 0, or
 * -1 when there is no usable GPU (said) or the probe failed. */
int device_probe(const char *devinfo, const char *build_dir,
		 const char *probe_file, struct g_device *dev);

#endif /* GRADER_DEVICE_H */
