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
/* Uniform integer in [0, n); n > 0. */
uint64_t wb_rng_below(struct wb_rng *r, uint64_t n);
/* Mix a seed with a name, so each exercise gets its own stream. */
uint64_t wb_seed_mix(uint64_t seed, const char *name);

#endif /* WB_RNG_H */
