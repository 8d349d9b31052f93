/* SPDX-License-Identifier: MIT */
/*
 * ex_branch.c - lab 01's branch: its CPU reference and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include "harness.h"
#include "warps.h"
#include "lab_hooks.h"

/* ---- branch ---- */

enum { BR_IN, BR_OUT };

int lab01_branch_setup(struct wb_ctx *c)
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

int lab01_branch_run(struct wb_ctx *c, enum wb_impl impl)
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

	lab01_u32_bounds(j, s, &lo, &hi);
	for (size_t i = lo; i < hi; i += 4) {
		size_t len = hi - i < 4 ? hi - i : 4;
		unsigned int want[4];

		cpu_branch4(j->in + i, len, want);
		for (size_t k = 0; k < len; k++)
			lab01_u32_note(&j->part[s], i + k, j->out[i + k],
				       want[k]);
	}
}

void lab01_branch_check(struct wb_ctx *c)
{
	struct u32_job j = {
		.in = c->buf[BR_IN].host, .out = c->buf[BR_OUT].host,
		.n = c->size->n[0],
	};
	struct u32_cmp m = { 0 };

	if (!lab01_u32_stretches(c, &j, branch_stretch, &m))
		lab01_u32_report(c, &m, "out", j.n, branch_why);
}

/* in read, out written: 4 bytes each per element. */
void lab01_branch_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * s->n[0];
}
