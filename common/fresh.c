/* SPDX-License-Identifier: MIT */
/*
 * fresh.c - new inputs for every timed round, so that no timed call sees
 * inputs an earlier call saw.
 *
 * At a benchmark shape, once the checks have passed, the inputs as setup()
 * made them are kept in device copies. Before each timing round every
 * input the lab declared perturbable (wb_input_as) is rewritten from its
 * copy with a few bits flipped (fresh_hash.h: the lowest mantissa bits of
 * a float, any bits where any value is valid), under a key of that round;
 * in-out buffers are restored the same way before every call. All the
 * implementations of a round see the same inputs, and the copy is queued
 * before the L2 flush: it is not timed.
 *
 * A result kept from an earlier call, keyed by pointer, size, call count or
 * content, is then wrong: the runner checks the student's output of
 * random timed rounds, and of one more call after the timing, against
 * the inputs of that very call. For that the host redoes the round's
 * perturbation on its own copy of the inputs (wb_fresh_host_begin), so
 * what is checked is what the harness put there, not what the device
 * holds now.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "fate.h"
#include "fresh.h"
#include "probe.h"
#include "workbook.h"

struct fresh {
	int on;                        /* copies kept: rounds perturb */
	uint64_t base;                 /* keys come from the seed */
	uint64_t key;                  /* the round in the buffers now */
	void *copy[WB_MAX_BUFS];       /* device: inputs as setup() made them */
	void *host_orig[WB_MAX_BUFS];  /* host side while a round's is in use */
	void *host_round[WB_MAX_BUFS]; /* where a round's host side is made
					* (kept: no fresh pages per check) */
};

static struct fresh fr;

static int perturbable(const struct wb_buf *b)
{
	return b->fresh != WB_FRESH_NONE &&
	       (b->kind == WB_IN || b->kind == WB_INOUT);
}

int wb_fresh_start(struct wb_ctx *c, uint64_t seed)
{
	memset(&fr, 0, sizeof(fr));
	fr.base = wb_seed_mix(wb_seed_mix(wb_seed_mix(seed, c->ex->name),
					  c->size->label), "fresh inputs");
	wb_where("keeping the inputs at %s", c->size->label);
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		/* In-out buffers restore from init_dev, a copy already. */
		if (b->kind != WB_IN || b->fresh == WB_FRESH_NONE)
			continue;
		if (cudaMalloc(&fr.copy[i], b->bytes ? b->bytes : 1) !=
		    cudaSuccess) {
			cudaGetLastError(); /* not sticky: do without */
			printf("  (not enough device memory to keep the inputs: "
			       "the timed calls reuse the checked inputs)\n");
			wb_fresh_end(c);
			return -1;
		}
		WB_CUDA(cudaMemcpy(fr.copy[i], b->dev, b->bytes,
				   cudaMemcpyDeviceToDevice));
	}
	fr.on = 1;
	return 0;
}

void wb_fresh_round(struct wb_ctx *c, uint64_t r)
{
	if (!fr.on)
		return;
	fr.key = wb_seed_mix(fr.base ^ r, "round");
	for (int i = 0; i < c->nbuf; i++)
		if (fr.copy[i])
			WB_CUDA(wb_perturb(c->buf[i].dev, fr.copy[i],
					   c->buf[i].bytes, c->buf[i].fresh,
					   fr.key));
}

void wb_fresh_prepare(struct wb_ctx *c)
{
	wb_bufs_reset(c, fr.on, fr.key);
}

/* One buffer's perturbation, shared out in stretches (wb_parallel_for). */
struct perturb_job {
	void *dst;
	const void *src;
	size_t bytes;
	enum wb_fresh kind;
	uint64_t key;
};

/* A multiple of WB_FRESH_HOST_ALIGN: 1 MiB. */
#define PERTURB_STRETCH ((size_t)1 << 20)

static void perturb_stretch(size_t k, void *arg)
{
	const struct perturb_job *j = arg;
	size_t lo = k * PERTURB_STRETCH;
	size_t hi = j->bytes - lo < PERTURB_STRETCH ? j->bytes :
						      lo + PERTURB_STRETCH;

	wb_fresh_perturb_host_range(j->dst, j->src, j->bytes, lo, hi, j->kind,
				    j->key);
}

static void perturb_host(void *dst, const void *src, size_t bytes,
			 enum wb_fresh kind, uint64_t key)
{
	struct perturb_job j = { dst, src, bytes, kind, key };

	wb_parallel_for(wb_ceil_div(bytes, PERTURB_STRETCH), perturb_stretch,
			&j);
}

void wb_fresh_host_begin(struct wb_ctx *c)
{
	if (!fr.on)
		return;
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];
		void **side = b->kind == WB_IN ? &b->host : &b->init;
		void *p;

		if (!perturbable(b))
			continue;
		if (!fr.host_round[i])
			fr.host_round[i] = malloc(b->bytes ? b->bytes : 1);
		p = fr.host_round[i];
		if (!p)
			wb_die("out of host memory for the inputs of a timed "
			       "call (%zu bytes)", b->bytes);
		perturb_host(p, *side, b->bytes, b->fresh, fr.key);
		fr.host_orig[i] = *side;
		*side = p;
	}
	c->inputs_gen = wb_next_gen();
}

void wb_fresh_host_end(struct wb_ctx *c)
{
	int restored = 0;

	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];
		void **side = b->kind == WB_IN ? &b->host : &b->init;

		if (!fr.host_orig[i])
			continue;
		*side = fr.host_orig[i]; /* (fr.host_round[i] is kept) */
		fr.host_orig[i] = NULL;
		restored = 1;
	}
	if (restored)
		c->inputs_gen = wb_next_gen();
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
	wb_fresh_host_end(c);
	for (int i = 0; i < WB_MAX_BUFS; i++) {
		if (fr.copy[i])
			cudaFree(fr.copy[i]);
		free(fr.host_round[i]);
	}
	memset(&fr, 0, sizeof(fr));
}
