/* SPDX-License-Identifier: MIT */
/*
 * lab_hooks.h - lab 08's private declarations: the weak references to the
 * students' entry points, what the table (lab.c) and the exercise files
 * share, and the hooks each ex_*.c defines for the table (named lab08_*, so
 * that nothing of a submission's can take their place). Lab code only: it
 * is not in lab.mk's HEADERS, so no submission can include it
 * (grader/build.sh).
 */
#ifndef LAB08_HOOKS_H
#define LAB08_HOOKS_H

#include "harness.h"
#include "tensor_cores.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak fragments
#pragma weak hgemm
#pragma weak peer_hgemm
#pragma weak attention
#pragma weak peer_attention

/*
 * A size is { heads, seq, dim | flags }: heads counts the (batch, head)
 * pairs, dim is 64 or 128, and the flags say whether the mask is causal
 * and whether q and k are loud (up to AT_LOUD_AMP instead of AT_AMP).
 */
#define AT_CAUSAL 0x100
#define AT_LOUD 0x200
#define AT_DIM(s) ((int)((s)->n[2] & 0xff))

/* What each file defines for the others: the table's hooks, and the
 * helpers the exercises share. */

/* lab_shared.c */
double lab08_bf16_to_double(bf16_bits b);
bf16_bits lab08_float_to_bf16(float f);
double lab08_row_max(const double *x, size_t n);

/* ex_fragments.c */
int lab08_fragments_setup(struct wb_ctx *c);
int lab08_fragments_run(struct wb_ctx *c, enum wb_impl impl);
void lab08_fragments_check(struct wb_ctx *c);
void lab08_fragments_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_hgemm.c */
int lab08_hgemm_setup(struct wb_ctx *c);
int lab08_hgemm_run(struct wb_ctx *c, enum wb_impl impl);
void lab08_hgemm_check(struct wb_ctx *c);
void lab08_hgemm_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_attention.c */
int lab08_attention_setup(struct wb_ctx *c);
int lab08_attention_run(struct wb_ctx *c, enum wb_impl impl);
void lab08_attention_check(struct wb_ctx *c);
void lab08_attention_traffic(const struct wb_size *s, struct wb_traffic *t);

#endif /* LAB08_HOOKS_H */
