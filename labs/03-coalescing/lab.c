/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 03 (memory coalescing): CPU references, input makers and the
 * table of knobs the grader reads. References first, then the hooks, then
 * the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "coalescing.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak matvec
#pragma weak mean_dim0
#pragma weak grayscale
#pragma weak particles_energy
#pragma weak particles_layout
#pragma weak sectors_per_request
#pragma weak inflight
#pragma weak peer_matvec

/* mean_dim0's reference is built this many outputs at a time (8 MiB of
 * doubles), so it never needs an array of the whole output in double. */
#define CHECK_CHUNK ((size_t)1 << 20)

/* At most this many wrong values are listed, as wb_check_f32 does. */
#define SHOWN 5

/* ---- CPU references, in double precision ---- */

/* The dot product of a row with x, and the sum of |a[j] x[j]|. */
static double cpu_dot(const float *a, const float *x, size_t n,
		      double *abs_sum)
{
	double s = 0, t = 0;

	for (size_t j = 0; j < n; j++) {
		double p = (double)a[j] * x[j];

		s += p;
		t += fabs(p);
	}
	*abs_sum = t;
	return s;
}

/*
 * want[0..len-1] = the mean over dimension 0 of outputs j0 .. j0 + len - 1
 * (flat indices into [l][m]): slice by slice, so the host reads in order.
 */
static void cpu_mean_chunk(const float *in, size_t k, size_t lm, size_t j0,
			   size_t len, double *want)
{
	for (size_t j = 0; j < len; j++)
		want[j] = 0;
	for (size_t p = 0; p < k; p++) {
		const float *s = in + p * lm + j0;

		for (size_t j = 0; j < len; j++)
			want[j] += s[j];
	}
	for (size_t j = 0; j < len; j++)
		want[j] /= (double)k;
}

/* ---- shared by the exercises ---- */

/* A float that still holds the poison (all bytes 0xff): never written. */
static int is_poison(float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	return u == 0xffffffffu;
}

/*
 * The exact and per-row checks run stretch by stretch on several threads
 * (wb_parallel_for): each stretch counts its own wrong values and keeps
 * its first SHOWN, and the stretches are merged in order, so the report
 * is the one a single pass gives.
 */
#define STRETCH ((size_t)1 << 16)

struct misses {
	size_t bad, odd;          /* wrong; of them, poison (never written) */
	int shown;
	size_t at[SHOWN];
	double want[SHOWN], tol[SHOWN];
};

static void miss_note(struct misses *m, size_t at, int odd, double want,
		      double tol)
{
	if (m->shown < SHOWN) {
		m->at[m->shown] = at;
		m->want[m->shown] = want;
		m->tol[m->shown] = tol;
		m->shown++;
	}
	m->bad++;
	m->odd += odd;
}

/* What a stretch-by-stretch check shares with its threads. */
struct stretch_job {
	struct wb_ctx *c;
	size_t n;                 /* rows, or pixels */
	struct misses *part;      /* one per stretch */
};

/* [*lo, *hi): stretch k of j->n. */
static void stretch_bounds(const struct stretch_job *j, size_t k, size_t *lo,
			   size_t *hi)
{
	*lo = k * STRETCH;
	*hi = *lo + wb_stretch_len(j->n, k, STRETCH);
}

/* fn on every stretch, merged into *m; -1 (the size failed) when the host
 * has no memory for the parts. */
static int by_stretches(struct wb_ctx *c, size_t n, wb_task_fn *fn,
			struct misses *m)
{
	struct stretch_job j = { .c = c, .n = n };
	size_t parts = wb_ceil_div(n, STRETCH);

	j.part = wb_ref_parts(c, parts, sizeof(*j.part));
	if (!j.part)
		return -1;
	wb_parallel_for(parts, fn, &j);
	for (size_t k = 0; k < parts; k++) {
		const struct misses *p = &j.part[k];

		for (int i = 0; i < p->shown; i++)
			miss_note(m, p->at[i], 0, p->want[i], p->tol[i]);
		m->bad += p->bad - p->shown;
		m->odd += p->odd;
	}
	free(j.part);
	return 0;
}

/* ---- matvec ---- */

enum { MV_A, MV_X, MV_Y };

static int matvec_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], n = c->size->n[1];
	float *a = wb_input_as(c, "a", m * n * sizeof(float), WB_FRESH_F32);
	float *x = wb_input_as(c, "x", n * sizeof(float), WB_FRESH_F32);

	/* Signed entries: y[r] is a sum that mostly cancels, small next to
	 * sum |a x|, so a dropped or repeated term stands out (MV_RTOL). */
	wb_fill_uniform(c, a, m * n, -1.0, 1.0);
	wb_fill_uniform(c, x, n, -1.0, 1.0);
	wb_output(c, "y", m * sizeof(float));
	return 0;
}

typedef void matvec_fn(const float *, const float *, float *, size_t,
		       size_t);

static int matvec_run(struct wb_ctx *c, enum wb_impl impl)
{
	matvec_fn *f = impl == WB_STUDENT ? matvec :
		       impl == WB_NAIVE   ? naive_matvec :
					    peer_matvec;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, MV_A), wb_dev(c, MV_X), wb_dev(c, MV_Y), c->size->n[0],
	  c->size->n[1]);
	return 0;
}

/*
 * Tolerance, per row: |y[r] - ref| <= MV_RTOL * sum_j |a[r][j] x[j]|, as
 * lab 05's sum. A float32 dot product in any order (sequential, lane-
 * strided, a shuffle tree, cuBLAS's) errs by about 2^-24 * sum |a x| here,
 * whatever n (the partial sums of signed terms grow like sqrt(n), not n);
 * 1e-5 leaves a wide margin, while a dropped term at n = 33 (|a x| ~ 0.25
 * against a bound of ~1e-4) fails. NaN never passes.
 */
#define MV_RTOL 1e-5

static void matvec_stretch(size_t k, void *arg)
{
	struct stretch_job *j = arg;
	struct wb_ctx *c = j->c;
	const float *a = c->buf[MV_A].host, *x = c->buf[MV_X].host;
	const float *y = c->buf[MV_Y].host;
	size_t n = c->size->n[1], lo, hi;

	stretch_bounds(j, k, &lo, &hi);
	for (size_t r = lo; r < hi; r++) {
		double abs_sum, w = cpu_dot(a + r * n, x, n, &abs_sum);

		if (fabs((double)y[r] - w) <= MV_RTOL * abs_sum)
			continue; /* false for NaN: it is counted here */
		miss_note(&j->part[k], r, is_poison(y[r]), w,
			  MV_RTOL * abs_sum);
	}
}

static void matvec_check(struct wb_ctx *c)
{
	const float *y = c->buf[MV_Y].host;
	size_t m = c->size->n[0];
	struct misses w = { 0 };

	if (by_stretches(c, m, matvec_stretch, &w) || !w.bad)
		return;
	wb_fail(c, "%zu of %zu values of y wrong (tolerance %.0e x sum_j "
		   "|a[r][j] x[j]|)%s", w.bad, m, MV_RTOL,
		w.odd == m ? ": none was written" :
		w.odd ? ": some never written (still poison)" : "");
	for (int i = 0; i < w.shown; i++)
		wb_fail(c, "  y[%zu] = %.9g, expected %.9g (tolerance %.3g)",
			w.at[i], y[w.at[i]], w.want[i], w.tol[i]);
}

/* a (m x n) and x (n) read, y (m) written. */
static void matvec_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * ((double)s->n[0] * s->n[1] + s->n[1]);
	t->write = 4.0 * s->n[0];
}

/* ---- mean_dim0 ---- */

enum { MD_IN, MD_OUT };

static int mean_setup(struct wb_ctx *c)
{
	size_t k = c->size->n[0], l = c->size->n[1], m = c->size->n[2];
	float *in = wb_input_as(c, "in", k * l * m * sizeof(float),
				WB_FRESH_F32);

	/* Signed values: each mean is small next to the terms, so a term
	 * dropped, repeated or taken from the wrong slice shows. */
	wb_fill_uniform(c, in, k * l * m, -1.0, 1.0);
	wb_output(c, "out", l * m * sizeof(float));
	return 0;
}

typedef void mean_fn(const float *, float *, size_t, size_t, size_t);

static int mean_run(struct wb_ctx *c, enum wb_impl impl)
{
	mean_fn *f = impl == WB_STUDENT ? mean_dim0 :
		     impl == WB_NAIVE   ? naive_mean_dim0 : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, MD_IN), wb_dev(c, MD_OUT), c->size->n[0], c->size->n[1],
	  c->size->n[2]);
	return 0;
}

/*
 * Tolerance: |out - ref| <= 1e-6 + 1e-5 |ref|. The inputs lie in [-1, 1),
 * so a float32 sum of k of them in any order, divided by k (or multiplied
 * by a rounded 1/k), errs by a few 1e-8; one term dropped or doubled
 * moves the mean by |x| / k, about 5e-4 even at k = 1000.
 */
#define MEAN_ATOL 1e-6
#define MEAN_RTOL 1e-5

/* Outputs [k CHECK_CHUNK, (k + 1) CHECK_CHUNK) (wb_check_chunks). */
static void mean_chunk(struct wb_ctx *c, struct wb_chunks *p, size_t q,
		       double *want, const void *arg)
{
	const float *in = c->buf[MD_IN].host, *out = c->buf[MD_OUT].host;
	size_t k = c->size->n[0], lm = c->size->n[1] * c->size->n[2];
	size_t j0 = q * CHECK_CHUNK;
	size_t len = lm - j0 < CHECK_CHUNK ? lm - j0 : CHECK_CHUNK;

	(void)arg;
	cpu_mean_chunk(in, k, lm, j0, len, want);
	wb_chunk_f32(p, "out", out + j0, want, len, MEAN_ATOL, MEAN_RTOL);
}

static void mean_note(struct wb_ctx *c, size_t q, size_t nchunks)
{
	(void)nchunks;
	wb_fail(c, "  (out[i][j] is element i * m + j, m = %zu)",
		c->size->n[2]);
	if (q)
		wb_fail(c, "  (the indices above count from element %zu)",
			q * CHECK_CHUNK);
}

/* Chunk by chunk of the output, on several threads, so the double
 * reference stays small. */
static void mean_check(struct wb_ctx *c)
{
	size_t lm = c->size->n[1] * c->size->n[2];

	wb_check_chunks(c, wb_ceil_div(lm, CHECK_CHUNK),
			lm < CHECK_CHUNK ? lm : CHECK_CHUNK, mean_chunk, NULL,
			mean_note);
}

/* in (k x l x m) read, out (l x m) written. */
static void mean_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1] * s->n[2];
	t->write = 4.0 * s->n[1] * s->n[2];
}

/* ---- grayscale ---- */

enum { G_RGB, G_GRAY };

static int gray_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0] * c->size->n[1];
	unsigned char *rgb = wb_input_as(c, "rgb", 3 * n, WB_FRESH_BYTES);

	/* Independent random channels: a swapped channel, a pixel read at
	 * the wrong offset or a rounding other than the exact formula gives
	 * a different gray value for most pixels. */
	wb_fill_bits(c, rgb, 3 * n);
	wb_output(c, "gray", n);
	return 0;
}

typedef void gray_fn(const unsigned char *, unsigned char *, size_t,
		     size_t);

static int gray_run(struct wb_ctx *c, enum wb_impl impl)
{
	gray_fn *f = impl == WB_STUDENT ? grayscale :
		     impl == WB_NAIVE   ? naive_grayscale : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, G_RGB), wb_dev(c, G_GRAY), c->size->n[0], c->size->n[1]);
	return 0;
}

/* The exact gray value of pixel p. */
static unsigned int gray_ref(const unsigned char *rgb, size_t p)
{
	return GRAY_OF(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]);
}

/*
 * Exact: the formula is integer arithmetic, so every pixel must equal
 * GRAY_OF(R, G, B). An unwritten pixel holds the poison byte, 255, which
 * is the true value only for pixels within a few steps of white.
 */
static void gray_stretch(size_t k, void *arg)
{
	struct stretch_job *j = arg;
	const unsigned char *rgb = j->c->buf[G_RGB].host;
	const unsigned char *gray = j->c->buf[G_GRAY].host;
	size_t lo, hi;

	stretch_bounds(j, k, &lo, &hi);
	for (size_t p = lo; p < hi; p++)
		if (gray[p] != gray_ref(rgb, p))
			miss_note(&j->part[k], p, gray[p] == WB_POISON_BYTE,
				  0, 0);
}

static void gray_check(struct wb_ctx *c)
{
	const unsigned char *rgb = c->buf[G_RGB].host;
	const unsigned char *gray = c->buf[G_GRAY].host;
	size_t w = c->size->n[1], n = c->size->n[0] * w;
	struct misses m = { 0 };

	if (by_stretches(c, n, gray_stretch, &m) || !m.bad)
		return;
	wb_fail(c, "%zu of %zu pixels of gray wrong (must match exactly)%s",
		m.bad, n, m.odd == n ? ": none was written" :
		m.odd ? ": some hold 255, the poison (never written?)" : "");
	for (int i = 0; i < m.shown; i++) {
		size_t p = m.at[i];

		wb_fail(c, "  gray[%zu] (row %zu, column %zu) = %u, expected "
			   "%u from R, G, B = %u, %u, %u", p, p / w, p % w,
			(unsigned int)gray[p], gray_ref(rgb, p),
			(unsigned int)rgb[3 * p], (unsigned int)rgb[3 * p + 1],
			(unsigned int)rgb[3 * p + 2]);
	}
}

/* Three bytes read and one written per pixel. */
static void gray_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 3.0 * s->n[0] * s->n[1];
	t->write = 1.0 * s->n[0] * s->n[1];
}

/* ---- particles ---- */

/*
 * Three buffers: the particles in AoS for the naive (its own layout,
 * whatever the student chose), the same particles in the student's
 * layout, and ke. traffic() counts one copy of the particles: each code
 * reads only its own.
 */
enum { P_AOS, P_IN, P_OUT };

/*
 * The layout the student's particles_layout() returned at this size's
 * setup: check() reads the particles back by it. Where the file has no
 * particles_layout() (the lab's info binary, which times the naive
 * alone; or a file that lost it, which run() then reports), AoS.
 */
static int part_layout;

static int part_known(int layout)
{
	return layout == PARTICLES_AOS || layout == PARTICLES_SOA ||
	       layout == PARTICLES_AOSOA;
}

/* Floats of the particles of n in layout (AoSoA pads its last tile). */
static size_t part_floats(int layout, size_t n)
{
	if (layout == PARTICLES_AOSOA)
		n = wb_ceil_div(n, PARTICLES_TILE) * PARTICLES_TILE;
	return n * PART_FIELDS;
}

/* Where field f of particle i lies among n in layout (coalescing.h). */
static size_t part_at(int layout, size_t n, size_t i, int f)
{
	size_t t = PARTICLES_TILE;

	switch (layout) {
	case PARTICLES_SOA:
		return (size_t)f * n + i;
	case PARTICLES_AOSOA:
		return i / t * t * PART_FIELDS + (size_t)f * t + i % t;
	default:
		return i * PART_FIELDS + (size_t)f;
	}
}

/* The ranges the fields are drawn from: positions and charges are not
 * read, but they must hold values, and a kernel that reads q for m, or x
 * for vx, must get a different answer (m > 0, q of either sign). */
static const double part_lo[PART_FIELDS] = { -10, -10, -10, -1, -1, -1,
					      0.5, -1 };
static const double part_hi[PART_FIELDS] = { 10, 10, 10, 1, 1, 1, 2, 1 };

/* What packing shares with its threads: fields[f] holds field f of all
 * n particles; dst gets them in layout. */
struct part_pack {
	const float *fields;
	float *dst;
	size_t n;
	int layout;
};

static void part_pack_stretch(size_t k, void *arg)
{
	const struct part_pack *pp = arg;
	size_t lo = k * STRETCH;
	size_t hi = lo + wb_stretch_len(pp->n, k, STRETCH);

	for (size_t i = lo; i < hi; i++)
		for (int f = 0; f < PART_FIELDS; f++)
			pp->dst[part_at(pp->layout, pp->n, i, f)] =
				pp->fields[(size_t)f * pp->n + i];
}

static void part_pack(const float *fields, float *dst, size_t n, int layout)
{
	struct part_pack pp = { fields, dst, n, layout };

	wb_parallel_for(wb_ceil_div(n, STRETCH), part_pack_stretch, &pp);
}

/*
 * The student's particles_layout() (host code, run here, untimed) says
 * how to pack the particles for its kernel; an unknown value is packed
 * as AoS, and check() fails every size with the valid ones. Both copies
 * of the particles may be perturbed in timed rounds (about half the
 * signs flipped, m's too, so about half the energies turn negative:
 * nothing in the formula minds). The naive's copy is perturbed like the
 * rest, so that every code reads new inputs every round; its flips differ
 * from the student's copy's (they follow each buffer's word order), which
 * matters nowhere: the naive is checked only on the inputs made here
 * (runner.c, before any round), where both copies hold the same values.
 */
static int particles_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];
	float *fields, *aos, *in;
	int layout;

	part_layout = particles_layout ? particles_layout() : PARTICLES_AOS;
	layout = part_known(part_layout) ? part_layout : PARTICLES_AOS;
	aos = wb_input_as(c, "aos", part_floats(PARTICLES_AOS, n) *
				   sizeof(float), WB_FRESH_F32);
	in = wb_input_as(c, "p", part_floats(layout, n) * sizeof(float),
			 WB_FRESH_F32);
	wb_output(c, "ke", n * sizeof(float));
	fields = malloc(part_floats(PARTICLES_SOA, n) * sizeof(float));
	if (!fields)
		return -1;
	for (int f = 0; f < PART_FIELDS; f++)
		wb_fill_uniform(c, fields + (size_t)f * n, n, part_lo[f],
				part_hi[f]);
	/* The padding of AoSoA's last tile: zeros, not the poison. */
	if (layout == PARTICLES_AOSOA)
		memset(in, 0, part_floats(layout, n) * sizeof(float));
	part_pack(fields, aos, n, PARTICLES_AOS);
	part_pack(fields, in, n, layout);
	free(fields);
	return 0;
}

static int particles_run(struct wb_ctx *c, enum wb_impl impl)
{
	size_t n = c->size->n[0];

	if (impl == WB_NAIVE) {
		naive_particles_energy(wb_dev(c, P_AOS), n, wb_dev(c, P_OUT));
		return 0;
	}
	/* No peer; a file without one of its two entry points is missing
	 * (the verdict says to keep the skeleton's functions). */
	if (impl != WB_STUDENT || !particles_energy || !particles_layout)
		return WB_MISSING;
	particles_energy(wb_dev(c, P_IN), n, wb_dev(c, P_OUT));
	return 0;
}

/*
 * Tolerance: |ke[i] - ref| <= PART_RTOL |ref|. All the terms of the sum
 * have the same sign (squares) and m only scales it, so there is no
 * cancellation: six float32 operations in any order (with or without
 * fused multiply-adds) err by at most about 6 x 2^-24 = 3.6e-7 of the
 * value; 2e-6 leaves a margin of five, while any wrong field (|x| up to
 * 10 for vx, q for m, 0.5 left out) is off by far more. Timed rounds flip
 * signs: m may then be negative, which changes nothing here.
 */
#define PART_RTOL 2e-6

/* Chunk k: particles k * CHECK_CHUNK onwards, reference and compare. */
static void particles_chunk(struct wb_ctx *c, struct wb_chunks *pc, size_t k,
			    double *want, const void *arg)
{
	const float *p = c->buf[P_IN].host, *ke = c->buf[P_OUT].host;
	size_t n = c->size->n[0], i0 = k * CHECK_CHUNK, len = n - i0;
	int l = part_layout;

	(void)arg;
	if (len > CHECK_CHUNK)
		len = CHECK_CHUNK;
	for (size_t j = 0; j < len; j++) {
		size_t i = i0 + j;
		double vx = p[part_at(l, n, i, PART_VX)];
		double vy = p[part_at(l, n, i, PART_VY)];
		double vz = p[part_at(l, n, i, PART_VZ)];
		double m = p[part_at(l, n, i, PART_M)];

		want[j] = 0.5 * m * (vx * vx + vy * vy + vz * vz);
	}
	wb_chunk_f32(pc, "ke", ke + i0, want, len, 0, PART_RTOL);
}

static void particles_note(struct wb_ctx *c, size_t k, size_t nchunks)
{
	static const char *const names[] = {
		[PARTICLES_AOS] = "AoS", [PARTICLES_SOA] = "SoA",
		[PARTICLES_AOSOA] = "AoSoA",
	};

	wb_fail(c, "  (the particles were packed in %s, as "
		   "particles_layout() returned)", names[part_layout]);
	if (k)
		wb_fail(c, "  (chunk %zu of %zu: the indices above count from "
			   "particle %zu)", k, nchunks, k * CHECK_CHUNK);
}

static void particles_check(struct wb_ctx *c)
{
	size_t n = c->size->n[0];

	if (!part_known(part_layout)) {
		wb_fail(c, "particles_layout() returned %d, which is no "
			   "layout: return PARTICLES_AOS (%d), PARTICLES_SOA "
			   "(%d) or PARTICLES_AOSOA (%d), and read the "
			   "particles the way coalescing.h lays them out",
			part_layout,
			PARTICLES_AOS, PARTICLES_SOA, PARTICLES_AOSOA);
		return;
	}
	wb_check_chunks(c, wb_ceil_div(n, CHECK_CHUNK),
			n < CHECK_CHUNK ? n : CHECK_CHUNK, particles_chunk,
			NULL, particles_note);
}

/*
 * The fewest bytes the task needs, whatever the layout: vx, vy, vz and m
 * of every particle read (16 bytes), ke written (4). Only a layout that
 * keeps each field contiguous over many particles lets a kernel move just
 * those: SoA (four arrays) or AoSoA (a warp's load of one field of a tile
 * is 128 contiguous bytes). In AoS they are bytes 12 to 27 of each 32-byte
 * record, records start at multiples of 32 (cudaMalloc's base is 256-byte
 * aligned), memory moves whole 32-byte sectors: every sector of the array
 * holds needed bytes, so the whole array crosses the chip, 32 bytes a
 * particle read and 4 written, 36 against 20: no AoS kernel can pass 20 /
 * 36 = 56% of this speed of light. That gap is the lesson.
 */
static void particles_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * 4 * s->n[0];
	t->write = 4.0 * s->n[0];
}

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

/* The groups, by size index (n[0]). */
enum {
	SEC_NAIVE_MATVEC, SEC_WARP_MATVEC, SEC_NAIVE_MEAN, SEC_FLAT_MEAN,
	SEC_GRAY, SEC_FIELDS, SEC_OFFSETS, SEC_PARTIAL, SEC_REVERSED,
	SEC_WORKED, SEC_RANDOM,
};

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
static int sectors_setup(struct wb_ctx *c)
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
static int sectors_run(struct wb_ctx *c, enum wb_impl impl)
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

static void sectors_check(struct wb_ctx *c)
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

/* ---- inflight ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c, as for
 * sectors); without it (the handout) the worked cases
 * (inflight_worked.h) are checked exactly, and every other answer by
 * what the rule implies (inflight_props(), the twin).
 */
__attribute__((weak)) void (*inflight_rule)(const struct mem_system *s,
					    struct inflight_pred *p);

#include "inflight_worked.h"

#define IF_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The GPUs of the README (section 17): an H100 SXM's data-sheet
 * bandwidth and a T4's, at the ~700 ns a loaded DRAM takes (lab 05). */
static const struct {
	const char *name;
	double latency_ns, bw_gbps;
	int sms;
} if_gpus[] = {
	{ "H100 SXM", 700, 3352, 132 },
	{ "T4", 700, 320, 40 },
};

/* The lab's kernels' loads: a thread per element with 4-byte loads
 * (matvec's and mean_dim0's naives), float4 loads, and four float4s in
 * flight (lab 05's sum solution); at full and at half occupancy. */
static const int if_kernels[][3] = {
	{ 2048, 4, 1 }, { 2048, 16, 1 }, { 2048, 16, 4 }, { 1024, 4, 1 },
	{ 1024, 16, 2 }, { 256, 4, 1 },
};

enum { IF_LAB, IF_WORKED, IF_RANDOM };

#define IF_MAX 600
#define IF_RANDOM_COUNT 500

struct if_case {
	struct mem_system s;
	int lab; /* 1: one of the README's GPUs and kernels */
};

static double if_abs(double x)
{
	return x < 0 ? -x : x;
}

/* Is the rule's loads per thread within 1e-9 of a whole number, or
 * the kernel's rate within 1e-9 of the bandwidth (either answer is a
 * rounding's choice)? Never without the rule: no drawn case then. */
static int if_near_edge(const struct mem_system *s)
{
	struct inflight_pred p;
	double loads, kept;

	if (!inflight_rule)
		return 0;
	inflight_rule(s, &p);
	loads = p.need_per_sm / s->threads_per_sm / s->load_bytes;
	kept = p.have_bytes / s->latency_ns;
	return if_abs(loads - (double)(long long)(loads + 0.5)) <=
		       1e-9 * loads ||
	       if_abs(kept - s->bw_gbps) <= 1e-9 * s->bw_gbps;
}

static int inflight_setup(struct wb_ctx *c)
{
	static struct if_case scratch[2 * IF_MAX];
	struct if_case *in;
	int n = 0;

	switch (c->size->n[0]) {
	case IF_LAB:
		for (size_t g = 0; g < IF_COUNT(if_gpus); g++)
			for (size_t k = 0; k < IF_COUNT(if_kernels); k++) {
				struct if_case *x = &scratch[n++];

				memset(x, 0, sizeof(*x));
				x->s = (struct mem_system){
					if_gpus[g].latency_ns,
					if_gpus[g].bw_gbps, if_gpus[g].sms,
					if_kernels[k][0], if_kernels[k][1],
					if_kernels[k][2] };
				x->lab = 1;
			}
		break;
	case IF_WORKED:
		for (size_t i = 0; i < IF_COUNT(inflight_worked); i++) {
			memset(&scratch[n], 0, sizeof(scratch[n]));
			scratch[n++].s = inflight_worked[i].s;
		}
		break;
	default:
		while (n < IF_RANDOM_COUNT) {
			struct if_case *x = &scratch[n];

			memset(x, 0, sizeof(*x));
			x->s.latency_ns = 100 + (double)wb_rng_below(&c->rng,
								      1900);
			x->s.bw_gbps = 50 + (double)wb_rng_below(&c->rng, 9950);
			x->s.sms = 1 + (int)wb_rng_below(&c->rng, 256);
			x->s.threads_per_sm =
				32 * (1 + (int)wb_rng_below(&c->rng, 64));
			x->s.load_bytes = 1 << wb_rng_below(&c->rng, 5);
			x->s.loads_in_flight =
				1 + (int)wb_rng_below(&c->rng, 16);
			if (!if_near_edge(&x->s))
				n++;
		}
	}
	/* The twins: twice the latency at half the bandwidth. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].s.latency_ns *= 2;
		scratch[n + i].s.bw_gbps /= 2;
		scratch[n + i].lab = 0;
	}
	in = wb_input(c, "systems", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "predictions",
		  2 * (size_t)n * sizeof(struct inflight_pred));
	return 0;
}

enum { IF_CASES, IF_PREDS };

static size_t if_count(const struct wb_ctx *c)
{
	return c->buf[IF_CASES].bytes / sizeof(struct if_case) / 2;
}

static int inflight_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct inflight_pred got[2 * IF_MAX];
	const struct if_case *in = c->buf[IF_CASES].host;
	size_t n = 2 * if_count(c);

	if (impl != WB_STUDENT || !inflight)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct mem_system s = in[i].s;

		memset(&got[i], 0xff, sizeof(got[i]));
		inflight(&s, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, IF_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

#define IF_RTOL 1e-12

static int if_near(double got, double want)
{
	return if_abs(got - want) <= IF_RTOL * if_abs(want);
}

static int if_agrees(const struct inflight_pred *a,
		     const struct inflight_pred *b)
{
	return a->need_loads == b->need_loads &&
	       if_near(a->need_bytes, b->need_bytes) &&
	       if_near(a->need_per_sm, b->need_per_sm) &&
	       if_near(a->have_bytes, b->have_bytes) &&
	       if_near(a->gbps, b->gbps);
}

/*
 * Without the rule: what the README's law implies of any right answer p
 * for s: the need per SM is the need over the SMs; the loads per thread
 * the fewest whole loads that carry a thread's share of it; the rate no
 * more than the bandwidth, and the bandwidth exactly when the kernel
 * keeps the need in flight. 0, or 1 with why not.
 */
static int if_props(const struct mem_system *s, const struct inflight_pred *p,
		    char *why, size_t len)
{
	double share = p->need_per_sm / s->threads_per_sm;
	double loads = p->need_loads;

	if (!(p->need_bytes > 0) || !(p->have_bytes > 0))
		snprintf(why, len, "bytes in flight are positive");
	else if (!if_near(p->need_per_sm, p->need_bytes / s->sms))
		snprintf(why, len, "per SM is your need over the %d SMs, "
			 "%.6g bytes", s->sms, p->need_bytes / s->sms);
	else if (loads * s->load_bytes < share * (1 - 1e-12) ||
		 (loads - 1) * s->load_bytes >= share * (1 + 1e-12))
		snprintf(why, len, "each of %d threads carries %.6g bytes of "
			 "your need per SM: the fewest whole loads of %d "
			 "bytes that do", s->threads_per_sm, share,
			 s->load_bytes);
	else if (p->gbps > s->bw_gbps * (1 + 1e-12))
		snprintf(why, len, "no kernel streams faster than the "
			 "memory's %.6g GB/s", s->bw_gbps);
	else if (p->have_bytes >= p->need_bytes * (1 + 1e-9) &&
		 !if_near(p->gbps, s->bw_gbps))
		snprintf(why, len, "with your %.6g bytes in flight, over your "
			 "need of %.6g, the memory's bandwidth is the limit",
			 p->have_bytes, p->need_bytes);
	else
		return 0;
	return 1;
}

/* A twin (twice the latency, half the bandwidth) against its case: the
 * same need and the same bytes in flight; half the rate. */
static int if_twin_wrong(const struct inflight_pred *t,
			 const struct inflight_pred *o, char *why, size_t len)
{
	if (t->need_loads == o->need_loads &&
	    if_near(t->need_bytes, o->need_bytes) &&
	    if_near(t->need_per_sm, o->need_per_sm) &&
	    if_near(t->have_bytes, o->have_bytes) &&
	    if_near(t->gbps, o->gbps / 2))
		return 0;
	snprintf(why, len, "at twice the latency and half the bandwidth you "
		 "said %.6g bytes needed, %d loads, %.6g bytes kept, %.6g "
		 "GB/s: the product, the need and the bytes kept stay, the "
		 "rate halves", o->need_bytes, o->need_loads, o->have_bytes,
		 o->gbps);
	return 1;
}

static void if_show(struct wb_ctx *c, const char *who,
		    const struct inflight_pred *p)
{
	wb_fail(c, "  %s: need %.9g bytes (%.9g per SM, %d loads a thread), "
		   "keeps %.9g bytes, %.9g GB/s", who, p->need_bytes,
		p->need_per_sm, p->need_loads, p->have_bytes, p->gbps);
}

static void inflight_check(struct wb_ctx *c)
{
	const struct if_case *in = c->buf[IF_CASES].host;
	const struct inflight_pred *got = c->buf[IF_PREDS].host;
	size_t n = if_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		const struct mem_system *s = &in[i].s;
		struct inflight_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (inflight_rule) {
			inflight_rule(s, &w);
			who = "the rule";
		} else if (c->size->n[0] == IF_WORKED && i < n) {
			w = inflight_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = !if_agrees(&got[i], &w);
		else if (i >= n)
			wrong = if_twin_wrong(&got[i], &got[i - n], why,
					      sizeof(why));
		else
			wrong = if_props(s, &got[i], why, sizeof(why));
		if (!wrong || bad++ >= 3)
			continue;
		wb_fail(c, "case %zu%s: %.6g ns at %.6g GB/s, %d SMs of %d "
			   "threads, %d-byte loads, %d in flight each", i,
			i >= n ? " (a twin)" : "", s->latency_ns, s->bw_gbps,
			s->sms, s->threads_per_sm, s->load_bytes,
			s->loads_in_flight);
		if_show(c, "you", &got[i]);
		if (who)
			if_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu cases wrong, twins included (loads "
			   "exact, the rest to 1e-12)", bad, 2 * n);
	else if (c->size->n[0] == IF_LAB)
		for (size_t i = 0; i < n; i++)
			if (in[i].lab && i % IF_COUNT(if_kernels) == 0)
				printf("  %s at %.0f ns: yours %.2f MB in "
				       "flight, %.1f KB per SM; at 2048 "
				       "threads, 4-byte loads a thread: %d\n",
				       if_gpus[i / IF_COUNT(if_kernels)].name,
				       in[i].s.latency_ns,
				       got[i].need_bytes / 1e6,
				       got[i].need_per_sm / 1e3,
				       got[i].need_loads);
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * matvec sizes (m x n): one element; a single row and a single column;
 * 31 x 33 and 33 x 31 around a warp, rows not 16-byte aligned; 3 x 4096
 * (aligned, few rows); 5 x 4097 and 17 x 4099, long rows whose starts
 * fall on every alignment mod 16 bytes (a float4 load there faults);
 * 257 x 1000 (aligned, not a multiple of a warp's float4 sweep); many
 * short rows (1000 x 3, 65537 x 5: shorter than a warp); one long prime
 * row pair (2 x 100003); 4097 x 64, tall with rows of half a sweep.
 * Benchmark: 16384 x 8192, 512 MiB of matrix, over 8x an H200's L2.
 */
#define MATVEC_SIZES                                                       \
	{ "1x1", { 1, 1 } }, { "1x7", { 1, 7 } }, { "7x1", { 7, 1 } },      \
	{ "31x33", { 31, 33 } }, { "33x31", { 33, 31 } },                   \
	{ "3x4096", { 3, 4096 } }, { "5x4097", { 5, 4097 } },               \
	{ "17x4099", { 17, 4099 } }, { "257x1000", { 257, 1000 } },         \
	{ "1000x3", { 1000, 3 } }, { "65537x5", { 65537, 5 } },             \
	{ "2x100003", { 2, 100003 } }, { "4097x64", { 4097, 64 } }

/*
 * mean_dim0 sizes (k x l x m): one element; k = 1 (the mean is a copy);
 * one output of 64 terms; small odd shapes; l >> m and l << m, where
 * confusing the roles of i and j shows; k = 1000 (a long loop over
 * dimension 0); l = 70001, more than a grid's 65535 in y or z, so a
 * launch that puts i on blockIdx.y fails; one long prime row; 13 x 64 x
 * 4096 (slices 16-byte aligned: a float4 path) and 3 x 1023 x 1025
 * (l * m odd: every slice after the first is misaligned).
 * Benchmark: the seed's 64 x 1024 x 1024, 256 MiB, 4x an H200's L2.
 */
#define MEAN_SIZES                                                         \
	{ "1x1x1", { 1, 1, 1 } }, { "1x31x33", { 1, 31, 33 } },             \
	{ "64x1x1", { 64, 1, 1 } }, { "3x5x7", { 3, 5, 7 } },               \
	{ "7x33x31", { 7, 33, 31 } }, { "5x1000x3", { 5, 1000, 3 } },       \
	{ "4x3x1000", { 4, 3, 1000 } }, { "1000x3x5", { 1000, 3, 5 } },     \
	{ "2x70001x3", { 2, 70001, 3 } },                                   \
	{ "2x1x1000003", { 2, 1, 1000003 } },                               \
	{ "13x64x4096", { 13, 64, 4096 } },                                 \
	{ "3x1023x1025", { 3, 1023, 1025 } }

/*
 * grayscale sizes (height x width): fewer pixels than one 16-pixel group
 * (1, 15), exactly one (16) and one more (17); small odd images; full HD
 * 1080 x 1920 (a multiple of 16); a long prime row. The pixel counts
 * leave remainders 0, 1, 3, 7, 13 and 15 mod 16 (and odd remainders mod
 * 4), so a 4- or 16-pixel group needs its tail.
 * Benchmark: 8192 x 8192, 64M pixels: 192 MiB in, 64 MiB out.
 */
#define GRAY_SIZES                                                         \
	{ "1x1", { 1, 1 } }, { "1x15", { 1, 15 } }, { "1x16", { 1, 16 } },  \
	{ "1x17", { 1, 17 } }, { "3x5", { 3, 5 } },                         \
	{ "31x33", { 31, 33 } }, { "33x31", { 33, 31 } },                   \
	{ "479x643", { 479, 643 } }, { "17x4099", { 17, 4099 } },           \
	{ "1080x1920", { 1080, 1920 } }, { "1x1000003", { 1, 1000003 } },   \
	{ "7x65537", { 7, 65537 } }

/*
 * sectors sizes: one group of loads each, named by its label. First the
 * loads of the lab's own kernels (the naives, the coalesced ladder step,
 * the solutions' float4 and uint4) at every checked shape of the three
 * exercises and at the benchmark shape, each at the first, second and
 * last warp (a partial one) and at the first, middle and last step of
 * its loop; then the patterns around them: one field of a structure of 1
 * to 1000 elements, consecutive elements from every aligned start, every
 * lane count from 1 to 32, lanes walking down; the worked cases
 * (sectors_worked.h: the README's and more, with the rule's answers, the
 * exact check where no rule is linked); and 2048 loads drawn from the
 * run's seed. Each group's loads are asked again as their twins.
 */
#define SECTORS_SIZES                                                      \
	{ "naive matvec", { SEC_NAIVE_MATVEC } },                           \
	{ "warp-per-row matvec", { SEC_WARP_MATVEC } },                     \
	{ "naive mean_dim0", { SEC_NAIVE_MEAN } },                          \
	{ "flat mean_dim0", { SEC_FLAT_MEAN } },                            \
	{ "grayscale", { SEC_GRAY } },                                      \
	{ "struct fields", { SEC_FIELDS } },                                \
	{ "offsets", { SEC_OFFSETS } },                                     \
	{ "partial warps", { SEC_PARTIAL } },                               \
	{ "negative strides", { SEC_REVERSED } },                           \
	{ "worked", { SEC_WORKED } },                                       \
	{ "random", { SEC_RANDOM } }

/*
 * particles sizes (n particles, in the layout particles_layout() chose):
 * one particle; 2 and 3 (fewer than a float4 of them); 31, 32, 33 around
 * a warp and an AoSoA tile; 63, 64, 65 around two tiles (the last tile
 * padded, or whole); 255 and 1023 (n % 4 = 3: the SoA fields after the
 * first start misaligned for float4, field f at element f n); 1000 and
 * 4096 (aligned); 4097 and 65537 (n % 4 = 1); 1000003 (prime-ish, many
 * blocks and a tail).
 * Benchmark: 16M particles: 512 MiB of particles in each of the two
 * copies (the naive's AoS and the student's layout), of which 256 MiB
 * are needed, and 64 MiB written: all several times the L2, which is
 * flushed before every sample anyway.
 */
#define PARTICLES_SIZES                                                    \
	{ "n=1", { 1 } }, { "n=2", { 2 } }, { "n=3", { 3 } },               \
	{ "n=31", { 31 } }, { "n=32", { 32 } }, { "n=33", { 33 } },         \
	{ "n=63", { 63 } }, { "n=64", { 64 } }, { "n=65", { 65 } },         \
	{ "n=255", { 255 } }, { "n=1000", { 1000 } },                       \
	{ "n=1023", { 1023 } }, { "n=4096", { 4096 } },                     \
	{ "n=4097", { 4097 } }, { "n=65537", { 65537 } },                   \
	{ "n=1000003", { 1000003 } }

/*
 * Technique rules (docs/adding-a-lab.md): the access pattern of your own
 * kernel is the lesson; a library call has its own.
 */
#define NO_LIBRARY_COALESCING                                              \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, CUB's Device*, Thrust)",                  \
	  "Coalescing your own kernel's loads is the exercise; cublasSgemv " \
	  "is make bench's comparison only." }

static const struct wb_exercise exercises[] = {
	{
		.name = "matvec",
		.title = "y = A x, A row-major float32",
		.kind = WB_SPEED,
		.sizes = { MATVEC_SIZES },
		.bench = { { "16384x8192", { 16384, 8192 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (a and x read once, y
		 * written). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 2026-11-25): the naive, a thread per row,
		 * 1131.0 us, 16%. A warp per row with scalar loads (ladder
		 * 2-coalesced-scalar) 98%, the solution, the same with float4
		 * loads, 99%: on the H100 coalescing alone reaches the top
		 * tier (79%), which leaves the solution a 20% margin; float4
		 * barely helps. No step lies between: tier 1 (32%) lies
		 * clearly above the naive, tier 2 (56%) grades partial
		 * fixes. cublasSgemv took 197.4 us, the solution 178.0 us.
		 */
		.tiers = { { 0.32, 20 }, { 0.56, 40 }, { 0.79, 60 } },
		/* make profile: a thread per row reads 32 rows per warp load
		 * (sectors per request) from a grid of 64 blocks; a warp per
		 * row fixes both. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY,
		/* The naive takes ~1.2 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = matvec_setup,
		.run = matvec_run,
		.check = matvec_check,
		.traffic = matvec_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "mean_dim0",
		.title = "mean over dimension 0 of a [k][l][m] tensor",
		.kind = WB_SPEED,
		.sizes = { MEAN_SIZES },
		.bench = { { "64x1024x1024", { 64, 1024, 1024 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (in read once, out
		 * written). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 2026-11-25): the naive, a thread per index i,
		 * 5331.6 us, 1.8%. Tier 1 (7%) rewards parallelism alone: a
		 * thread per output with i as the fast index (ladder
		 * 1-parallel-uncoalesced, still 32 sectors per request)
		 * 16%. With j fast, coalesced and scalar (ladder
		 * 2-coalesced-scalar) 102%, and the solution (float4, loads
		 * in flight) 105%: float4 only confirms the coalescing.
		 * Tier 2 (37%) lies between the two steps, so coalescing is
		 * what earns it; the top tier (78%) leaves a 23% margin.
		 */
		.tiers = { { 0.07, 20 }, { 0.37, 40 }, { 0.78, 60 } },
		/* make profile: the walk-through of docs/nsight-compute.md:
		 * a grid of 8 blocks, then lanes m floats apart (sectors per
		 * request, lg_throttle), then coalesced at DRAM speed. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		/* The naive takes ~9 ms a call, at most 6 s of samples;
		 * 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = mean_setup,
		.run = mean_run,
		.check = mean_check,
		.traffic = mean_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "grayscale",
		.title = "RGB to gray, 8-bit, exact integer formula",
		.kind = WB_SPEED,
		.sizes = { GRAY_SIZES },
		.bench = { { "8192x8192", { 8192, 8192 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (three bytes read and
		 * one written per pixel). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive 191.2 us,
		 * 47% (coalesced, but three 1-byte loads per thread keep too
		 * few bytes in flight). 4 pixels per thread with 4-byte words
		 * (ladder 2-coalesced-scalar) 100%; the solution, 16 pixels
		 * per thread with 16-byte loads and stores, 106%. The top
		 * tier (82%) leaves the solution a 22% margin and is reached
		 * with 4-byte words already. Tier 1 (55%) lies clearly above
		 * the naive, tier 2 (69%) grades partial fixes.
		 */
		.tiers = { { 0.55, 20 }, { 0.69, 40 }, { 0.82, 60 } },
		/* make profile: coalesced but narrow, 1-byte loads (sectors
		 * per request at their ideal of 1), too few bytes in flight
		 * (DRAM throughput, stalls). */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_STALLS,
		/* The naive takes ~0.2 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = gray_setup,
		.run = gray_run,
		.check = gray_check,
		.traffic = gray_traffic,
	},
	{
		.name = "sectors",
		.title = "sectors per request of a warp's load, predicted",
		.kind = WB_CORRECTNESS,
		.sizes = { SECTORS_SIZES },
		/* One rule in a dozen lines of host code, as thread_map is
		 * one mapping: half an exercise. */
		.points_correct = 50,
		/* ~8,000 calls of host code (the loads and their twins); 60 s
		 * only stops hangs. */
		.timeout_s = 60,
		.setup = sectors_setup,
		.run = sectors_run,
		.check = sectors_check,
	},
	{
		.name = "particles",
		.title = "kinetic energy of particles in the layout you choose",
		.kind = WB_SPEED,
		.sizes = { PARTICLES_SIZES },
		.bench = { { "n=16M", { 16u << 20 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light of the task (vx, vy,
		 * vz and m read, 16 bytes a particle, and ke written, 4),
		 * whatever the layout. AoS moves whole 32-byte records, 36
		 * bytes a particle: at most 20 / 36 = 56% of it, which the
		 * naive (AoS, a thread per particle) already reaches (H200,
		 * 2026-11-27, the exercise's first version: 138.0 us against
		 * 139.6 us for 36 bytes a particle). So tier 1 (65%) lies
		 * above anything AoS can do: a layout that moves only the
		 * needed fields (SoA, AoSoA) is what earns points, and
		 * moving them at DRAM speed earns all of them (a thread per
		 * particle with scalar loads read SoA at 100% of its bytes
		 * there: 81.6 us against 81.3). Tier 2 (78%) and the top
		 * (85%) leave such code a 15% margin. Measured on an H100
		 * 80GB HBM3 (tests/gpu/particles.sh, 2026-11-27): the naive
		 * 57% (196 us against 112), ladder 3-particles-aos (the best
		 * AoS kernel) 57%, tier 0; the solution (SoA) 103% and 104%
		 * in two runs, 4-particles-aosoa 103%, the top tier.
		 */
		.tiers = { { 0.65, 20 }, { 0.78, 40 }, { 0.85, 60 } },
		/* make profile: sectors per request of the naive's AoS
		 * loads, and the DRAM bytes each layout moves against
		 * traffic() (36 bytes a particle in AoS against 20). */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT,
		/* ~0.1 ms a call; the checks and packing of 16M particles on
		 * the host take seconds; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = particles_setup,
		.run = particles_run,
		.check = particles_check,
		.traffic = particles_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "inflight",
		.title = "bytes in flight by Little's law, and the bandwidth "
			 "a kernel's loads allow",
		.kind = WB_CORRECTNESS,
		/* The README's GPUs and the lab's loads; the worked cases;
		 * 500 systems drawn from the seed. Each also as its twin
		 * (twice the latency, half the bandwidth). */
		.sizes = { { "lab", { IF_LAB } }, { "worked", { IF_WORKED } },
			   { "random", { IF_RANDOM } } },
		/* One law, one rounding and one minimum: a fifth of an
		 * exercise. */
		.points_correct = 20,
		/* ~1,000 cases of host code; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = inflight_setup,
		.run = inflight_run,
		.check = inflight_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "03-coalescing",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
