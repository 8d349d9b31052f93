/* SPDX-License-Identifier: MIT */
/*
 * grade.h - what the grader's driver knows about exercises and results.
 *
 * The driver never touches the GPU: it learns each lab's exercises from the
 * lab's info binary (`info --list`), runs each exercise's runner in a child
 * process and reads the result channel (common/result.h) it leaves.
 */
#ifndef GRADER_GRADE_H
#define GRADER_GRADE_H

#include <stddef.h>

#include "../common/verdict.h"

#define G_MAX_TIERS 8
#define G_MAX_DETAILS 48
#define G_DETAIL_LEN 320
#define G_NAME_LEN 64

enum g_impl { G_STUDENT, G_NAIVE, G_PEER, G_IMPLS };

struct g_tier {
	double speedup;
	double points;
};

/* A technique rule, from `info --rules` (inspect.h; harness.h's wb_rule). */
#define G_MAX_RULES 4
struct g_rule {
	int must;          /* 1: must contain, 0: must not */
	char where[8];     /* ptx, sym or sass */
	char pattern[160]; /* alternatives separated by '|' */
	char what[160];
	char why[320];
};

/* How an exercise's technique rules came out (inspect.c). */
enum g_technique { G_TECH_NONE, G_TECH_OK, G_TECH_FAILED, G_TECH_UNCHECKED };

/* One exercise as its lab's table declares it. */
struct g_spec {
	char lab[G_NAME_LEN];
	char name[G_NAME_LEN];
	char title[160];
	char bench[G_NAME_LEN]; /* label of the benchmark size, "-" if none */
	int speed;              /* timed and scored on speedup */
	double points_correct;
	double points_speed;
	double timeout_s;
	struct g_tier tiers[G_MAX_TIERS];
	int ntiers;
	struct g_rule rules[G_MAX_RULES]; /* technique rules (inspect.h) */
	int nrules;
	int bad_rules;                    /* rules the driver could not read */
};

struct g_timing {
	int have;
	double median_us, q1_us, q3_us;
	int samples;
	double host_us;
};

/* What grading one exercise produced, and its score. */
struct g_result {
	enum wb_verdict verdict;
	int complete;      /* the record was closed by "end" */
	int garbled;       /* it held lines the driver could not read */
	char details[G_MAX_DETAILS][G_DETAIL_LEN];
	int ndetails;
	int sizes_ok, sizes_failed;
	struct g_timing t[G_IMPLS];
	double bytes;
	double flops;      /* 0 unless the exercise counts FLOPs */
	double wall_s;
	int technique;     /* enum g_technique: its rules' outcome */

	/* filled by g_score() */
	double speedup;    /* naive median / student median; 0 if untimed */
	double gbps;       /* bytes / student median */
	double pct_copy;   /* gbps against the measured copy bandwidth */
	double tflops;     /* flops / student median */
	double pct_peer;   /* the peer's speed as 100%: peer median / student */
	double points;
	double max_points;
	int tier;          /* tiers reached, 0..ntiers */
	double next_target; /* speedup of the next tier; 0 when none */
};

/* record.c */
/* Parse `info --list` output; returns the number of specs, -1 if garbled. */
int g_parse_list(const char *text, const char *lab, struct g_spec *out,
		 int max);
/* Parse a result channel record into r (verdict, details, timings). */
void g_parse_record(const char *text, struct g_result *r);
/* Append a detail line (printf format) to r. */
void g_detail(struct g_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* score.c */
/* Check a spec's knobs; 0, or -1 with the reason in why. */
int g_spec_validate(const struct g_spec *s, char *why, size_t n);
/* Speedup, bandwidth, tier and points of r under s. */
void g_score(const struct g_spec *s, struct g_result *r, double copy_gbps);
/* Performance points for a speedup under s's tiers. */
double g_speed_points(const struct g_spec *s, double speedup, int *tier,
		      double *next_target);
/* s's tiers as a course file writes them, "2:20 3.5:40 5.2:60"; "none". */
void g_format_tiers(char *buf, size_t n, const struct g_spec *s);

#endif /* GRADER_GRADE_H */
