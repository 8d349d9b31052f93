/* SPDX-License-Identifier: MIT */
/*
 * rng.h - a small, fast, reproducible random number generator.
 *
 * xoshiro256** seeded through splitmix64 (public-domain algorithms by
 * Blackman and Vigna). Every input the grader makes comes from here, so a
 * printed seed reproduces a run exactly.
 */
#ifndef WB_RNG_H
#define WB_RNG_H

#include <stdint.h>
#include <stddef.h>

struct wb_rng {
	uint64_t s[4];
};

void wb_rng_seed(struct wb_rng *r, uint64_t seed);
uint64_t wb_rng_u64(struct wb_rng *r);
/* Uniform in [0, 1). */
double wb_rng_unit(struct wb_rng *r);
/* Uniform in [lo, hi). */
double wb_rng_range(struct wb_rng *r, double lo, double hi);
/* x[i] = wb_rng_range(r, lo, hi) rounded to float, for i = 0..n-1 in
 * order: the labs' inputs, which a printed seed reproduces. */
void wb_rng_fill_uniform(struct wb_rng *r, float *x, size_t n, double lo,
			 double hi);
/* Uniform integer in [0, n); n > 0. */
uint64_t wb_rng_below(struct wb_rng *r, uint64_t n);
/*
 * Special rows spread over [0, rows): kinds * (1 + rows / 256) equal
 * stripes, one row at a random place in each, the kinds 0..kinds-1 in
 * turn from a random first; fn(arg, row, kind) for each. Special rows
 * then sit in any warp or block of rows, and most rows stay ordinary
 * (one of each kind up to 255 rows, 65 each at 16384). Nothing when the
 * stripes would be empty (rows < their count).
 */
typedef void wb_stripe_fn(void *arg, size_t row, size_t kind);
void wb_rng_stripes(struct wb_rng *r, size_t rows, size_t kinds,
		    wb_stripe_fn *fn, void *arg);
/* Mix a seed with a name, so each exercise gets its own stream. */
uint64_t wb_seed_mix(uint64_t seed, const char *name);

#endif /* WB_RNG_H */
