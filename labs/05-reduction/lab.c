/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 05 (reduction): CPU references, input makers and the table
 * of knobs the grader reads. In the llm.c order: references first, then
 * the exercise hooks, then the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reduction.h"

/*
 * Each runner links one submission file, so the entry points of the other
 * exercises are absent (and so are the peers, if PEER_SRCS is emptied).
 * Weak references make them NULL instead of a link error.
 */
#pragma weak reduce_sum
#pragma weak reduce_argmax
#pragma weak peer_reduce_sum
#pragma weak peer_reduce_argmax

/* ---- CPU references, in double precision ---- */

/*
 * The references run stretch by stretch on several threads
 * (wb_parallel_for), each into its own slot, combined in order: 64M
 * floats read five times a grade took most of its checks' time.
 */
#define STRETCH ((size_t)1 << 20)

struct part {
	double s, a;      /* sum, sum(|x|) */
	int whole;        /* every value an integer */
	size_t best;      /* the lowest index of the largest value */
};

struct ref_job {
	const float *x;
	size_t n;
	struct part *part;
};

static void stretch_bounds(const struct ref_job *j, size_t k, size_t *lo,
			   size_t *hi)
{
	*lo = k * STRETCH;
	*hi = j->n - *lo < STRETCH ? j->n : *lo + STRETCH;
}

/* fn on every stretch of x, into job->part (freed by the caller); -1,
 * with the size failed, when the host has no memory for the parts. */
static int by_stretches(struct wb_ctx *c, struct ref_job *j, const float *x,
			size_t n, wb_task_fn *fn)
{
	size_t parts = wb_ceil_div(n, STRETCH);

	j->x = x;
	j->n = n;
	j->part = wb_ref_parts(c, parts, sizeof(*j->part));
	if (!j->part)
		return -1;
	wb_parallel_for(parts, fn, j);
	return 0;
}

static void sum_stretch(size_t k, void *arg)
{
	struct ref_job *j = arg;
	struct part *p = &j->part[k];
	size_t lo, hi;

	stretch_bounds(j, k, &lo, &hi);
	p->whole = 1;
	for (size_t i = lo; i < hi; i++) {
		p->s += j->x[i];
		p->a += fabs(j->x[i]);
		if (p->whole && (double)j->x[i] != floor(j->x[i]))
			p->whole = 0;
	}
}

/* The sum in double; sum(|x|) into *abs_sum, and into *whole whether
 * every value is an integer (in the same pass: the input is 256 MB).
 * -1, with the size failed, when the host has no memory for it. */
static int cpu_sum(struct wb_ctx *c, const float *x, size_t n, double *sum,
		   double *abs_sum, int *whole)
{
	struct ref_job j;

	if (by_stretches(c, &j, x, n, sum_stretch))
		return -1;
	*sum = *abs_sum = 0;
	*whole = 1;
	for (size_t k = 0; k < wb_ceil_div(n, STRETCH); k++) {
		*sum += j.part[k].s;
		*abs_sum += j.part[k].a;
		*whole &= j.part[k].whole;
	}
	free(j.part);
	return 0;
}

static void argmax_stretch(size_t k, void *arg)
{
	struct ref_job *j = arg;
	size_t lo, hi, best;

	stretch_bounds(j, k, &lo, &hi);
	best = lo;
	for (size_t i = lo + 1; i < hi; i++)
		if (j->x[i] > j->x[best])
			best = i;
	j->part[k].best = best;
}

/* The lowest index of the largest value; -1, with the size failed, when
 * the host has no memory. */
static int64_t cpu_argmax(struct wb_ctx *c, const float *x, size_t n)
{
	struct ref_job j;
	size_t best = 0;

	if (by_stretches(c, &j, x, n, argmax_stretch))
		return -1;
	for (size_t k = 0; k < wb_ceil_div(n, STRETCH); k++)
		if (x[j.part[k].best] > x[best])
			best = j.part[k].best;
	free(j.part);
	return (int64_t)best;
}

/* ---- inputs ---- */

enum { IN, OUT };

/* ---- sum ---- */

/*
 * Exact-sum inputs. Float32 adds integers without rounding as long as
 * every partial sum is an integer below 2^24 in magnitude, and no partial
 * sum of any order or grouping exceeds sum(|x|): with sum(|x|) < 2^24
 * every correct kernel returns the sum exactly, and one dropped or
 * repeated nonzero element, or block partial, shows however large n is
 * (the tolerance below is ~335 at 64M, more than most blocks' partials).
 * The values are 1..EXACT_MAX, one at a random place in each group of g
 * consecutive elements, zeros elsewhere; g is the smallest power of two
 * that keeps EXACT_MAX * ceil(n / g) below 2^24: 1 (every element
 * counts) up to n = 2396745, 2 at n = 2^22 + 6, 32 at 64M. So the bound
 * holds by construction, and every run of 2g - 1 elements holds a
 * positive value: losing one sums to less, never to the same.
 */
#define EXACT_MAX 7
#define EXACT_LIMIT 16777216.0 /* 2^24 */

static void fill_exact(struct wb_ctx *c, float *x, size_t n)
{
	size_t g = 1;

	while ((double)((n + g - 1) / g) * EXACT_MAX >= EXACT_LIMIT)
		g *= 2;
	memset(x, 0, n * sizeof(float));
	for (size_t i0 = 0; i0 < n; i0 += g) {
		size_t len = n - i0 < g ? n - i0 : g;

		x[i0 + wb_rng_below(&c->rng, len)] =
			(float)(1 + wb_rng_below(&c->rng, EXACT_MAX));
	}
}

/*
 * Which sizes get exact-sum inputs: every other checked size (the second,
 * the fourth, ... of the list) and the benchmark (any size not in the
 * list), so that exact and uniform inputs both meet short and long
 * inputs, tails and no tails.
 */
static int exact_size(const struct wb_ctx *c)
{
	for (int i = 0; i < WB_MAX_SIZES && c->ex->sizes[i].label; i++)
		if (&c->ex->sizes[i] == c->size)
			return i % 2 == 1;
	return 1;
}

static int sum_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];
	float *in = wb_input_as(c, "in", n * sizeof(float), WB_FRESH_F32);

	/* Otherwise signed values: the true sum is small next to sum(|x|),
	 * so a kernel that drops or repeats elements cannot hide in
	 * rounding at the small sizes. */
	if (exact_size(c))
		fill_exact(c, in, n);
	else
		wb_fill_uniform(c, in, n, -1.0, 1.0);
	wb_output(c, "out", sizeof(float));
	return 0;
}

typedef void sum_fn(const float *, size_t, float *, void *);

static int sum_run(struct wb_ctx *c, enum wb_impl impl)
{
	sum_fn *f = impl == WB_STUDENT ? reduce_sum :
		    impl == WB_NAIVE   ? naive_reduce_sum :
					 peer_reduce_sum;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, IN), c->size->n[0], wb_dev(c, OUT), c->work);
	return 0;
}

/*
 * Tolerance: |got - sum| <= SUM_RTOL * sum(|x|). Float32 summation in any
 * order (a tree, atomics in any order, Kahan or not) errs by at most about
 * log2(n) * 2^-24 * sum(|x|) in practice, about 1.6e-6 at 64M; 1e-5 leaves
 * room for sequential atomics while a dropped element at n = 33 (|x| ~ 0.5
 * against a bound of ~2e-4) still fails. Exact-sum inputs, recognised by
 * their contents (whatever made them), get no tolerance at all.
 */
#define SUM_RTOL 1e-5

static void sum_check(struct wb_ctx *c)
{
	const float *in = c->buf[IN].host, *out = c->buf[OUT].host;
	size_t n = c->size->n[0];
	double abs_sum, want;
	int failed = c->failed, whole;

	if (cpu_sum(c, in, n, &want, &abs_sum, &whole))
		return;
	/* All integers, and sum(|x|) < 2^24: every float32 partial sum is
	 * exact. */
	if (!whole || !(abs_sum < EXACT_LIMIT)) {
		wb_check_f32(c, "out", out, &want, 1, SUM_RTOL * abs_sum, 0);
		return;
	}
	wb_check_f32(c, "out", out, &want, 1, 0, 0);
	if (c->failed && !failed)
		wb_fail(c, "  (exact-sum input: integers with sum(|x|) = "
			   "%.0f < 2^24, which float32 adds without rounding "
			   "in any order; only %.0f itself is right)", abs_sum,
			want);
}

static void sum_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4;
}

/* ---- argmax ---- */

/*
 * From this size on, no kernel worth timing runs one block (4096 floats
 * would be 1024 threads of one float4 each), so ties can sit in different
 * blocks, and the rule "lowest index" must then hold where blocks combine.
 */
#define ARGMAX_SPREAD_N 4097

/*
 * Three equal maxima at random places, one in the first quarter, one in
 * the middle quarter (around n / 2) and one in the last: at least n / 8
 * apart (half a million elements at 2^22 + 6), so a kernel whose blocks
 * own contiguous parts of the input meets them in different blocks, and
 * one that strides does so but for a chance of one in its number of
 * blocks. The one in the first quarter must win. New places for every
 * input set.
 */
static void plant_spread_ties(struct wb_ctx *c, float *x, size_t n, float v)
{
	size_t q = n / 4;

	x[wb_rng_below(&c->rng, q)] = v;
	x[n / 2 - q / 2 + wb_rng_below(&c->rng, q)] = v;
	x[n - q + wb_rng_below(&c->rng, q)] = v;
}

/*
 * Where one block's mistakes show: twice at random places (the lower
 * index must win), at the very end (the tail), or first, by n % 3.
 */
static void plant_max(struct wb_ctx *c, float *x, size_t n, float v)
{
	size_t a, b;

	switch (n % 3) {
	case 0:
		a = wb_rng_below(&c->rng, n);
		b = wb_rng_below(&c->rng, n);
		x[a] = x[b] = v;
		break;
	case 1:
		x[n - 1] = v;
		break;
	default:
		x[0] = v;
		break;
	}
}

static int argmax_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];
	float *in = wb_input_as(c, "in", n * sizeof(float), WB_FRESH_F32);
	int negative = n % 2;

	/* Odd sizes are all negative: a running maximum that starts at 0
	 * instead of the first element (or -inf) returns a wrong index. */
	wb_fill_uniform(c, in, n, negative ? -2.0 : -1.0,
			negative ? -1.0 : 1.0);
	/* Even sizes from ARGMAX_SPREAD_N on (2^22 + 6 and the benchmark)
	 * get ties across blocks; the others keep the first, last or close
	 * ties, so that the tails of the large odd sizes stay tested. */
	if (n >= ARGMAX_SPREAD_N && !negative)
		plant_spread_ties(c, in, n, 2.0f);
	else
		plant_max(c, in, n, negative ? -0.5f : 2.0f);
	wb_output(c, "out", sizeof(long long));
	return 0;
}

typedef void argmax_fn(const float *, size_t, long long *, void *);

static int argmax_run(struct wb_ctx *c, enum wb_impl impl)
{
	argmax_fn *f = impl == WB_STUDENT ? reduce_argmax :
		       impl == WB_NAIVE   ? naive_reduce_argmax :
					    peer_reduce_argmax;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, IN), c->size->n[0], wb_dev(c, OUT), c->work);
	return 0;
}

static void argmax_check(struct wb_ctx *c)
{
	const float *in = c->buf[IN].host;
	const long long *out = c->buf[OUT].host;
	size_t n = c->size->n[0];
	int64_t want = cpu_argmax(c, in, n), got = (int64_t)out[0];

	if (want < 0)
		return;
	if (got == want)
		return;
	if (got >= 0 && (size_t)got < n)
		wb_fail(c, "returned index %lld (value %.9g), expected %lld "
			   "(value %.9g)%s", (long long)got, in[got],
			(long long)want, in[want],
			in[got] == in[want] ? ": on ties the lowest index wins" : "");
	else
		wb_fail(c, "returned index %lld, outside [0, %zu)%s; expected %lld",
			(long long)got, n, got == -1 ? " (never written?)" : "",
			(long long)want);
}

static void argmax_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 8;
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * Technique rule (checked on the student's object, not on timings): the
 * reduction is the exercise, so CUB's and Thrust's device-wide algorithms
 * (cub::DeviceReduce, thrust::reduce), which do all of it, cost the
 * performance points; cub::BlockReduce and cub::WarpReduce stay allowed,
 * as the README says.
 */
#define NO_LIBRARY_REDUCTION                                               \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a device-wide library algorithm (CUB's Device*, Thrust, cuBLAS)", \
	  "The reduction is the exercise: write its kernels (block-level "  \
	  "CUB is fine); make bench shows cub::DeviceReduce for comparison." }

/*
 * Sizes: 1 and the neighbours of 32 and 256 (a warp, a block) catch
 * missing tail guards and partial warps; 1000003 and 4097 are not multiples
 * of 4 (a float4 path needs a scalar tail); 64M floats (256 MiB) is the
 * benchmark, four times an H200's L2, so timing measures DRAM.
 */
#define REDUCTION_SIZES                                                    \
	{ "n=1", { 1 } }, { "n=2", { 2 } }, { "n=31", { 31 } },             \
	{ "n=32", { 32 } }, { "n=33", { 33 } }, { "n=255", { 255 } },       \
	{ "n=256", { 256 } }, { "n=257", { 257 } }, { "n=1000", { 1000 } }, \
	{ "n=1023", { 1023 } }, { "n=4097", { 4097 } },                     \
	{ "n=65537", { 65537 } }, { "n=1000003", { 1000003 } },             \
	{ "n=2^22+6", { (1u << 22) + 6 } }

#define REDUCTION_BENCH { "n=64M", { 64u << 20 } }

static const struct wb_exercise exercises[] = {
	{
		.name = "sum",
		.title = "float32 sum of n elements",
		.kind = WB_SPEED,
		.sizes = { REDUCTION_SIZES },
		.bench = { REDUCTION_BENCH },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (n floats read once).
		 * Measured on an H100 80GB HBM3 (tests/gpu/calibrate.sh,
		 * 2026-11-25): the naive interleaved tree 635.5 us, 14%.
		 * Sequential addressing alone (ladder 1-sequential) 18%:
		 * tier 0, removing the `%` is not the fix. Grid-stride
		 * coarsening with scalar loads (ladder 2-grid-stride) 74%,
		 * shuffles on top (ladder 3-shuffle) 74%: tier 2 (54%). The
		 * solution (float4, four loads in flight) 100%, CUB's
		 * DeviceReduce 97% (92.7 us against 90.4 us): the top tier
		 * (78%) leaves a 22% margin and asks for bytes in flight.
		 */
		.tiers = { { 0.30, 20 }, { 0.54, 40 }, { 0.78, 60 } },
		/* make profile: the naive's loads are coalesced; what it
		 * lacks is bytes in flight (DRAM far from its peak, warps
		 * waiting at barriers), which coarsening and wide loads fix. */
		.profile = WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		/* The naive takes ~0.6 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.work_bytes = REDUCE_WORK_BYTES,
		.setup = sum_setup,
		.run = sum_run,
		.check = sum_check,
		.traffic = sum_traffic,
		.rules = { NO_LIBRARY_REDUCTION },
	},
	{
		.name = "argmax",
		.title = "index of the largest float (lowest on ties)",
		.kind = WB_SPEED,
		.sizes = { REDUCTION_SIZES },
		.bench = { REDUCTION_BENCH },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, same runs: the naive 837.1 us, 11%; sequential
		 * addressing 20%, tier 0; grid-stride with scalar loads 71%,
		 * tier 2 (52%); the solution 97%, CUB's ArgMax 95% (94.9 us
		 * against 92.8 us): the top tier (77%) leaves a 21% margin.
		 */
		.tiers = { { 0.29, 20 }, { 0.52, 40 }, { 0.77, 60 } },
		/* make profile: as for sum. */
		.profile = WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		.timeout_s = 60,
		.work_bytes = REDUCE_WORK_BYTES,
		.setup = argmax_setup,
		.run = argmax_run,
		.check = argmax_check,
		.traffic = argmax_traffic,
		.rules = { NO_LIBRARY_REDUCTION },
	},
};

const struct wb_lab wb_lab = {
	.name = "05-reduction",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
