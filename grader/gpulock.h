/* SPDX-License-Identifier: MIT */
/*
 * gpulock.h - the per-GPU lock file, shared by the grader (gpustate.c)
 * and make batch (tools/batch): one timing run per GPU on a machine,
 * whoever starts it.
 *
 * The lock is an exclusive flock() on <dir>/cuda-workbook-gpu-<id>.lock,
 * id the GPU's UUID (or "cuda<N>" where none is known), every character
 * but letters, digits and '-' made '_'. The file is made readable and
 * writable by every user, so that any user's grader may take it; the
 * holder writes its pid into it for the message the others print.
 */
#ifndef GRADER_GPULOCK_H
#define GRADER_GPULOCK_H

#include <stddef.h>

/* The lock file's path for GPU id in dir (NULL or "": /tmp). */
void gpu_lock_path(char *buf, size_t n, const char *dir, const char *id);

/* Open (or make) the lock file: a descriptor, or -1 with errno. */
int gpu_lock_open(const char *path);

/* Take the lock on fd without waiting: 0 taken, -1 someone holds it. */
int gpu_lock_try(int fd);

/* Write this process's pid into the lock file (a courtesy: a read-only
 * descriptor locks all the same). */
void gpu_lock_note_pid(int fd);

#endif
