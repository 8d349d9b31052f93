/* SPDX-License-Identifier: MIT */
/*
 * grade.h - what the grader's driver knows about exercises and results.
 *
 * The driver never touches the GPU: it learns each lab's exercises from the
 * lab's info binary (`info --list`), runs each exercise's runner in a child
 * process and reads the result channel (common/result.h) it leaves.
 *
 * These are the types the driver's files share, and the run's model
 * (struct g_run, below); the functions that read records and that score
 * are declared in record.h and score.h.
 *
 * The grader's rooms, in floors, lowest first. A file may include headers
 * of its own floor and those below, never above, and no two files include
 * each other, by any path (tests/layers.sh checks both; a file's name
 * without its .c or .h stands for both, wherever in grader/ it is):
 *
 * floor 0 = grade settle record proc labfind gpulock html_text;
 *           the base, grader/ itself: the run's model, the verdict's one
 *           owner (settle.h), records, child processes, lab discovery,
 *           the GPU lock and the pages' text (make batch links the last
 *           four too)
 * floor 1 = symname inspect allowlist symbols audit technique resources
 *           score plausible calibrate course
 *           metrics profile ncu_csv profile_derive profile_render;
 *           inspect/ (what was built, before it runs), score/ (points,
 *           ceilings, calibrations, course files) and profile/'s parsing:
 *           each uses the base alone
 * floor 2 = report formats html chart render runfile history;
 *           report/: what a run shows and writes (terminal, files, the
 *           page, the history)
 * floor 3 = ncu;
 *           profile/'s driver: Nsight Compute run and its table printed
 * floor 4 = gpustate device sanitize reference labs trip;
 *           run/: the GPU's state and probe, lab discovery, the reference
 *           and sanitizer runs, and one exercise's trip through them all
 * floor 5 = cmd cmd_start cmd_probe cmd_course cmd_calibrate cmd_profile
 *           cmd_grade;
 *           cmd/: the commands
 * floor 6 = main;
 *           the table of commands
 */
#ifndef GRADER_GRADE_H
#define GRADER_GRADE_H

#include <stddef.h>

#include "../common/verdict.h"

#define G_MAX_TIERS 8
#define G_MAX_DETAILS 48
#define G_DETAIL_LEN 320
#define G_NAME_LEN 64

enum g_impl { G_STUDENT, G_NAIVE, G_PEER, G_IDEAL, G_IMPLS };

/* A tier: a share of the ideal time or a speedup over the naive (the
 * spec's tier_unit), and the points it is worth. */
struct g_tier {
	double x;
	double points;
};

enum g_tier_unit {
	G_TIERS_SHARE,   /* a lab's tiers, or a calibration's: shares of the
			  * ideal time, made speedups for the GPU at hand */
	G_TIERS_SPEEDUP, /* a course's fixed speedups over the naive */
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
	enum g_tier_unit tier_unit;
	char tiers_from[256];   /* where the tiers come from, for the report:
				 * "lab" (its table), a calibration, a course */
	char ideal[8];          /* what shares are of: dram, peer, instr,
				 * roof, limit */
	double instr_speedup;   /* instr: the ideal speedup over the naive */
	int min_cc;             /* compute capability x 10 it needs; 0: any */
	int tensor_flops;       /* its FLOPs run on tensor cores (plausible.c) */
	struct g_rule rules[G_MAX_RULES]; /* technique rules (inspect.h) */
	int nrules;
	int bad_rules;                    /* rules the driver could not read */
	unsigned sanitize;      /* tools every grade runs: bit i is
				 * san_tools[i] (sanitize.h) */
};

/* Phases a runner may report (result.h's "phase" lines). */
#define G_MAX_PHASES 16

struct g_timing {
	int have;
	double median_us, q1_us, q3_us;
	int samples;
};

/* A median of paired per-round ratios and its 95% interval. */
struct g_ratio {
	int have;
	double med, lo, hi;
};

/* What the grader's reference measured for one exercise: the naive, the
 * peer and the speed of light, where no student code was loaded. */
struct g_reference {
	int have;
	struct g_timing naive, peer, ideal;
	char from[64];        /* "measured now" or "cached from HH:MM" */
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
	/* where the time went (tests/gpu/phases.sh): the grader's reference
	 * run (0 when cached), and the runner's "phase" lines in order */
	double ref_s;
	char phase_name[G_MAX_PHASES][16];
	double phase_s[G_MAX_PHASES];
	int nphases;
	int technique;     /* enum g_technique: its rules' outcome */
	char audit[G_DETAIL_LEN]; /* unusual but allowed features (inspect.c) */

	/* from the record's ratio, sol, clock and rounds lines (result.h) */
	struct g_ratio r_speedup;  /* naive / student, paired per round */
	struct g_ratio r_share;    /* ideal / student, paired per round */
	double naive_ideal;        /* naive / ideal, paired per round */
	double share_max;          /* the largest benchmark shape's own share
				    * (several shapes), 0: not given */
	char sol[8];               /* what the ideal was: dram, peer, instr,
				    * roof */
	char peak[8];              /* roof: the compute probe, fma, mma or
				    * wgmma ("": none) */
	double peak_tflops;        /* its rate measured in the same rounds */
	double read_bytes, write_bytes, read_gbps, write_gbps;
	double mhz_min, mhz_med, mhz_max;
	int rounds, dropped, extra, resets, verified, throttled;
	struct g_reference ref;    /* the grader's reference (reference.c) */

	/* filled by g_score() */
	double speedup;    /* naive median / student median; 0 if untimed */
	double gbps;       /* bytes / student median */
	double pct_copy;   /* gbps against the measured copy bandwidth */
	double share;      /* of the ideal time (1: the speed of light) */
	double pct_dram;   /* gbps against the DRAM's peak (NVML), 0: unknown */
	double tflops;     /* flops / student median */
	double pct_peer;   /* the peer's speed as 100%: peer median / student */
	double points;
	double max_points;
	int tier;          /* tiers reached, 0..ntiers */
	double next_target; /* speedup of the next tier; 0 when none */
	double at[G_MAX_TIERS]; /* each tier as a speedup on this GPU; 0:
				 * unknown (no ideal was measured) */
};

/* ---- the run: the device, the rows, the whole run ---- */

struct g_device {
	char name[128];
	int cc;           /* 90 for compute capability 9.0 */
	int sms;
	double l2_mb;
	double mem_gb;
	char driver[32];
	double copy_gbps; /* measured this run: the bandwidth reference */
	double read_gbps, write_gbps; /* the probes, this run (devinfo) */
	double clock_mhz; /* the highest SM clock, from the device */
	double dram_gbps; /* the DRAM's peak from NVML (gpustate.c); 0: unknown */
	double fp32_tflops; /* the CUDA cores' fp32 peak: NVML's clock, else
			     * the device's own (devinfo); 0: unknown */
	double launch_us;   /* an empty kernel queued behind others, this run
			     * (devinfo); 0: unknown */
	double launch_sync_us; /* one launched and waited for on the host */
};

struct g_row {
	struct g_spec spec;
	struct g_result res;
	int course_changed;      /* the course settings changed this spec */
	char history[512];       /* its attempts' history file (history.h), or "" */
	char hash[20];           /* its source file's hash, or "" */
};

enum g_mode { G_GRADE, G_BENCH, G_BUILD_ONLY };

struct g_run {
	const char *source;      /* what was graded: "labs", "solutions" */
	unsigned long long seed;
	enum g_mode mode;
	struct g_device dev;
	struct g_row *rows;
	int nrows;
	const char *course;      /* course settings file (grader/score/course.h), or NULL */
	int calibration;         /* ... found by itself: this GPU model's
				  * calibration (make calibrate) */
	const char *course_name; /* its "course = ..." line, or NULL */
	const char *course_changes; /* what it changed, a line each; NULL: nothing */
	char condition[1024];    /* the GPU at the start and end, and warnings
				  * (gpustate.c); lines, or empty */
};

#endif /* GRADER_GRADE_H */
