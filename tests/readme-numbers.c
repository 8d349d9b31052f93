/* SPDX-License-Identifier: MIT */
/*
 * readme-numbers.c - the numbers a lab's README derives (sizes,
 * intensities, ridge points), each checked against the lab's own code:
 * its exercise table's benchmark sizes and its traffic() hooks, and, for
 * the roofline, the worked cases its rule wrote. tests/readme-numbers.sh
 * builds it once per lab, with that lab's C files included whole (LAB_C,
 * lab.c and its ex_*.c; -DLAB=N): nothing of the harness or of CUDA is
 * called, so the link leaves their symbols unresolved.
 *
 * Each claim is a phrase the README must contain (white space and line
 * breaks taken as one blank) and the value the code gives, which must
 * round to the number the phrase quotes. A README that drops the phrase
 * fails as surely as one that quotes a wrong number: change the claim
 * here with the text.
 *
 *   readme-numbers README
 *
 * Prints one line a claim; exit status 0 when all hold, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include LAB_C

static char *text;
static int failed;

/* The file, its white space runs made one blank. */
static char *read_flat(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	size_t n = 0, cap = 1 << 16;
	int ch, blank = 0;

	if (!f || !(s = malloc(cap))) {
		perror(path);
		exit(2);
	}
	while ((ch = getc(f)) != EOF) {
		if (n + 2 >= cap && !(s = realloc(s, cap *= 2)))
			exit(2);
		if (ch == ' ' || ch == '\n' || ch == '\t') {
			if (!blank)
				s[n++] = ' ';
			blank = 1;
			continue;
		}
		blank = 0;
		s[n++] = (char)ch;
	}
	s[n] = '\0';
	fclose(f);
	return s;
}

/* The README says `phrase`, quoting `quoted`, which `value` (the code's)
 * must give at `digits` decimals. */
static void claim(const char *phrase, double value, double quoted,
		  int digits)
{
	double scale = pow(10, digits);
	int said = strstr(text, phrase) != NULL;
	int same = fabs(round(value * scale) - round(quoted * scale)) < 0.5;

	printf("%s: \"%s\": the code gives %.*f\n",
	       said && same ? "ok" : "WRONG", phrase, digits + 2, value);
	if (!said)
		printf("  the README does not say this (any more)\n");
	failed |= !said || !same;
}

/* The table's exercise `name`, and its first benchmark's traffic. */
static const struct wb_exercise *exercise(const char *name,
					   struct wb_traffic *t)
{
	for (int i = 0; i < wb_lab.count; i++) {
		const struct wb_exercise *ex = &wb_lab.exercises[i];

		if (strcmp(ex->name, name))
			continue;
		memset(t, 0, sizeof(*t));
		if (ex->traffic && ex->bench[0].label)
			ex->traffic(&ex->bench[0], t);
		return ex;
	}
	printf("WRONG: no exercise %s in %s\n", name, wb_lab.name);
	exit(1);
}

#if LAB == 7
/* A recording of diagnose's pool, parsed. */
static void diag_rec(const char *name, struct diag_report *r)
{
	for (size_t i = 0; i < DIAG_COUNT; i++)
		if (!strcmp(diag_recordings[i].name, name) &&
		    !diag_parse(&diag_recordings[i], r))
			return;
	printf("WRONG: no recording %s in diagnose_reports.h\n", name);
	exit(1);
}

/* compare's model on recordings.h's pair (a, b). */
static void rec_pair(int a, int b, struct cmp_answer *ans)
{
	struct cmp_pair p;
	struct rec_call c;

	memset(&p, 0, sizeof(p));
	rec_parse(&recordings[a], &c);
	cmp_version_of(&c, &p.v[0]);
	rec_parse(&recordings[b], &c);
	cmp_version_of(&c, &p.v[1]);
	p.flops = recordings[a].flops;
	cmp_model(&p, ans);
}

/* The cycles between issues of recordings.h's recording i. */
static double recordings_cycles(int i)
{
	struct rec_call c;

	rec_parse(&recordings[i], &c);
	return c.cycles;
}

/* stalls' model on recordings.h's recording i. */
static void rec_stalls(int i, struct stall_answer *ans)
{
	struct stall_report r;
	struct rec_call c;

	rec_parse(&recordings[i], &c);
	stall_of(&c, &recordings[i], &r);
	stall_model(&r, ans);
}
#endif

#define MIB (1024.0 * 1024.0)
#define MB 1e6

int main(int argc, char **argv)
{
	struct wb_traffic t;
	const struct wb_exercise *ex = NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: %s README\n", argv[0]);
		return 2;
	}
	text = read_flat(argv[1]);
#if LAB == 1
	/* Section 15, branch_eff: the worked cases at 32M threads. */
	{
		const struct branch_eff_worked *odd = &branch_eff_worked[0];
		const struct branch_eff_worked *grouped = &branch_eff_worked[2];

		if (odd->b.n != 32u << 20 || odd->b.div != 1 ||
		    odd->b.mod != 2 || grouped->b.div != 32 ||
		    grouped->b.n != 32u << 20) {
			printf("WRONG: branch_eff_worked.h does not start with "
			       "the README's patterns\n");
			exit(1);
		}
		claim("`t % 2 == 0` splits all 1,048,576 warps",
		      odd->p.divergent, 1048576, 0);
		claim("`t % 2 == 0` splits all 1,048,576 warps", odd->p.warps,
		      1048576, 0);
		claim("efficiency 0%, two paths per warp", odd->p.efficiency,
		      0, 0);
		claim("efficiency 0%, two paths per warp",
		      odd->p.paths / odd->p.warps, 2, 0);
		claim("the same work splits none: 100%", grouped->p.efficiency,
		      100, 0);
		claim("then 500 patterns drawn from the run's seed",
		      BE_RANDOM_COUNT, 500, 0);
		claim("and at 1000 (a partial last warp of 8 threads)",
		      1000 - 32 * (1000 / 32), 8, 0);
	}
	/* Section 16, spills: the worked cases of the three bounded
	 * kernels. */
	{
		const struct spills_worked *w = spills_worked;

		if (w[0].k.max_threads != 1024 || w[1].k.max_threads != 640 ||
		    w[2].k.max_threads != 256 || w[0].k.live_regs != 96) {
			printf("WRONG: spills_worked.h does not start with "
			       "the README's kernels\n");
			exit(1);
		}
		claim("`__launch_bounds__(1024, 1)`: 65536 / 1024 = 64;",
		      w[0].p.cap, 64, 0);
		claim("`__launch_bounds__(640, 1)`: 102.4, so 96;", w[1].p.cap,
		      96, 0);
		claim("`__launch_bounds__(640, 1)`: 102.4, so 96;",
		      65536.0 / 640, 102.4, 1);
		claim("1)`: 256, so 255.", w[2].p.cap, 255, 0);
		claim("the rule's least is 4 x (96 - 64) = 128 bytes",
		      w[0].p.local_bytes, 128, 0);
		claim("then 500 kernels drawn from the run's seed",
		      SP_RANDOM_COUNT, 500, 0);
	}
#elif LAB == 3
	ex = exercise("matvec", &t);
	claim("16384 x 8192 (512 MiB of matrix)",
	      4.0 * ex->bench[0].n[0] * ex->bench[0].n[1] / MIB, 512, 0);
	claim("4(mn + m + n) = 537 MB", (t.read + t.write) / MB, 537, 0);
	ex = exercise("mean_dim0", &t);
	claim("64 x 1024 x 1024 (256 MiB;", t.read / MIB, 256, 0);
	/* The seed's tensor, "4G" of floats: sixteen times this one. */
	claim("the seed article's tensor was about 4 GiB, sixteen times it",
	      4 * 1024 * MIB / t.read, 16, 0);
	claim("4(k + 1) l m = 273 MB", (t.read + t.write) / MB, 273, 0);
	ex = exercise("grayscale", &t);
	claim("8192 x 8192 (192 MiB in, 64 MiB out)", t.read / MIB, 192, 0);
	claim("192 MiB in, 64 MiB out", t.write / MIB, 64, 0);
	claim("4 h w = 268 MB", (t.read + t.write) / MB, 268, 0);
	/* Section 17, inflight: the H100 SXM's first worked case (2048
	 * threads, one 4-byte load each, 700 ns, 3352 GB/s). */
	{
		const struct inflight_worked *w = &inflight_worked[0];
		double share = w->p.need_per_sm / w->s.threads_per_sm;

		if (w->s.latency_ns != 700 || w->s.bw_gbps != 3352 ||
		    w->s.sms != 132 || w->s.threads_per_sm != 2048 ||
		    w->s.load_bytes != 4 || w->s.loads_in_flight != 1) {
			printf("WRONG: inflight_worked.h does not start with "
			       "the README's H100\n");
			exit(1);
		}
		claim("needs 3352 x 700 = 2.35 MB in flight",
		      w->p.need_bytes / MB, 2.35, 2);
		claim("17.8 KB per SM over its 132 SMs", w->p.need_per_sm / 1e3,
		      17.8, 1);
		claim("that is 8.7 bytes a thread", share, 8.7, 1);
		claim("it takes 3 in flight", w->p.need_loads, 3, 0);
		claim("132 x 2048 x 4 = 1.08 MB on the way",
		      w->p.have_bytes / MB, 1.08, 2);
		claim("1.08 MB / 700 ns = 1545 GB/s, 46% of the bandwidth",
		      w->p.gbps, 1545, 0);
		claim("1.08 MB / 700 ns = 1545 GB/s, 46% of the bandwidth",
		      100 * w->p.gbps / w->s.bw_gbps, 46, 0);
		claim("then 500 systems drawn from the run's seed",
		      IF_RANDOM_COUNT, 500, 0);
	}
#elif LAB == 4
	ex = exercise("transpose", &t);
	claim("8192 x 8192 (256 MiB in, 256 MiB out", t.read / MIB, 256, 0);
	claim("256 MiB in, 256 MiB out", t.write / MIB, 256, 0);
	claim("536.9 MB at 8192 x 8192", (t.read + t.write) / MB, 536.9, 1);
	ex = exercise("matmul", &t);
	claim("4096^3 (64 MiB per matrix, 137 GFLOP)", t.read / 2 / MIB, 64,
	      0);
	claim("64 MiB per matrix, 137 GFLOP", t.flops / 1e9, 137, 0);
	claim("n/6 flop/B: 683 at n = 4096", t.flops / (t.read + t.write),
	      683, 0);
	/* The H100 SXM of the roofline's data sheets, and its ridge. */
	{
		const struct roof_gpu *h = &roof_sheet_gpus[4].g;
		/* The worked cases of the lab's four kernels at 4096^3 on
		 * it: the README's table of section 11. */
		static const char *const row[] = {
			"| naive.cu, 1 x 1 | 0.25 | memory | 0.8 TFLOP/s |",
			"| ladder 1, 16 x 16 | 3.99 | memory | 13.4 TFLOP/s |",
			"| ladder 3, 64 x 64 | 15.9 | memory | 53.2 TFLOP/s |",
			"| solution, 128 x 128 | 31.5 | compute | 66.9 TFLOP/s |",
		};
		static const double quoted[][2] = {
			{ 0.25, 0.8 }, { 3.99, 13.4 }, { 15.9, 53.2 },
			{ 31.5, 66.9 },
		};
		int k = 0;

		claim("(on an H100 SXM, 67 / 3.35 = 20)",
		      h->peak_gflops / h->bw_gbps, 20, 0);
		claim("H100 SXM (66.9 TFLOP/s, 3352 GB/s, ridge 20.0 flop/B)",
		      h->peak_gflops / h->bw_gbps, 20.0, 1);
		for (size_t i = 0; i < ROOF_COUNT(roof_worked) && k < 4; i++) {
			const struct roof_worked *w = &roof_worked[i];

			if (w->g.peak_gflops != h->peak_gflops ||
			    w->g.bw_gbps != h->bw_gbps ||
			    w->k.op != ROOF_MATMUL || w->k.m != 4096 ||
			    w->k.k != 4096 || w->k.n != 4096 ||
			    w->k.tile_m != roof_lab_kernels[k].tile_m)
				continue;
			claim(row[k], w->p.intensity, quoted[k][0],
			      k == 1 ? 2 : 1 + (k == 0));
			claim(row[k], w->p.gflops / 1e3, quoted[k][1], 1);
			k++;
		}
		if (k != 4) {
			printf("WRONG: roofline_worked.h lacks the lab's "
			       "kernels at 4096^3 on an H100 SXM\n");
			failed = 1;
		}
	}
	/* Section 12, peak: the H100 SXM's roofs by the worked cases. */
	{
		const struct peak_worked *w = NULL;

		for (size_t i = 0; i < ROOF_COUNT(peak_worked); i++)
			if (peak_worked[i].g.cc == 90 &&
			    peak_worked[i].g.sms == 132)
				w = &peak_worked[i];
		if (!w) {
			printf("WRONG: peak_worked.h has no H100 SXM\n");
			exit(1);
		}
		claim("2 x 128 x 132 x 1980 MHz = 66.9 TFLOP/s",
		      w->p.peak_gflops / 1e3, 66.9, 1);
		claim("2 x 2619 MHz x 5120 / 8 = 3352 GB/s", w->p.bw_gbps, 3352,
		      0);
		claim("(20.0 flop/B on the H100 SXM)", w->p.ridge, 20.0, 1);
		claim("half the FP32 peak, 33.5 TFLOP/s on the H100 SXM",
		      w->p.fp64_gflops / 1e3, 33.5, 1);
		for (size_t i = 0; i < ROOF_COUNT(peak_worked); i++)
			if (peak_worked[i].g.cc == 89 &&
			    peak_worked[i].g.sms == 128) {
				const struct peak_pred *r = &peak_worked[i].p;

				claim("an RTX 4090's 82.6 TFLOP/s of FP32 are "
				      "1.3 of FP64", r->peak_gflops / 1e3,
				      82.6, 1);
				claim("an RTX 4090's 82.6 TFLOP/s of FP32 are "
				      "1.3 of FP64", r->fp64_gflops / 1e3,
				      1.3, 1);
				break;
			}
		claim("on five data sheets' GPUs (T4, RTX 4090, A100, H100 "
		      "PCIe and SXM)", ROOF_COUNT(peak_sheets), 5, 0);
		claim("then 500 GPUs drawn from the run's seed",
		      PEAK_RANDOM_COUNT, 500, 0);
	}
	/* Section 13, constant: the table's reads, which start the worked
	 * cases (the rule's answers), in the README's order. */
	{
		static const struct {
			const char *row;
			struct const_read r;
		} rows[] = {
			{ "| a stencil weight `w[k]`, every lane the same `k` "
			  "| 1 | 1 |", { 4, 0, 1, 9, 32 } },
			{ "| `c[lane]` | 32 | 4 |", { 0, 1, 1, 256, 32 } },
			{ "| `c[lane / 2]`: pairs of lanes | 16 | 2 |",
			  { 0, 1, 2, 256, 32 } },
			{ "| `c[lane / 16]`: two half-warps | 2 | 1 |",
			  { 0, 1, 16, 256, 32 } },
			{ "| `c[8 * lane]`: a sector apart | 32 | 32 |",
			  { 0, 8, 1, 256, 32 } },
		};
		static const double quoted[][2] = {
			{ 1, 1 }, { 32, 4 }, { 16, 2 }, { 2, 1 }, { 32, 32 },
		};

		for (size_t i = 0; i < CONST_COUNT(rows); i++) {
			const struct constant_worked *w = &constant_worked[i];

			if (w->r.base != rows[i].r.base ||
			    w->r.step != rows[i].r.step ||
			    w->r.group != rows[i].r.group ||
			    w->r.entries != rows[i].r.entries ||
			    w->r.lanes != rows[i].r.lanes) {
				printf("WRONG: constant_worked.h does not start "
				       "with the README's reads\n");
				exit(1);
			}
			claim(rows[i].row, w->p.passes, quoted[i][0], 0);
			claim(rows[i].row, w->p.sectors, quoted[i][1], 0);
		}
		claim("30.1 for K = 256, 8.8 for a 9-entry table",
		      constant_worked[1].p.random_passes, 30.1, 1);
		claim("30.1 for K = 256, 8.8 for a 9-entry table",
		      constant_worked[0].p.random_passes, 8.8, 1);
		claim("then 500 reads drawn from the run's seed",
		      CONST_RANDOM_COUNT, 500, 0);
	}
#elif LAB == 7
	{
		/* diagnose's recordings, parsed as the exercise does. */
		struct diag_report r;

#define DIAG_REC(name) diag_rec(name, &r)
		/* The model's thresholds, as section 12's table quotes
		 * them, in the order of ex_diagnose.c's rules. */
		static const char *const when[] = {
			"| `GRID` | waves < 0.5 |",
			"| `COALESCE` | sector excess > 2 |",
			"| `FUSE` | 2 kernels or more, traffic >= 1.5 |",
			"| `TILE` | load bytes per FLOP >= 0.5 |",
			"| `PAD` | conflicts >= 0.2 |",
			"| `BRANCH` | branch efficiency < 50% |",
		};
		static const double quoted_limit[] = { 0.5, 2, 1.5, 0.5, 0.2,
						       50 };

		for (size_t i = 0; i < DIAG_NRULES && i < 6; i++)
			claim(when[i], diag_rules[i].limit, quoted_limit[i], 1);
		claim("(`sm_pct`) decides, memory or compute, once it reaches "
		      "60% of its peak", DIAG_SOL_PCT, 60, 0);
		claim("| `FUSE` | 2 kernels or more",
		      diag_rules[2].min_kernels, 2, 0);
		claim("Eleven recordings of this workbook's naive kernels",
		      DIAG_COUNT, 11, 0);
		claim("then 300 reports drawn around them", DIAG_DRAWN_COUNT,
		      300, 0);
		DIAG_REC("gelu-naive");
		claim("in `make profile` and 10.2x here",
		      diag_value(&r, DIAG_TRAFFIC), 10.2, 1);
		DIAG_REC("branch-naive");
		claim("stores 2.0 times the sectors its bytes need",
		      diag_excess(r.st_sectors, r.st_requests, r.st_bytes),
		      2.0, 1);
		DIAG_REC("sum-naive");
		claim("runs the SMs at 79% and DRAM at 13%", r.sm_pct, 79, 0);
		claim("runs the SMs at 79% and DRAM at 13%", r.dram_pct, 13, 0);
		DIAG_REC("mean_dim0-naive");
		claim("The naive mean_dim0 wastes 8x the sectors",
		      diag_value(&r, DIAG_SECTOR_EXCESS), 8, 0);
		claim("its grid fills 0.00 of a wave", r.waves, 0, 2);
		DIAG_REC("transpose-naive");
		claim("writes a column at a time: 8x the sectors, all in the "
		      "stores",
		      diag_excess(r.st_sectors, r.st_requests, r.st_bytes), 8,
		      0);
		claim("writes a column at a time: 8x the sectors, all in the "
		      "stores",
		      diag_excess(r.ld_sectors, r.ld_requests, r.ld_bytes), 1,
		      0);
	}
	/* Sections 16 and 17, compare and stalls: the recordings as their
	 * models read them. */
	{
		int pairs[CMP_MAX_PAIRS][2], naive = -1, step1 = -1, step2 = -1,
		    sum_naive = -1, sum_solution = -1, throttled = 0;
		double least = 1e30, most = 0;
		struct stall_answer st;
		struct cmp_answer a;

		for (size_t i = 0; i < REC_COUNT; i++) {
			const struct recording *g = &recordings[i];
			struct stall_report sr;
			struct rec_call c;
			double peak;

			if (rec_parse(g, &c)) {
				printf("WRONG: recordings.h's %s %s does not "
				       "parse\n", g->exercise, g->version);
				exit(1);
			}
			peak = c.dram_bytes / c.time_ns / (c.dram_pct / 100);
			least = peak < least ? peak : least;
			most = peak > most ? peak : most;
			stall_of(&c, g, &sr);
			stall_model(&sr, &st);
			throttled += st.throttle != STALL_NONE;
			if (!strcmp(g->exercise, "mean_dim0") && g->step == 0)
				naive = (int)i;
			if (!strcmp(g->exercise, "mean_dim0") && g->step == 1)
				step1 = (int)i;
			if (!strcmp(g->exercise, "mean_dim0") && g->step == 2)
				step2 = (int)i;
			if (!strcmp(g->exercise, "sum") && g->step == 0)
				sum_naive = (int)i;
			if (!strcmp(g->exercise, "sum") && g->step == 100)
				sum_solution = (int)i;
		}
		if (naive < 0 || step1 < 0 || step2 < 0 || sum_naive < 0 ||
		    sum_solution < 0) {
			printf("WRONG: recordings.h lacks mean_dim0's or sum's "
			       "ladder\n");
			exit(1);
		}
		claim("the solution where steps lie between, sixteen pairs",
		      cmp_pairs(pairs), 16, 0);
		claim("then 300 pairs drawn around them", REC_DRAWN_COUNT, 300,
		      0);
		rec_pair(naive, step1, &a);
		claim("step 1 is 8.88 times faster", a.speedup, 8.88, 2);
		claim("(DRAM +1490%, SM +912%, L2 +874%)",
		      a.change[CMP_DRAM_PCT], 1490, 0);
		claim("(DRAM +1490%, SM +912%, L2 +874%)", a.change[CMP_SM_PCT],
		      912, 0);
		claim("(DRAM +1490%, SM +912%, L2 +874%)", a.change[CMP_L2_PCT],
		      874, 0);
		claim("Its DRAM bytes went up too, by 79%",
		      a.change[CMP_DRAM_BYTES], 79, 0);
		claim("the intensity falls from 0.248 to 0.138 flop/B",
		      a.side[0].intensity, 0.248, 3);
		claim("the intensity falls from 0.248 to 0.138 flop/B",
		      a.side[1].intensity, 0.138, 3);
		claim("(13 GFLOP/s, 52 GB/s)", a.side[0].gflops, 13, 0);
		claim("(13 GFLOP/s, 52 GB/s)", a.side[0].gbps, 52, 0);
		claim("and the dot moves up and *left*", a.faster_left, 1, 0);
		rec_pair(step1, step2, &a);
		claim("back to 0.248, 6.42 times faster still",
		      a.side[1].intensity, 0.248, 3);
		claim("back to 0.248, 6.42 times faster still", a.speedup, 6.42,
		      2);
		rec_pair(sum_naive, sum_solution, &a);
		claim("sum's solution moves 0.1% more bytes than its naive",
		      a.change[CMP_DRAM_BYTES], 0.1, 1);
		claim("sum's solution moves 0.1% more bytes than its naive",
		      a.faster_left, 0, 0);
		claim("Every recording gives 3336 to 3356 GB/s", least, 3336,
		      0);
		claim("Every recording gives 3336 to 3356 GB/s", most, 3356, 0);

		rec_stalls(step1, &st);
		claim("spend 47% of their 576 cycles between issues",
		      recordings_cycles(step1), 576, 0);
		claim("spend 47% of their 576 cycles between issues on "
		      "long_scoreboard and 47% on **lg_throttle**",
		      st.throttle_share * 100, 47, 0);
		claim("spend 47% of their 576 cycles between issues on "
		      "long_scoreboard and 47% on **lg_throttle**",
		      st.top_share * 100, 47, 0);
		claim("mean_dim0's step 1 (lg_throttle, 47%)",
		      st.throttle == STALL_LG_THROTTLE, 1, 0);
		rec_stalls(step2, &st);
		claim("(step 2) removes the throttle: 96% long_scoreboard",
		      st.top_share * 100, 96, 0);
		claim("On the H100 two have a throttle to act on", throttled, 2,
		      0);
	}
#elif LAB == 8
	ex = exercise("hgemm", &t);
	claim("137 GFLOP on 128 MiB", t.flops / 1e9, 137, 0);
	claim("137 GFLOP on 128 MiB", (t.read + t.write) / MIB, 128, 0);
	claim("c in fp32, 64 MiB", t.write / MIB, 64, 0);
	claim("1024 FLOPs a byte", t.flops / (t.read + t.write), 1024, 0);
	/* The H100's roofs as section 2 derives them. */
	claim("2 x 128 x 132 x 1.98e9 = 67 TFLOP/s",
	      2 * 128 * 132 * 1.98e9 / 1e12, 67, 0);
	claim("~1070 TFLOP/s at the same clock",
	      16 * 2 * 128 * 132 * 1.98e9 / 1e12, 1070, -1);
	claim("3.35 TB/s, feeds 1070 TFLOP/s at 320 FLOPs a byte",
	      1070 / 3.35, 320, -1);
	/* A consumer card's tensor ridge (data sheet: RTX 4090, bf16 with
	 * fp32 accumulation, dense). */
	claim("165 TFLOP/s dense on its data sheet over 1008 GB/s, about "
	      "164 flops a byte", 165.2e12 / 1008e9, 164, 0);
#else
#error "readme-numbers.c: LAB is 1, 3, 4, 7 or 8"
#endif
	(void)ex;
	return failed;
}
