/* SPDX-License-Identifier: MIT */
/*
 * buffers.c - an exercise's context at one size, and its device buffers
 * with guard regions, poison and read-back.
 *
 * Every buffer is allocated with WB_GUARD_BEFORE bytes in front and
 * WB_GUARD_AFTER bytes behind, both filled with a canary pattern; the code
 * under test gets the pointer in between (256-byte aligned, like
 * cudaMalloc's). Outputs and the workspace are poisoned before every call;
 * in-out buffers are restored to their initial contents; the scratch the
 * lab's own code keeps (wb_lab_scratch) is poisoned before every call of
 * the student's code.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "fate.h"
#include "knobs.h"
#include "probe.h"
#include "workbook.h"

/*
 * Host memory that copies from the device land in: page-locked where the
 * driver gives it, because a copy into pageable memory is staged through
 * the driver's own buffers at a fraction of the bus's speed (reading
 * inputs back to check them unchanged was a fifth of an all-labs grade,
 * tests/gpu/phases.sh); ordinary memory where it does not (no GPU, no
 * lockable memory left, the runner's lockdown refusing the mapping).
 */
static void *host_alloc(size_t bytes, unsigned char *locked)
{
	void *p;

	if (cudaMallocHost(&p, bytes ? bytes : 1) == cudaSuccess) {
		*locked = 1;
		return p;
	}
	cudaGetLastError(); /* not sticky: do without */
	*locked = 0;
	return malloc(bytes ? bytes : 1);
}

static void host_free(void *p, unsigned char locked)
{
	if (locked)
		cudaFreeHost(p);
	else
		free(p);
}

/* The poison written on several threads: it is the first touch of a new
 * buffer's pages, and a 256 MiB input's page faults, one thread taking
 * them all, cost a tenth of a second. */
struct poison_job {
	unsigned char *p;
	size_t bytes;
};

static void poison_stretch(size_t k, void *arg)
{
	const struct poison_job *j = arg;

	memset(j->p + k * WB_FILL_STRETCH, WB_POISON_BYTE,
	       wb_stretch_len(j->bytes, k, WB_FILL_STRETCH));
}

static void poison_host(void *p, size_t bytes)
{
	struct poison_job j = { p, bytes };

	wb_parallel_for(wb_ceil_div(bytes, WB_FILL_STRETCH), poison_stretch,
			&j);
}

/* A new buffer in c's table, with no memory yet. */
static struct wb_buf *new_buf(struct wb_ctx *c, const char *name,
			      size_t bytes, enum wb_buf_kind kind)
{
	struct wb_buf *b;

	if (c->nbuf == WB_MAX_BUFS)
		wb_die("exercise %s declares more than %d buffers",
		       c->ex->name, WB_MAX_BUFS);
	b = &c->buf[c->nbuf++];
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->bytes = bytes;
	b->kind = kind;
	return b;
}

static void *declare(struct wb_ctx *c, const char *name, size_t bytes,
		     enum wb_buf_kind kind)
{
	struct wb_buf *b = new_buf(c, name, bytes, kind);

	/* Outputs are only ever copied into; inputs are made by setup(). */
	if (kind == WB_OUT)
		b->host = host_alloc(bytes, &b->host_locked);
	else
		b->host = malloc(bytes ? bytes : 1);
	if (!b->host)
		wb_die("out of host memory for buffer %s (%zu bytes)", name,
		       bytes);
	poison_host(b->host, bytes);
	return b->host;
}

void *wb_input(struct wb_ctx *c, const char *name, size_t bytes)
{
	return declare(c, name, bytes, WB_IN);
}

void *wb_input_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh)
{
	void *p = declare(c, name, bytes, WB_IN);

	c->buf[c->nbuf - 1].fresh = fresh;
	return p;
}

void *wb_inout_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh)
{
	void *p = declare(c, name, bytes, WB_INOUT);

	c->buf[c->nbuf - 1].fresh = fresh;
	return p;
}

void *wb_input_rotated(struct wb_ctx *c, const char *name, size_t bytes,
		       size_t elem)
{
	void *p;

	if (!elem || bytes % elem)
		wb_die("input %s of %s: %zu bytes, not whole elements of %zu",
		       name, c->ex->name, bytes, elem);
	p = declare(c, name, bytes, WB_IN);
	c->buf[c->nbuf - 1].rotate_elem = elem;
	return p;
}

void *wb_output(struct wb_ctx *c, const char *name, size_t bytes)
{
	return declare(c, name, bytes, WB_OUT);
}

void *wb_inout(struct wb_ctx *c, const char *name, size_t bytes)
{
	return declare(c, name, bytes, WB_INOUT);
}

/*
 * Under compute-sanitizer (runner --exact), buffers are allocated to their
 * exact size, with no guard regions: memcheck then reports the first byte
 * read or written past either end of any buffer, inputs included, which
 * the guards (inside one allocation) hide from it.
 */
int wb_exact_alloc;

static size_t guard_before(void)
{
	return wb_exact_alloc ? 0 : WB_GUARD_BEFORE;
}

static size_t guard_after(void)
{
	return wb_exact_alloc ? 0 : WB_GUARD_AFTER;
}

static uint64_t guard_salt(int i, int after)
{
	return 0x5eed0000u + 2u * (unsigned)i + (unsigned)after;
}

static void set_guards(struct wb_buf *b, int i)
{
	unsigned char before[WB_GUARD_BEFORE], after[WB_GUARD_AFTER];
	char *base = b->alloc;

	if (wb_exact_alloc)
		return;
	wb_canary_fill(before, sizeof(before), guard_salt(i, 0));
	wb_canary_fill(after, sizeof(after), guard_salt(i, 1));
	WB_CUDA(cudaMemcpy(base, before, sizeof(before),
			   cudaMemcpyHostToDevice));
	WB_CUDA(cudaMemcpy(base + WB_GUARD_BEFORE + b->bytes, after,
			   sizeof(after), cudaMemcpyHostToDevice));
}

/* An in-out buffer keeps its initial contents on both sides: the device
 * copy restores it before every call, the host copy feeds the reference. */
static void keep_initial(struct wb_buf *b)
{
	b->init = malloc(b->bytes ? b->bytes : 1);
	if (!b->init)
		wb_die("out of host memory for buffer %s", b->name);
	memcpy(b->init, b->host, b->bytes);
	WB_CUDA(cudaMalloc(&b->init_dev, b->bytes ? b->bytes : 1));
	WB_CUDA(cudaMemcpy(b->init_dev, b->host, b->bytes,
			   cudaMemcpyHostToDevice));
}

void wb_ctx_init(struct wb_ctx *c, const struct wb_exercise *ex,
		 const struct wb_size *s, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->ex = ex;
	c->size = s;
	wb_rng_seed(&c->rng, wb_seed_mix(wb_seed_mix(seed, ex->name), s->label));
	c->inputs_gen = wb_next_gen();
	wb_where("setting up size %s", s->label);
	if (ex->setup(c))
		wb_die("setup of %s at %s failed", ex->name, s->label);
	if (c->n_lab_scratch > WB_MAX_LAB_SCRATCH)
		wb_die("%s declares %d lab scratch regions, more than %d",
		       ex->name, c->n_lab_scratch, WB_MAX_LAB_SCRATCH);
	wb_bufs_upload(c);
}

unsigned long wb_next_gen(void)
{
	static unsigned long gen;

	return ++gen;
}

void wb_bufs_upload(struct wb_ctx *c)
{
	size_t work = c->ex->work_bytes;

	/*
	 * The workspace is one more output-like buffer, guarded and
	 * poisoned, that nobody compares: it has no host side and is never
	 * copied back (trip_count's 128 MiB, copied back after every call,
	 * cost more than its checks).
	 */
	if (work)
		new_buf(c, "workspace", work, WB_OUT);
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		wb_where("allocating buffer %s (%zu bytes)", b->name, b->bytes);
		WB_CUDA(cudaMalloc(&b->alloc, guard_before() + b->bytes +
						      guard_after()));
		b->dev = (char *)b->alloc + guard_before();
		set_guards(b, i);
		if (b->kind != WB_OUT)
			WB_CUDA(cudaMemcpy(b->dev, b->host, b->bytes,
					   cudaMemcpyHostToDevice));
		if (b->kind == WB_INOUT)
			keep_initial(b);
	}
	c->work = work ? c->buf[c->nbuf - 1].dev : NULL;
	c->work_bytes = work;
	wb_where("uploading inputs");
	WB_CUDA(cudaDeviceSynchronize());
}

void wb_bufs_reset(struct wb_ctx *c, int perturb, uint64_t key)
{
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		if (b->kind == WB_OUT)
			WB_CUDA(cudaMemsetAsync(b->dev, WB_POISON_BYTE, b->bytes, 0));
		else if (b->kind == WB_INOUT)
			WB_CUDA(wb_perturb(b->dev, b->init_dev, b->bytes,
					   perturb ? b->fresh : WB_FRESH_NONE,
					   key));
	}
}

/*
 * What the lab's own code left in its scratch (wb_lab_scratch(): the
 * naive's scores, say) is overwritten before the student's code runs, so
 * no call can read what the naive computed on the same inputs. Queued on
 * the legacy stream, before the L2 flush of a timed sample: not timed.
 */
void wb_bufs_clear_lab(struct wb_ctx *c)
{
	for (int i = 0; i < c->n_lab_scratch && i < WB_MAX_LAB_SCRATCH; i++)
		WB_CUDA(cudaMemsetAsync(c->lab_scratch[i].dev, WB_POISON_BYTE,
					c->lab_scratch[i].bytes, 0));
}

void wb_bufs_poison(struct wb_ctx *c)
{
	wb_bufs_reset(c, 0, 0);
	wb_bufs_clear_lab(c);
}

static const char *kind_name(const struct wb_buf *b)
{
	return b->kind == WB_IN ? "input" : b->kind == WB_OUT ? "output" :
							      "in-out buffer";
}

/* Check one guard region; on damage, say where and return 1. */
static int guard_hit(struct wb_ctx *c, int i, int after)
{
	struct wb_buf *b = &c->buf[i];
	size_t len = after ? guard_after() : guard_before();
	const char *src = (char *)b->alloc +
			  (after ? guard_before() + b->bytes : 0);
	unsigned char got[WB_GUARD_AFTER];
	size_t bad;

	if (!len)
		return 0;
	WB_CUDA(cudaMemcpy(got, src, len, cudaMemcpyDeviceToHost));
	bad = wb_canary_first_bad(got, len, guard_salt(i, after));
	if (bad == len)
		return 0;
	if (after)
		wb_fail(c, "wrote past the end of %s '%s' (%zu bytes): "
			   "byte %zu after its end was overwritten",
			kind_name(b), b->name, b->bytes, bad);
	else
		wb_fail(c, "wrote before the start of %s '%s': byte %zu "
			   "before it was overwritten",
			kind_name(b), b->name, len - bad);
	return 1;
}

/* Do two buffers differ? Compared a stretch of WB_FILL_STRETCH bytes at
 * a time, on several threads (wb_parallel_for). */
struct differ_job {
	const unsigned char *a, *b;
	size_t bytes;
	atomic_int differ;
};

static void differ_stretch(size_t k, void *arg)
{
	struct differ_job *j = arg;
	size_t lo = k * WB_FILL_STRETCH;

	if (!atomic_load(&j->differ) &&
	    memcmp(j->a + lo, j->b + lo,
		   wb_stretch_len(j->bytes, k, WB_FILL_STRETCH)))
		atomic_store(&j->differ, 1);
}

static int bytes_differ(const void *a, const void *b, size_t bytes)
{
	struct differ_job j = { .a = a, .b = b, .bytes = bytes };

	atomic_init(&j.differ, 0);
	wb_parallel_for(wb_ceil_div(bytes, WB_FILL_STRETCH), differ_stretch,
			&j);
	return atomic_load(&j.differ);
}

/*
 * Inputs are read-only: the device's copy must still equal the host's.
 * The scratch it is read into is kept for the buffer's life (a timed
 * shape checks its inputs up to five times: fresh pages each time cost
 * as much as the copy), page-locked where it can be (host_alloc), and
 * compared on several threads; only a difference is looked for byte by
 * byte.
 */
static void input_unchanged(struct wb_ctx *c, struct wb_buf *b)
{
	const unsigned char *want = b->host, *now;
	size_t i;

	if (!b->readback) {
		b->readback = host_alloc(b->bytes, &b->readback_locked);
		if (!b->readback)
			wb_die("out of host memory checking input %s", b->name);
	}
	now = b->readback;
	WB_CUDA(cudaMemcpy(b->readback, b->dev, b->bytes,
			   cudaMemcpyDeviceToHost));
	if (!bytes_differ(now, want, b->bytes))
		return;
	for (i = 0; i < b->bytes && now[i] == want[i]; i++)
		;
	wb_fail(c, "modified its input '%s' (first changed byte at offset "
		   "%zu): inputs are read-only", b->name, i);
}

enum wb_guard_status wb_bufs_readback(struct wb_ctx *c, int check_inputs)
{
	int hit = 0;

	wb_where("reading results back");
	for (int i = 0; i < c->nbuf; i++) {
		struct wb_buf *b = &c->buf[i];

		hit |= guard_hit(c, i, 0);
		hit |= guard_hit(c, i, 1);
		if (b->kind != WB_IN && b->host)
			WB_CUDA(cudaMemcpy(b->host, b->dev, b->bytes,
					   cudaMemcpyDeviceToHost));
		else if (b->kind == WB_IN && check_inputs)
			input_unchanged(c, b);
	}
	return hit ? WB_GUARDS_HIT : WB_GUARDS_OK;
}

void wb_bufs_free(struct wb_ctx *c)
{
	for (int i = 0; i < c->nbuf; i++) {
		if (c->buf[i].alloc)
			cudaFree(c->buf[i].alloc);
		if (c->buf[i].init_dev)
			cudaFree(c->buf[i].init_dev);
		host_free(c->buf[i].host, c->buf[i].host_locked);
		free(c->buf[i].init);
		host_free(c->buf[i].readback, c->buf[i].readback_locked);
	}
	c->nbuf = 0;
	c->work = NULL;
}
