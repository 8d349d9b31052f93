/* SPDX-License-Identifier: MIT */
/*
 * check.h - host-side checks of what a kernel wrote.
 *
 * Outputs are poisoned before every call (every byte 0xff: a NaN for
 * floats, -1 for integers) so that an element the kernel never wrote is
 * seen as such. Every buffer is guarded before and after by canary regions
 * of known bytes; a change there means the kernel wrote outside it.
 * Comparisons are against a double-precision reference.
 */
#ifndef WB_CHECK_H
#define WB_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define WB_POISON_BYTE 0xffu

/* How many mismatches a report lists; more are counted, not listed. */
#define WB_MAX_SHOWN 5

/* Fill a canary region with a pattern derived from salt. */
void wb_canary_fill(void *p, size_t bytes, uint64_t salt);
/*
 * Offset of the first canary byte that differs from its pattern, or bytes
 * when the region is intact.
 */
size_t wb_canary_first_bad(const void *p, size_t bytes, uint64_t salt);

/* Number of 4-byte words of p[0..count-1] still holding the poison. */
size_t wb_poisoned_words(const void *p, size_t count);

struct wb_mismatch {
	size_t index;
	double got;
	double want;
};

struct wb_cmp {
	size_t n;         /* values compared */
	size_t bad;       /* values outside the tolerance (NaN included) */
	size_t nonfinite; /* of those, NaN or infinite */
	size_t poisoned;  /* of those, still holding the poison */
	double max_err;   /* largest |got - want| among finite values */
	size_t nshown;
	struct wb_mismatch shown[WB_MAX_SHOWN];
};

/*
 * The absolute tolerance for a row of n reference values whose scale may be
 * tiny (rows of 1e-20 in the RMSNorms): atol times the row's largest |want|
 * when that is under 1, so such rows are compared as closely as ordinary
 * ones and not waved through by an atol made for values of order 1; where
 * the scaling bites, correct float code errs relatively, inside the rtol.
 * Never under WB_ROW_ATOL_FLOOR: float32 (and bf16) values under 1.2e-38
 * are subnormal (spacing 1.4e-45) or flushed to zero with -ftz. Ordinary
 * rows keep their atol.
 */
#define WB_ROW_ATOL_FLOOR 1e-30
double wb_row_atol(const double *want, size_t n, double atol);

/* Is got within atol + rtol * |want| of want? NaN never is. */
int wb_close(double got, double want, double atol, double rtol);

/* Compare float32 results with a double reference, element by element. */
void wb_cmp_f32(const float *got, const double *want, size_t n,
		double atol, double rtol, struct wb_cmp *out);
/* Compare integers exactly. */
void wb_cmp_i64(const int64_t *got, const int64_t *want, size_t n,
		struct wb_cmp *out);

#endif /* WB_CHECK_H */
