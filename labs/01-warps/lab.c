/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 01 (warps and divergence): CPU references, input makers and
 * the table of knobs the grader reads. References first, then the hooks,
 * then the table.
 *
 * The references for branch and trip_count apply the very functions of
 * warps.h (branch_a, branch_b, trip_f): 32-bit unsigned arithmetic is
 * exact and defined alike in C and CUDA, so every output must match bit
 * for bit and no tolerance is needed. The occupancy reference is the CUDA
 * runtime itself, asked about real kernels (occ_kernels.cu).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "warps.h"
#include "occ_kernels.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak thread_map
#pragma weak branch
#pragma weak trip_count
#pragma weak blocks_per_sm
#pragma weak branch_eff
#pragma weak spills

/* The most mismatches shown per size: enough to see a pattern. */
#define SHOW_MAX 6

/* ---- reporting 32-bit mismatches ---- */

/* The first SHOW_MAX mismatches of an output, and how many there were. */
struct u32_cmp {
	size_t bad, unwritten;
	int shown;
	size_t index[SHOW_MAX];
	unsigned int got[SHOW_MAX], want[SHOW_MAX];
};

static void u32_note(struct u32_cmp *m, size_t i, unsigned int got,
		     unsigned int want)
{
	if (got == want)
		return;
	if (m->shown < SHOW_MAX) {
		m->index[m->shown] = i;
		m->got[m->shown] = got;
		m->want[m->shown] = want;
		m->shown++;
	}
	m->bad++;
	/* All four bytes still 0xff: the grader's poison, most likely. */
	m->unwritten += got == 0xffffffffu;
}

/* The summary, then the mismatches; why(i) says what element i is. */
static void u32_report(struct wb_ctx *c, const struct u32_cmp *m,
		       const char *what, size_t n, const char *(*why)(size_t))
{
	if (!m->bad)
		return;
	wb_fail(c, "%zu of %zu values of %s wrong (must match exactly)%s",
		m->bad, n, what,
		m->unwritten == n ? ": none was written" :
		m->unwritten ? ": some never written (still poison)" : "");
	for (int k = 0; k < m->shown; k++)
		wb_fail(c, "  %s[%zu] = 0x%08x, expected 0x%08x%s", what,
			m->index[k], m->got[k], m->want[k],
			why ? why(m->index[k]) : "");
}

/* Add a later stretch's comparison to an earlier one's: in order, the
 * first mismatches shown are the ones a single pass would show. */
static void u32_merge(struct u32_cmp *into, const struct u32_cmp *from)
{
	for (int k = 0; k < from->shown && into->shown < SHOW_MAX; k++) {
		into->index[into->shown] = from->index[k];
		into->got[into->shown] = from->got[k];
		into->want[into->shown] = from->want[k];
		into->shown++;
	}
	into->bad += from->bad;
	into->unwritten += from->unwritten;
}

/*
 * The exact checks run stretch by stretch on several threads
 * (wb_parallel_for), each stretch into its own u32_cmp, merged in order.
 * A multiple of 4, as the CPU references take four elements at a time.
 */
#define U32_STRETCH ((size_t)1 << 18)

/* What a stretch-by-stretch check shares with its threads. */
struct u32_job {
	const unsigned int *in, *out;
	const unsigned char *cnt;   /* trip_count */
	size_t n;
	struct u32_cmp *part;       /* one per stretch */
};

/* Run fn on every stretch of j->n elements, then merge into *m; 0, or -1
 * (the size failed) when the host has no memory for the parts. */
static int u32_stretches(struct wb_ctx *c, struct u32_job *j, wb_task_fn *fn,
			 struct u32_cmp *m)
{
	size_t parts = wb_ceil_div(j->n, U32_STRETCH);

	j->part = wb_ref_parts(c, parts, sizeof(*j->part));
	if (!j->part)
		return -1;
	wb_parallel_for(parts, fn, j);
	for (size_t k = 0; k < parts; k++)
		u32_merge(m, &j->part[k]);
	free(j->part);
	return 0;
}

/* Stretch k of a u32_job: [*lo, *hi). */
static void u32_bounds(const struct u32_job *j, size_t k, size_t *lo,
		       size_t *hi)
{
	*lo = k * U32_STRETCH;
	*hi = j->n - *lo < U32_STRETCH ? j->n : *lo + U32_STRETCH;
}

/* ---- thread_map ---- */

/* A launch shape: <<<grid, block>>>. */
struct tm_shape {
	unsigned int grid[3], block[3];
};

/*
 * The shapes, by size index (n[0]); the size labels repeat them. Blocks
 * of 1, 27, 31, 33, 80 (the README's 40x2: three warps, the last half
 * empty), 105, 255 and 1000 threads end in a partial warp; 64, 96 and
 * 1024 do not. Each dimension is the fastest-moving one somewhere (1x1x64
 * has only z), grids are 2-D and 3-D (1x1x5 has only z), and 66000 blocks
 * in x exceed what y and z may hold (65535). 65x31x2 blocks of 17x3x5 is
 * a million threads.
 */
static const struct tm_shape tm_shapes[] = {
	{ { 1, 1, 1 }, { 1, 1, 1 } },
	{ { 2, 3, 1 }, { 33, 1, 1 } },
	{ { 3, 2, 1 }, { 40, 2, 1 } },
	{ { 2, 2, 2 }, { 7, 5, 3 } },
	{ { 4, 5, 6 }, { 3, 3, 3 } },
	{ { 7, 2, 1 }, { 31, 1, 1 } },
	{ { 3, 1, 2 }, { 1, 1, 64 } },
	{ { 1, 9, 1 }, { 2, 64, 1 } },
	{ { 1, 1, 5 }, { 96, 1, 1 } },
	{ { 5, 3, 1 }, { 32, 32, 1 } },
	{ { 3, 2, 2 }, { 16, 16, 4 } },
	{ { 2, 3, 2 }, { 10, 10, 10 } },
	{ { 65, 31, 2 }, { 17, 3, 5 } },
	{ { 66000, 2, 1 }, { 2, 2, 1 } },
};

static size_t tm_block_threads(const struct tm_shape *s)
{
	return (size_t)s->block[0] * s->block[1] * s->block[2];
}

static size_t tm_threads(const struct tm_shape *s)
{
	return (size_t)s->grid[0] * s->grid[1] * s->grid[2] *
	       tm_block_threads(s);
}

/* The record that the definition in warps.h puts at global index g. */
static void cpu_thread_rec(const struct tm_shape *s, size_t g,
			   struct thread_rec *r)
{
	size_t per_block = tm_block_threads(s);
	size_t b = g / per_block, t = g % per_block;
	size_t gx = s->grid[0], gy = s->grid[1];
	size_t bx = s->block[0], by = s->block[1];

	r->block[0] = (unsigned int)(b % gx);
	r->block[1] = (unsigned int)(b / gx % gy);
	r->block[2] = (unsigned int)(b / (gx * gy));
	r->thread[0] = (unsigned int)(t % bx);
	r->thread[1] = (unsigned int)(t / bx % by);
	r->thread[2] = (unsigned int)(t / (bx * by));
	r->warp = (unsigned int)(t / 32);
	r->lane = (unsigned int)(t % 32);
}

static int rec_equal(const struct thread_rec *a, const struct thread_rec *b)
{
	for (int k = 0; k < 3; k++)
		if (a->block[k] != b->block[k] || a->thread[k] != b->thread[k])
			return 0;
	return a->warp == b->warp && a->lane == b->lane;
}

static int rec_poisoned(const struct thread_rec *r)
{
	const unsigned int *w = (const unsigned int *)r;

	for (size_t k = 0; k < sizeof(*r) / sizeof(*w); k++)
		if (w[k] != 0xffffffffu)
			return 0;
	return 1;
}

enum { TM_OUT };

static const struct tm_shape *tm_shape_of(const struct wb_ctx *c)
{
	return &tm_shapes[c->size->n[0]];
}

static int thread_map_setup(struct wb_ctx *c)
{
	wb_output(c, "out",
		  tm_threads(tm_shape_of(c)) * sizeof(struct thread_rec));
	return 0;
}

static int thread_map_run(struct wb_ctx *c, enum wb_impl impl)
{
	const struct tm_shape *s = tm_shape_of(c);
	dim3 grid = { s->grid[0], s->grid[1], s->grid[2] };
	dim3 block = { s->block[0], s->block[1], s->block[2] };

	if (impl != WB_STUDENT || !thread_map)
		return WB_MISSING;
	thread_map(grid, block, wb_dev(c, TM_OUT));
	return 0;
}

static void show_rec(struct wb_ctx *c, size_t g, const struct thread_rec *got,
		     const struct thread_rec *want)
{
	if (rec_poisoned(got)) {
		wb_fail(c, "  out[%zu] never written; it belongs to block "
			   "(%u,%u,%u) thread (%u,%u,%u)", g, want->block[0],
			want->block[1], want->block[2], want->thread[0],
			want->thread[1], want->thread[2]);
		return;
	}
	wb_fail(c, "  out[%zu] = block (%u,%u,%u) thread (%u,%u,%u) warp %u "
		   "lane %u; expected block (%u,%u,%u) thread (%u,%u,%u) warp "
		   "%u lane %u", g, got->block[0], got->block[1], got->block[2],
		got->thread[0], got->thread[1], got->thread[2], got->warp,
		got->lane, want->block[0], want->block[1], want->block[2],
		want->thread[0], want->thread[1], want->thread[2], want->warp,
		want->lane);
}

static void thread_map_check(struct wb_ctx *c)
{
	const struct tm_shape *s = tm_shape_of(c);
	const struct thread_rec *out = c->buf[TM_OUT].host;
	size_t n = tm_threads(s), bad = 0, unwritten = 0, first[SHOW_MAX];
	int shown = 0;

	for (size_t g = 0; g < n; g++) {
		struct thread_rec want;

		cpu_thread_rec(s, g, &want);
		if (rec_equal(&out[g], &want))
			continue;
		if (shown < SHOW_MAX)
			first[shown++] = g;
		bad++;
		unwritten += rec_poisoned(&out[g]);
	}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu records wrong%s", bad, n,
		unwritten == n ? ": none was written" :
		unwritten ? ", some never written" : "");
	for (int k = 0; k < shown; k++) {
		struct thread_rec want;

		cpu_thread_rec(s, first[k], &want);
		show_rec(c, first[k], &out[first[k]], &want);
	}
}

/* ---- branch ---- */

enum { BR_IN, BR_OUT };

static int branch_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];

	/* Any 32-bit value: the chains mix every bit, so an element given
	 * the other branch, or taken from a neighbour, cannot match. */
	wb_fill_bits(c, wb_input_as(c, "in", n * sizeof(unsigned int),
				    WB_FRESH_BITS), n * sizeof(unsigned int));
	wb_output(c, "out", n * sizeof(unsigned int));
	return 0;
}

typedef void branch_fn(const unsigned int *, unsigned int *, size_t);

static int branch_run(struct wb_ctx *c, enum wb_impl impl)
{
	branch_fn *f = impl == WB_STUDENT ? branch :
		       impl == WB_NAIVE   ? naive_branch :
		       impl == WB_LIMIT   ? limit_branch : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, BR_IN), wb_dev(c, BR_OUT), c->size->n[0]);
	return 0;
}

/*
 * The expected values of in[0..m-1], m <= 4, starting at an even index:
 * branch_a, branch_b, branch_a, branch_b. The four chains run side by side
 * in one loop, in registers, so that the CPU overlaps their latencies: the
 * benchmark size (32M elements of 32 rounds) is checked three times per
 * grading run, and one chain at a time takes ~8x longer.
 */
static void cpu_branch4(const unsigned int *in, size_t m, unsigned int *want)
{
	unsigned int a0 = in[0], b0 = m > 1 ? in[1] : 0;
	unsigned int a1 = m > 2 ? in[2] : 0, b1 = m > 3 ? in[3] : 0;

	for (int r = 0; r < BRANCH_ROUNDS; r++) {
		a0 = branch_a_round(a0);
		b0 = branch_b_round(b0);
		a1 = branch_a_round(a1);
		b1 = branch_b_round(b1);
	}
	want[0] = a0;
	want[1] = b0;
	want[2] = a1;
	want[3] = b1;
}

static const char *branch_why(size_t i)
{
	return i % 2 ? " (odd: branch_b)" : " (even: branch_a)";
}

static void branch_stretch(size_t s, void *arg)
{
	struct u32_job *j = arg;
	size_t lo, hi;

	u32_bounds(j, s, &lo, &hi);
	for (size_t i = lo; i < hi; i += 4) {
		size_t len = hi - i < 4 ? hi - i : 4;
		unsigned int want[4];

		cpu_branch4(j->in + i, len, want);
		for (size_t k = 0; k < len; k++)
			u32_note(&j->part[s], i + k, j->out[i + k], want[k]);
	}
}

static void branch_check(struct wb_ctx *c)
{
	struct u32_job j = {
		.in = c->buf[BR_IN].host, .out = c->buf[BR_OUT].host,
		.n = c->size->n[0],
	};
	struct u32_cmp m = { 0 };

	if (!u32_stretches(c, &j, branch_stretch, &m))
		u32_report(c, &m, "out", j.n, branch_why);
}

/* in read, out written: 4 bytes each per element. */
static void branch_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * s->n[0];
}

/* ---- trip_count ---- */

enum { TC_IN, TC_CNT, TC_OUT };

/* How the counts are drawn (a size's n[1]). */
enum { TRIP_SKEWED, TRIP_ALL_HEAVY, TRIP_ANY_BYTE };

static unsigned char trip_heavy(struct wb_rng *r)
{
	return (unsigned char)(TRIP_HEAVY_MIN +
			       wb_rng_below(r, TRIP_HEAVY_MAX -
						  TRIP_HEAVY_MIN + 1));
}

static unsigned char trip_draw(struct wb_rng *r, int kind)
{
	switch (kind) {
	case TRIP_ALL_HEAVY:
		return trip_heavy(r);
	case TRIP_ANY_BYTE:
		return (unsigned char)wb_rng_below(r, 256);
	default:
		if (wb_rng_below(r, 8) == 0)
			return trip_heavy(r);
		return (unsigned char)wb_rng_below(r, TRIP_LIGHT_MAX + 1);
	}
}

/* The counts, drawn a stretch of TRIP_STRETCH at a time, each stretch
 * from its own generator seeded from c's (as wb_fill_bits() does), on
 * several threads: 32M draws one after another took 0.9 s. */
#define TRIP_STRETCH ((size_t)1 << 20)

struct trip_fill {
	unsigned char *cnt;
	size_t n;
	int kind;
	uint64_t base;
};

static void trip_fill_stretch(size_t k, void *arg)
{
	const struct trip_fill *f = arg;
	size_t lo = k * TRIP_STRETCH;
	size_t hi = lo + wb_stretch_len(f->n, k, TRIP_STRETCH);
	struct wb_rng r;

	wb_rng_seed(&r, f->base + k);
	for (size_t i = lo; i < hi; i++)
		f->cnt[i] = trip_draw(&r, f->kind);
}

static int trip_count_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];
	int kind = (int)c->size->n[1];
	unsigned char *cnt;

	wb_fill_bits(c, wb_input_as(c, "in", n * sizeof(unsigned int),
				    WB_FRESH_BITS), n * sizeof(unsigned int));
	/* Skewed: 7 in 8 light (0 to 8 rounds), the rest heavy (64 to 80),
	 * each element independently, so nearly every warp of 32 holds a
	 * heavy one. Zero counts (out = in) come with the light ones.
	 * Drawn independently, the counts stay valid rotated: each timed
	 * round rotates them anew, so work sorted by count in one call is
	 * wrong in the next (harness.h, wb_input_rotated). */
	cnt = wb_input_rotated(c, "cnt", n, 1);
	if (n <= TRIP_STRETCH) {
		for (size_t i = 0; i < n; i++)
			cnt[i] = trip_draw(&c->rng, kind);
	} else {
		struct trip_fill f = { cnt, n, kind, wb_rng_u64(&c->rng) };

		wb_parallel_for(wb_ceil_div(n, TRIP_STRETCH),
				trip_fill_stretch, &f);
	}
	wb_output(c, "out", n * sizeof(unsigned int));
	return 0;
}

typedef void trip_fn(const unsigned int *, const unsigned char *,
		     unsigned int *, size_t, void *);

static int trip_count_run(struct wb_ctx *c, enum wb_impl impl)
{
	trip_fn *f = impl == WB_STUDENT ? trip_count :
		     impl == WB_NAIVE   ? naive_trip_count : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, TC_IN), wb_dev(c, TC_CNT), wb_dev(c, TC_OUT), c->size->n[0],
	  c->work);
	return 0;
}

/* The count of the element shown, for the report; one line at a time. */
static const unsigned char *trip_cnt_now;

static const char *trip_why(size_t i)
{
	static char why[48];

	snprintf(why, sizeof(why), " (cnt %u)", trip_cnt_now[i]);
	return why;
}

/*
 * trip_f applied k[l] times to x[l], for four elements side by side. Their
 * chains are independent, so the CPU overlaps their multiplies (a heavy
 * element alone waits on each round's), and a chain that is done just
 * stops changing (a conditional move, not a branch that the CPU would
 * mispredict at every light element's random count). The benchmark size
 * is checked three times per grading run: one element at a time took ~1
 * s, this ~0.4 s.
 */
static void cpu_trip4(unsigned int *x, const unsigned int *k)
{
	unsigned int a = x[0], b = x[1], c = x[2], d = x[3], most = 0;

	for (int l = 0; l < 4; l++)
		most = k[l] > most ? k[l] : most;
	for (unsigned int r = 0; r < most; r++) {
		a = r < k[0] ? trip_f(a) : a;
		b = r < k[1] ? trip_f(b) : b;
		c = r < k[2] ? trip_f(c) : c;
		d = r < k[3] ? trip_f(d) : d;
	}
	x[0] = a;
	x[1] = b;
	x[2] = c;
	x[3] = d;
}

/* Up to four elements of one class (light or heavy) waiting together, so
 * that the group's longest chain is not much longer than the others. */
struct trip_batch {
	int m;
	size_t index[4];
	unsigned int x[4], k[4];
};

static void trip_flush(struct trip_batch *b, const unsigned int *out,
		       struct u32_cmp *m)
{
	for (int l = b->m; l < 4; l++)
		b->x[l] = b->k[l] = 0;
	cpu_trip4(b->x, b->k);
	for (int l = 0; l < b->m; l++)
		u32_note(m, b->index[l], out[b->index[l]], b->x[l]);
	b->m = 0;
}

/* One stretch: its light and heavy elements batched apart, as in one
 * pass (a mismatch is noted when its batch is done, near index order). */
static void trip_stretch(size_t s, void *arg)
{
	struct u32_job *j = arg;
	struct trip_batch batch[2] = { { 0 }, { 0 } };
	struct u32_cmp *m = &j->part[s];
	size_t lo, hi;

	u32_bounds(j, s, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		struct trip_batch *b = &batch[j->cnt[i] > TRIP_LIGHT_MAX];

		b->index[b->m] = i;
		b->x[b->m] = j->in[i];
		b->k[b->m] = j->cnt[i];
		if (++b->m == 4)
			trip_flush(b, j->out, m);
	}
	trip_flush(&batch[0], j->out, m);
	trip_flush(&batch[1], j->out, m);
}

static void trip_count_check(struct wb_ctx *c)
{
	struct u32_job j = {
		.in = c->buf[TC_IN].host, .out = c->buf[TC_OUT].host,
		.cnt = c->buf[TC_CNT].host, .n = c->size->n[0],
	};
	struct u32_cmp m = { 0 };

	if (u32_stretches(c, &j, trip_stretch, &m))
		return;
	trip_cnt_now = j.cnt;
	u32_report(c, &m, "out", j.n, trip_why);
}

/* in (4 bytes) and cnt (1) read, out (4) written per element. */
static void trip_count_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 5.0 * s->n[0];
	t->write = 4.0 * s->n[0];
}

/* ---- occupancy ---- */

/* Block sizes are swept from 1 up to this, or the kernel's own limit. */
#define OCC_MAX_BLOCK 1024

enum { OC_BLOCKS };

static int dev_attr(enum cudaDeviceAttr a)
{
	int v, dev;

	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
	return v;
}

/*
 * The device as blocks_per_sm() gets it. The allocation units and the
 * sub-partition count cannot be queried: they are the architecture's
 * (the CUDA occupancy calculator's tables; the grader needs compute
 * capability 7.5 or later, where registers go in 256s per warp and the
 * register file is split between 4 schedulers; shared memory goes in 256
 * bytes before 8.0 and in 128 from 8.0 on).
 */
static void occ_device_now(struct occ_device *d)
{
	int major = dev_attr(cudaDevAttrComputeCapabilityMajor);

	d->warp_size = dev_attr(cudaDevAttrWarpSize);
	d->max_threads_per_sm =
		dev_attr(cudaDevAttrMaxThreadsPerMultiProcessor);
	d->max_blocks_per_sm = dev_attr(cudaDevAttrMaxBlocksPerMultiprocessor);
	d->regs_per_sm = dev_attr(cudaDevAttrMaxRegistersPerMultiprocessor);
	d->regs_per_block = dev_attr(cudaDevAttrMaxRegistersPerBlock);
	d->max_regs_per_thread = 255;
	d->reg_alloc_unit = 256;
	d->sub_partitions = 4;
	d->smem_per_sm =
		(size_t)dev_attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
	d->smem_per_block =
		(size_t)dev_attr(cudaDevAttrMaxSharedMemoryPerBlock);
	d->smem_reserved_per_block =
		(size_t)dev_attr(cudaDevAttrReservedSharedMemoryPerBlock);
	d->smem_alloc_unit = major >= 8 ? 128 : 256;
}

static int occ_id(const struct wb_ctx *c)
{
	return (int)c->size->n[0];
}

/* Block sizes 1..occ_sweep(p) are asked about. */
static int occ_sweep(const struct occ_probe *p)
{
	return p->max_threads < OCC_MAX_BLOCK ? p->max_threads : OCC_MAX_BLOCK;
}

static int occupancy_setup(struct wb_ctx *c)
{
	struct occ_probe p;

	occ_probe_kernel(occ_id(c), &p);
	wb_output(c, "blocks", (size_t)occ_sweep(&p) * sizeof(int));
	return 0;
}

/* The student's answer for every block size, copied to the output. */
static int occupancy_run(struct wb_ctx *c, enum wb_impl impl)
{
	int got[OCC_MAX_BLOCK], sweep;
	struct occ_kernel k;
	struct occ_device d;
	struct occ_probe p;

	if (impl != WB_STUDENT || !blocks_per_sm)
		return WB_MISSING;
	occ_probe_kernel(occ_id(c), &p);
	occ_device_now(&d);
	k.regs_per_thread = p.regs;
	k.static_smem = p.static_smem;
	k.dynamic_smem = c->size->n[1];
	sweep = occ_sweep(&p);
	for (int b = 1; b <= sweep; b++)
		got[b - 1] = blocks_per_sm(&k, b, &d);
	CUDA_CHECK(cudaMemcpy(wb_dev(c, OC_BLOCKS), got,
			      (size_t)sweep * sizeof(int),
			      cudaMemcpyHostToDevice));
	return 0;
}

/* The columns of the printed table: warp multiples, and sizes just off. */
static const int occ_columns[] = {
	1, 32, 33, 64, 96, 100, 128, 160, 192, 256, 320, 384, 512, 640, 768,
	1024,
};

#define OCC_NCOLUMNS (int)(sizeof(occ_columns) / sizeof(occ_columns[0]))

/* The student's row beside the runtime's, in the runner's output. */
static void occ_print_table(const struct wb_ctx *c, const struct occ_probe *p,
			    const int *got, const int *want, int sweep)
{
	printf("  %s: %d registers/thread, %zu + %zu bytes of shared memory "
	       "(static + dynamic); blocks per SM:\n", p->name, p->regs,
	       p->static_smem, (size_t)c->size->n[1]);
	printf("    %-8s", "threads");
	for (int i = 0; i < OCC_NCOLUMNS && occ_columns[i] <= sweep; i++)
		printf(" %5d", occ_columns[i]);
	printf("\n    %-8s", "yours");
	for (int i = 0; i < OCC_NCOLUMNS && occ_columns[i] <= sweep; i++) {
		int b = occ_columns[i] - 1;

		printf(" %4d%c", got[b], got[b] == want[b] ? ' ' : '*');
	}
	printf("\n    %-8s", "runtime");
	for (int i = 0; i < OCC_NCOLUMNS && occ_columns[i] <= sweep; i++)
		printf(" %5d", want[occ_columns[i] - 1]);
	printf("\n");
}

/*
 * For whoever maintains the lab: where the runtime and the toolkit's own
 * calculator (cuda_occupancy.h) disagree, say so. Not graded.
 */
static void occ_note_header(const struct wb_ctx *c, const int *want,
			    int sweep)
{
	int notes = 0;

	for (int b = 1; b <= sweep && notes < 3; b++) {
		int h = occ_header_blocks(occ_id(c), b, c->size->n[1]);

		if (h >= 0 && h != want[b - 1]) {
			printf("    note: cuda_occupancy.h says %d for %d "
			       "threads, the runtime %d\n", h, b, want[b - 1]);
			notes++;
		}
	}
}

static void occupancy_check(struct wb_ctx *c)
{
	const int *got = c->buf[OC_BLOCKS].host;
	int want[OCC_MAX_BLOCK], sweep, bad = 0, shown = 0;
	size_t dyn = c->size->n[1];
	struct occ_probe p;

	occ_probe_kernel(occ_id(c), &p);
	sweep = occ_sweep(&p);
	for (int b = 1; b <= sweep; b++) {
		want[b - 1] = occ_runtime_blocks(occ_id(c), b, dyn);
		bad += got[b - 1] != want[b - 1];
	}
	occ_print_table(c, &p, got, want, sweep);
	occ_note_header(c, want, sweep);
	if (!bad)
		return;
	wb_fail(c, "%d of %d block sizes wrong (%s: %d registers/thread, "
		   "%zu bytes static + %zu dynamic shared memory)", bad, sweep,
		p.name, p.regs, p.static_smem, dyn);
	for (int b = 1; b <= sweep && shown < SHOW_MAX; b++) {
		if (got[b - 1] == want[b - 1])
			continue;
		wb_fail(c, "  %d threads (%d warps): you said %d blocks, the "
			   "runtime says %d", b, (b + 31) / 32, got[b - 1],
			want[b - 1]);
		shown++;
	}
}

/* ---- branch_eff ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c, as in
 * labs 03 and 04); without it (the handout) the worked cases
 * (branch_eff_worked.h) are checked exactly, and every other answer by
 * what the rule implies (be_props(), the twin).
 */
__attribute__((weak)) void (*branch_eff_rule)(const struct branch_pattern *b,
					      struct branch_pred *p);

#include "branch_eff_worked.h"

#define BE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The README's patterns (section 15) at this lab's n = 32M and at a
 * partial last warp: the naive branch's t % 2 (lab 01's naive), a
 * warp's worth of each (t / 32 % 2: the solution's grouping), a block's
 * worth (t / 256 % 2), a tail guard (t < n - 5: every warp but one
 * takes it), t % 32 < 24 (a quarter of the lanes idle), a period that
 * straddles warps (t / 3 % 7 < 3); the naive's decision written as two
 * tests.
 */
static const struct branch_pattern be_lab_patterns[] = {
	{ 32u << 20, 1, 2, 1, 0, 1 },
	{ 32u << 20, 32, 2, 1, 0, 1 },
	{ 32u << 20, 256, 2, 1, 0, 1 },
	{ 32u << 20, 1, 32, 24, 0, 1 },
	{ 32u << 20, 3, 7, 3, 0, 1 },
	{ 32u << 20, 1, 2, 1, 0, 2 },
	{ 1000, 1, 2, 1, 0, 1 },
	{ 1000, 32, 2, 1, 1, 2 },
	{ 1000, 16, 2, 1, 0, 1 },
	{ 1000, 1000, 1, 1, 0, 1 },
	{ 1000, 995, 2, 1, 0, 2 },
};

enum { BE_LAB, BE_WORKED, BE_RANDOM };

#define BE_MAX 600
#define BE_RANDOM_COUNT 500

static int branch_eff_setup(struct wb_ctx *c)
{
	static struct branch_pattern scratch[2 * BE_MAX];
	struct branch_pattern *in;
	int n = 0;

	switch (c->size->n[0]) {
	case BE_LAB:
		for (size_t i = 0; i < BE_COUNT(be_lab_patterns); i++)
			scratch[n++] = be_lab_patterns[i];
		break;
	case BE_WORKED:
		for (size_t i = 0; i < BE_COUNT(branch_eff_worked); i++)
			scratch[n++] = branch_eff_worked[i].b;
		break;
	default:
		while (n < BE_RANDOM_COUNT) {
			struct branch_pattern *b = &scratch[n++];

			memset(b, 0, sizeof(*b));
			b->div = 1 + (unsigned)wb_rng_below(&c->rng, 64);
			b->mod = 1 + (unsigned)wb_rng_below(&c->rng,
							   4096 / b->div);
			b->below = (unsigned)wb_rng_below(&c->rng, b->mod + 1);
			b->invert = (int)wb_rng_below(&c->rng, 2);
			b->ifs = 1 + (int)wb_rng_below(&c->rng, 2);
			b->n = wb_rng_below(&c->rng, 2) ? 1000 : 1ull << 39;
			b->n = 1 + wb_rng_below(&c->rng, b->n);
		}
	}
	/* The twins: the same pattern, the condition negated. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].invert = !scratch[i].invert;
	}
	in = wb_input(c, "patterns", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "predictions", 2 * (size_t)n * sizeof(struct branch_pred));
	return 0;
}

enum { BE_PATTERNS, BE_PREDS };

static size_t be_count(const struct wb_ctx *c)
{
	return c->buf[BE_PATTERNS].bytes / sizeof(struct branch_pattern) / 2;
}

static int branch_eff_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct branch_pred got[2 * BE_MAX];
	const struct branch_pattern *in = c->buf[BE_PATTERNS].host;
	size_t n = 2 * be_count(c);

	if (impl != WB_STUDENT || !branch_eff)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct branch_pattern b = in[i];

		memset(&got[i], 0xff, sizeof(got[i]));
		branch_eff(&b, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, BE_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

static int be_near(double got, double want)
{
	double d = got - want;

	return (d < 0 ? -d : d) <= 1e-12 * (want < 0 ? -want : want);
}

static int be_agrees(const struct branch_pred *a, const struct branch_pred *b)
{
	return a->warps == b->warps && a->branches == b->branches &&
	       a->divergent == b->divergent && a->paths == b->paths &&
	       be_near(a->efficiency, b->efficiency);
}

/*
 * Without the rule: what the README's rule implies of any right answer
 * p for b: ceil(n / 32) warps, a branch each per test; the divergent
 * branches a multiple of the tests, no more than there are, none when
 * every thread decides alike (below 0 or mod, or a single thread), all
 * when the condition alternates lane by lane in whole warps (t % 2, n a
 * multiple of 32); a split warp runs both bodies; efficiency the uniform
 * branches' share. 0, or 1 with why not.
 */
static int be_props(const struct branch_pattern *b,
		    const struct branch_pred *p, char *why, size_t len)
{
	unsigned long long warps = (b->n + 31) / 32;
	unsigned long long ifs = (unsigned long long)b->ifs;
	int same = b->below == 0 || b->below >= b->mod || b->n == 1;

	if (p->warps != warps)
		snprintf(why, len, "%llu threads make %llu warps, the last "
			 "one partial or not", b->n, warps);
	else if (p->branches != ifs * warps)
		snprintf(why, len, "each of %llu warps executes %llu "
			 "branch%s", warps, ifs, ifs > 1 ? "es" : "");
	else if (p->divergent > p->branches || p->divergent % ifs)
		snprintf(why, len, "a warp that splits splits at each of the "
			 "%llu tests, and no more branches split than the "
			 "%llu there are", ifs, p->branches);
	else if (same && p->divergent)
		snprintf(why, len, "every thread decides the same way: no "
			 "warp splits");
	else if (b->div == 1 && b->mod == 2 && b->below == 1 &&
		 b->n % 32 == 0 && p->divergent != p->branches)
		snprintf(why, len, "lanes alternate in every warp: all %llu "
			 "branches split", p->branches);
	else if (p->paths != p->warps + p->divergent / ifs)
		snprintf(why, len, "a uniform warp runs one body, a split one "
			 "both: %llu", p->warps + p->divergent / ifs);
	else if (!be_near(p->efficiency, 100.0 * (double)(p->branches -
							   p->divergent) /
						 (double)p->branches))
		snprintf(why, len, "the efficiency is the uniform branches' "
			 "share of your branches, in %%");
	else
		return 0;
	return 1;
}

static void be_show(struct wb_ctx *c, const char *who,
		    const struct branch_pred *p)
{
	wb_fail(c, "  %s: %llu warps, %llu branches, %llu divergent, %llu "
		   "paths, %.9g%%", who, p->warps, p->branches, p->divergent,
		p->paths, p->efficiency);
}

static void branch_eff_check(struct wb_ctx *c)
{
	const struct branch_pattern *in = c->buf[BE_PATTERNS].host;
	const struct branch_pred *got = c->buf[BE_PREDS].host;
	size_t n = be_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		struct branch_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (branch_eff_rule) {
			branch_eff_rule(&in[i], &w);
			who = "the rule";
		} else if (c->size->n[0] == BE_WORKED && i < n) {
			w = branch_eff_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = !be_agrees(&got[i], &w);
		else if (i >= n)
			wrong = got[i].divergent != got[i - n].divergent ||
				be_props(&in[i], &got[i], why, sizeof(why));
		else
			wrong = be_props(&in[i], &got[i], why, sizeof(why));
		if (wrong && !who && i >= n &&
		    got[i].divergent != got[i - n].divergent)
			snprintf(why, sizeof(why), "the condition negated "
				 "splits the same warps: you said %llu "
				 "divergent", got[i - n].divergent);
		if (!wrong || bad++ >= 3)
			continue;
		wb_fail(c, "case %zu%s: n = %llu, taken when ((t / %u) %% %u "
			   "< %u) %s, %s", i, i >= n ? " (a twin)" : "",
			in[i].n, in[i].div, in[i].mod, in[i].below,
			in[i].invert ? "is false" : "is true",
			in[i].ifs == 2 ? "two tests" : "if/else");
		be_show(c, "you", &got[i]);
		if (who)
			be_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu patterns wrong, twins included (counts "
			   "exact, the efficiency to 1e-12)", bad, 2 * n);
	else if (c->size->n[0] == BE_LAB)
		for (size_t i = 0; i < 5; i++)
			printf("  n = 32M, taken when (t / %u) %% %u < %u: "
			       "yours %.1f%% branch efficiency\n", in[i].div,
			       in[i].mod, in[i].below, got[i].efficiency);
}

/* ---- spills ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c);
 * without it (the handout) the worked cases (spills_worked.h) are
 * checked exactly, and every other answer by what the rule implies
 * (sp_props(), the twin).
 */
__attribute__((weak)) void (*spills_rule)(const struct reg_kernel *k,
					  struct reg_pred *p);

#include "spills_worked.h"

/*
 * The lab's kernels under __launch_bounds__ (occ_kernels.cu: 96, 128
 * and 320 accumulators live, -Xptxas -v gives them 64, 96 and 255
 * registers, all spilling); the same without min_blocks; a runtime-
 * indexed array of 16 floats; a lean kernel with room to spare.
 */
static const struct reg_kernel sp_lab_kernels[] = {
	{ 1024, 1, 96, 0 }, { 640, 1, 128, 0 }, { 256, 1, 320, 0 },
	{ 1024, 0, 96, 0 }, { 256, 4, 40, 0 }, { 256, 2, 40, 16 },
	{ 128, 0, 32, 0 }, { 96, 3, 200, 64 },
};

enum { SP_LAB, SP_WORKED, SP_RANDOM };

#define SP_MAX 600
#define SP_RANDOM_COUNT 500

static int spills_setup(struct wb_ctx *c)
{
	static struct reg_kernel scratch[2 * SP_MAX];
	struct reg_kernel *in;
	int n = 0;

	switch (c->size->n[0]) {
	case SP_LAB:
		for (size_t i = 0; i < BE_COUNT(sp_lab_kernels); i++)
			scratch[n++] = sp_lab_kernels[i];
		break;
	case SP_WORKED:
		for (size_t i = 0; i < BE_COUNT(spills_worked); i++)
			scratch[n++] = spills_worked[i].k;
		break;
	default:
		while (n < SP_RANDOM_COUNT) {
			struct reg_kernel *k = &scratch[n++];

			k->max_threads = 1 + (int)wb_rng_below(&c->rng, 1024);
			k->min_blocks = (int)wb_rng_below(&c->rng, 33);
			k->live_regs = 1 + (int)wb_rng_below(&c->rng, 400);
			k->array_floats = wb_rng_below(&c->rng, 2) ? 0 :
					  (int)wb_rng_below(&c->rng, 4087);
			/* 32 blocks of 1024 threads leave no register a
			 * thread: the contract keeps a block that fits. */
			if ((k->min_blocks ? k->min_blocks : 1) *
			    ((k->max_threads + 31) / 32 * 32) > 8192)
				n--;
		}
	}
	/* The twins: ten more floats in the array. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].array_floats += 10;
	}
	in = wb_input(c, "kernels", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "predictions", 2 * (size_t)n * sizeof(struct reg_pred));
	return 0;
}

enum { SP_KERNELS, SP_PREDS };

static size_t sp_count(const struct wb_ctx *c)
{
	return c->buf[SP_KERNELS].bytes / sizeof(struct reg_kernel) / 2;
}

static int spills_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct reg_pred got[2 * SP_MAX];
	const struct reg_kernel *in = c->buf[SP_KERNELS].host;
	size_t n = 2 * sp_count(c);

	if (impl != WB_STUDENT || !spills)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct reg_kernel k = in[i];

		memset(&got[i], 0xff, sizeof(got[i]));
		spills(&k, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, SP_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

/*
 * Without the rule: what the README's rule implies of any right answer:
 * a cap a multiple of 8 or 255, no more than 255, whose registers fit
 * the SM's 65536 for the blocks asked, the largest such; a spill
 * exactly when the live values exceed it; local memory 4 bytes for each
 * value over it and each float of the array. 0, or 1 with why not.
 */
static int sp_props(const struct reg_kernel *k, const struct reg_pred *p,
		    char *why, size_t len)
{
	long threads = (long)(k->max_threads + 31) / 32 * 32 *
		       (k->min_blocks ? k->min_blocks : 1);
	int over = k->live_regs > p->cap ? k->live_regs - p->cap : 0;

	if (p->cap < 0 || p->cap > 255 || (p->cap % 8 && p->cap != 255))
		snprintf(why, len, "a cap is a multiple of 8 registers, or "
			 "255, and at most 255");
	else if ((long)p->cap * threads > 65536)
		snprintf(why, len, "%d registers for %ld threads are more than "
			 "the SM's 65536", p->cap, threads);
	else if (p->cap < 255 && (long)(p->cap + 8) * threads <= 65536)
		snprintf(why, len, "%d registers a thread still fit: the "
			 "compiler takes all it may", p->cap + 8);
	else if (p->spills != (over > 0))
		snprintf(why, len, "%d values live against a cap of %d: %s",
			 k->live_regs, p->cap, over ? "spills" : "no spill");
	else if (p->local_bytes != 4 * (over + k->array_floats))
		snprintf(why, len, "4 bytes of local memory for each value "
			 "over the cap and each float of the array: %d",
			 4 * (over + k->array_floats));
	else
		return 0;
	return 1;
}

static void sp_show(struct wb_ctx *c, const char *who,
		    const struct reg_pred *p)
{
	wb_fail(c, "  %s: cap %d registers, %s, %d bytes of local memory",
		who, p->cap, p->spills ? "spills" : "no spill",
		p->local_bytes);
}

static void spills_check(struct wb_ctx *c)
{
	const struct reg_kernel *in = c->buf[SP_KERNELS].host;
	const struct reg_pred *got = c->buf[SP_PREDS].host;
	size_t n = sp_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		struct reg_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (spills_rule) {
			spills_rule(&in[i], &w);
			who = "the rule";
		} else if (c->size->n[0] == SP_WORKED && i < n) {
			w = spills_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = got[i].cap != w.cap ||
				got[i].spills != w.spills ||
				got[i].local_bytes != w.local_bytes;
		else
			wrong = sp_props(&in[i], &got[i], why, sizeof(why));
		if (!wrong && !who && i >= n &&
		    (got[i].cap != got[i - n].cap ||
		     got[i].local_bytes != got[i - n].local_bytes + 40)) {
			snprintf(why, sizeof(why), "ten more floats in the "
				 "array: the same cap, 40 more bytes");
			wrong = 1;
		}
		if (!wrong || bad++ >= 3)
			continue;
		wb_fail(c, "case %zu%s: __launch_bounds__(%d, %d), %d values "
			   "live, an indexed array of %d floats", i,
			i >= n ? " (a twin)" : "", in[i].max_threads,
			in[i].min_blocks, in[i].live_regs, in[i].array_floats);
		sp_show(c, "you", &got[i]);
		if (who)
			sp_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu kernels wrong, twins included", bad,
			2 * n);
	else if (c->size->n[0] == SP_LAB)
		for (size_t i = 0; i < 3; i++)
			printf("  __launch_bounds__(%d, %d): yours %d "
			       "registers (ptxas for sm_90: %d)\n",
			       in[i].max_threads, in[i].min_blocks, got[i].cap,
			       (int[]){ 64, 96, 255 }[i]);
}

/* ---- the table: every knob of this lab, with its reason ---- */

/* thread_map: one size per launch shape (the labels name grid and block). */
#define THREAD_MAP_SIZES                                                   \
	{ "g1x1x1 b1x1x1", { 0 } }, { "g2x3x1 b33x1x1", { 1 } },            \
	{ "g3x2x1 b40x2x1", { 2 } }, { "g2x2x2 b7x5x3", { 3 } },           \
	{ "g4x5x6 b3x3x3", { 4 } }, { "g7x2x1 b31x1x1", { 5 } },           \
	{ "g3x1x2 b1x1x64", { 6 } }, { "g1x9x1 b2x64x1", { 7 } },          \
	{ "g1x1x5 b96x1x1", { 8 } }, { "g5x3x1 b32x32x1", { 9 } },         \
	{ "g3x2x2 b16x16x4", { 10 } }, { "g2x3x2 b10x10x10", { 11 } },     \
	{ "g65x31x2 b17x3x5", { 12 } }, { "g66000x2x1 b2x2x1", { 13 } }

/*
 * branch sizes: 1 and 2 (one or both branches only); 31, 32, 33, 63, 64,
 * 65 around a warp and the 64 elements of a pair of warps that a
 * per-warp remapping covers; 255, 257, 1000, 1023 around a block; 4097,
 * 65537 and 1000003 are odd and not multiples of 4 (a vectorised kernel
 * needs its tail); 2^22 + 6 is larger than one wave of blocks.
 */
#define BRANCH_SIZES                                                       \
	{ "n=1", { 1 } }, { "n=2", { 2 } }, { "n=31", { 31 } },             \
	{ "n=32", { 32 } }, { "n=33", { 33 } }, { "n=63", { 63 } },         \
	{ "n=64", { 64 } }, { "n=65", { 65 } }, { "n=255", { 255 } },       \
	{ "n=257", { 257 } }, { "n=1000", { 1000 } }, { "n=1023", { 1023 } }, \
	{ "n=4097", { 4097 } }, { "n=65537", { 65537 } },                   \
	{ "n=1000003", { 1000003 } }, { "n=2^22+6", { (1u << 22) + 6 } }

/*
 * trip_count sizes (n, how counts are drawn): as for branch, with the
 * skewed counts; 2049 and 65537 are one element past a 2048-element tile
 * and a power of two; 4097 with every count heavy (a regrouping buffer
 * sized for the expected 1 in 8 overflows); 1000 with counts anywhere in
 * 0..255 (thresholds must not assume the distribution for correctness).
 */
#define TRIP_SIZES                                                         \
	{ "n=1", { 1, TRIP_SKEWED } }, { "n=31", { 31, TRIP_SKEWED } },     \
	{ "n=33", { 33, TRIP_SKEWED } }, { "n=255", { 255, TRIP_SKEWED } }, \
	{ "n=257", { 257, TRIP_SKEWED } },                                  \
	{ "n=1000 any", { 1000, TRIP_ANY_BYTE } },                          \
	{ "n=2049", { 2049, TRIP_SKEWED } },                                \
	{ "n=4097 heavy", { 4097, TRIP_ALL_HEAVY } },                       \
	{ "n=65537", { 65537, TRIP_SKEWED } },                              \
	{ "n=1000003", { 1000003, TRIP_SKEWED } },                          \
	{ "n=2^22+6", { (1u << 22) + 6, TRIP_SKEWED } }

/*
 * occupancy sizes (kernel, dynamic shared memory): each sweeps every
 * block size from 1 to the kernel's limit, so each rounding (threads to
 * warps, registers to 256 per warp and to the sub-partition, shared memory
 * to its unit) is met at every boundary. Register counts from ~10 (the
 * warp and block limits decide) through ~36 and ~42 (registers decide, and
 * the sub-partition rounding shows) to 64, 96 and 255 under
 * __launch_bounds__; shared memory static (9232 bytes: 9 KiB and 16),
 * dynamic (1000 bytes, never the limit; 12 KiB, 30000 and 48000 bytes:
 * the limit, and 1 KiB reserved per block changes the answer), and both,
 * with registers, where whichever is tighter wins.
 */
#define OCC_SIZES                                                          \
	{ "tiny", { OCC_TINY, 0 } }, { "acc24", { OCC_ACC24, 0 } },         \
	{ "acc32", { OCC_ACC32, 0 } },                                      \
	{ "bound1024", { OCC_BOUND1024, 0 } },                              \
	{ "bound640", { OCC_BOUND640, 0 } },                                \
	{ "bound256", { OCC_BOUND256, 0 } },                                \
	{ "static9232", { OCC_STATIC9K, 0 } },                              \
	{ "static9232+3000", { OCC_STATIC9K, 3000 } },                      \
	{ "dyn1000", { OCC_DYNAMIC, 1000 } },                               \
	{ "dyn12288", { OCC_DYNAMIC, 12288 } },                             \
	{ "dyn30000", { OCC_DYNAMIC, 30000 } },                             \
	{ "dyn48000", { OCC_DYNAMIC, 48000 } },                             \
	{ "mixed+6000", { OCC_MIXED, 6000 } }

/*
 * Technique rules (docs/adding-a-lab.md). trip_count is about regrouping
 * the work by hand; occupancy is about knowing the residency rules.
 */
#define NO_LIBRARY_TRIP                                                    \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a device-wide library algorithm (CUB's Device*, Thrust)",         \
	  "Grouping the elements by cost is the exercise, inside your own "  \
	  "kernels: a library sort or partition does the regrouping for you." }
#define NO_OCC_RUNTIME                                                     \
	{ WB_MUST_NOT, WB_SYMBOLS, "cudaOcc",                               \
	  "the runtime's occupancy calculator (cudaOccupancy*, cudaOcc*)",   \
	  "The answer must come from the residency rules you write, not "    \
	  "from the function it is checked against." }

static const struct wb_exercise exercises[] = {
	{
		.name = "thread_map",
		.title = "each thread's linear index, warp and lane",
		.kind = WB_CORRECTNESS,
		.sizes = { THREAD_MAP_SIZES },
		/* A warm-up of a dozen lines: half an exercise. */
		.points_correct = 50,
		/* A million records checked at most; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = thread_map_setup,
		.run = thread_map_run,
		.check = thread_map_check,
	},
	{
		.name = "branch",
		.title = "even/odd branches without divergence",
		.kind = WB_SPEED,
		.sizes = { BRANCH_SIZES },
		/*
		 * 32M elements: 128 MiB in and 128 MiB out, twice an H200's
		 * L2. The kernel is bound by its integer instructions, not
		 * by memory, so the L2 matters little here; the naive takes
		 * ~0.25 ms, the CPU check ~0.2-0.6 s (four chains at once).
		 */
		.bench = { { "n=32M", { 32u << 20 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the ideal time. branch is bound by its
		 * integer instructions: the ideal is the lab's limit kernel
		 * (limit.cu), the least instruction work the task needs (one
		 * chain an element, four a thread, no warp divergent), timed
		 * in the same rounds, or the DRAM time if longer. Until
		 * 2026-11-28 it was the naive's time over 2, a model the
		 * solution passed (102% on an H100, 104% on an H200: the
		 * naive loses more than half to divergence, its one chain a
		 * thread waits on latency too). Measured on an H100 80GB HBM3
		 * (2026-11-25), against the model: the solution, four
		 * elements per thread, 2.04x over the naive; the warp
		 * remapping (ladder 1-warp-remap: one chain, but stride-2
		 * loads and index arithmetic) 1.52x, 3/4 of the solution: tier
		 * 2 (72%) below it, the top tier (85%) above. Tier 1 (60%)
		 * lies clearly above the naive (about half the limit); a
		 * branchless select that computes both chains does the
		 * naive's work and stays under it
		 * (tests/broken/warps-branchless-select).
		 */
		.tiers = { { 0.60, 20 }, { 0.72, 40 }, { 0.85, 60 } },
		.ideal = WB_IDEAL_LIMIT,
		/* make profile: half of each warp's lanes idle through each
		 * chain (branch efficiency, active lanes), and the stalls of
		 * a kernel bound by its integer instructions. */
		.profile = WB_PROF_DIVERGENCE | WB_PROF_STALLS,
		/* The naive takes ~0.25 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = branch_setup,
		.run = branch_run,
		.check = branch_check,
		.traffic = branch_traffic,
	},
	{
		.name = "trip_count",
		.title = "per-element loops of skewed length, regrouped",
		.kind = WB_SPEED,
		.sizes = { TRIP_SIZES },
		/*
		 * 32M elements: in and out 128 MiB each, cnt 32 MiB. The
		 * CPU check walks ~12.5 rounds per element, four chains at
		 * once, ~0.3-0.8 s.
		 */
		.bench = { { "n=32M", { 32u << 20, TRIP_SKEWED } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the ideal time, the naive's over 2: a naive
		 * warp takes as long as its heaviest lane (~77 rounds for
		 * ~12.5 of work per element); where the regrouped code and the
		 * naive are both bound by the integer pipelines, as here,
		 * their ratio is the same on any GPU, and regrouping that
		 * keeps one pass over memory (a shared-memory queue of heavy
		 * elements per block) reaches about 2x. Measured on an H100
		 * 80GB HBM3 (tests/gpu/calibrate.sh, 2026-11-25): the naive
		 * 432.5 us; the solution 1.82x, 91% of the ideal: the top
		 * tier (78%) leaves a 15% margin. The list through global
		 * memory (ladder 2-global-list: a second kernel, heavy
		 * elements gathered and scattered through DRAM) 0.41x,
		 * slower than the naive, no speed points. Tier 1 (60%, 1.2x)
		 * lies clearly above the naive; tier 2 splits the way.
		 */
		.tiers = { { 0.60, 20 }, { 0.69, 40 }, { 0.78, 60 } },
		.ideal = WB_IDEAL_INSTR,
		.instr_speedup = 2.0,
		/* make profile: lanes idle while each warp waits for its
		 * heaviest lane (active lanes, branch efficiency); occupancy
		 * shows what the regrouping's shared-memory queue costs. */
		.profile = WB_PROF_DIVERGENCE | WB_PROF_OCCUPANCY,
		.timeout_s = 60,
		.work_bytes = TRIP_WORK_BYTES,
		.setup = trip_count_setup,
		.run = trip_count_run,
		.check = trip_count_check,
		.traffic = trip_count_traffic,
		.rules = { NO_LIBRARY_TRIP },
	},
	{
		.name = "occupancy",
		.title = "blocks per SM, as the occupancy calculator says",
		.kind = WB_CORRECTNESS,
		.sizes = { OCC_SIZES },
		/* Host code, but every rule of residency: a whole exercise. */
		.points_correct = 100,
		/* ~12,000 questions to the runtime, a few ms; 60 s: hangs. */
		.timeout_s = 60,
		.setup = occupancy_setup,
		.run = occupancy_run,
		.check = occupancy_check,
		.rules = { NO_OCC_RUNTIME },
	},
	{
		.name = "branch_eff",
		.title = "a divergence pattern's branch efficiency, predicted",
		.kind = WB_CORRECTNESS,
		/* The README's patterns; the worked cases; 500 patterns drawn
		 * from the seed, up to 2^39 threads. Each also as its twin,
		 * the condition negated. */
		.sizes = { { "lab", { BE_LAB } }, { "worked", { BE_WORKED } },
			   { "random", { BE_RANDOM } } },
		/* A loop over one period of warps: a fifth of an exercise. */
		.points_correct = 20,
		/* ~1,000 patterns of host code, each at most 4096 warps of
		 * 32 lanes; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = branch_eff_setup,
		.run = branch_eff_run,
		.check = branch_eff_check,
	},
	{
		.name = "spills",
		.title = "a register cap under __launch_bounds__, and the "
			 "local memory it costs",
		.kind = WB_CORRECTNESS,
		/* The lab's bounded kernels and a few more; the worked
		 * cases; 500 kernels drawn from the seed. Each also as its
		 * twin, ten more floats in the array. */
		.sizes = { { "lab", { SP_LAB } }, { "worked", { SP_WORKED } },
			   { "random", { SP_RANDOM } } },
		/* A division, two roundings and a difference: a fifth of an
		 * exercise. */
		.points_correct = 20,
		/* ~1,000 kernels of host code; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = spills_setup,
		.run = spills_run,
		.check = spills_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "01-warps",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
