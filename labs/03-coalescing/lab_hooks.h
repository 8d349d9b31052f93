/* SPDX-License-Identifier: MIT */
/*
 * lab_hooks.h - lab 03's private declarations: the weak references to the
 * students' entry points, what the table (lab.c) and the exercise files
 * share, and the hooks each ex_*.c defines for the table (named lab03_*, so
 * that nothing of a submission's can take their place). Lab code only: it
 * is not in lab.mk's HEADERS, so no submission can include it
 * (grader/build.sh).
 */
#ifndef LAB03_HOOKS_H
#define LAB03_HOOKS_H

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

/* What a stretch-by-stretch check shares with its threads. */
struct stretch_job {
	struct wb_ctx *c;
	size_t n;                 /* rows, or pixels */
	struct misses *part;      /* one per stretch */
};

/* sectors: the groups, by size index (n[0]). */
enum {
	SEC_NAIVE_MATVEC, SEC_WARP_MATVEC, SEC_NAIVE_MEAN, SEC_FLAT_MEAN,
	SEC_GRAY, SEC_FIELDS, SEC_OFFSETS, SEC_PARTIAL, SEC_REVERSED,
	SEC_WORKED, SEC_RANDOM,
};

/* inflight: the groups, by size index (n[0]). */
enum { IF_LAB, IF_WORKED, IF_RANDOM };

/* What each file defines for the others: the table's hooks, and the
 * helpers the exercises share. */

/* lab_shared.c */
int lab03_is_poison(float v);
void lab03_miss_note(struct misses *m, size_t at, int odd, double want,
		     double tol);
void lab03_stretch_bounds(const struct stretch_job *j, size_t k, size_t *lo,
			  size_t *hi);
int lab03_by_stretches(struct wb_ctx *c, size_t n, wb_task_fn *fn,
		       struct misses *m);

/* ex_matvec.c */
int lab03_matvec_setup(struct wb_ctx *c);
int lab03_matvec_run(struct wb_ctx *c, enum wb_impl impl);
void lab03_matvec_check(struct wb_ctx *c);
void lab03_matvec_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_mean_dim0.c */
int lab03_mean_setup(struct wb_ctx *c);
int lab03_mean_run(struct wb_ctx *c, enum wb_impl impl);
void lab03_mean_check(struct wb_ctx *c);
void lab03_mean_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_grayscale.c */
int lab03_gray_setup(struct wb_ctx *c);
int lab03_gray_run(struct wb_ctx *c, enum wb_impl impl);
void lab03_gray_check(struct wb_ctx *c);
void lab03_gray_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_particles.c */
int lab03_particles_setup(struct wb_ctx *c);
int lab03_particles_run(struct wb_ctx *c, enum wb_impl impl);
void lab03_particles_check(struct wb_ctx *c);
void lab03_particles_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_sectors.c */
int lab03_sectors_setup(struct wb_ctx *c);
int lab03_sectors_run(struct wb_ctx *c, enum wb_impl impl);
void lab03_sectors_check(struct wb_ctx *c);

/* ex_inflight.c */
int lab03_inflight_setup(struct wb_ctx *c);
int lab03_inflight_run(struct wb_ctx *c, enum wb_impl impl);
void lab03_inflight_check(struct wb_ctx *c);

#endif /* LAB03_HOOKS_H */
