/* SPDX-License-Identifier: MIT */
/*
 * ex_roofline.c - lab 04's roofline and peak (host exercises): the kernels
 * and GPUs they ask about, the checks of their answers (the rules' where
 * answers.c is linked, the worked cases and properties where not) and their
 * hooks for the table in lab.c. peak asks roofline's data-sheet GPUs and
 * checks with its comparisons, so the two share a file; a file per
 * exercise (or per such pair) keeps lab.c the table alone.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "tiling.h"
#include "lab_hooks.h"

/* ---- roofline ---- */

/*
 * The lab's rule, where the instructor's copy has it: answers.c (lab.mk's
 * ANSWERS) replaces this weak NULL with it, and every prediction is
 * checked against it. The student handout has no answers.c: there the
 * worked cases (roofline_worked.h, the rule's own answers) are checked
 * exactly, and every other prediction by what the rule implies
 * (roof_props(), roof_twin()), which does not give the answer away.
 */
__attribute__((weak)) void (*roofline_rule)(const struct roof_kernel *k,
					    const struct roof_gpu *g,
					    struct roof_pred *p);

#include "roofline_worked.h"

/* One question: a kernel on a GPU. */
struct roof_case {
	struct roof_kernel k;
	struct roof_gpu g;
	int lab_kernel; /* index into roof_lab_kernels, or -1 */
};

/*
 * The GPUs asked about beside this one: data-sheet fp32 peaks (boost
 * clock, CUDA cores) and memory bandwidths. The T4 and the RTX 4090 are
 * where a student may sit; the A100 has the lowest ridge, the H200 the
 * highest bandwidth. Figures from NVIDIA's data sheets.
 */
static const struct {
	const char *name;
	struct roof_gpu g;
} roof_sheet_gpus[] = {
	{ "T4", { 8141, 320 } },
	{ "RTX 4090", { 82580, 1008 } },
	{ "A100 SXM 80GB", { 19500, 2039 } },
	{ "H100 PCIe", { 51220, 2039 } },
	{ "H100 SXM", { 66910, 3352 } },
	{ "H200", { 66910, 4800 } },
};

#define ROOF_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The lab's matmul kernels, by the tile of c one block computes. */
static const struct {
	const char *what;
	unsigned long long tile_m, tile_n;
} roof_lab_kernels[] = {
	{ "naive.cu (a thread per element)", 1, 1 },
	{ "16 x 16 shared tiles (ladder 1)", 16, 16 },
	{ "64 x 64 blocks, 4 x 4 per thread (ladder 3)", 64, 64 },
	{ "the solution, 128 x 128 blocks", 128, 128 },
};

/* The lab's shapes asked about: the benchmarks first, then some the
 * exercises check (m x k x n; a transpose's m x n). */
static const struct wb_size roof_mm_shapes[] = {
	{ "4096^3", { 4096, 4096, 4096 } },
	{ "1000x1001x999", { 1000, 1001, 999 } },
	{ "255x1000x257", { 255, 1000, 257 } },
	{ "129x8x127", { 129, 8, 127 } },
	{ "1x515x257", { 1, 515, 257 } },
};
static const struct wb_size roof_tp_shapes[] = {
	{ "8192x8192", { 8192, 0, 8192 } },
	{ "2047x2053", { 2047, 0, 2053 } },
	{ "1x33", { 1, 0, 33 } },
};

#define ROOF_MAX 1024
#define ROOF_RANDOM_COUNT 1000

struct roof_list {
	struct roof_case *c;
	int n;
};

static void roof_add(struct roof_list *l, int op, unsigned long long m,
		     unsigned long long k, unsigned long long n,
		     unsigned long long tm, unsigned long long tn,
		     const struct roof_gpu *g, int lab_kernel)
{
	struct roof_case *c = &l->c[l->n++];

	memset(c, 0, sizeof(*c));
	c->k = (struct roof_kernel){ op, m, k, n, tm, tn };
	c->g = *g;
	c->lab_kernel = lab_kernel;
}

/*
 * This GPU's roofs from what the driver reports: fp32 lanes x 2 flops x
 * SMs x the highest SM clock (as devinfo computes it), and the memory's
 * data-sheet bandwidth, 2 transfers per memory clock x the bus width.
 * Returns 0, or -1 where the driver reports no memory clock.
 */
static int roof_this_gpu(struct roof_gpu *g)
{
	int dev, major, minor, sms, khz, mem_khz, bus_bits;

	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&major,
					  cudaDevAttrComputeCapabilityMajor,
					  dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&minor,
					  cudaDevAttrComputeCapabilityMinor,
					  dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&sms,
					  cudaDevAttrMultiProcessorCount, dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate,
					  dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits,
					  cudaDevAttrGlobalMemoryBusWidth, dev));
	if (mem_khz <= 0 || bus_bits <= 0 || khz <= 0)
		return -1;
	/* FP32 lanes per SM: 64 on Turing and the A100, 128 from sm_86. */
	g->peak_gflops = 2.0 * sms * khz * 1e-6 *
			 (major < 8 || (major == 8 && minor == 0) ? 64 : 128);
	g->bw_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8) / 1e9;
	return 0;
}

/* The lab's kernels at its shapes, on this GPU (first) and the data
 * sheets' GPUs. */
static void roof_lab(struct roof_list *l)
{
	struct roof_gpu gpus[1 + ROOF_COUNT(roof_sheet_gpus)];
	int ng = 0;

	if (!roof_this_gpu(&gpus[0]))
		ng++;
	for (size_t i = 0; i < ROOF_COUNT(roof_sheet_gpus); i++)
		gpus[ng++] = roof_sheet_gpus[i].g;
	for (int g = 0; g < ng; g++) {
		for (size_t s = 0; s < ROOF_COUNT(roof_mm_shapes); s++)
			for (size_t t = 0; t < ROOF_COUNT(roof_lab_kernels); t++)
				roof_add(l, ROOF_MATMUL,
					 roof_mm_shapes[s].n[0],
					 roof_mm_shapes[s].n[1],
					 roof_mm_shapes[s].n[2],
					 roof_lab_kernels[t].tile_m,
					 roof_lab_kernels[t].tile_n, &gpus[g],
					 s == 0 && g == 0 ? (int)t : -1);
		for (size_t s = 0; s < ROOF_COUNT(roof_tp_shapes); s++)
			roof_add(l, ROOF_TRANSPOSE, roof_tp_shapes[s].n[0], 1,
				 roof_tp_shapes[s].n[2], 1, 1, &gpus[g], -1);
	}
}

/*
 * What the lab's kernels do not reach: tiles wider or taller than the
 * matrix (one block row or column), non-square tiles and tiles of one
 * row or column, k = 1 (the product is all stores), one element, the
 * largest extents tiling.h allows, a transpose of one element, and tiles
 * just either side of the H100's ridge.
 */
static void roof_edges(struct roof_list *l)
{
	const struct roof_gpu *h100 = &roof_sheet_gpus[4].g;
	const struct roof_gpu *t4 = &roof_sheet_gpus[0].g;

	roof_add(l, ROOF_MATMUL, 100, 300, 50, 128, 128, h100, -1);
	roof_add(l, ROOF_MATMUL, 4096, 4096, 4096, 128, 64, h100, -1);
	roof_add(l, ROOF_MATMUL, 4096, 4096, 4096, 64, 256, t4, -1);
	roof_add(l, ROOF_MATMUL, 33, 4096, 4096, 1, 256, h100, -1);
	roof_add(l, ROOF_MATMUL, 4096, 4096, 33, 256, 1, h100, -1);
	roof_add(l, ROOF_MATMUL, 4096, 1, 4096, 128, 128, h100, -1);
	roof_add(l, ROOF_MATMUL, 1, 1, 1, 1, 1, t4, -1);
	roof_add(l, ROOF_MATMUL, 1, 1, 1, 128, 128, h100, -1);
	roof_add(l, ROOF_MATMUL, 1000000, 1000, 1000, 128, 128, h100, -1);
	roof_add(l, ROOF_MATMUL, 1000, 1000000, 1000, 32, 32, t4, -1);
	roof_add(l, ROOF_MATMUL, 1000, 1000, 1000000, 1000, 7, t4, -1);
	roof_add(l, ROOF_TRANSPOSE, 1, 1, 1, 1, 1, t4, -1);
	roof_add(l, ROOF_TRANSPOSE, 1000000, 1, 2000, 32, 32, h100, -1);
	/* H100 SXM's ridge is 19.96 flop/B: 64 x 64 tiles at 4096^3 reach
	 * 15.9 (memory-bound), 96 x 96 23.7 (compute-bound) */
	roof_add(l, ROOF_MATMUL, 4096, 4096, 4096, 96, 96, h100, -1);
}

/* Up to 2^k with k below `bits`, or below 1000: extents and tiles. */
static unsigned long long roof_draw(struct wb_rng *rng, int bits)
{
	return wb_rng_below(rng, 2) ? 1 + wb_rng_below(rng, 1000) :
				      1ull << wb_rng_below(rng, (uint64_t)bits);
}

/* Are p's flops and bytes within 1e-9 of the case's ridge, where
 * rounding could decide the bound? */
static int roof_near_ridge(const struct roof_case *c,
			   const struct roof_pred *p)
{
	double t_flops = p->flops / (c->g.peak_gflops * 1e3);
	double t_bytes = p->bytes / (c->g.bw_gbps * 1e3);

	return fabs(t_flops - t_bytes) <=
	       1e-9 * (t_flops > t_bytes ? t_flops : t_bytes);
}

/* Does the rule put the case near its ridge? Never where there is no
 * rule (the handout): a drawn case lands that near in far fewer than one
 * run in a million, and a prediction there may take either bound. */
static int roof_rule_near_ridge(const struct roof_case *c)
{
	struct roof_pred p;

	if (!roofline_rule)
		return 0;
	roofline_rule(&c->k, &c->g, &p);
	return roof_near_ridge(c, &p);
}

/* Any case the contract allows, with extents up to 2^16 so that every
 * count stays below 2^53, exact in a double whatever the order it is
 * added in (2^49 FLOPs, 12 x 2^48 bytes at most); tiles up to 512; GPUs from 100 GFLOP/s and 50 GB/s
 * to 200 TFLOP/s and 10 TB/s. */
static void roof_random(struct roof_list *l, struct wb_rng *rng)
{
	while (l->n < ROOF_RANDOM_COUNT) {
		struct roof_gpu g = {
			100 + wb_rng_unit(rng) * 199900,
			50 + wb_rng_unit(rng) * 9950,
		};
		int op = wb_rng_below(rng, 8) ? ROOF_MATMUL : ROOF_TRANSPOSE;

		roof_add(l, op, roof_draw(rng, 17), roof_draw(rng, 17),
			 roof_draw(rng, 17), roof_draw(rng, 10),
			 roof_draw(rng, 10), &g, -1);
		if (roof_rule_near_ridge(&l->c[l->n - 1]))
			l->n--;
	}
}

/* The worked cases, in the order of roofline_worked.h. */
static void roof_worked_cases(struct roof_list *l)
{
	for (size_t i = 0; i < ROOF_COUNT(roof_worked); i++) {
		const struct roof_kernel *k = &roof_worked[i].k;

		roof_add(l, k->op, k->m, k->k, k->n, k->tile_m, k->tile_n,
			 &roof_worked[i].g, -1);
	}
}

/*
 * Case i's twin, asked after the group: the same kernel transposed (m and
 * n, and the tile's sides, swapped: c^T = b^T a^T moves the same bytes)
 * on a GPU whose two roofs are both twice as high. Its flops, bytes,
 * intensity and bound are case i's, its time half and its GFLOP/s
 * twice: without the rule (the handout) that is checked of every case.
 */
static struct roof_case roof_twin(const struct roof_case *c)
{
	struct roof_case t = *c;

	t.k.m = c->k.n;
	t.k.n = c->k.m;
	t.k.tile_m = c->k.tile_n;
	t.k.tile_n = c->k.tile_m;
	t.g.peak_gflops = 2 * c->g.peak_gflops;
	t.g.bw_gbps = 2 * c->g.bw_gbps;
	t.lab_kernel = -1;
	return t;
}

_Static_assert(ROOF_RANDOM_COUNT <= ROOF_MAX &&
	       ROOF_COUNT(roof_worked) <= ROOF_MAX,
	       "ROOF_MAX holds every group");

enum { RF_CASES, RF_PREDS };

/* The group's cases, then their twins (roof_twin()). */
int lab04_roofline_setup(struct wb_ctx *c)
{
	static struct roof_case scratch[2 * ROOF_MAX];
	struct roof_list l = { scratch, 0 };
	struct roof_case *in;

	switch (c->size->n[0]) {
	case ROOF_LAB: roof_lab(&l); break;
	case ROOF_EDGES: roof_edges(&l); break;
	case ROOF_WORKED: roof_worked_cases(&l); break;
	default: roof_random(&l, &c->rng);
	}
	for (int i = 0; i < l.n; i++)
		scratch[l.n + i] = roof_twin(&scratch[i]);
	in = wb_input(c, "cases", 2 * (size_t)l.n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)l.n * sizeof(*in));
	wb_output(c, "predictions",
		  2 * (size_t)l.n * sizeof(struct roof_pred));
	return 0;
}

/* The group's cases; as many twins follow them. */
static size_t roof_count(const struct wb_ctx *c)
{
	return c->buf[RF_CASES].bytes / sizeof(struct roof_case) / 2;
}

/* Your prediction for every case and its twin, copied to the output.
 * Each call gets its own copy of the kernel and the GPU, and a poisoned
 * prediction. */
int lab04_roofline_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct roof_pred got[2 * ROOF_MAX];
	const struct roof_case *in = c->buf[RF_CASES].host;
	size_t n = 2 * roof_count(c);

	if (impl != WB_STUDENT || !roofline)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct roof_kernel k = in[i].k;
		struct roof_gpu g = in[i].g;

		memset(&got[i], 0xff, sizeof(got[i]));
		roofline(&k, &g, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, RF_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

/*
 * FLOPs and bytes are whole numbers below 2^53, exact in a double:
 * checked exactly. Intensity, time and GFLOP/s are a division or two of
 * them, which any order of the same operations rounds within a few ulps:
 * checked to 1e-12 relative. Which side of the ridge: exactly (no drawn
 * case lies within 1e-9 of it, and on this GPU one that did would take
 * either answer).
 */
#define ROOF_RTOL 1e-12

static int roof_near(double got, double want)
{
	return fabs(got - want) <= ROOF_RTOL * fabs(want);
}

/* Does the prediction agree with the rule's? Either side of the ridge
 * is right for a case on it (this GPU's roofs are not chosen). */
static int roof_agrees(const struct roof_case *c, const struct roof_pred *got,
		       const struct roof_pred *w)
{
	return got->flops == w->flops && got->bytes == w->bytes &&
	       roof_near(got->intensity, w->intensity) &&
	       (got->compute_bound == w->compute_bound ||
		roof_near_ridge(c, w)) &&
	       roof_near(got->time_us, w->time_us) &&
	       roof_near(got->gflops, w->gflops);
}

/* A case in one line. */
static void roof_describe(const struct roof_case *c, char *s, size_t len)
{
	const struct roof_kernel *k = &c->k;

	if (k->op == ROOF_TRANSPOSE)
		snprintf(s, len, "transpose %llu x %llu", k->m, k->n);
	else
		snprintf(s, len, "matmul %llu x %llu x %llu, tile %llu x %llu",
			 k->m, k->k, k->n, k->tile_m, k->tile_n);
	snprintf(s + strlen(s), len - strlen(s),
		 " on a GPU of %.6g GFLOP/s and %.6g GB/s (ridge %.4g flop/B)",
		 c->g.peak_gflops, c->g.bw_gbps,
		 c->g.peak_gflops / c->g.bw_gbps);
}

/* A prediction in one line, after `who`. */
static void roof_show(struct wb_ctx *c, const char *who,
		      const struct roof_pred *p)
{
	wb_fail(c, "  %s: %.17g flops, %.17g bytes, %.6g flop/B, %s-bound, "
		   "%.6g us, %.6g GFLOP/s", who, p->flops, p->bytes,
		p->intensity, p->compute_bound ? "compute" : "memory",
		p->time_us, p->gflops);
}

/* The lab's kernels on this GPU at 4096^3, yours beside the rule's where
 * it is linked (the handout has the rule's figures in the README's
 * table, section 11, for an H100 SXM). */
static void roof_print_bench(const struct roof_case *in,
			     const struct roof_pred *got, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct roof_pred w;
		int t = in[i].lab_kernel;

		if (t < 0)
			continue;
		if (t == 0)
			printf("  on this GPU (%.1f TFLOP/s fp32, %.0f GB/s on "
			       "its data sheet; ridge %.1f flop/B), matmul "
			       "4096^3:\n", in[i].g.peak_gflops / 1e3,
			       in[i].g.bw_gbps,
			       in[i].g.peak_gflops / in[i].g.bw_gbps);
		printf("    %s: yours %.2f flop/B, %s-bound, %.1f TFLOP/s",
		       roof_lab_kernels[t].what, got[i].intensity,
		       got[i].compute_bound ? "compute" : "memory",
		       got[i].gflops / 1e3);
		if (!roofline_rule) {
			printf("\n");
			continue;
		}
		roofline_rule(&in[i].k, &in[i].g, &w);
		printf("; the rule %.2f flop/B, %s-bound, %.1f TFLOP/s\n",
		       w.intensity, w.compute_bound ? "compute" : "memory",
		       w.gflops / 1e3);
	}
	printf("  (measure: make grade LAB=tiling EX=matmul gives TFLOP/s; "
	       "the README's section 11 has the ncu metrics)\n");
}

/* The rule must give the lab's own minimum bytes (traffic()) for a tile
 * that covers the whole matrix: if not, the lab is wrong, not you. */
static int roof_rule_consistent(struct wb_ctx *c)
{
	const struct roof_gpu *g = &roof_sheet_gpus[0].g;
	const struct wb_size *s = &roof_mm_shapes[0];
	struct roof_kernel mk = { ROOF_MATMUL, s->n[0], s->n[1], s->n[2],
				  s->n[0], s->n[2] };
	struct wb_size ts = { "t", { roof_tp_shapes[0].n[0],
				     roof_tp_shapes[0].n[2] } };
	struct roof_kernel tk = { ROOF_TRANSPOSE, ts.n[0], 1, ts.n[1], 1, 1 };
	struct wb_traffic mt = { 0 }, tt = { 0 };
	struct roof_pred mp, tp;

	roofline_rule(&mk, g, &mp);
	roofline_rule(&tk, g, &tp);
	lab04_matmul_traffic(s, &mt);
	lab04_transpose_traffic(&ts, &tt);
	if (mp.bytes == mt.read + mt.write && mp.flops == mt.flops &&
	    tp.bytes == tt.read + tt.write)
		return 0;
	wb_fail(c, "the lab's rule and traffic() disagree (a bug in "
		   "labs/04-tiling/lab.c)");
	return -1;
}

/* The worked cases are the rule's answers (tools/worked-cases.sh writes
 * them from it): where the rule is linked, are they still? */
static int roof_worked_stale(void)
{
	for (size_t i = 0; i < ROOF_COUNT(roof_worked); i++) {
		const struct roof_worked *rw = &roof_worked[i];
		struct roof_case wc = { rw->k, rw->g, -1 };
		struct roof_pred w;

		roofline_rule(&wc.k, &wc.g, &w);
		if (!roof_agrees(&wc, &rw->p, &w))
			return 1;
	}
	return 0;
}

/*
 * The fewest bytes the kernel can move (each matrix once: traffic()) and
 * the most (a 1 x 1 tile: naive.cu, 8 bytes of loads per multiply-add,
 * and c stored once). A transpose moves its fewest.
 */
static void roof_bounds(const struct roof_kernel *k, double *least,
			double *most)
{
	struct wb_size tp = { "t", { k->m, k->n } };
	struct wb_size mm = { "m", { k->m, k->k, k->n } };
	struct wb_traffic t = { 0 };

	if (k->op == ROOF_TRANSPOSE) {
		lab04_transpose_traffic(&tp, &t);
		*least = *most = t.read + t.write;
		return;
	}
	lab04_matmul_traffic(&mm, &t);
	*least = t.read + t.write;
	*most = 4 * t.flops + 4 * (double)k->m * (double)k->n;
}

/* Are the prediction's ratios what its own flops and bytes give, as the
 * README defines them? 0, or 1 with why not. */
static int roof_ratios(const struct roof_case *c, const struct roof_pred *p,
		       char *why, size_t len)
{
	double t_flops = p->flops / (c->g.peak_gflops * 1e3);
	double t_bytes = p->bytes / (c->g.bw_gbps * 1e3);
	double least = t_flops > t_bytes ? t_flops : t_bytes;

	if (!roof_near(p->intensity, p->flops / p->bytes))
		snprintf(why, len, "the intensity is your flops over your "
			 "bytes, %.6g flop/B", p->flops / p->bytes);
	else if (!roof_near(p->time_us, least))
		snprintf(why, len, "the time is the longer of your flops at "
			 "the peak (%.6g us) and your bytes at the bandwidth "
			 "(%.6g us)", t_flops, t_bytes);
	else if (p->compute_bound != (t_flops > t_bytes) &&
		 !roof_near_ridge(c, p))
		snprintf(why, len, "your flops take %.6g us at the peak, your "
			 "bytes %.6g us at the bandwidth: %s-bound", t_flops,
			 t_bytes, t_flops > t_bytes ? "compute" : "memory");
	else if (!roof_near(p->gflops, p->flops / (least * 1e3)))
		snprintf(why, len, "GFLOP/s are your flops over your time, "
			 "%.6g", p->flops / (least * 1e3));
	else
		return 0;
	return 1;
}

/*
 * Without the rule: what any right prediction p for case c satisfies, as
 * the README's rule implies. Returns 0, or 1 with why p cannot be right.
 */
static int roof_props(const struct roof_case *c, const struct roof_pred *p,
		      char *why, size_t len)
{
	const struct roof_kernel *k = &c->k;
	double flops = 0, least, most;

	if (k->op == ROOF_MATMUL)
		flops = 2 * (double)k->m * (double)k->n * (double)k->k;
	roof_bounds(k, &least, &most);
	if (p->flops != flops)
		snprintf(why, len, "a matmul does 2 m n k flops, %.17g, a "
			 "transpose none", flops);
	else if (p->bytes < least || p->bytes > most)
		snprintf(why, len, "the bytes lie from %.17g (each matrix "
			 "once) to %.17g (a 1 x 1 tile)", least, most);
	else if (k->tile_m >= k->m && k->tile_n >= k->n && p->bytes != least)
		snprintf(why, len, "one tile covers c: each matrix moves once, "
			 "%.17g bytes", least);
	else
		return roof_ratios(c, p, why, len);
	return 1;
}

/* An earlier case i of the same kernel (on another GPU), or -1. */
static long roof_same_kernel(const struct roof_case *in, size_t i)
{
	const struct roof_kernel *k = &in[i].k;

	for (size_t j = 0; j < i; j++) {
		const struct roof_kernel *o = &in[j].k;

		if (o->op == k->op && o->m == k->m && o->k == k->k &&
		    o->n == k->n && o->tile_m == k->tile_m &&
		    o->tile_n == k->tile_n)
			return (long)j;
	}
	return -1;
}

/* Is the twin's prediction t what case i's, o, implies (roof_twin())? */
static int roof_twin_wrong(const struct roof_case *tc,
			   const struct roof_pred *t,
			   const struct roof_pred *o, char *why, size_t len)
{
	if (t->flops != o->flops || t->bytes != o->bytes)
		snprintf(why, len, "for m and n swapped, and the tile's "
			 "sides, you said %.17g flops and %.17g bytes: the "
			 "same work, the same loads", o->flops, o->bytes);
	else if (!roof_near(t->intensity, o->intensity) ||
		 (t->compute_bound != o->compute_bound &&
		  !roof_near_ridge(tc, t)) ||
		 !roof_near(t->time_us, o->time_us / 2) ||
		 !roof_near(t->gflops, 2 * o->gflops))
		snprintf(why, len, "for m and n swapped on a GPU of half "
			 "both roofs you said %.6g flop/B, %s-bound, %.6g us, "
			 "%.6g GFLOP/s: roofs twice as high halve the time "
			 "and keep the rest", o->intensity,
			 o->compute_bound ? "compute" : "memory", o->time_us,
			 o->gflops);
	else
		return 0;
	return 1;
}

/* The wrong cases shown: each takes three lines. */
#define ROOF_SHOWN 3

/*
 * What the prediction for case i must be, where that is known here: the
 * rule's (the instructor's copy), or, without it, a worked case's. 0
 * where only properties say what it must be (the handout).
 */
static int roof_expected(const struct wb_ctx *c, const struct roof_case *in,
			 size_t n, size_t i, struct roof_pred *w,
			 const char **who)
{
	if (roofline_rule) {
		roofline_rule(&in[i].k, &in[i].g, w);
		*who = "the rule";
		return 1;
	}
	if (c->size->n[0] != ROOF_WORKED || i >= n)
		return 0;
	*w = roof_worked[i].p;
	*who = "the worked case";
	return 1;
}

/*
 * Is prediction i wrong (i < n: the group's cases; n and on: their
 * twins)? With an expected prediction, it must agree; without (the
 * handout), a case must have the rule's properties, the same flops and
 * bytes as an earlier case of its kernel, and a twin what its case's
 * prediction implies. Shows the first ROOF_SHOWN wrong ones.
 */
static int roof_wrong(struct wb_ctx *c, const struct roof_case *in,
		      const struct roof_pred *got, size_t n, size_t i,
		      int show)
{
	struct roof_pred w;
	const char *who = NULL;
	char what[256], why[320];
	int exact = roof_expected(c, in, n, i, &w, &who);
	long j = -1;

	if (exact) {
		if (roof_agrees(&in[i], &got[i], &w))
			return 0;
	} else if (i >= n) {
		if (!roof_twin_wrong(&in[i], &got[i], &got[i - n], why,
				     sizeof(why)))
			return 0;
	} else if ((j = roof_same_kernel(in, i)) >= 0 &&
		   (got[j].flops != got[i].flops ||
		    got[j].bytes != got[i].bytes)) {
		snprintf(why, sizeof(why), "for the same kernel on "
			 "another GPU (case %ld) you said %.17g flops, %.17g "
			 "bytes: the kernel alone decides them", j,
			 got[j].flops, got[j].bytes);
	} else if (!roof_props(&in[i], &got[i], why, sizeof(why))) {
		return 0;
	}
	if (!show)
		return 1;
	roof_describe(&in[i], what, sizeof(what));
	wb_fail(c, "case %zu%s: %s", i, i >= n ? " (a twin)" : "", what);
	roof_show(c, "you", &got[i]);
	if (exact)
		roof_show(c, who, &w);
	else
		wb_fail(c, "  but %s", why);
	return 1;
}

void lab04_roofline_check(struct wb_ctx *c)
{
	const struct roof_case *in = c->buf[RF_CASES].host;
	const struct roof_pred *got = c->buf[RF_PREDS].host;
	size_t n = roof_count(c), bad = 0;

	if (roofline_rule && roof_rule_consistent(c))
		return;
	if (roofline_rule && c->size->n[0] == ROOF_WORKED &&
	    roof_worked_stale()) {
		wb_fail(c, "labs/04-tiling/roofline_worked.h is not the "
			   "rule's answers (a bug of the lab: write it again "
			   "with tools/worked-cases.sh)");
		return;
	}
	if (c->size->n[0] == ROOF_LAB)
		roof_print_bench(in, got, n);
	for (size_t i = 0; i < 2 * n; i++)
		bad += roof_wrong(c, in, got, n, i, bad < ROOF_SHOWN);
	if (bad)
		wb_fail(c, "%zu of %zu cases wrong, twins included (flops and "
			   "bytes exact, the rest to 1e-12)", bad, 2 * n);
}

/* ---- peak ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c, as for
 * roofline); without it (the handout) the worked cases (peak_worked.h)
 * are checked exactly, and every other answer by what the rule implies
 * (peak_props(), the twin).
 */
__attribute__((weak)) void (*peak_rule)(const struct peak_gpu *g,
					double intensity,
					struct peak_pred *p);

#include "peak_worked.h"

struct peak_case {
	struct peak_gpu g;
	double intensity;
	int sheet; /* index into peak_sheets, -1 this GPU, -2 drawn */
};

/*
 * The data sheets' GPUs as their drivers report them (deviceQuery's
 * "GPU Max Clock rate", "Memory Clock rate", "Memory Bus Width"): the
 * rule gives roofline's roof_sheet_gpus from them, to a few GFLOP/s
 * (peak_sheet_consistent()).
 */
static const struct {
	const char *name;
	struct peak_gpu g;
	int roof; /* its index in roof_sheet_gpus */
} peak_sheets[] = {
	{ "T4", { 75, 40, 1590, 5001, 256 }, 0 },
	{ "RTX 4090", { 89, 128, 2520, 10501, 384 }, 1 },
	{ "A100 SXM 80GB", { 80, 108, 1410, 1593, 5120 }, 2 },
	{ "H100 PCIe", { 90, 114, 1755, 1593, 5120 }, 3 },
	{ "H100 SXM", { 90, 132, 1980, 2619, 5120 }, 4 },
};

/* The intensities of the lab's kernels at 4096^3 (section 11): naive,
 * 16 x 16, 64 x 64, 128 x 128 tiles, and each matrix once (n / 6). */
static const double peak_intensities[] = { 0.25, 3.99, 15.9, 31.5, 682.7 };

#define PEAK_NINT ROOF_COUNT(peak_intensities)

/* The compute capabilities asked about (tiling.h). */
static const int peak_ccs[] = { 70, 75, 80, 86, 89, 90, 120 };

#define PEAK_MAX 600
#define PEAK_RANDOM_COUNT 500

/* This GPU, from what the driver reports (0), or -1. */
static int peak_this_gpu(struct peak_gpu *g)
{
	int dev, major, minor, sms, khz, mem_khz, bus_bits;

	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&major,
					  cudaDevAttrComputeCapabilityMajor,
					  dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&minor,
					  cudaDevAttrComputeCapabilityMinor,
					  dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&sms,
					  cudaDevAttrMultiProcessorCount, dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate,
					  dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits,
					  cudaDevAttrGlobalMemoryBusWidth,
					  dev));
	if (mem_khz <= 0 || bus_bits <= 0 || khz <= 0 || sms <= 0 ||
	    10 * major + minor < 70)
		return -1;
	*g = (struct peak_gpu){ 10 * major + minor, sms, khz / 1e3,
				mem_khz / 1e3, bus_bits };
	return 0;
}

static void peak_add(struct peak_case *c, int *n, const struct peak_gpu *g,
		     double intensity, int sheet)
{
	memset(&c[*n], 0, sizeof(c[*n]));
	c[*n].g = *g;
	c[*n].intensity = intensity;
	c[*n].sheet = sheet;
	(*n)++;
}

/* Within 1e-9 of the ridge the attainable rate is either roof's, to a
 * rounding: no drawn case lies there. */
static int peak_near_ridge(const struct peak_case *c)
{
	struct peak_pred p;
	double slope;

	if (!peak_rule)
		return 0;
	peak_rule(&c->g, c->intensity, &p);
	slope = c->intensity * p.bw_gbps;
	return fabs(slope - p.peak_gflops) <= 1e-9 * p.peak_gflops;
}

int lab04_peak_setup(struct wb_ctx *c)
{
	static struct peak_case scratch[2 * PEAK_MAX];
	struct peak_case *in;
	struct peak_gpu g;
	int n = 0;

	switch (c->size->n[0]) {
	case PEAK_LAB:
		if (!peak_this_gpu(&g))
			for (size_t i = 0; i < PEAK_NINT; i++)
				peak_add(scratch, &n, &g, peak_intensities[i],
					 -1);
		for (size_t s = 0; s < ROOF_COUNT(peak_sheets); s++)
			for (size_t i = 0; i < PEAK_NINT; i++)
				peak_add(scratch, &n, &peak_sheets[s].g,
					 peak_intensities[i], (int)s);
		break;
	case PEAK_WORKED:
		for (size_t i = 0; i < ROOF_COUNT(peak_worked); i++)
			peak_add(scratch, &n, &peak_worked[i].g,
				 peak_worked[i].intensity, -2);
		break;
	default:
		while (n < PEAK_RANDOM_COUNT) {
			g.cc = peak_ccs[wb_rng_below(&c->rng,
						     ROOF_COUNT(peak_ccs))];
			g.sms = 1 + (int)wb_rng_below(&c->rng, 256);
			g.clock_mhz = 300 + (int)wb_rng_below(&c->rng, 2700);
			g.mem_clock_mhz = 400 + (int)wb_rng_below(&c->rng,
								  12000);
			g.bus_bits = 32 << wb_rng_below(&c->rng, 8);
			peak_add(scratch, &n, &g,
				 0.01 * (double)(1 + wb_rng_below(&c->rng,
								  100000)),
				 -2);
			if (peak_near_ridge(&scratch[n - 1]))
				n--;
		}
	}
	/* The twins: twice the SMs and twice the memory clock. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].g.sms *= 2;
		scratch[n + i].g.mem_clock_mhz *= 2;
		scratch[n + i].sheet = -2;
	}
	in = wb_input(c, "gpus", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "roofs", 2 * (size_t)n * sizeof(struct peak_pred));
	return 0;
}

enum { PK_CASES, PK_PREDS };

static size_t peak_count(const struct wb_ctx *c)
{
	return c->buf[PK_CASES].bytes / sizeof(struct peak_case) / 2;
}

int lab04_peak_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct peak_pred got[2 * PEAK_MAX];
	const struct peak_case *in = c->buf[PK_CASES].host;
	size_t n = 2 * peak_count(c);

	if (impl != WB_STUDENT || !peak)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct peak_gpu g = in[i].g;

		memset(&got[i], 0xff, sizeof(got[i]));
		peak(&g, in[i].intensity, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, PK_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

/* Lanes exactly; the rest to 1e-12 relative (a product or a ratio in
 * another order). */
static int peak_agrees(const struct peak_pred *a, const struct peak_pred *b)
{
	return a->lanes == b->lanes &&
	       roof_near(a->peak_gflops, b->peak_gflops) &&
	       roof_near(a->bw_gbps, b->bw_gbps) &&
	       roof_near(a->ridge, b->ridge) &&
	       roof_near(a->gflops, b->gflops) &&
	       roof_near(a->fp64_gflops, b->fp64_gflops);
}

/*
 * Without the rule: what the README's definitions imply of any right
 * answer p for case c: lanes 64 or 128, the same for one compute
 * capability as in the worked cases; the ridge the peak over the
 * bandwidth; the attainable rate the lower roof at this intensity.
 * 0, or 1 with why not.
 */
static int peak_props(const struct peak_case *c, const struct peak_pred *p,
		      char *why, size_t len)
{
	double slope = c->intensity * p->bw_gbps;
	double want = slope < p->peak_gflops ? slope : p->peak_gflops;

	for (size_t i = 0; i < ROOF_COUNT(peak_worked); i++) {
		const struct peak_pred *w = &peak_worked[i].p;

		if (peak_worked[i].g.cc != c->g.cc)
			continue;
		if (w->lanes != p->lanes) {
			snprintf(why, len, "sm_%d has %d FP32 lanes per SM (a "
				 "worked case)", c->g.cc, w->lanes);
			return 1;
		}
		if (!roof_near(p->fp64_gflops * w->peak_gflops,
			       w->fp64_gflops * p->peak_gflops)) {
			snprintf(why, len, "sm_%d's FP64 peak is 1/%.0f of its "
				 "FP32 peak (a worked case)", c->g.cc,
				 w->peak_gflops / w->fp64_gflops);
			return 1;
		}
	}
	if (p->lanes != 64 && p->lanes != 128)
		snprintf(why, len, "an SM of sm_70 or later has 64 or 128 FP32 "
			 "lanes");
	else if (!(p->peak_gflops > 0) || !(p->bw_gbps > 0))
		snprintf(why, len, "both roofs are positive");
	else if (!roof_near(p->ridge, p->peak_gflops / p->bw_gbps))
		snprintf(why, len, "the ridge is your peak over your "
			 "bandwidth, %.6g flop/B", p->peak_gflops / p->bw_gbps);
	else if (!roof_near(p->gflops, want))
		snprintf(why, len, "at %.6g flop/B the attainable rate is the "
			 "lower of your peak and your bandwidth times it, "
			 "%.6g GFLOP/s", c->intensity, want);
	else
		return 0;
	return 1;
}

/* A twin (twice the SMs, twice the memory clock) against its case. */
static int peak_twin_wrong(const struct peak_pred *t,
			   const struct peak_pred *o, char *why, size_t len)
{
	if (t->lanes == o->lanes && roof_near(t->peak_gflops,
					       2 * o->peak_gflops) &&
	    roof_near(t->bw_gbps, 2 * o->bw_gbps) &&
	    roof_near(t->ridge, o->ridge) &&
	    roof_near(t->gflops, 2 * o->gflops) &&
	    roof_near(t->fp64_gflops, 2 * o->fp64_gflops))
		return 0;
	snprintf(why, len, "with twice the SMs and twice the memory clock "
		 "you said %d lanes, %.6g GFLOP/s, %.6g GB/s: the lanes stay, "
		 "both roofs and the attainable rate double, the ridge stays",
		 o->lanes, o->peak_gflops, o->bw_gbps);
	return 1;
}

static void peak_show(struct wb_ctx *c, const char *who,
		      const struct peak_pred *p)
{
	wb_fail(c, "  %s: %d lanes, %.9g GFLOP/s, %.9g GB/s, ridge %.6g "
		   "flop/B, %.9g GFLOP/s attainable, FP64 %.9g GFLOP/s", who,
		p->lanes, p->peak_gflops, p->bw_gbps, p->ridge, p->gflops,
		p->fp64_gflops);
}

/* The rule gives roofline's data sheets from the drivers' figures. */
static int peak_sheet_consistent(struct wb_ctx *c)
{
	for (size_t s = 0; s < ROOF_COUNT(peak_sheets); s++) {
		int k = peak_sheets[s].roof;
		const struct roof_gpu *r = &roof_sheet_gpus[k].g;
		struct peak_pred p;

		peak_rule(&peak_sheets[s].g, 1, &p);
		if (fabs(p.peak_gflops - r->peak_gflops) >
			    0.001 * r->peak_gflops ||
		    fabs(p.bw_gbps - r->bw_gbps) > 0.001 * r->bw_gbps) {
			wb_fail(c, "the lab's peak rule and roofline's data "
				   "sheets disagree on the %s (a bug in "
				   "labs/04-tiling/lab.c)",
				peak_sheets[s].name);
			return -1;
		}
	}
	return 0;
}

void lab04_peak_check(struct wb_ctx *c)
{
	const struct peak_case *in = c->buf[PK_CASES].host;
	const struct peak_pred *got = c->buf[PK_PREDS].host;
	size_t n = peak_count(c), bad = 0;

	if (peak_rule && peak_sheet_consistent(c))
		return;
	for (size_t i = 0; i < 2 * n; i++) {
		struct peak_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (peak_rule) {
			peak_rule(&in[i].g, in[i].intensity, &w);
			who = "the rule";
		} else if (c->size->n[0] == PEAK_WORKED && i < n) {
			w = peak_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = !peak_agrees(&got[i], &w);
		else if (i >= n)
			wrong = peak_twin_wrong(&got[i], &got[i - n], why,
						sizeof(why));
		else
			wrong = peak_props(&in[i], &got[i], why, sizeof(why));
		if (!wrong || bad++ >= ROOF_SHOWN)
			continue;
		wb_fail(c, "case %zu%s: sm_%d, %d SMs at %.6g MHz, memory at "
			   "%.6g MHz on %d bits, intensity %.6g flop/B", i,
			i >= n ? " (a twin)" : "", in[i].g.cc, in[i].g.sms,
			in[i].g.clock_mhz, in[i].g.mem_clock_mhz,
			in[i].g.bus_bits, in[i].intensity);
		peak_show(c, "you", &got[i]);
		if (who)
			peak_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu cases wrong, twins included (lanes "
			   "exact, the rest to 1e-12)", bad, 2 * n);
	else if (c->size->n[0] == PEAK_LAB)
		for (size_t i = 0; i < n; i++)
			if (i % ROOF_COUNT(peak_intensities) == 0)
				printf("  %s: yours %d lanes, %.1f TFLOP/s "
				       "(FP64 %.2f), %.0f GB/s, ridge %.1f "
				       "flop/B\n",
				       in[i].sheet < 0 ? "this GPU" :
				       peak_sheets[in[i].sheet].name,
				       got[i].lanes, got[i].peak_gflops / 1e3,
				       got[i].fp64_gflops / 1e3,
				       got[i].bw_gbps, got[i].ridge);
}
