/* SPDX-License-Identifier: MIT */
/*
 * lab_hooks.h - lab 07's private declarations: the weak references to the
 * students' entry points, what the table (lab.c) and the exercise files
 * share, and the hooks each ex_*.c defines for the table (named lab07_*, so
 * that nothing of a submission's can take their place). Lab code only: it
 * is not in lab.mk's HEADERS, so no submission can include it
 * (grader/build.sh).
 */
#ifndef LAB07_HOOKS_H
#define LAB07_HOOKS_H

#include "harness.h"
#include "fusion.h"
#include "passes_chains.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak gelu
#pragma weak bias_gelu
#pragma weak add_rmsnorm
#pragma weak softmax
#pragma weak chain_traffic
#pragma weak diagnose
#pragma weak compare
#pragma weak stalls

/*
 * The sizes of gelu, bias_gelu, add_rmsnorm and softmax: the table's
 * (lab.c), and passes' (ex_passes.c), which asks about the lab's chains
 * at them.
 */

/*
 * gelu sizes: 1, 3 and 31, 33 (around a warp) have no full float4 or an
 * odd tail; 4097, 65537 and 1000003 leave n % 4 = 1 or 3 after many full
 * blocks, where a float4 kernel without a scalar tail drops elements.
 * The benchmark, 64M floats (256 MiB each way), is 4x an H200's L2, so the
 * eager sequence's intermediates really go to DRAM and back.
 */
#define GELU_SIZES                                                         \
	{ "n=1", { 1 } }, { "n=3", { 3 } }, { "n=31", { 31 } },             \
	{ "n=33", { 33 } }, { "n=1000", { 1000 } }, { "n=4097", { 4097 } }, \
	{ "n=65537", { 65537 } }, { "n=1000003", { 1000003 } }

/*
 * bias_gelu sizes (rows x cols): one element; odd widths (7, 31, 33, 4095:
 * rows not 16-byte aligned, so no float4 on them); 4096 (aligned); 1000
 * (aligned, but not a multiple of a 256-thread block's float4 stride);
 * more rows than columns (1000 x 33), where a bias indexed by row shows.
 * Benchmark: 8192 x 8192, 256 MiB, a large MLP activation.
 */
#define BIAS_GELU_SIZES                                                    \
	{ "1x1", { 1, 1 } }, { "3x7", { 3, 7 } }, { "33x31", { 33, 31 } },  \
	{ "17x4095", { 17, 4095 } }, { "5x4096", { 5, 4096 } },             \
	{ "1000x33", { 1000, 33 } }, { "129x1000", { 129, 1000 } }

/*
 * add_rmsnorm sizes (rows x hidden), lab 06's widths: one element, odd
 * widths (no float4), small-model 768, 4095/4096 either side of alignment,
 * 5120, 8192 and 16384 (a whole 512-thread block's worth of float4 and
 * beyond: a row that does not fit a register budget takes another path).
 * Benchmark: 16384 tokens x 4096, Llama-7B-like, 256 MiB per matrix.
 */
#define ADD_RMSNORM_SIZES                                                  \
	{ "1x1", { 1, 1 } }, { "3x7", { 3, 7 } }, { "33x768", { 33, 768 } }, \
	{ "17x4095", { 17, 4095 } }, { "5x4096", { 5, 4096 } },             \
	{ "9x5120", { 9, 5120 } }, { "3x8192", { 3, 8192 } },               \
	{ "7x16384", { 7, 16384 } }

/*
 * softmax sizes (rows x cols): single-element rows (y = 1 exactly, the sum
 * of one term); 3, 31, 33, 100 and 1023 around a warp and a block;
 * 4096 and 4099 either side of alignment; 16384, a long row (attention
 * over 16k tokens). Benchmark: 16384 x 4096 (attention scores of one head
 * at 4k context, 16k queries), 256 MiB.
 */
#define SOFTMAX_SIZES                                                      \
	{ "1x1", { 1, 1 } }, { "3x1", { 3, 1 } }, { "5x3", { 5, 3 } },      \
	{ "7x31", { 7, 31 } }, { "9x33", { 9, 33 } },                       \
	{ "33x100", { 33, 100 } }, { "3x1023", { 3, 1023 } },               \
	{ "17x4096", { 17, 4096 } }, { "5x4099", { 5, 4099 } },             \
	{ "2x16384", { 2, 16384 } }

/* passes: the groups, by size index (n[0]): naive.cu's four chains
 * (passes_chains.h), then these. */
enum { PASS_IN_PLACE = PASS_OPS, PASS_WORKED, PASS_RANDOM };

/* diagnose: the groups, by size index: the recordings, in an order drawn
 * from the seed; then reports drawn around them. */
enum { DIAG_RECORDED, DIAG_DRAWN };

/* compare and stalls: the groups, by size index: the recordings (their
 * pairs for compare), in an order drawn from the seed; then drawn around
 * them. */
enum { COMPARE_RECORDED, COMPARE_DRAWN };
enum { STALLS_RECORDED, STALLS_DRAWN };

/* What each file defines for the others: the table's hooks, and the
 * helpers the exercises share. */

/* lab_shared.c */
void lab07_note_row(struct wb_ctx *c, size_t r, size_t rows);
int lab07_csv_fields(const char *p, const char **end, char f[][96], int max);
double lab07_csv_number(const char *s);

/* ex_gelu.c */
int lab07_gelu_setup(struct wb_ctx *c);
int lab07_gelu_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_gelu_check(struct wb_ctx *c);
void lab07_gelu_traffic(const struct wb_size *s, struct wb_traffic *t);
int lab07_bias_gelu_setup(struct wb_ctx *c);
int lab07_bias_gelu_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_bias_gelu_check(struct wb_ctx *c);
void lab07_bias_gelu_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_add_rmsnorm.c */
int lab07_add_rmsnorm_setup(struct wb_ctx *c);
int lab07_add_rmsnorm_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_add_rmsnorm_check(struct wb_ctx *c);
void lab07_add_rmsnorm_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_softmax.c */
int lab07_softmax_setup(struct wb_ctx *c);
int lab07_softmax_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_softmax_check(struct wb_ctx *c);
void lab07_softmax_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_passes.c */
int lab07_passes_setup(struct wb_ctx *c);
int lab07_passes_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_passes_check(struct wb_ctx *c);

/* ex_diagnose.c */
int lab07_diagnose_setup(struct wb_ctx *c);
int lab07_diagnose_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_diagnose_check(struct wb_ctx *c);

/* ex_recordings.c */
int lab07_compare_setup(struct wb_ctx *c);
int lab07_compare_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_compare_check(struct wb_ctx *c);
int lab07_stalls_setup(struct wb_ctx *c);
int lab07_stalls_run(struct wb_ctx *c, enum wb_impl impl);
void lab07_stalls_check(struct wb_ctx *c);

#endif /* LAB07_HOOKS_H */
