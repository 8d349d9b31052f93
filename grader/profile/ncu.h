/* SPDX-License-Identifier: MIT */
/*
 * ncu.h - the code under Nsight Compute (ncu.c): one profiled run per
 * implementation, for make profile (a table per exercise) and make grade
 * PROFILE=1 (the table attached to a passing speed exercise's report).
 */
#ifndef GRADER_NCU_H
#define GRADER_NCU_H

#include <stdio.h>

#include "grade.h"
#include "profile.h"

struct ncu_ctx {
	const char *ncu;            /* its path; "" or NULL: not found */
	unsigned long long seed;
	int shape;                  /* which benchmark shape */
	double copy_gbps;
	double timeout_s;
	int cc;                     /* the GPU's compute capability x 10 */
	int disabled;               /* no ncu, or counters refused: no more */
	char why[G_DETAIL_LEN];     /* ... and the one line that says why */
	int said;                   /* that line was printed */
	char dropped[PROF_MAX_UNKNOWN][PROF_NAME_LEN]; /* metrics ncu did
							* not know */
	int ndropped;
};

/* Ready pc: 0, or -1 with pc->disabled and pc->why when ncu is missing. */
int ncu_init(struct ncu_ctx *pc, const char *ncu, unsigned long long seed,
	     double copy_gbps);

/* Profile impl ("student", "naive", "peer") of exercise with runner. */
enum prof_status ncu_collect(struct ncu_ctx *pc, const char *runner,
			     const char *exercise, const char *impl,
			     struct prof_run *out);

/* make grade PROFILE=1: profile a passing speed exercise's code and attach
 * the table and hints to r as details. */
void ncu_attach(struct ncu_ctx *pc, const char *runner,
		const struct g_spec *s, struct g_result *r);

/*
 * make profile: print exercise s's table. Columns: the submission in
 * build_dir, then those `with` names ("naive", "peer", "solution": the
 * runner in sol_dir). tsv, if not NULL, gets every figure. Returns 0, or 1
 * when ncu failed on every column (a column that did not run says why).
 */
int ncu_exercise(struct ncu_ctx *pc, const char *build_dir,
		 const char *sol_dir, const char *with,
		 const struct g_spec *s, FILE *out, FILE *tsv);

struct g_row;

/* make profile: ncu_exercise for each row; every figure also to tsv_path
 * (if not NULL). Returns 0, or 1 when some exercise gave no profile. */
int ncu_all(struct ncu_ctx *pc, const struct g_row *rows, int n,
	    const char *build_dir, const char *sol_dir, const char *with,
	    const char *tsv_path);

#endif /* GRADER_NCU_H */
