/* SPDX-License-Identifier: MIT */
/*
 * fresh.c - new inputs for every timed call, so that no timed call sees
 * inputs an earlier call saw, nor inputs the lab's own code worked on.
 *
 * At a benchmark shape, once the checks have passed, the inputs as setup()
 * made them are kept in device copies. Before each timing round every
 * input is rewritten from its copy under a key of that round: with a few
 * bits flipped where the lab declared how (wb_input_as; fresh_hash.h: the
 * sign of a float, any bits where any value is valid), or rotated by a
 * new number of whole elements where its values cannot change
 * (wb_input_rotated: counts, indices; shuffle.h). In-out buffers are
 * restored the same way before every call. The copy is queued before the
 * L2 flush: it is not timed. An input the rounds could not change at all
 * is a grader error: a result or a plan kept from an earlier call would
 * stay right (trip_count's work, sorted by count once).
 *
 * The student's call never sees the inputs the lab's code (the naive, a
 * peer) just ran on: a round runs its series in a random order (bench.c),
 * and when the naive came first the inputs are rewritten under a new key
 * before the student's call. Whatever the naive left in memory the
 * student could find (its scratch, memory it freed) was computed from
 * other inputs, and is wrong for this call's.
 *
 * A result kept from an earlier call, keyed by pointer, size, call count or
 * content, is then wrong: the runner checks the student's output of
 * random timed rounds, and of one more call after the timing, against
 * the inputs of that very call. For that the host redoes the call's
 * perturbation on its own copy of the inputs (wb_fresh_host_begin), so
 * what is checked is what the harness put there, not what the device
 * holds now.
 *
 * Where the device has no memory for a copy, a bit-flipped input is
 * perturbed in place instead (the last key's flips undone, the new key's
 * made: twice the passes, still untimed); a rotated one cannot be, and
 * that is a grader error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "fate.h"
#include "fresh.h"
#include "probe.h"
#include "shuffle.h"
#include "workbook.h"

struct fresh {
	int on;                        /* started: calls get new inputs */
	int lab_ran;                   /* the lab's code ran on the inputs
					* in the buffers now */
	uint64_t base;                 /* keys come from the seed */
	uint64_t key;                  /* the inputs in the buffers now */
	void *copy[WB_MAX_BUFS];       /* device: inputs as setup() made them */
	int in_place[WB_MAX_BUFS];     /* no copy: perturbed in place */
	int dev_keyed[WB_MAX_BUFS];    /* in place: perturbed now, ... */
	uint64_t dev_key[WB_MAX_BUFS]; /* ... under this key */
	void *host_orig[WB_MAX_BUFS];  /* host side while a call's is in use */
	void *host_round[WB_MAX_BUFS]; /* where a call's host side is made
					* (kept: no fresh pages per check) */
};

static struct fresh fr;

/* Does a timed call see this buffer changed from the last one? */
static int changes(const struct wb_buf *b)
{
	if (b->kind == WB_IN)
		return b->fresh != WB_FRESH_NONE || b->rotate_elem;
	return b->kind == WB_INOUT && b->fresh != WB_FRESH_NONE;
}

/* Keep input i as it is now, or perturb it in place from now on. */
static void keep(struct wb_ctx *c, int i)
{
	struct wb_buf *b = &c->buf[i];

	if (cudaMalloc(&fr.copy[i], b->bytes ? b->bytes : 1) == cudaSuccess) {
		WB_CUDA(cudaMemcpy(fr.copy[i], b->dev, b->bytes,
				   cudaMemcpyDeviceToDevice));
		return;
	}
	cudaGetLastError(); /* not sticky: do without */
	fr.copy[i] = NULL;
	if (b->rotate_elem)
		wb_die("no device memory to keep input %s (%zu bytes) for the "
		       "timed rounds", b->name, b->bytes);
	fr.in_place[i] = 1;
	printf("  (not enough device memory to keep input %s: the timed "
	       "rounds perturb it in place)\n", b->name);
}

void wb_fresh_start(struct wb_ctx *c, uint64_t seed)
{
	memset(&fr, 0, sizeof(fr));
	fr.base = wb_seed_mix(wb_seed_mix(wb_seed_mix(seed, c->ex->name),
					  c->size->label), "fresh inputs");
	wb_where("keeping the inputs at %s", c->size->label);
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		if (b->kind == WB_OUT)
			continue;
		if (!changes(b))
			wb_die("%s's input %s would be the same in every timed "
			       "round: its lab must say how it may change "
			       "(wb_input_as, wb_inout_as, wb_input_rotated)",
			       c->ex->name, b->name);
		/* In-out buffers restore from init_dev, a copy already. */
		if (b->kind == WB_IN)
			keep(c, i);
	}
	fr.on = 1;
}

/* The key input i's rotation is drawn from: the call's, per buffer. */
static uint64_t buf_key(int i)
{
	return fr.key + 0x632be59bd9b4e019ull * (uint64_t)(i + 1);
}

/* Queue dst = src rotated left by shift bytes: two copies. */
static void rotate_dev(void *dst, const void *src, size_t bytes,
		       size_t shift)
{
	WB_CUDA(cudaMemcpyAsync(dst, (const char *)src + shift, bytes - shift,
				cudaMemcpyDeviceToDevice, 0));
	if (shift)
		WB_CUDA(cudaMemcpyAsync((char *)dst + bytes - shift, src, shift,
					cudaMemcpyDeviceToDevice, 0));
}

/*
 * Queue input i as fr.key makes it. In place, the flips of the key it
 * holds are undone first (each word's mask is its own inverse); the
 * kernel reads each word before it writes it, in the same thread, so
 * the same pointer as source and destination is safe.
 */
static void write_input(struct wb_ctx *c, int i)
{
	struct wb_buf *b = &c->buf[i];

	if (b->rotate_elem) {
		rotate_dev(b->dev, fr.copy[i], b->bytes,
			   wb_rotation(b->bytes, b->rotate_elem, buf_key(i)));
		return;
	}
	if (fr.copy[i]) {
		WB_CUDA(wb_perturb(b->dev, fr.copy[i], b->bytes, b->fresh,
				   fr.key));
		return;
	}
	if (fr.dev_keyed[i])
		WB_CUDA(wb_perturb(b->dev, b->dev, b->bytes, b->fresh,
				   fr.dev_key[i]));
	WB_CUDA(wb_perturb(b->dev, b->dev, b->bytes, b->fresh, fr.key));
	fr.dev_key[i] = fr.key;
	fr.dev_keyed[i] = 1;
}

/* Queue every input as key makes it. */
static void rekey(struct wb_ctx *c, uint64_t key)
{
	fr.key = key;
	fr.lab_ran = 0;
	for (int i = 0; i < c->nbuf; i++)
		if (fr.copy[i] || fr.in_place[i])
			write_input(c, i);
}

void wb_fresh_round(struct wb_ctx *c, uint64_t r)
{
	if (fr.on)
		rekey(c, wb_seed_mix(fr.base ^ r, "round"));
}

void wb_fresh_prepare(struct wb_ctx *c, enum wb_impl impl)
{
	if (fr.on && impl != WB_STUDENT)
		fr.lab_ran = 1;
	else if (fr.on && fr.lab_ran)
		rekey(c, wb_seed_mix(fr.key, "after the lab's code"));
	wb_bufs_reset(c, fr.on, fr.key);
	if (impl == WB_STUDENT)
		wb_bufs_clear_lab(c);
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

/* dst = buffer i's original host side as the call's key makes it. */
static void remake_host(int i, const struct wb_buf *b, void *dst,
			const void *orig)
{
	size_t shift;

	if (b->kind != WB_IN || !b->rotate_elem) {
		perturb_host(dst, orig, b->bytes, b->fresh, fr.key);
		return;
	}
	shift = wb_rotation(b->bytes, b->rotate_elem, buf_key(i));
	wb_rotate_host(dst, orig, b->bytes, shift);
}

void wb_fresh_host_begin(struct wb_ctx *c)
{
	if (!fr.on)
		return;
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];
		void **side = b->kind == WB_IN ? &b->host : &b->init;
		void *p;

		if (b->kind == WB_OUT || !changes(b))
			continue;
		if (!fr.host_round[i])
			fr.host_round[i] = malloc(b->bytes ? b->bytes : 1);
		p = fr.host_round[i];
		if (!p)
			wb_die("out of host memory for the inputs of a timed "
			       "call (%zu bytes)", b->bytes);
		remake_host(i, b, p, *side);
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
