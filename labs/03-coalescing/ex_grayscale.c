/* SPDX-License-Identifier: MIT */
/*
 * ex_grayscale.c - lab 03's grayscale: its CPU reference and its hooks for
 * the table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

/* ---- grayscale ---- */

enum { G_RGB, G_GRAY };

int lab03_gray_setup(struct wb_ctx *c)
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

int lab03_gray_run(struct wb_ctx *c, enum wb_impl impl)
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

	lab03_stretch_bounds(j, k, &lo, &hi);
	for (size_t p = lo; p < hi; p++)
		if (gray[p] != gray_ref(rgb, p))
			lab03_miss_note(&j->part[k], p,
					gray[p] == WB_POISON_BYTE, 0, 0);
}

void lab03_gray_check(struct wb_ctx *c)
{
	const unsigned char *rgb = c->buf[G_RGB].host;
	const unsigned char *gray = c->buf[G_GRAY].host;
	size_t w = c->size->n[1], n = c->size->n[0] * w;
	struct misses m = { 0 };

	if (lab03_by_stretches(c, n, gray_stretch, &m) || !m.bad)
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
void lab03_gray_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 3.0 * s->n[0] * s->n[1];
	t->write = 1.0 * s->n[0] * s->n[1];
}
