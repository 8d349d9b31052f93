/* SPDX-License-Identifier: MIT */
/*
 * reference.c - the grader's reference (reference.h): the naive, the
 * library peer and the speed of light timed by the lab's info binary,
 * which links no student code, cached per GPU and info binary; and the
 * check of the student's run against it.
 */
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "plausible.h"
#include "proc.h"
#include "record.h"
#include "settle.h"

#define PATH_LEN 1024

/* A reference is reused for this long on the same GPU and info binary. */
#define REF_MAX_AGE_S 3600

/* FNV-1a of a file's bytes (0 when it cannot be read). */
static unsigned long long file_hash(const char *path)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	unsigned char buf[1 << 16];
	size_t got;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < got; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	fclose(f);
	return h;
}

/*
 * What identifies a reference: the GPU and the contents of the lab's info
 * binary (the same lab built for another submission links the same bytes,
 * so a class, or labs/ and solutions/, share one reference).
 */
static void ref_key(const struct g_device *dev, const char *info, char *key,
		    size_t n)
{
	snprintf(key, n, "%s|%d|%d|%s|%016llx", dev->name, dev->cc, dev->sms,
		 dev->driver, file_hash(info));
}

/* A cached reference of at most REF_MAX_AGE_S for this key, or NULL. */
static char *ref_cached(const char *path, const char *key, time_t *when)
{
	char kpath[PATH_LEN + 8], *k, *text = NULL;
	struct stat st;

	snprintf(kpath, sizeof(kpath), "%s.key", path);
	k = read_file(kpath, 4096);
	if (k && !strcmp(k, key) && !stat(path, &st) &&
	    time(NULL) - st.st_mtime < REF_MAX_AGE_S) {
		text = read_file(path, 1 << 20);
		*when = st.st_mtime;
	}
	free(k);
	return text;
}

static void ref_store(const char *path, const char *key)
{
	char kpath[PATH_LEN + 8];
	FILE *f;

	snprintf(kpath, sizeof(kpath), "%s.key", path);
	f = fopen(kpath, "w");
	if (f) {
		fputs(key, f);
		fclose(f);
	}
}

/* Timed now, or taken from the cache if fresh (REF_MAX_AGE_S). */
int reference_run(const char *build_dir, const char *cache_dir,
		  unsigned long long seed_n, const struct g_device *dev,
		  struct g_row *row)
{
	char info[PATH_LEN], path[PATH_LEN], out[PATH_LEN + 8], key[512];
	char seed[32], *text;
	char *argv[] = { info, "--exercise", row->spec.name, "--seed", seed,
			 "--result", path, "--mode", "reference", NULL };
	struct g_reference *ref = &row->res.ref;
	struct g_result got;
	struct proc_result pr;
	time_t when = 0;

	snprintf(info, sizeof(info), "%.800s/%.63s/info", build_dir,
		 row->spec.lab);
	snprintf(path, sizeof(path), "%.800s/%.63s.%.63s.reference",
		 cache_dir ? cache_dir : build_dir, row->spec.lab,
		 row->spec.name);
	snprintf(out, sizeof(out), "%s.out", path);
	snprintf(seed, sizeof(seed), "%llu", seed_n);
	ref_key(dev, info, key, sizeof(key));
	text = ref_cached(path, key, &when);
	if (!text) {
		remove(path);
		if (proc_run(argv, out, row->spec.timeout_s, &pr) < 0 ||
		    pr.timed_out)
			return -1;
		row->res.ref_s = pr.wall_s;
		text = read_file(path, 1 << 20);
		ref_store(path, key);
		when = 0;
	}
	memset(&got, 0, sizeof(got));
	g_parse_record(text, &got);
	free(text);
	if (!got.complete || got.garbled || got.verdict != WB_V_PASS ||
	    !got.t[G_NAIVE].have) {
		remove(path);
		return -1;
	}
	ref->have = 1;
	ref->naive = got.t[G_NAIVE];
	ref->peer = got.t[G_PEER];
	ref->ideal = got.t[G_IDEAL];
	if (when) {
		struct tm tm;

		localtime_r(&when, &tm);
		strftime(ref->from, sizeof(ref->from), "measured at %H:%M", &tm);
	} else {
		snprintf(ref->from, sizeof(ref->from), "measured now");
	}
	return 0;
}

void reference_check(struct g_result *r)
{
	const struct g_reference *ref = &r->ref;
	const struct {
		const char *what;
		const struct g_timing *here, *there;
	} pair[] = {
		{ "the naive reference", &r->t[G_NAIVE], &ref->naive },
		{ "the speed-of-light probes", &r->t[G_IDEAL], &ref->ideal },
	};

	if (r->verdict != WB_V_PASS || !ref->have)
		return;
	for (size_t i = 0; i < sizeof(pair) / sizeof(pair[0]); i++) {
		double a = pair[i].here->median_us, b = pair[i].there->median_us;

		if (!pair[i].here->have || !pair[i].there->have ||
		    a <= b * (1 + PLAUSIBLE_BASELINE_MARGIN))
			continue;
		g_settle(r, WB_V_SUSPICIOUS);
		g_detail(r, "%s ran %.0f%% slower beside your code (%.1f us) "
			    "than in the grader's run without it (%.1f us, %s): "
			    "something your code changed slowed what it is "
			    "measured against. No points.", pair[i].what,
			 100 * (a / b - 1), a, b, ref->from);
	}
}

int reference_peer_arg(const struct g_reference *ref, char *buf, size_t n)
{
	/* A record without quartiles (an old cache) has its median. */
	double us = ref->peer.q1_us > 0 ? ref->peer.q1_us : ref->peer.median_us;

	if (n)
		buf[0] = '\0';
	if (!ref->peer.have || !(us > 0))
		return -1;
	snprintf(buf, n, "%.3f", us);
	return 0;
}
