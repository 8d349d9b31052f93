/* SPDX-License-Identifier: MIT */
/*
 * record.c - read what runners say: `info --list` tables and result
 * records (see common/result.h for the format), with their raw samples.
 * Anything unexpected is noted, never trusted: a record without its
 * closing "end" is incomplete; whether its samples agree with what it
 * claims is score.c's to judge (g_measure()).
 */
#include "record.h"
#include "settle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void g_detail(struct g_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->ndetails >= G_MAX_DETAILS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->details[r->ndetails++], G_DETAIL_LEN, fmt, ap);
	va_end(ap);
}

void g_detail_first(struct g_result *r, const char *fmt, ...)
{
	int n = r->ndetails < G_MAX_DETAILS ? r->ndetails : G_MAX_DETAILS - 1;
	va_list ap;

	memmove(r->details[1], r->details[0], (size_t)n * G_DETAIL_LEN);
	va_start(ap, fmt);
	vsnprintf(r->details[0], G_DETAIL_LEN, fmt, ap);
	va_end(ap);
	r->ndetails = n + 1;
}

/* Split text into lines in place; calls fn for each. */
static void for_lines(char *text, void (*fn)(char *line, void *arg),
		      void *arg)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(l);

		if (n && l[n - 1] == '\r')
			l[n - 1] = '\0';
		fn(l, arg);
	}
}

struct list_state {
	const char *lab;
	struct g_spec *out;
	int max, n, bad;
};

static struct g_spec *spec_named(struct list_state *st, const char *name)
{
	for (int i = 0; i < st->n; i++)
		if (strcmp(st->out[i].name, name) == 0)
			return &st->out[i];
	return NULL;
}

/* "racecheck,synccheck" into WB_SAN_* bits; -1 for a word it does not
 * know (a tool the driver would not run must not pass unnoticed). */
static int sanitize_tools(const char *words, unsigned *mask)
{
	static const char *const tool[] = { "memcheck", "racecheck",
					    "synccheck" };

	*mask = 0;
	while (*words) {
		size_t len = strcspn(words, ",");
		unsigned t = 0;

		while (t < 3 && (strlen(tool[t]) != len ||
				 strncmp(words, tool[t], len)))
			t++;
		if (t == 3)
			return -1;
		*mask |= 1u << t;
		words += len + (words[len] == ',');
	}
	return *mask ? 0 : -1;
}

static void list_line(char *l, void *arg)
{
	struct list_state *st = arg;
	char name[G_NAME_LEN], kind[16], label[G_NAME_LEN];
	struct g_spec *s;
	double a, b, c;
	int off = 0, cc;

	if (strncmp(l, "lab ", 4) == 0)
		return;
	if (sscanf(l, "exercise %63s %15s %lf %lf %lf %n", name, kind, &a, &b,
		   &c, &off) == 5 && off > 0) {
		if (st->n >= st->max) {
			st->bad = 1;
			return;
		}
		s = &st->out[st->n++];
		memset(s, 0, sizeof(*s));
		snprintf(s->lab, sizeof(s->lab), "%s", st->lab);
		snprintf(s->name, sizeof(s->name), "%s", name);
		snprintf(s->title, sizeof(s->title), "%s", l + off);
		snprintf(s->bench, sizeof(s->bench), "-");
		snprintf(s->tiers_from, sizeof(s->tiers_from), "lab");
		s->speed = strcmp(kind, "speed") == 0;
		s->points_correct = a;
		s->points_speed = b;
		s->timeout_s = c;
	} else if (sscanf(l, "tier %63s %lf %lf", name, &a, &b) == 3) {
		/* A lab's tiers are shares of the ideal time (harness.h). */
		s = spec_named(st, name);
		if (!s || s->ntiers >= G_MAX_TIERS) {
			st->bad = 1;
			return;
		}
		s->tier_unit = G_TIERS_SHARE;
		s->tiers[s->ntiers].x = a;
		s->tiers[s->ntiers++].points = b;
	} else if (sscanf(l, "ideal %63s %15s %lf", name, kind, &a) == 3) {
		s = spec_named(st, name);
		if (!s || (strcmp(kind, "dram") && strcmp(kind, "peer") &&
			   strcmp(kind, "instr") && strcmp(kind, "roof") &&
			   strcmp(kind, "limit"))) {
			st->bad = 1;
			return;
		}
		/* One of the four words above: it fits. */
		snprintf(s->ideal, sizeof(s->ideal), "%.7s", kind);
		s->instr_speedup = a;
	} else if (sscanf(l, "sanitize %63s %63s", name, label) == 2) {
		s = spec_named(st, name);
		if (!s || sanitize_tools(label, &s->sanitize))
			st->bad = 1;
	} else if (sscanf(l, "arch %63s %d %15s", name, &cc, kind) == 3) {
		s = spec_named(st, name);
		if (!s || cc < 0 || (strcmp(kind, "cuda") &&
				     strcmp(kind, "tensor"))) {
			st->bad = 1;
			return;
		}
		s->min_cc = cc;
		s->tensor_flops = strcmp(kind, "tensor") == 0;
	} else if (sscanf(l, "bench %63s %63s", name, label) == 2) {
		s = spec_named(st, name);
		if (s)
			snprintf(s->bench, sizeof(s->bench), "%s", label);
		else
			st->bad = 1;
	} else {
		st->bad = 1;
	}
}

int g_parse_list(const char *text, const char *lab, struct g_spec *out,
		 int max)
{
	struct list_state st = { .lab = lab, .out = out, .max = max };
	char *copy = strdup(text);

	if (!copy)
		return -1;
	for_lines(copy, list_line, &st);
	free(copy);
	return st.bad ? -1 : st.n;
}

static int impl_index(const char *name)
{
	if (strcmp(name, "student") == 0)
		return G_STUDENT;
	if (strcmp(name, "naive") == 0)
		return G_NAIVE;
	if (strcmp(name, "peer") == 0)
		return G_PEER;
	if (strcmp(name, "ideal") == 0)
		return G_IDEAL;
	return -1;
}

/* "ratio speedup|share MED LO HI", "ratio naive_ideal X 0 0",
 * "ratio share_max X 0 0". */
static int ratio_line(const char *l, struct g_result *r)
{
	char what[32];
	double med, lo, hi;
	struct g_ratio *q;

	if (sscanf(l, "%31s %lf %lf %lf", what, &med, &lo, &hi) != 4)
		return -1;
	if (!strcmp(what, "naive_ideal")) {
		r->naive_ideal = med;
		return 0;
	}
	if (!strcmp(what, "share_max")) {
		r->share_max = med;
		return 0;
	}
	q = !strcmp(what, "speedup") ? &r->r_speedup :
	    !strcmp(what, "share") ? &r->r_share : NULL;
	if (!q || !(med > 0) || !(lo <= med) || !(med <= hi))
		return -1;
	q->have = 1;
	q->med = med;
	q->lo = lo;
	q->hi = hi;
	return 0;
}

/* "sol dram|peer|instr|roof READ_BYTES WRITE_BYTES READ_GBPS WRITE_GBPS". */
static int sol_line(const char *l, struct g_result *r)
{
	char what[8];

	if (sscanf(l, "%7s %lf %lf %lf %lf", what, &r->read_bytes,
		   &r->write_bytes, &r->read_gbps, &r->write_gbps) != 5 ||
	    (strcmp(what, "dram") && strcmp(what, "peer") &&
	     strcmp(what, "instr") && strcmp(what, "roof") &&
	     strcmp(what, "limit")))
		return -1;
	snprintf(r->sol, sizeof(r->sol), "%s", what);
	return 0;
}

/* "peak fma|mma|wgmma TFLOPS": a roofline's compute probe and its rate. */
static int peak_line(const char *l, struct g_result *r)
{
	char what[8];

	if (sscanf(l, "%7s %lf", what, &r->peak_tflops) != 2 ||
	    (strcmp(what, "fma") && strcmp(what, "mma") &&
	     strcmp(what, "wgmma")) || !(r->peak_tflops > 0))
		return -1;
	snprintf(r->peak, sizeof(r->peak), "%s", what);
	return 0;
}

#define AFTER_END "the runner wrote to its result after its verdict"

/*
 * A line after "end": nothing may follow the verdict (the driver's pipe
 * cannot be rewound, so this is the only way to change one), and the
 * record is unreadable: CRASH. Said once, even when the details are full.
 */
static void after_end(struct g_result *r)
{
	r->garbled = 1;
	for (int i = 0; i < r->ndetails; i++)
		if (strcmp(r->details[i], AFTER_END) == 0)
			return;
	if (r->ndetails == G_MAX_DETAILS)
		r->ndetails--;
	g_detail(r, "%s", AFTER_END);
}

/* "phase NAME SECONDS": where the runner's time went; the same name
 * twice adds up (one per benchmark shape). */
static int phase_line(const char *l, struct g_result *r)
{
	char name[16];
	double s;
	int i;

	if (sscanf(l, "%15s %lf", name, &s) != 2 || !(s >= 0) || s > 1e6)
		return -1;
	for (i = 0; i < r->nphases; i++)
		if (!strcmp(r->phase_name[i], name))
			break;
	if (i == G_MAX_PHASES)
		return -1;
	if (i == r->nphases) {
		memcpy(r->phase_name[i], name, sizeof(name));
		r->phase_s[i] = 0;
		r->nphases++;
	}
	r->phase_s[i] += s;
	return 0;
}

/* The first problem with a record's samples, in words: what follows
 * from it adds nothing. */
static void samples_bad(struct g_samples *smp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void samples_bad(struct g_samples *smp, const char *fmt, ...)
{
	va_list ap;

	if (smp->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(smp->why, sizeof(smp->why), fmt, ap);
	va_end(ap);
}

/*
 * "shape K LABEL ROUNDS WHO LAUNCH_US MHZ_MIN MHZ_MED MHZ_MAX": the next
 * shape, whose samples follow. -1 when it cannot be read; a shape out of
 * order is noted in smp.
 */
static int shape_line(const char *l, struct g_samples *smp)
{
	char label[G_NAME_LEN], who[8];
	double small, lo, med, hi;
	struct g_shape *sh;
	int k, rounds;

	if (sscanf(l, "%d %63s %d %7s %lf %lf %lf %lf", &k, label, &rounds, who,
		   &small, &lo, &med, &hi) != 8 ||
	    (strcmp(who, "student") && strcmp(who, "peer") && strcmp(who, "-")))
		return -1;
	if (k != smp->nshapes || k >= G_MAX_SHAPES) {
		samples_bad(smp, "a line for shape %d where shape %d was due "
			    "(at most %d)", k, smp->nshapes, G_MAX_SHAPES);
		return 0;
	}
	sh = &smp->shape[smp->nshapes++];
	snprintf(sh->label, sizeof(sh->label), "%s", label);
	snprintf(sh->who, sizeof(sh->who), "%s", who);
	sh->rounds = rounds;
	sh->n = 0;
	sh->small = small;
	sh->mhz_min = lo;
	sh->mhz_med = med;
	sh->mhz_max = hi;
	return 0;
}

/*
 * "sample K ROUND US NAIVE_US IDEAL_US": the next round of the last
 * shape. -1 when it cannot be read; a round out of order, of another
 * shape or beyond G_MAX_ROUNDS is noted in smp. The values are judged
 * later (g_measure()): NaN and negative times are read as they are.
 */
static int sample_line(const char *l, struct g_samples *smp)
{
	int last = smp->nshapes - 1, k, round;
	struct g_shape *sh = last >= 0 ? &smp->shape[last] : NULL;
	double v[G_SERIES];

	if (sscanf(l, "%d %d %lf %lf %lf", &k, &round, &v[G_S_OTHER],
		   &v[G_S_NAIVE], &v[G_S_IDEAL]) != 5)
		return -1;
	if (!sh) {
		samples_bad(smp, "a sample of shape %d before any shape line",
			    k);
		return 0;
	}
	if (k != last) {
		samples_bad(smp, "a sample of shape %d among the samples of "
			    "shape %d", k, last);
		return 0;
	}
	if (round != sh->n || sh->n >= G_MAX_ROUNDS) {
		samples_bad(smp, "shape %d: round %d where round %d was due "
			    "(at most %d)", k, round, sh->n, G_MAX_ROUNDS);
		return 0;
	}
	for (int i = 0; i < G_SERIES; i++)
		sh->us[i][sh->n] = v[i];
	sh->n++;
	return 0;
}

/* What record_line() fills: the result, and the samples (NULL: they are
 * passed over). */
struct record_state {
	struct g_result *r;
	struct g_samples *smp;
};

/* A "shape" or "sample" line: read into st->smp, if it is wanted. */
static void samples_line(const char *key, const char *l,
			 struct record_state *st)
{
	int bad;

	if (!st->smp)
		return;
	bad = !strcmp(key, "shape") ? shape_line(l, st->smp) :
	      sample_line(l, st->smp);
	if (bad)
		st->r->garbled = 1;
}

static void record_line(char *l, void *arg)
{
	struct record_state *st = arg;
	struct g_result *r = st->r;
	char key[32], word[G_NAME_LEN], state[8];
	struct g_timing t = { 0 };
	double x;
	int i, off = 0;

	if (r->complete) {
		after_end(r);
		return;
	}
	if (strcmp(l, "end") == 0) {
		r->complete = 1;
		return;
	}
	if (sscanf(l, "%31s %n", key, &off) != 1)
		return;
	if (strcmp(key, "verdict") == 0 && sscanf(l + off, "%63s", word) == 1) {
		i = wb_verdict_parse(word);
		if (i < 0)
			r->garbled = 1;
		else
			g_settle(r, (enum wb_verdict)i);
	} else if (strcmp(key, "detail") == 0) {
		g_detail(r, "%s", l + off);
	} else if (strcmp(key, "size") == 0 &&
		   sscanf(l + off, "%63s %7s", word, state) == 2) {
		if (strcmp(state, "ok") == 0)
			r->sizes_ok++;
		else
			r->sizes_failed++;
	} else if (strcmp(key, "time") == 0 &&
		   sscanf(l + off, "%63s %lf %lf %lf %d", word, &t.median_us,
			  &t.q1_us, &t.q3_us, &t.samples) == 5 &&
		   (i = impl_index(word)) >= 0) {
		t.have = t.median_us > 0;
		r->t[i] = t;
	} else if (strcmp(key, "ratio") == 0) {
		if (ratio_line(l + off, r))
			r->garbled = 1;
	} else if (strcmp(key, "sol") == 0) {
		if (sol_line(l + off, r))
			r->garbled = 1;
	} else if (strcmp(key, "peak") == 0) {
		if (peak_line(l + off, r))
			r->garbled = 1;
	} else if (strcmp(key, "clock") == 0) {
		if (sscanf(l + off, "%lf %lf %lf", &r->mhz_min, &r->mhz_med,
			   &r->mhz_max) != 3)
			r->garbled = 1;
	} else if (strcmp(key, "rounds") == 0) {
		if (sscanf(l + off, "%d %d %d %d %d %d", &r->rounds, &r->dropped,
			   &r->extra, &r->resets, &r->verified,
			   &r->throttled) != 6)
			r->garbled = 1;
	} else if (strcmp(key, "bytes") == 0 && sscanf(l + off, "%lf", &x) == 1) {
		r->bytes = x;
	} else if (strcmp(key, "flops") == 0 && sscanf(l + off, "%lf", &x) == 1) {
		r->flops = x;
	} else if (strcmp(key, "phase") == 0) {
		if (phase_line(l + off, r))
			r->garbled = 1;
	} else if (strcmp(key, "shape") == 0 || strcmp(key, "sample") == 0) {
		samples_line(key, l + off, st);
	} else if (strcmp(key, "seed") != 0) {
		r->garbled = 1;
	}
}

void g_parse_record_samples(const char *text, struct g_result *r,
			    struct g_samples *smp)
{
	struct record_state st = { r, smp };
	char *copy = strdup(text ? text : "");

	g_settle(r, WB_V_ERROR);
	if (smp)
		memset(smp, 0, sizeof(*smp));
	if (!copy)
		return;
	for_lines(copy, record_line, &st);
	free(copy);
}

void g_parse_record(const char *text, struct g_result *r)
{
	g_parse_record_samples(text, r, NULL);
}
