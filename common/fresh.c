/* SPDX-License-Identifier: MIT */
/*
 * fresh.c - two input sets for the timed calls, so that no call can reuse
 * an earlier one's result.
 *
 * At a benchmark shape, setup() runs a second time with another seed and
 * gives set B; set A is the one every check so far used. Both stay on the
 * device. Before every timed sample (of every implementation) one of the
 * two is copied into the input buffers, chosen by a random sequence drawn
 * from the seed: the copy is device to device, before the L2 flush, outside
 * the timed region. In-out buffers are restored from the chosen set's
 * initial contents. The host pointers follow the set in use, so check()
 * always compares with the reference of the inputs the code really saw.
 *
 * After timing, the runner checks the last timed output (against its own
 * set) and then makes one more call on the other set: a result kept from
 * an earlier call, keyed by pointer, by size or by call count, is wrong
 * there. A submission that recognises the two sets by their contents and
 * replays results can pass these checks; it then runs impossibly fast, and
 * the driver's bandwidth ceiling (SUSPICIOUS) catches it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "workbook.h"

#define NSETS 2

struct fresh {
	int on;
	struct wb_ctx alt;                  /* set B's host side */
	void *dev[NSETS][WB_MAX_BUFS];      /* device copies, per set */
	void *host[NSETS][WB_MAX_BUFS];     /* inputs: host; in-out: init */
	void *init_dev_a[WB_MAX_BUFS];      /* set A's in-out device copy */
	int cur;                            /* set in the buffers now */
	int last_student;                   /* set of the student's last call */
	struct wb_rng order;                /* which set each sample gets */
};

static struct fresh fr;

static int carries_input(const struct wb_buf *b)
{
	return b->kind == WB_IN || b->kind == WB_INOUT;
}

/* Set B must have the same buffers as set A, or the swap makes no sense. */
static int same_layout(const struct wb_ctx *c, const struct wb_ctx *alt)
{
	int n = c->nbuf - (c->work ? 1 : 0);

	if (alt->nbuf != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (alt->buf[i].kind != c->buf[i].kind ||
		    alt->buf[i].bytes != c->buf[i].bytes)
			return 0;
	return 1;
}

/* A device copy of bytes at src (host or device); NULL if out of memory. */
static void *dev_copy(const void *src, size_t bytes, enum cudaMemcpyKind k)
{
	void *p = NULL;

	if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
		cudaGetLastError(); /* not sticky: clear it and do without */
		return NULL;
	}
	WB_CUDA(cudaMemcpy(p, src, bytes, k));
	return p;
}

static void release(struct wb_ctx *c)
{
	for (int i = 0; i < WB_MAX_BUFS; i++) {
		if (fr.dev[1][i])
			cudaFree(fr.dev[1][i]);
		if (fr.dev[0][i] && c->buf[i].kind == WB_IN)
			cudaFree(fr.dev[0][i]);
	}
	wb_bufs_free(&fr.alt);
	memset(&fr, 0, sizeof(fr));
}

int wb_fresh_start(struct wb_ctx *c, uint64_t seed)
{
	uint64_t s = wb_seed_mix(wb_seed_mix(seed, c->ex->name), c->size->label);

	memset(&fr, 0, sizeof(fr));
	fr.alt.ex = c->ex;
	fr.alt.size = c->size;
	wb_rng_seed(&fr.alt.rng, wb_seed_mix(s, "timed inputs, set B"));
	wb_rng_seed(&fr.order, wb_seed_mix(s, "timed inputs, order"));
	wb_where("setting up the second input set at %s", c->size->label);
	if (c->ex->setup(&fr.alt) || !same_layout(c, &fr.alt))
		wb_die("setup of %s at %s gave a different layout the second "
		       "time", c->ex->name, c->size->label);
	for (int i = 0; i < fr.alt.nbuf; i++) {
		struct wb_buf *a = &c->buf[i], *b = &fr.alt.buf[i];

		if (!carries_input(a)) {
			free(b->host); /* set B's outputs are never used */
			b->host = NULL;
			continue;
		}
		fr.host[0][i] = a->kind == WB_IN ? a->host : a->init;
		fr.host[1][i] = b->host;
		fr.dev[0][i] = a->kind == WB_IN ?
			dev_copy(a->dev, a->bytes, cudaMemcpyDeviceToDevice) :
			a->init_dev;
		fr.dev[1][i] = dev_copy(b->host, b->bytes,
					cudaMemcpyHostToDevice);
		fr.init_dev_a[i] = a->init_dev;
		if (!fr.dev[0][i] || !fr.dev[1][i]) {
			printf("  (not enough device memory for a second input "
			       "set: timed calls reuse the checked inputs)\n");
			release(c);
			return -1;
		}
	}
	fr.on = 1;
	return 0;
}

/* Put set s in the buffers (a device-to-device copy, stream 0). */
static void use_set(struct wb_ctx *c, int s)
{
	if (!fr.on || s == fr.cur)
		return;
	for (int i = 0; i < fr.alt.nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		if (b->kind == WB_IN) {
			WB_CUDA(cudaMemcpyAsync(b->dev, fr.dev[s][i], b->bytes,
						cudaMemcpyDeviceToDevice, 0));
			b->host = fr.host[s][i];
		} else if (b->kind == WB_INOUT) {
			/* Restored from here before the next call. */
			b->init_dev = fr.dev[s][i];
			b->init = fr.host[s][i];
		}
	}
	fr.cur = s;
}

void wb_fresh_next(struct wb_ctx *c, enum wb_impl impl)
{
	int s;

	if (!fr.on)
		return;
	s = (int)(wb_rng_u64(&fr.order) >> 63);
	use_set(c, s);
	if (impl == WB_STUDENT)
		fr.last_student = s;
}

int wb_fresh_flip(struct wb_ctx *c)
{
	if (!fr.on)
		return -1;
	use_set(c, !fr.last_student);
	return 0;
}

void wb_inputs_reload(struct wb_ctx *c)
{
	for (int i = 0; i < c->nbuf; i++)
		if (c->buf[i].kind == WB_IN)
			WB_CUDA(cudaMemcpy(c->buf[i].dev, c->buf[i].host,
					   c->buf[i].bytes, cudaMemcpyHostToDevice));
}

void wb_fresh_end(struct wb_ctx *c)
{
	if (!fr.on)
		return;
	/* Set A's pointers back, so that wb_bufs_free() frees its own. */
	for (int i = 0; i < fr.alt.nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		if (b->kind == WB_IN) {
			b->host = fr.host[0][i];
		} else if (b->kind == WB_INOUT) {
			b->init = fr.host[0][i];
			b->init_dev = fr.init_dev_a[i];
		}
	}
	release(c);
}
