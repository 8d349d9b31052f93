/* SPDX-License-Identifier: MIT */
/*
 * record.c - read what runners say: `info --list` tables and result
 * records (see common/result.h for the format). Anything unexpected is
 * noted, never trusted: a record without its closing "end" is incomplete.
 */
#include "grade.h"

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

static void list_line(char *l, void *arg)
{
	struct list_state *st = arg;
	char name[G_NAME_LEN], kind[16], label[G_NAME_LEN];
	struct g_spec *s;
	double a, b, c;
	int off = 0;

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
		s->speed = strcmp(kind, "speed") == 0;
		s->points_correct = a;
		s->points_speed = b;
		s->timeout_s = c;
	} else if (sscanf(l, "tier %63s %lf %lf", name, &a, &b) == 3) {
		s = spec_named(st, name);
		if (!s || s->ntiers >= G_MAX_TIERS) {
			st->bad = 1;
			return;
		}
		s->tiers[s->ntiers].speedup = a;
		s->tiers[s->ntiers++].points = b;
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
	return -1;
}

static void record_line(char *l, void *arg)
{
	struct g_result *r = arg;
	char key[32], word[G_NAME_LEN], state[8];
	struct g_timing t = { 0 };
	double x;
	int i, off = 0;

	if (r->complete) {
		r->garbled = 1; /* nothing may follow "end" */
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
			r->verdict = (enum wb_verdict)i;
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
		t.host_us = r->t[i].host_us;
		r->t[i] = t;
	} else if (strcmp(key, "host") == 0 &&
		   sscanf(l + off, "%63s %lf", word, &x) == 2 &&
		   (i = impl_index(word)) >= 0) {
		r->t[i].host_us = x;
	} else if (strcmp(key, "bytes") == 0 && sscanf(l + off, "%lf", &x) == 1) {
		r->bytes = x;
	} else if (strcmp(key, "flops") == 0 && sscanf(l + off, "%lf", &x) == 1) {
		r->flops = x;
	} else if (strcmp(key, "seed") != 0) {
		r->garbled = 1;
	}
}

void g_parse_record(const char *text, struct g_result *r)
{
	char *copy = strdup(text ? text : "");

	r->verdict = WB_V_ERROR;
	if (!copy)
		return;
	for_lines(copy, record_line, r);
	free(copy);
}
