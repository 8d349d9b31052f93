/* SPDX-License-Identifier: MIT */
/*
 * hostcheck.c - a lab's host exercise (sectors, roofline, passes: plain
 * host C, lab.mk's HOST_EXERCISES) graded on the CPU alone, with no GPU
 * and no CUDA driver: the lab's own setup(), run() and check() at every
 * size of its table, against a submission's file. make check builds one
 * for each such exercise it checks (<runner>.host), and the grader runs
 * it in build-only mode, where the real runner cannot run (it needs the
 * driver). In the student handout, which has no answer key (lab.mk's
 * ANSWERS), the exercise's hooks (its ex_*.c) judge by the worked cases
 * and the properties; in the instructor's copy the key is linked, and the
 * rule judges.
 *
 *   <runner>.host EXERCISE [SEED]
 *
 * Prints check()'s messages, each after the size it failed at, then
 * "EXERCISE PASS", "EXERCISE WRONG" or "EXERCISE SKELETON". Exit status:
 * 0 PASS, 1 WRONG, 3 SKELETON, 2 it could not be graded (no such
 * exercise, a setup() or CUDA call failed, the entry point is missing).
 *
 * It links the lab's C objects (lab.c, its table, and its ex_*.c, the
 * hooks) weakened (objcopy --weaken), so that what the lab's other
 * exercises need of the harness and the GPU stays NULL, with
 * common/rng.c, the submission's file compiled by the host
 * compiler, and the lab's answer key where the copy has one. This file
 * defines the harness and CUDA calls the host exercises' hooks make, with
 * host memory for device memory: nothing here loads the CUDA runtime or
 * the driver. What the real runner adds (poison, the lockdown) is not
 * here: a verdict here is about the checks alone, and make grade on a
 * GPU gives the one that counts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "workbook.h"

/* The exercise and the size being graded, for messages. */
static const char *ex_name = "", *size_label = "";

/* A buffer in host memory: its "device" side is the same memory. */
static void *buffer(struct wb_ctx *c, const char *name, size_t bytes,
		    enum wb_buf_kind kind)
{
	struct wb_buf *b;

	if (c->nbuf == WB_MAX_BUFS) {
		fprintf(stderr, "hostcheck: more than %d buffers\n",
			WB_MAX_BUFS);
		exit(2);
	}
	b = &c->buf[c->nbuf++];
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->kind = kind;
	b->bytes = bytes;
	b->host = calloc(1, bytes ? bytes : 1);
	if (!b->host) {
		fprintf(stderr, "hostcheck: out of memory\n");
		exit(2);
	}
	b->dev = b->host;
	return b->host;
}

void *wb_input(struct wb_ctx *c, const char *name, size_t bytes)
{
	return buffer(c, name, bytes, WB_IN);
}

void *wb_input_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh)
{
	(void)fresh;
	return buffer(c, name, bytes, WB_IN);
}

void *wb_input_rotated(struct wb_ctx *c, const char *name, size_t bytes,
		       size_t elem)
{
	(void)elem;
	return buffer(c, name, bytes, WB_IN);
}

void *wb_output(struct wb_ctx *c, const char *name, size_t bytes)
{
	return buffer(c, name, bytes, WB_OUT);
}

void *wb_inout(struct wb_ctx *c, const char *name, size_t bytes)
{
	return buffer(c, name, bytes, WB_INOUT);
}

void *wb_inout_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh)
{
	(void)fresh;
	return buffer(c, name, bytes, WB_INOUT);
}

void wb_fail(struct wb_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->failed)
		printf("%s: WRONG at %s\n", c->ex->name, size_label);
	c->failed = 1;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line)
{
	fprintf(stderr, "hostcheck: %s failed (%d) at %s:%d\n", call,
		(int)err, file, line);
	exit(2);
}

void wb_todo(const char *what, const char *file, int line)
{
	printf("%s:%d: WB_TODO(\"%s\")\n", file, line, what);
	printf("%s SKELETON\n", ex_name);
	exit(3);
}

/* run() copies the answers to the "device": here, the same memory. */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	(void)kind;
	if (dst != src)
		memmove(dst, src, count);
	return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
	*device = 0;
	return cudaSuccess;
}

/* An H100 SXM, as the driver reports it, for the roofline's "this GPU". */
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
				   int device)
{
	(void)device;
	switch (attr) {
	case cudaDevAttrComputeCapabilityMajor: *value = 9; break;
	case cudaDevAttrComputeCapabilityMinor: *value = 0; break;
	case cudaDevAttrMultiProcessorCount: *value = 132; break;
	case cudaDevAttrClockRate: *value = 1980000; break;
	case cudaDevAttrMemoryClockRate: *value = 2619000; break;
	case cudaDevAttrGlobalMemoryBusWidth: *value = 5120; break;
	default: return cudaErrorInvalidValue;
	}
	return cudaSuccess;
}

static void free_buffers(struct wb_ctx *c)
{
	for (int i = 0; i < c->nbuf; i++)
		free(c->buf[i].host);
}

/* One size: setup, the submission's run, check. 1 if it failed. */
static int grade_size(const struct wb_exercise *ex, const struct wb_size *s,
		      uint64_t seed)
{
	struct wb_ctx c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.ex = ex;
	c.size = s;
	size_label = s->label;
	wb_rng_seed(&c.rng, wb_seed_mix(seed, s->label));
	if (ex->setup(&c)) {
		fprintf(stderr, "hostcheck: %s: setup() failed at %s\n",
			ex->name, s->label);
		exit(2);
	}
	rc = ex->run(&c, WB_STUDENT);
	if (rc) {
		fprintf(stderr, "hostcheck: %s: run() returned %d at %s%s\n",
			ex->name, rc, s->label,
			rc == WB_MISSING ? " (no entry point)" : "");
		exit(2);
	}
	ex->check(&c);
	free_buffers(&c);
	return c.failed;
}

int main(int argc, char **argv)
{
	const struct wb_exercise *ex = NULL;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	int wrong = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s EXERCISE [SEED]\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < wb_lab.count; i++)
		if (!strcmp(wb_lab.exercises[i].name, argv[1]))
			ex = &wb_lab.exercises[i];
	if (!ex) {
		fprintf(stderr, "hostcheck: no exercise %s in %s\n", argv[1],
			wb_lab.name);
		return 2;
	}
	ex_name = ex->name;
	seed = wb_seed_mix(seed, ex->name);
	for (const struct wb_size *s = ex->sizes; s->label; s++)
		wrong |= grade_size(ex, s, seed);
	printf("%s %s\n", ex->name, wrong ? "WRONG" : "PASS");
	return wrong;
}
