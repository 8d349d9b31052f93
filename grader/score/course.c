/* SPDX-License-Identifier: MIT */
/*
 * course.c - per-course settings (see course.h for the file's format).
 *
 * The file is read once, before anything is graded, and checked three
 * ways: each line must parse, each name must exist in some lab.mk, and
 * each exercise it changes must still be a valid spec (g_spec_validate).
 * A mistake stops the grader with "file:line: why" instead of grading a
 * class under knobs nobody meant.
 */
#include "course.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "score.h"

#define COURSE_MAX_BYTES (1 << 20)
#define NOTE_LEN 512

static const char *const knob_names[] = {
	[COURSE_POINTS_CORRECT] = "points_correct",
	[COURSE_POINTS_SPEED] = "points_speed",
	[COURSE_TIERS] = "tiers",
	[COURSE_TIMEOUT] = "timeout_s",
	[COURSE_SHARES] = "shares",
};

#define NKNOBS (int)(sizeof(knob_names) / sizeof(knob_names[0]))

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A finite number >= 0 that uses the whole string. */
static int parse_number(const char *v, double *out)
{
	char *end;

	if (!*v)
		return -1;
	*out = strtod(v, &end);
	return *end || !isfinite(*out) || *out < 0 ? -1 : 0;
}

/* "2:20 4.5:40 7.1:60" into r->tiers. */
static int parse_tiers(char *v, struct course_rule *r, char *why, size_t n)
{
	char *save = NULL;

	r->ntiers = 0;
	for (char *t = strtok_r(v, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		char *colon = strchr(t, ':');
		struct g_tier *g = &r->tiers[r->ntiers];

		if (r->ntiers == G_MAX_TIERS) {
			snprintf(why, n, "more than %d tiers", G_MAX_TIERS);
			return -1;
		}
		if (!colon) {
			snprintf(why, n, "tier '%s' is not %s:points", t,
				 r->knob == COURSE_SHARES ? "share" : "speedup");
			return -1;
		}
		*colon = '\0';
		if (parse_number(t, &g->x) || parse_number(colon + 1, &g->points)) {
			snprintf(why, n, "tier '%s:%s' is not two numbers >= 0", t,
				 colon + 1);
			return -1;
		}
		r->ntiers++;
	}
	if (!r->ntiers) {
		snprintf(why, n, "no tiers given");
		return -1;
	}
	return 0;
}

/* "lab/exercise.knob" into r. */
static int parse_target(const char *key, struct course_rule *r, char *why,
			size_t n)
{
	const char *slash = strchr(key, '/'), *dot = strrchr(key, '.');
	int k;

	if (!slash || !dot || dot < slash || slash == key || dot == slash + 1 ||
	    (size_t)(slash - key) >= G_NAME_LEN ||
	    (size_t)(dot - slash - 1) >= G_NAME_LEN) {
		snprintf(why, n, "expected lab/exercise.knob = value, not '%s'", key);
		return -1;
	}
	snprintf(r->lab, sizeof(r->lab), "%.*s", (int)(slash - key), key);
	snprintf(r->ex, sizeof(r->ex), "%.*s", (int)(dot - slash - 1), slash + 1);
	for (k = 0; k < NKNOBS; k++)
		if (!strcmp(dot + 1, knob_names[k]))
			break;
	if (k == NKNOBS) {
		snprintf(why, n, "unknown knob '%s' (the knobs: points_correct, "
				 "points_speed, tiers, shares, timeout_s)", dot + 1);
		return -1;
	}
	r->knob = (enum course_knob)k;
	return 0;
}

/* "assignment = hw3": a name for files (its Gradescope bundle). */
static int parse_assignment(const char *val, struct course *c, char *why,
			    size_t n)
{
	size_t len = strlen(val);

	if (c->assignment[0]) {
		snprintf(why, n, "assignment is given twice");
		return -1;
	}
	if (!len || len >= sizeof(c->assignment) || val[0] == '.' ||
	    strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789._-") != len) {
		snprintf(why, n, "assignment must be a short name of letters, "
				 "digits, '.', '_' or '-' (it names files), "
				 "not '%s'", val);
		return -1;
	}
	snprintf(c->assignment, sizeof(c->assignment), "%s", val);
	return 0;
}

/* "labs = 05-reduction fusion" or "exercises = reduction/sum ...". */
static int parse_picks(char *val, int labs, struct course *c, int lineno,
		       char *why, size_t n)
{
	char *save = NULL;
	int before = c->npicks;

	for (int i = 0; i < c->npicks; i++) {
		if ((!strcmp(c->picks[i].ex, "*")) == labs) {
			snprintf(why, n, "%s is given twice (line %d): name "
					 "them all on one line",
				 labs ? "labs" : "exercises", c->picks[i].line);
			return -1;
		}
	}
	for (char *w = strtok_r(val, " \t,", &save); w;
	     w = strtok_r(NULL, " \t,", &save)) {
		struct course_pick *p = &c->picks[c->npicks];
		char *slash = strchr(w, '/');

		if (c->npicks == COURSE_MAX_PICKS) {
			snprintf(why, n, "more than %d labs and exercises",
				 COURSE_MAX_PICKS);
			return -1;
		}
		if (labs ? slash != NULL : !slash || slash == w || !slash[1] ||
		    strchr(slash + 1, '/')) {
			snprintf(why, n, labs ? "labs names labs ('05-reduction' "
						"or 'reduction'), not '%s'" :
						"exercises names lab/exercise, "
						"not '%s'", w);
			return -1;
		}
		if (slash)
			*slash = '\0';
		if (strlen(w) >= G_NAME_LEN ||
		    (slash && strlen(slash + 1) >= G_NAME_LEN) ||
		    !strcmp(w, "*") || (slash && !strcmp(slash + 1, "*"))) {
			snprintf(why, n, "'%s' is not a lab%s name", w,
				 labs ? "" : "/exercise");
			return -1;
		}
		snprintf(p->lab, sizeof(p->lab), "%s", w);
		snprintf(p->ex, sizeof(p->ex), "%s", slash ? slash + 1 : "*");
		p->line = lineno;
		c->npicks++;
	}
	if (c->npicks == before) {
		snprintf(why, n, "%s names nothing", labs ? "labs" : "exercises");
		return -1;
	}
	return 0;
}

/*
 * The deadline and leaderboard lines, which make batch applies
 * (tools/batch/late.c reads them; the grader only checks them, so that
 * make check-course catches a typo with its line): 1 such a key (why set
 * when its value is bad), 0 another key.
 */
static int deadline_key(const char *key, const char *val, char *why,
			size_t n)
{
	char *end;
	double v;

	if (!strcmp(key, "deadline")) {
		int y, mo, d, h, mi, used = 0;
		const char *z;

		if (sscanf(val, "%4d-%2d-%2d%*1[ T]%2d:%2d%n", &y, &mo, &d, &h,
			   &mi, &used) != 5 || mo < 1 || mo > 12 || d < 1 ||
		    d > 31 || h > 23 || mi > 59) {
			snprintf(why, n, "deadline = '%s': not a date and time "
				 "(2026-12-01 23:59 UTC)", val);
			return 1;
		}
		z = val + used;
		if (*z == ':')
			for (z++; isdigit((unsigned char)*z) || *z == '.'; z++)
				;
		while (*z == ' ')
			z++;
		if (strcmp(z, "Z") && strcmp(z, "UTC") &&
		    !((*z == '+' || *z == '-') && strlen(z) == 6 && z[3] == ':'))
			snprintf(why, n, "deadline = '%s': give its time zone "
				 "(UTC, Z or +01:00)", val);
		return 1;
	}
	if (!strcmp(key, "late_grace") || !strcmp(key, "late_cutoff")) {
		v = strtod(val, &end);
		if (end == val || v < 0 || (*end && (!strchr("smhd", *end) ||
						     end[1])))
			snprintf(why, n, "%s = '%s': a duration (90s, 15m, 2h, "
				 "3d)", key, val);
		return 1;
	}
	if (!strcmp(key, "leaderboard")) {
		if (strcmp(val, "off") && strcmp(val, "names") &&
		    strcmp(val, "pseudonyms"))
			snprintf(why, n, "leaderboard = '%s': off, names or "
				 "pseudonyms", val);
		return 1;
	}
	if (!strcmp(key, "late_per_day")) {
		v = strtod(val, &end);
		if (*end == '%')
			end++;
		if (end == val || *end || v < 0 || v > 100)
			snprintf(why, n, "late_per_day = '%s': a percent from 0 "
				 "to 100", val);
		return 1;
	}
	return 0;
}

/* One non-empty line, comment removed. */
static int parse_line(char *l, struct course *c, int lineno, char *why,
		      size_t n)
{
	char *eq = strchr(l, '='), *key, *val;
	struct course_rule *r;

	if (!eq) {
		snprintf(why, n, "expected lab/exercise.knob = value");
		return -1;
	}
	*eq = '\0';
	key = trim(l);
	val = trim(eq + 1);
	if (!strcmp(key, "course")) {
		snprintf(c->name, sizeof(c->name), "%s", val);
		return 0;
	}
	if (!strcmp(key, "assignment"))
		return parse_assignment(val, c, why, n);
	why[0] = '\0';
	if (deadline_key(key, val, why, n))
		return why[0] ? -1 : 0;
	if (!strcmp(key, "labs") || !strcmp(key, "exercises"))
		return parse_picks(val, !strcmp(key, "labs"), c, lineno, why, n);
	if (c->nrules == COURSE_MAX_RULES) {
		snprintf(why, n, "more than %d settings", COURSE_MAX_RULES);
		return -1;
	}
	r = &c->rules[c->nrules];
	memset(r, 0, sizeof(*r));
	r->line = lineno;
	if (parse_target(key, r, why, n))
		return -1;
	if (r->knob == COURSE_TIERS || r->knob == COURSE_SHARES) {
		if (parse_tiers(val, r, why, n))
			return -1;
	} else if (parse_number(val, &r->value)) {
		snprintf(why, n, "%s must be a number >= 0, not '%s'",
			 knob_names[r->knob], val);
		return -1;
	} else if (r->knob == COURSE_TIMEOUT && r->value < 1) {
		snprintf(why, n, "timeout_s must be at least 1 second");
		return -1;
	}
	c->nrules++;
	return 0;
}

int course_parse(const char *text, const char *path, struct course *c,
		 char *err, size_t n)
{
	char *copy = strdup(text), *l, *next, why[256];
	int lineno = 0, rc = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	snprintf(c->base, sizeof(c->base), "%s",
		 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	if (!copy) {
		snprintf(err, n, "%s: out of memory", path);
		return -1;
	}
	for (l = copy; l && !rc; l = next) {
		char *hash;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		hash = strchr(l, '#');
		if (hash)
			*hash = '\0';
		l = trim(l);
		if (*l && parse_line(l, c, lineno, why, sizeof(why))) {
			snprintf(err, n, "%s:%d: %s", path, lineno, why);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

int course_load(const char *path, struct course *c, char *err, size_t n)
{
	char *text = read_file(path, COURSE_MAX_BYTES);
	int rc;

	if (!text) {
		snprintf(err, n, "%s: cannot read the course settings file", path);
		return -1;
	}
	rc = course_parse(text, path, c, err, n);
	free(text);
	return rc;
}

/* LAB= style match: "05-reduction", "reduction" or "*". */
static int lab_is(const char *lab, const char *want)
{
	const char *dash = strchr(lab, '-');

	return !strcmp(want, "*") || !strcmp(lab, want) ||
	       (dash && !strcmp(dash + 1, want));
}

/* A star for the exercise leaves the speed knobs of correctness-only
 * exercises alone: "every exercise's tiers" means every timed one. */
static int rule_matches(const struct course_rule *r, const struct g_spec *s)
{
	int star = !strcmp(r->ex, "*");

	if (star && !s->speed &&
	    (r->knob == COURSE_TIERS || r->knob == COURSE_SHARES ||
	     r->knob == COURSE_POINTS_SPEED))
		return 0;
	return lab_is(s->lab, r->lab) && (star || !strcmp(r->ex, s->name));
}

/* The EXERCISES line of labs_dir/lab/lab.mk, space-separated, in buf. */
static int mk_exercises(const char *labs_dir, const char *lab, char *buf,
			size_t n)
{
	char path[1024], *text, *l;

	snprintf(path, sizeof(path), "%s/%s/lab.mk", labs_dir, lab);
	text = read_file(path, 1 << 16);
	if (!text)
		return -1;
	buf[0] = '\0';
	for (l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *eq, *end;

		if (strncmp(l, "EXERCISES", 9) || !(eq = strchr(l, '=')))
			continue;
		for (eq++; *eq == ' ' || *eq == '\t'; eq++)
			;
		end = strchr(eq, '\n');
		snprintf(buf, n, " %.*s ", end ? (int)(end - eq) : (int)strlen(eq), eq);
		for (char *p = buf; *p; p++)
			if (*p == '\t')
				*p = ' ';
		break;
	}
	free(text);
	return 0;
}

/* Does any lab under labs_dir match r (and, unless "*", have r->ex)? */
static int check_rule(const struct course_rule *r, const char *labs_dir,
		      char *why, size_t n)
{
	DIR *d = opendir(labs_dir);
	struct dirent *e;
	char ex[1024], want[G_NAME_LEN + 2], labs[512] = "";
	int lab_found = 0, ex_found = 0;

	if (!d) {
		snprintf(why, n, "cannot read %s", labs_dir);
		return -1;
	}
	snprintf(want, sizeof(want), " %s ", r->ex);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || mk_exercises(labs_dir, e->d_name, ex,
							 sizeof(ex)))
			continue;
		if (strlen(labs) + strlen(e->d_name) + 2 < sizeof(labs))
			strcat(strcat(labs, " "), e->d_name);
		if (!lab_is(e->d_name, r->lab))
			continue;
		lab_found = 1;
		ex_found |= !strcmp(r->ex, "*") || strstr(ex, want) != NULL;
		if (!ex_found && strcmp(r->lab, "*"))
			snprintf(why, n, "lab %s has no exercise '%s' (its "
					 "exercises:%.*s)", e->d_name, r->ex,
				 (int)strlen(ex) - 1, ex);
	}
	closedir(d);
	if (!lab_found) {
		snprintf(why, n, "no lab named '%s' (the labs:%s)", r->lab, labs);
		return -1;
	}
	if (!ex_found && !strcmp(r->lab, "*"))
		snprintf(why, n, "no lab has an exercise '%s'", r->ex);
	return ex_found ? 0 : -1;
}

int course_check_names(const struct course *c, const char *labs_dir,
		       char *err, size_t n)
{
	char why[768];

	/* What the course grades is checked as a rule's target is. */
	for (int i = 0; i < c->npicks; i++) {
		struct course_rule r;

		memset(&r, 0, sizeof(r));
		snprintf(r.lab, sizeof(r.lab), "%s", c->picks[i].lab);
		snprintf(r.ex, sizeof(r.ex), "%s", c->picks[i].ex);
		if (check_rule(&r, labs_dir, why, sizeof(why))) {
			snprintf(err, n, "%s:%d: %s", c->path, c->picks[i].line,
				 why);
			return -1;
		}
	}
	for (int i = 0; i < c->nrules; i++) {
		if (check_rule(&c->rules[i], labs_dir, why, sizeof(why))) {
			snprintf(err, n, "%s:%d: %s", c->path, c->rules[i].line, why);
			return -1;
		}
	}
	return 0;
}

/* What changed between a and b, as "; "-separated phrases. */
static void describe(const struct g_spec *a, const struct g_spec *b,
		     char *note, size_t n)
{
	char ta[200], tb[200];
	size_t used = 0;

	note[0] = '\0';
	g_tiers_arg(ta, sizeof(ta), a);
	g_tiers_arg(tb, sizeof(tb), b);
	if (a->points_correct != b->points_correct ||
	    a->points_speed != b->points_speed)
		used += snprintf(note + used, n - used, "%spoints %g+%g -> %g+%g",
				 used ? "; " : "", a->points_correct,
				 a->points_speed, b->points_correct,
				 b->points_speed);
	if (strcmp(ta, tb) && used < n)
		used += snprintf(note + used, n - used, "%stiers %s -> %s",
				 used ? "; " : "", ta, tb);
	if (a->timeout_s != b->timeout_s && used < n)
		snprintf(note + used, n - used, "%stimeout %g s -> %g s",
			 used ? "; " : "", a->timeout_s, b->timeout_s);
}

int course_grades_lab(const struct course *c, const char *lab)
{
	if (!c->npicks)
		return 1;
	for (int i = 0; i < c->npicks; i++)
		if (lab_is(lab, c->picks[i].lab))
			return 1;
	return 0;
}

int course_grades(const struct course *c, const char *lab, const char *ex)
{
	if (!c->npicks)
		return 1;
	for (int i = 0; i < c->npicks; i++)
		if (lab_is(lab, c->picks[i].lab) &&
		    (!strcmp(c->picks[i].ex, "*") || !strcmp(c->picks[i].ex, ex)))
			return 1;
	return 0;
}

/* A new points_speed without new tiers: scale the tiers' points to it. */
static void scale_tiers(struct g_spec *s, double points_speed)
{
	double old = s->points_speed;

	for (int i = 0; i < s->ntiers && old > 0; i++)
		s->tiers[i].points *= points_speed / old;
	s->points_speed = points_speed;
}

int course_apply(const struct course *c, struct g_spec *s, char *note,
		 size_t note_n, char *err, size_t n)
{
	struct g_spec before = *s;
	int last = 0, tiers_set = 0;
	double speed = -1;
	char why[160];

	note[0] = '\0';
	for (int i = 0; i < c->nrules; i++) {
		const struct course_rule *r = &c->rules[i];

		if (!rule_matches(r, s))
			continue;
		last = r->line;
		switch (r->knob) {
		case COURSE_POINTS_CORRECT:
			s->points_correct = r->value;
			break;
		case COURSE_POINTS_SPEED:
			speed = r->value;
			break;
		case COURSE_TIERS:
		case COURSE_SHARES:
			memcpy(s->tiers, r->tiers, sizeof(r->tiers));
			s->ntiers = r->ntiers;
			s->tier_unit = r->knob == COURSE_TIERS ? G_TIERS_SPEEDUP :
								 G_TIERS_SHARE;
			s->points_speed = r->tiers[r->ntiers - 1].points;
			tiers_set = 1;
			break;
		case COURSE_TIMEOUT:
			s->timeout_s = r->value;
			break;
		}
	}
	if (speed >= 0 && !tiers_set)
		scale_tiers(s, speed);
	else if (speed >= 0)
		s->points_speed = speed; /* must then equal the top tier's */
	if (!last)
		return 0;
	if (g_spec_validate(s, why, sizeof(why))) {
		snprintf(err, n, "%s:%d: %s/%s: %s", c->path, last, s->lab,
			 s->name, why);
		return -1;
	}
	describe(&before, s, note, note_n);
	return 0;
}

/* Append "  lab/ex: note" as a line of *text. */
static int add_change(char **text, size_t *len, const struct g_spec *s,
		      const char *note)
{
	size_t add = strlen(s->lab) + strlen(s->name) + strlen(note) + 8;
	char *t = realloc(*text, *len + add);

	if (!t)
		return -1;
	*len += snprintf(t + *len, add, "%s  %s/%s: %s", *len ? "\n" : "",
			 s->lab, s->name, note);
	*text = t;
	return 0;
}

int course_apply_run(const struct course *c, struct g_run *run, char *err,
		     size_t n)
{
	char *text = NULL, note[NOTE_LEN];
	size_t len = 0;

	for (int i = 0; i < run->nrows; i++) {
		struct g_row *row = &run->rows[i];

		/* A lab whose own code did not build has no knobs to change. */
		if (row->res.verdict == WB_V_ERROR && row->res.ndetails)
			continue;
		if (course_apply(c, &row->spec, note, sizeof(note), err, n)) {
			free(text);
			return -1;
		}
		row->course_changed = note[0] != '\0';
		if (strstr(note, "tiers "))
			snprintf(row->spec.tiers_from, sizeof(row->spec.tiers_from),
				 "%.80s%s%.160s", c->name[0] ? c->name : "course settings ",
				 c->name[0] ? ", " : "", c->base);
		if (row->course_changed && add_change(&text, &len, &row->spec, note)) {
			snprintf(err, n, "out of memory");
			free(text);
			return -1;
		}
	}
	/* The file's name, not where it lies: the reports go to students. */
	run->course = c->base;
	run->course_name = c->name[0] ? c->name : NULL;
	run->course_changes = text;
	return 0;
}
