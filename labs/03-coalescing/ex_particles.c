/* SPDX-License-Identifier: MIT */
/*
 * ex_particles.c - lab 03's particles: its CPU reference and its hooks for
 * the table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

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
int lab03_particles_setup(struct wb_ctx *c)
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

int lab03_particles_run(struct wb_ctx *c, enum wb_impl impl)
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

void lab03_particles_check(struct wb_ctx *c)
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
void lab03_particles_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * 4 * s->n[0];
	t->write = 4.0 * s->n[0];
}
