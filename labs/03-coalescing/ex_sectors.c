/* SPDX-License-Identifier: MIT */
/*
 * ex_sectors.c - lab 03's sectors (a host exercise): the loads it asks
 * about, the checks of its answers (the rule's where answers.c is linked,
 * the worked cases and properties where not) and its hooks for the table
 * in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

/* ---- sectors ---- */

/*
 * The lab's rule, where the instructor's copy has it: answers.c (lab.mk's
 * ANSWERS) replaces this weak NULL with it, and every answer is checked
 * against it. The student handout has no answers.c: there the worked
 * cases (sectors_worked.h, the rule's own answers) are checked exactly,
 * and every other answer by what the rule implies (sec_props(),
 * sec_twin()), which does not give the answer away.
 */
__attribute__((weak)) int (*sectors_rule)(const struct warp_load *w);

#include "sectors_worked.h"

/* The patterns of one size; no group comes near it (the largest, random,
 * has SEC_RANDOM_COUNT). */
#define SEC_MAX 4096
#define SEC_RANDOM_COUNT 2048

struct sec_list {
	struct warp_load *w;
	int n;
};

/* Loads a group made past SEC_MAX: a bug of this file, which check()
 * reports rather than grading fewer loads than it says. */
static int sec_lost;

static void sec_emit(struct sec_list *l, long long addr, long long stride,
		     int elem_bytes, int lanes)
{
	struct warp_load w = { addr, stride, elem_bytes, lanes };

	if (l->n == SEC_MAX) {
		sec_lost++;
		return;
	}
	l->w[l->n++] = w;
}

/* A warp's load when `left` items remain from its lane 0 on: a full warp,
 * or the partial last one. */
static void sec_warp(struct sec_list *l, long long addr, long long stride,
		     int elem_bytes, long long left)
{
	sec_emit(l, addr, stride, elem_bytes, left < 32 ? (int)left : 32);
}

/*
 * The shapes of the lab's own exercises (their checked sizes and, first,
 * their benchmark), so that each kernel's loads are asked about where the
 * grader runs it.
 */
static const long long sec_matvec[][2] = {
	{ 16384, 8192 }, { 1, 1 }, { 1, 7 }, { 7, 1 }, { 31, 33 },
	{ 33, 31 }, { 3, 4096 }, { 5, 4097 }, { 17, 4099 }, { 257, 1000 },
	{ 1000, 3 }, { 65537, 5 }, { 2, 100003 }, { 4097, 64 },
};
static const long long sec_mean[][3] = {
	{ 64, 1024, 1024 }, { 1, 1, 1 }, { 1, 31, 33 }, { 64, 1, 1 },
	{ 3, 5, 7 }, { 7, 33, 31 }, { 5, 1000, 3 }, { 4, 3, 1000 },
	{ 1000, 3, 5 }, { 2, 70001, 3 }, { 2, 1, 1000003 },
	{ 13, 64, 4096 }, { 3, 1023, 1025 },
};
static const long long sec_gray[] = {
	8192 * 8192, 1, 15, 16, 17, 3 * 5, 31 * 33, 479 * 643, 17 * 4099,
	1080 * 1920, 1000003, 7 * 65537,
};

#define SEC_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The first item of the first, second and last warp over `items` (as
 * many of them as differ). */
static int sec_warps(long long items, long long first[3])
{
	long long last = (items - 1) / 32 * 32;
	int n = 0;

	first[n++] = 0;
	if (items > 32)
		first[n++] = 32;
	if (last > 32)
		first[n++] = last;
	return n;
}

/*
 * naive_matvec_kernel: lane t has row r0 + t and, at step j, loads
 * a[(r0 + t) n + j] (stride n) and x[j] (all lanes one address).
 */
static void sec_naive_matvec(struct sec_list *l)
{
	for (size_t s = 0; s < SEC_COUNT(sec_matvec); s++) {
		long long m = sec_matvec[s][0], n = sec_matvec[s][1], r0[3];
		long long js[4] = { 0, 1 < n ? 1 : 0, n / 2, n - 1 };
		int nw = sec_warps(m, r0);

		for (int w = 0; w < nw; w++) {
			for (int q = 0; q < 4; q++) {
				sec_warp(l, (r0[w] * n + js[q]) * 4, n, 4,
					 m - r0[w]);
				sec_warp(l, js[q] * 4, 0, 4, m - r0[w]);
			}
		}
	}
}

/*
 * A warp per row (the ladder's coalesced step and the solution): lane t
 * loads a[r n + j0 + t] and x[j0 + t], or with float4 (n % 4 == 0 only)
 * the 16 bytes at element r n + 4 (q0 + t) and 4 (q0 + t).
 */
static void sec_warp_matvec(struct sec_list *l)
{
	for (size_t s = 0; s < SEC_COUNT(sec_matvec); s++) {
		long long m = sec_matvec[s][0], n = sec_matvec[s][1];
		long long rows[3] = { 0, m > 1 ? 1 : 0, m - 1 }, j0[3], q0[3];
		int nj = sec_warps(n, j0), nq = sec_warps((n + 3) / 4, q0);

		for (int r = 0; r < 3; r++) {
			long long row = rows[r] * n * 4;

			for (int j = 0; j < nj; j++) {
				sec_warp(l, row + j0[j] * 4, 1, 4, n - j0[j]);
				sec_warp(l, j0[j] * 4, 1, 4, n - j0[j]);
			}
			for (int q = 0; q < nq && n % 4 == 0; q++)
				sec_warp(l, row + q0[q] * 16, 1, 16,
					 n / 4 - q0[q]);
		}
	}
}

/* naive_mean_kernel: lane t has i0 + t and loads in[(p l + i0 + t) m + j]. */
static void sec_naive_mean(struct sec_list *l)
{
	for (size_t s = 0; s < SEC_COUNT(sec_mean); s++) {
		long long k = sec_mean[s][0], ll = sec_mean[s][1];
		long long m = sec_mean[s][2], i0[3];
		long long ps[2] = { 0, k - 1 }, js[2] = { 0, m - 1 };
		int nw = sec_warps(ll, i0);

		for (int w = 0; w < nw; w++)
			for (int p = 0; p < 2; p++)
				for (int j = 0; j < 2; j++)
					sec_warp(l, ((ps[p] * ll + i0[w]) * m +
						     js[j]) * 4, m, 4,
						 ll - i0[w]);
	}
}

/*
 * A thread per output along the flat index o = i m + j (the coalesced
 * step): lane t loads in[p l m + o0 + t]; with float4 (l m % 4 == 0) the
 * 16 bytes at element p l m + 4 (q0 + t).
 */
static void sec_flat_mean(struct sec_list *l)
{
	for (size_t s = 0; s < SEC_COUNT(sec_mean); s++) {
		long long k = sec_mean[s][0];
		long long lm = sec_mean[s][1] * sec_mean[s][2];
		long long ps[3] = { 0, k > 1 ? 1 : 0, k - 1 }, o0[3], q0[3];
		int no = sec_warps(lm, o0), nq = sec_warps((lm + 3) / 4, q0);

		for (int p = 0; p < 3; p++) {
			long long slice = ps[p] * lm * 4;

			for (int o = 0; o < no; o++)
				sec_warp(l, slice + o0[o] * 4, 1, 4,
					 lm - o0[o]);
			for (int q = 0; q < nq && lm % 4 == 0; q++)
				sec_warp(l, slice + q0[q] * 16, 1, 16,
					 lm / 4 - q0[q]);
		}
	}
}

/*
 * grayscale: the naive's three byte loads (lane t has pixel p0 + t: byte
 * 3 (p0 + t) + ch); 4 pixels per thread in three 32-bit words (word 3 g +
 * c); 16 pixels per thread in three uint4 (16-byte word 3 g + c).
 */
static void sec_gray_loads(struct sec_list *l)
{
	static const int widths[3] = { 1, 4, 16 };

	for (size_t s = 0; s < SEC_COUNT(sec_gray); s++) {
		for (int v = 0; v < 3; v++) {
			long long groups = sec_gray[s] / widths[v], g0[3];
			int ng = groups ? sec_warps(groups, g0) : 0;

			for (int g = 0; g < ng; g++)
				for (int c = 0; c < 3; c++)
					sec_warp(l, (3 * g0[g] + c) * widths[v],
						 3, widths[v], groups - g0[g]);
		}
	}
}

static const int sec_widths[] = { 1, 2, 4, 8, 16 };

/* One field of a structure of `stride` elements: lane t reads field f of
 * structure t, from a 256-byte aligned array or one 7 lines further. */
static void sec_fields(struct sec_list *l)
{
	static const long long strides[] = { 1, 2, 3, 4, 5, 7, 8, 9, 16, 32,
					     33, 64, 1000 };

	for (size_t e = 0; e < SEC_COUNT(sec_widths); e++) {
		int w = sec_widths[e];

		for (size_t s = 0; s < SEC_COUNT(strides); s++) {
			long long st = strides[s];
			long long fs[3] = { 0, st / 2, st - 1 };

			for (int f = 0; f < 3; f++) {
				sec_emit(l, fs[f] * w, st, w, 32);
				sec_emit(l, 7 * 128 + fs[f] * w, st, w, 32);
			}
		}
	}
}

/* Consecutive elements from every aligned start within 256 bytes (at most
 * 64 of them), and every other element. */
static void sec_offsets(struct sec_list *l)
{
	for (size_t e = 0; e < SEC_COUNT(sec_widths); e++) {
		int w = sec_widths[e];

		for (long long k = 0; k < 256 / w && k < 64; k++) {
			sec_emit(l, k * w, 1, w, 32);
			sec_emit(l, k * w, 2, w, 32);
		}
	}
}

/* Every lane count from 1 to 32, for patterns that pack, spill over a
 * sector, stride and broadcast. */
static void sec_partial(struct sec_list *l)
{
	static const struct warp_load pats[] = {
		{ 0, 1, 4, 0 }, { 4, 1, 4, 0 }, { 124, 1, 4, 0 },
		{ 0, 8, 4, 0 }, { 16, 1, 16, 0 }, { 3, 3, 1, 0 },
		{ 40, 0, 8, 0 }, { 0, 0, 16, 0 },
	};

	for (size_t p = 0; p < SEC_COUNT(pats); p++)
		for (int lanes = 1; lanes <= 32; lanes++)
			sec_emit(l, pats[p].addr, pats[p].stride,
				 pats[p].elem_bytes, lanes);
}

/* Lanes walking down: lane 0 highest (a reversed copy, a row read from
 * its end). The lowest lane's address is 0, one element or seven up. */
static void sec_reversed(struct sec_list *l)
{
	static const long long strides[] = { -1, -2, -3, -8, -33 };
	static const long long ks[] = { 0, 1, 7 };
	static const int lanes[] = { 32, 17, 1 }, widths[] = { 1, 4, 16 };

	for (size_t s = 0; s < SEC_COUNT(strides); s++) {
		for (size_t e = 0; e < SEC_COUNT(widths); e++) {
			for (size_t n = 0; n < SEC_COUNT(lanes); n++) {
				/* lane lanes - 1 lowest, ks elements up */
				long long low = (lanes[n] - 1) * -strides[s];

				for (size_t k = 0; k < SEC_COUNT(ks); k++)
					sec_emit(l, (low + ks[k]) * widths[e],
						 strides[s], widths[e],
						 lanes[n]);
			}
		}
	}
}

/* Anything the contract allows, drawn from the run's seed. */
static void sec_random(struct sec_list *l, struct wb_rng *rng)
{
	for (int i = 0; i < SEC_RANDOM_COUNT; i++) {
		int w = sec_widths[wb_rng_below(rng, SEC_COUNT(sec_widths))];
		int lanes = 1 + (int)wb_rng_below(rng, 32);
		long long stride;

		switch (wb_rng_below(rng, 4)) {
		case 0:
			stride = (long long)wb_rng_below(rng, 5);
			break;
		case 1:
			stride = -(long long)wb_rng_below(rng, 9);
			break;
		case 2:
			stride = (long long)wb_rng_below(rng, 71) - 35;
			break;
		default:
			stride = (long long)wb_rng_below(rng, 1u << 20);
		}
		sec_emit(l, ((stride < 0 ? (lanes - 1) * -stride : 0) +
			     (long long)wb_rng_below(rng, 4096)) * w,
			 stride, w, lanes);
	}
}

/* The worked cases, in the order of sectors_worked.h. */
static void sec_worked_loads(struct sec_list *l)
{
	for (size_t i = 0; i < SEC_COUNT(sec_worked); i++)
		sec_emit(l, sec_worked[i].w.addr, sec_worked[i].w.stride,
			 sec_worked[i].w.elem_bytes, sec_worked[i].w.lanes);
}

/*
 * Load i's twin, asked after the group: the same bytes, the lanes in the
 * opposite order (lane 0 where the last lane was, the stride negated),
 * 1 to 7 sectors higher. Its count is load i's: without the rule (the
 * handout) that is checked of every load, a property any right answer
 * has. Every lane's address stays >= 0 and a multiple of elem_bytes.
 */
static struct warp_load sec_twin(const struct warp_load *w, size_t i)
{
	struct warp_load t = *w;

	t.addr = w->addr + (long long)(w->lanes - 1) * w->stride *
				   w->elem_bytes +
		 (long long)(1 + i % 7) * SECTOR_BYTES;
	t.stride = -w->stride;
	return t;
}

/* A group's name, for reports, and the kernel whose one step its first
 * `step` loads are, at the benchmark size (none: step 0). */
struct sec_group {
	const char *what, *kernel, *ex;
	int step;
};

static const struct sec_group sec_groups[] = {
	[SEC_NAIVE_MATVEC] = { "loads of naive_matvec_kernel",
			       "naive_matvec_kernel at 16384x8192 (A, x)",
			       "matvec", 2 },
	[SEC_WARP_MATVEC] = { "loads of a warp per matvec row (scalar, "
			      "float4)",
			      "a warp per row, scalar, at 16384x8192 (A, x)",
			      "matvec", 2 },
	[SEC_NAIVE_MEAN] = { "loads of naive_mean_kernel",
			     "naive_mean_kernel at 64x1024x1024",
			     "mean_dim0", 1 },
	[SEC_FLAT_MEAN] = { "loads of a thread per output of mean_dim0 "
			    "(scalar, float4)",
			    "a thread per output, scalar, at 64x1024x1024",
			    "mean_dim0", 1 },
	[SEC_GRAY] = { "loads of grayscale (1, 4 and 16 pixels per thread)",
		       "naive_gray_kernel at 8192x8192 (R, G, B)",
		       "grayscale", 3 },
	[SEC_FIELDS] = { "one field of an array of structures", NULL, NULL,
			 0 },
	[SEC_OFFSETS] = { "consecutive elements from every alignment", NULL,
			  NULL, 0 },
	[SEC_PARTIAL] = { "partial warps and broadcasts", NULL, NULL, 0 },
	[SEC_REVERSED] = { "negative strides", NULL, NULL, 0 },
	[SEC_WORKED] = { "worked cases (sectors_worked.h)", NULL, NULL, 0 },
	[SEC_RANDOM] = { "random loads within the contract", NULL, NULL, 0 },
};

enum { SEC_LOADS, SEC_SECTORS };

/* The group's loads, then their twins (sec_twin()). */
int lab03_sectors_setup(struct wb_ctx *c)
{
	static struct warp_load scratch[2 * SEC_MAX];
	struct sec_list l = { scratch, 0 };
	struct warp_load *in;

	switch (c->size->n[0]) {
	case SEC_NAIVE_MATVEC: sec_naive_matvec(&l); break;
	case SEC_WARP_MATVEC: sec_warp_matvec(&l); break;
	case SEC_NAIVE_MEAN: sec_naive_mean(&l); break;
	case SEC_FLAT_MEAN: sec_flat_mean(&l); break;
	case SEC_GRAY: sec_gray_loads(&l); break;
	case SEC_FIELDS: sec_fields(&l); break;
	case SEC_OFFSETS: sec_offsets(&l); break;
	case SEC_PARTIAL: sec_partial(&l); break;
	case SEC_REVERSED: sec_reversed(&l); break;
	case SEC_WORKED: sec_worked_loads(&l); break;
	default: sec_random(&l, &c->rng);
	}
	for (int i = 0; i < l.n; i++)
		scratch[l.n + i] = sec_twin(&scratch[i], (size_t)i);
	in = wb_input(c, "loads", 2 * (size_t)l.n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)l.n * sizeof(*in));
	wb_output(c, "sectors", 2 * (size_t)l.n * sizeof(int));
	return 0;
}

/* The group's loads; as many twins follow them. */
static size_t sec_count(const struct wb_ctx *c)
{
	return c->buf[SEC_LOADS].bytes / sizeof(struct warp_load) / 2;
}

/* Your answer for every load of the group and its twin, copied to the
 * output. Each call gets its own copy of the load. */
int lab03_sectors_run(struct wb_ctx *c, enum wb_impl impl)
{
	static int got[2 * SEC_MAX];
	const struct warp_load *in = c->buf[SEC_LOADS].host;
	size_t n = 2 * sec_count(c);

	if (impl != WB_STUDENT || !sectors_per_request)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct warp_load w = in[i];

		got[i] = sectors_per_request(&w);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, SEC_SECTORS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

/* The fewest sectors the lanes' bytes could fit: the ideal of section 3. */
static int sec_ideal(const struct warp_load *w)
{
	long long bytes = (long long)w->lanes * w->elem_bytes;

	return w->stride == 0 ? 1 : (int)((bytes + SECTOR_BYTES - 1) /
					  SECTOR_BYTES);
}

/* The lowest and highest byte the lanes read; returns how many sectors
 * lie from the first's to the last's. */
static long long sec_span(const struct warp_load *w, long long *lo,
			  long long *hi)
{
	long long last = w->addr + (long long)(w->lanes - 1) * w->stride *
						 w->elem_bytes;

	*lo = last < w->addr ? last : w->addr;
	*hi = (last < w->addr ? w->addr : last) + w->elem_bytes - 1;
	return *hi / SECTOR_BYTES - *lo / SECTOR_BYTES + 1;
}

/* Why the answer `want` is what it is, in a few words. */
static void sec_why(const struct warp_load *w, int want, char *why,
		    size_t len)
{
	long long lo, hi, span = sec_span(w, &lo, &hi);

	if (w->stride == 0)
		snprintf(why, len, "every lane reads bytes %lld..%lld: one "
			 "sector, fetched once", w->addr,
			 w->addr + w->elem_bytes - 1);
	else if (want == span)
		snprintf(why, len, "bytes %lld..%lld span sectors %lld..%lld, "
			 "all touched (the ideal for %d x %d bytes is %d)", lo,
			 hi, lo / SECTOR_BYTES, hi / SECTOR_BYTES, w->lanes,
			 w->elem_bytes, sec_ideal(w));
	else
		snprintf(why, len, "bytes %lld..%lld span sectors %lld..%lld, "
			 "but lanes %lld bytes apart skip %lld of them", lo,
			 hi, lo / SECTOR_BYTES, hi / SECTOR_BYTES,
			 (w->stride < 0 ? -w->stride : w->stride) *
				 w->elem_bytes, span - want);
}

/* The kernel's average over one step of its loads, as ncu would report
 * it, from your answers beside the lab's rule where it is linked (the
 * handout has the rule's figures in the README's table instead). */
static void sec_print_kernel(const struct sec_group *g, const int *got,
			     const struct warp_load *in)
{
	int yours = 0, rule = 0;

	for (int i = 0; i < g->step; i++) {
		yours += got[i];
		rule += sectors_rule ? sectors_rule(&in[i]) : 0;
	}
	printf("  %s: sectors per request %.2f by your answers", g->kernel,
	       (double)yours / g->step);
	if (sectors_rule)
		printf(", %.2f by the lab's rule", (double)rule / g->step);
	printf(" (averaged over %d load%s, as ncu does; measure: make "
	       "profile LAB=coalescing EX=%s)\n", g->step,
	       g->step > 1 ? "s" : "", g->ex);
}

/*
 * Without the rule: what any right answer s for w satisfies, as the
 * README's rule implies. Returns 0, or 1 with why s cannot be right.
 * Each lane's element is aligned and at most 16 bytes, so it lies in
 * one sector; lanes with a stride read distinct bytes.
 */
static int sec_props(const struct warp_load *w, int s, char *why, size_t len)
{
	long long lo, hi, span = sec_span(w, &lo, &hi);

	if (w->stride == 0 && s != 1)
		snprintf(why, len, "but every lane reads bytes %lld..%lld: "
			 "one sector, fetched once", w->addr,
			 w->addr + w->elem_bytes - 1);
	else if (s < sec_ideal(w))
		snprintf(why, len, "but %d lanes read %d different bytes, "
			 "more than %d sectors hold", w->lanes,
			 w->lanes * w->elem_bytes, s);
	else if (s > w->lanes)
		snprintf(why, len, "but %d lane%s touch%s at most %d "
			 "sector%s (an aligned element of %d bytes lies in "
			 "one)", w->lanes, w->lanes > 1 ? "s" : "",
			 w->lanes > 1 ? "" : "es", w->lanes,
			 w->lanes > 1 ? "s" : "", w->elem_bytes);
	else if (s > span)
		snprintf(why, len, "but the bytes read, %lld..%lld, lie in "
			 "sectors %lld..%lld, %lld of them", lo, hi,
			 lo / SECTOR_BYTES, hi / SECTOR_BYTES, span);
	else
		return 0;
	return 1;
}

/*
 * Is answer i wrong (i < n: the group's loads; n and on: their twins)?
 * With the rule, every answer is checked against it. Without it (the
 * handout), the worked cases are checked against their answers, a twin
 * against its load's answer, and every other load by sec_props().
 */
static int sec_wrong(const struct wb_ctx *c, const struct warp_load *in,
		     const int *got, size_t n, size_t i, char *why,
		     size_t len)
{
	int want;

	if (sectors_rule || (c->size->n[0] == SEC_WORKED && i < n)) {
		want = sectors_rule ? sectors_rule(&in[i]) :
				      sec_worked[i].sectors;
		if (got[i] == want)
			return 0;
		snprintf(why, len, "expected %d: ", want);
		sec_why(&in[i], want, why + strlen(why), len - strlen(why));
		return 1;
	}
	if (i < n)
		return sec_props(&in[i], got[i], why, len);
	if (got[i] == got[i - n])
		return 0;
	snprintf(why, len, "but %d for the same bytes as lane t at %lld + t "
		 "x %lld x %d: the lanes' order and whole sectors more "
		 "change nothing", got[i - n], in[i - n].addr,
		 in[i - n].stride, in[i - n].elem_bytes);
	return 1;
}

/* The worked cases are the rule's answers (tools/worked-cases.sh writes
 * them from it): where the rule is linked, are they still? */
static int sec_worked_stale(void)
{
	for (size_t i = 0; i < SEC_COUNT(sec_worked); i++)
		if (sectors_rule(&sec_worked[i].w) != sec_worked[i].sectors)
			return 1;
	return 0;
}

void lab03_sectors_check(struct wb_ctx *c)
{
	const struct warp_load *in = c->buf[SEC_LOADS].host;
	const int *got = c->buf[SEC_SECTORS].host;
	const struct sec_group *g = &sec_groups[c->size->n[0]];
	size_t n = sec_count(c), bad = 0;
	int shown = 0;

	if (sec_lost) {
		wb_fail(c, "the lab made %d more loads than SEC_MAX holds "
			   "(a bug in labs/03-coalescing/lab.c)", sec_lost);
		return;
	}
	if (sectors_rule && c->size->n[0] == SEC_WORKED && sec_worked_stale()) {
		wb_fail(c, "labs/03-coalescing/sectors_worked.h is not the "
			   "rule's answers (a bug of the lab: write it again "
			   "with tools/worked-cases.sh)");
		return;
	}
	if (g->step)
		sec_print_kernel(g, got, in);
	for (size_t i = 0; i < 2 * n; i++) {
		char why[256];

		if (!sec_wrong(c, in, got, n, i, why, sizeof(why)))
			continue;
		if (!bad)
			wb_fail(c, "wrong for some of the %zu %s (each asked "
				   "twice: as made, and its lanes reversed a "
				   "few sectors up):", n, g->what);
		bad++;
		if (shown == SHOWN)
			continue;
		wb_fail(c, "  lane t reads %d byte%s at %lld + t x %lld x %d, "
			   "%d lane%s: you said %d, %s",
			in[i].elem_bytes, in[i].elem_bytes > 1 ? "s" : "",
			in[i].addr, in[i].stride, in[i].elem_bytes,
			in[i].lanes, in[i].lanes > 1 ? "s" : "", got[i], why);
		shown++;
	}
	if (bad > (size_t)shown)
		wb_fail(c, "  ... %zu wrong in all", bad);
}
