/* SPDX-License-Identifier: MIT */
/*
 * test_inspect.c - grader/inspect.c: the symbol checks (what a student's
 * object may define and call, its static constructors) and the technique
 * rules (parsing `info --rules`, matching patterns in PTX and symbols).
 *
 * tests/unit/data/inspect-{clean,bad}.* were recorded with CUDA 13.0 and
 * GCC 12 from the .cu files next to them:
 *
 *   nvcc -O3 -lineinfo -gencode arch=compute_75,code=sm_75 \
 *        -gencode arch=compute_75,code=compute_75 -std=c++17 -Icommon \
 *        -Ilabs/05-reduction -c inspect-clean.cu -o inspect-clean.o
 *   NVCC=nvcc sh grader/inspect.sh inspect-clean inspect-clean.cu \
 *        "-O3 -lineinfo -arch=compute_75 -std=c++17 -Icommon \
 *        -Ilabs/05-reduction" build/sm75/lab/05-reduction/lab.c.o
 */
#include "unit.h"

#include "inspect.h"
#include "proc.h"

static char *data(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/unit/data/%s", name);
	return read_file(path, 1 << 22);
}

static void load(struct g_objinfo *oi, const char *base)
{
	char name[128];

	memset(oi, 0, sizeof(*oi));
	snprintf(name, sizeof(name), "%s.syms", base);
	oi->syms = data(name);
	snprintf(name, sizeof(name), "%s.ctors", base);
	oi->ctors = data(name);
	snprintf(name, sizeof(name), "%s.calls", base);
	oi->calls = data(name);
	snprintf(name, sizeof(name), "%s.entries", base);
	oi->entries = data(name);
	snprintf(name, sizeof(name), "%s.ptx", base);
	oi->ptx = data(name);
	assert_non_null(oi->syms);
	assert_non_null(oi->ctors);
	assert_non_null(oi->entries);
	assert_non_null(oi->ptx);
}

/* Every detail of r joined, for assert_contains. */
static const char *joined(const struct g_result *r)
{
	static char all[G_MAX_DETAILS * G_DETAIL_LEN];
	size_t used = 0;

	all[0] = '\0';
	for (int i = 0; i < r->ndetails; i++)
		used += snprintf(all + used, sizeof(all) - used, "%s\n",
				 r->details[i]);
	return all;
}

/* ---- symbols: recorded objects ---- */

static void clean_object_runs(void **state)
{
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	load(&oi, "inspect-clean");
	/* cub.cuh's iostream initialiser, NVTX's weak hooks and its dlopen,
	 * a non-static kernel, device and host-device functions. */
	assert_int_equal(g_check_symbols(&oi, &r), 0);
	assert_int_equal(r.ndetails, 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	g_objinfo_free(&oi);
}

static void bad_object_is_rejected_with_reasons(void **state)
{
	struct g_objinfo oi;
	struct g_result r;
	const char *all;

	(void)state;
	memset(&r, 0, sizeof(r));
	load(&oi, "inspect-bad");
	assert_int_equal(g_check_symbols(&oi, &r), -1);
	assert_int_equal(r.verdict, WB_V_REJECTED);
	all = joined(&r);
	assert_contains(all, "the file was not run");
	/* Nine reasons: the first six in the object's order, then a count. */
	assert_contains(all, "it defines clock_gettime");
	assert_contains(all, "it defines helper(int), which is a host function");
	assert_contains(all, "it calls fopen");
	assert_contains(all, "it calls wb_result");
	assert_contains(all, "it defines host_cache");
	assert_contains(all, "(and 3 more)");
	assert_int_equal(r.ndetails, 8);
	g_objinfo_free(&oi);
}

/* One reason at a time: the bad object with all but one problem removed. */
static int rejected_for(const char *syms, const char *ctors, const char *ptx,
			const char *calls, struct g_result *r)
{
	struct g_objinfo oi = {
		.syms = (char *)syms, .ctors = (char *)ctors,
		.entries = (char *)"reduce_sum\nreduce_argmax\n",
		.ptx = (char *)ptx, .calls = (char *)calls,
	};

	memset(r, 0, sizeof(*r));
	return g_check_symbols(&oi, r);
}

static const char plain_ptx[] =
	".visible .entry _Z4kernPKfPf(\n"
	"\t.param .u64 _Z4kernPKfPf_param_0\n"
	")\n"
	".visible .func  (.param .b32 func_retval0) _Z6squaref(\n"
	".entry reduce_kernel(\n";

static void entry_points_kernels_and_device_functions(void **state)
{
	struct g_result r;

	(void)state;
	assert_int_equal(rejected_for(
		"T reduce_sum\treduce_sum\n"
		"T _Z4kernPKfPf\tkern(float const*, float*)\n"
		"T _Z26__device_stub__Z4kernPKfPfPKfPf\tstub\n"
		"T _Z6squaref\tsquare(float)\n"
		"T reduce_kernel\treduce_kernel\n" /* an extern "C" kernel */
		"W _ZN4pair5twiceEv\tpair::twice()\n"
		"u _ZN4cuda3std3__45__cpo5beginE\tcuda::std::begin\n"
		"V DW.ref.__gxx_personality_v0\tDW.ref\n"
		"W nvtxMarkA_impl_init_v3\tnvtxMarkA_impl_init_v3\n"
		"t _ZL6helperv\thelper()\n"
		"b _ZL5cache\tcache\n"
		"U cudaMemsetAsync\tcudaMemsetAsync\n"
		"U wb_cuda_fatal\twb_cuda_fatal\n"
		"U wb_todo\twb_todo\n"
		"U __printf_chk\t__printf_chk\n"
		"U atexit\tatexit\n",
		"", plain_ptx, "", &r), 0);
	assert_int_equal(r.ndetails, 0);
}

static void library_shadows_are_rejected(void **state)
{
	static const char *const defs[] = {
		"T clock_gettime\tclock_gettime\n",
		"W clock_gettime\tclock_gettime\n", /* weak still wins */
		"T malloc\tmalloc\n",
		"B stdout_copy\tstdout_copy\n",
		"T _Znwm\toperator new(unsigned long)\n",
		"i memcpy\tmemcpy\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		struct g_result r;
		char syms[256];

		snprintf(syms, sizeof(syms), "T reduce_sum\treduce_sum\n%s", defs[i]);
		assert_int_equal(rejected_for(syms, "", plain_ptx, "", &r), -1);
		assert_contains(joined(&r), "it defines ");
	}
}

static void non_static_host_helper_is_rejected(void **state)
{
	static const char syms[] = "T reduce_sum\treduce_sum\n"
				   "T _Z6helperi\thelper(int)\n";
	struct g_result r;

	(void)state;
	assert_int_equal(rejected_for(syms, "", plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "helper(int)");
	assert_contains(joined(&r), "declare it static");
	/* Without PTX it cannot be told from a device function: let it be. */
	assert_int_equal(rejected_for(syms, "", NULL, "", &r), 0);
}

static void calls_into_the_grader_or_the_system(void **state)
{
	static const char *const calls[] = {
		"U wb_result\twb_result\n", "U wb_todo_hit\twb_todo_hit\n",
		"U fopen\tfopen\n", "U __open_2\t__open_2\n",
		"U write\twrite\n", "U fork\tfork\n", "U system\tsystem\n",
		"U pthread_create\tpthread_create\n", "U mprotect\tmprotect\n",
		"U _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE\tstd::thread::_M_start_thread\n",
		"U _ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode\tstd::ofstream\n",
		"U dlopen\tdlopen\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct g_result r;

		assert_int_equal(rejected_for(calls[i], "", plain_ptx, "", &r), -1);
		assert_contains(joined(&r), "it calls ");
	}
}

static void nvtx_may_load_its_tool(void **state)
{
	static const char syms[] =
		"W nvtxMarkA_impl_init_v3\tnvtxMarkA_impl_init_v3\n"
		"U dlopen\tdlopen\n";
	struct g_result r;

	(void)state;
	assert_int_equal(rejected_for(syms, "", plain_ptx,
				      "dlopen nvtxMarkA_impl_init_v3\n", &r), 0);
	/* The same call from the submission's own code is not NVTX's. */
	assert_int_equal(rejected_for(syms, "", plain_ptx,
				      "dlopen nvtxMarkA_impl_init_v3\n"
				      "dlopen reduce_sum\n", &r), -1);
	/* A strong nvtx-named function of the file's is not NVTX's either. */
	assert_int_equal(rejected_for("T nvtxMine\tnvtxMine\nU dlopen\tdlopen\n",
				      "", plain_ptx, "dlopen nvtxMine\n", &r), -1);
	/* Who calls it unknown: not forgiven. */
	assert_int_equal(rejected_for(syms, "", plain_ptx, NULL, &r), -1);
}

static void no_entry_point_is_left_to_the_runner(void **state)
{
	struct g_result r;

	(void)state;
	/* Renamed: the runner reports the missing entry point instead. */
	assert_int_equal(rejected_for("T my_sum\tmy_sum\n", "", plain_ptx, "",
				      &r), 0);
	/* Calls and constructors are still judged. */
	assert_int_equal(rejected_for("T my_sum\tmy_sum\nU wb_result\twb_result\n",
				      "", plain_ptx, "", &r), -1);
	/* With the entry point there, the extra definition is judged. */
	assert_int_equal(rejected_for("T reduce_sum\treduce_sum\nT my_sum\tmy_sum\n",
				      "", plain_ptx, "", &r), -1);
}

static void constructors(void **state)
{
	static const char nvcc[] =
		".init_array _ZL24__sti____cudaRegisterAllv .bss atexit\t__sti\n";
	static const char ioinit[] =
		".init_array _GLOBAL__sub_I_x .bss _ZNSt8ios_base4InitC1Ev "
		"_ZNSt8ios_base4InitD1Ev __dso_handle __cxa_atexit\tsub_I_x\n";
	static const char object[] =
		".init_array _GLOBAL__sub_I_x .bss _ZNSt8ios_base4InitC1Ev "
		"_ZNSt8ios_base4InitD1Ev __dso_handle __cxa_atexit puts\tsub_I_x\n";
	static const char attribute[] =
		".init_array _ZL5earlyv .LC2 puts\tearly()\n";
	static const char dtor[] = ".fini_array _ZL4latev .LC3 puts\tlate()\n";
	static const char old[] = ".ctors _ZL5earlyv\tearly()\n";
	char text[512];
	struct g_result r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", nvcc, ioinit);
	assert_int_equal(rejected_for("", text, plain_ptx, "", &r), 0);
	assert_int_equal(rejected_for("", object, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static constructor (sub_I_x)");
	assert_int_equal(rejected_for("", attribute, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static constructor (early())");
	assert_int_equal(rejected_for("", dtor, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static destructor (late())");
	assert_int_equal(rejected_for("", old, plain_ptx, "", &r), -1);
}

static void nothing_inspected_is_not_rejected(void **state)
{
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&oi, 0, sizeof(oi));
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_check_symbols(&oi, &r), 0);
	assert_int_equal(r.ndetails, 0);
}

/* ---- technique rules ---- */

static struct g_spec spec(const char *name)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "05-reduction");
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.speed = 1;
	s.points_correct = 40;
	s.points_speed = 60;
	return s;
}

static void rules_parse(void **state)
{
	struct g_spec s[2] = { spec("sum"), spec("argmax") };
	static const char text[] =
		"rule sum must_not sym __device_stub__ZN3cub|cublas|!EmptyKernel\t"
		"a library\tThe reduction is the exercise.\n"
		"rule argmax must ptx shfl.sync\twarp shuffles\tTaught here.\n"
		"rule argmax invalid 2\n";

	(void)state;
	assert_int_equal(g_parse_rules(text, s, 2), 3);
	assert_int_equal(s[0].nrules, 1);
	assert_int_equal(s[0].rules[0].must, 0);
	assert_string_equal(s[0].rules[0].where, "sym");
	assert_string_equal(s[0].rules[0].pattern,
			    "__device_stub__ZN3cub|cublas|!EmptyKernel");
	assert_string_equal(s[0].rules[0].what, "a library");
	assert_string_equal(s[0].rules[0].why, "The reduction is the exercise.");
	assert_int_equal(s[1].nrules, 1);
	assert_int_equal(s[1].rules[0].must, 1);
	assert_int_equal(s[1].bad_rules, 1);
	assert_int_equal(g_parse_rules("", s, 2), 0);
}

static void rules_garbled(void **state)
{
	static const char *const bad[] = {
		"rule nosuch must ptx x\twhat\twhy\n",   /* no such exercise */
		"rule sum maybe ptx x\twhat\twhy\n",     /* no such kind */
		"rule sum must elf x\twhat\twhy\n",      /* no such place */
		"rule sum must ptx x\twhat only\n",      /* a field short */
		"tier sum 2 20\n",                       /* not a rule */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct g_spec s = spec("sum");

		assert_int_equal(g_parse_rules(bad[i], &s, 1), -1);
	}
}

static void rules_too_many(void **state)
{
	struct g_spec s = spec("sum");
	char text[1024] = "";

	(void)state;
	for (int i = 0; i <= G_MAX_RULES; i++)
		strcat(text, "rule sum must ptx x\tw\ty\n");
	assert_int_equal(g_parse_rules(text, &s, 1), G_MAX_RULES + 1);
	assert_int_equal(s.nrules, G_MAX_RULES);
	assert_int_equal(s.bad_rules, 1);
}

static void add_rule(struct g_spec *s, int must, const char *where,
		     const char *pattern)
{
	struct g_rule *r = &s->rules[s->nrules++];

	r->must = must;
	snprintf(r->where, sizeof(r->where), "%s", where);
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->what, sizeof(r->what), "the thing");
	snprintf(r->why, sizeof(r->why), "Because.");
}

#define LIBRARY "__device_stub__ZN3cub|__device_stub__ZN6thrust|cublas|cudnn|!EmptyKernel"

static void technique_on_recorded_objects(void **state)
{
	struct g_objinfo clean, bad;
	struct g_spec s = spec("sum");
	struct g_result r;

	(void)state;
	load(&clean, "inspect-clean");
	load(&bad, "inspect-bad");
	add_rule(&s, 0, "sym", LIBRARY);
	/* cub.cuh's EmptyKernel stub is excluded: block-level CUB is fine. */
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &clean, &r);
	assert_int_equal(r.technique, G_TECH_OK);
	assert_contains(joined(&r), "technique: ok (does not use the thing)");
	/* Both use shared memory and only one shuffles. */
	s.nrules = 0;
	add_rule(&s, 1, "ptx", "shfl.sync");
	add_rule(&s, 1, "ptx", ".shared");
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &clean, &r);
	assert_int_equal(r.technique, G_TECH_OK);
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &bad, &r);
	assert_int_equal(r.technique, G_TECH_FAILED);
	assert_contains(joined(&r), "technique: FAILED: the file must use the "
				    "thing, and its PTX show none. Because.");
	g_objinfo_free(&clean);
	g_objinfo_free(&bad);
}

static void technique_must_not_names_what_it_found(void **state)
{
	struct g_spec s = spec("sum");
	struct g_objinfo oi = {
		.syms = (char *)
			"b _ZZL66__device_stub__ZN3cub6detail11EmptyKernelIvEEvvvE5__tmp\tEmpty\n"
			"b _ZZL190__device_stub__ZN3cub6detail6reduce18DeviceReduceKernelE5__tmp\t"
			"cub::DeviceReduceKernel stub\n"
			"U cublasSgemm_v2\tcublasSgemm_v2\n",
	};
	struct g_result r;

	(void)state;
	add_rule(&s, 0, "sym", LIBRARY);
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_FAILED);
	/* The first alternative that matches a line not excluded. */
	assert_contains(joined(&r), "show `cub::DeviceReduceKernel stub`");
	/* Only the excluded line: no match. */
	oi.syms = (char *)"b _ZZL66__device_stub__ZN3cub6detail11EmptyKernelIvEEvvvE5__tmp\tEmpty\n";
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_OK);
}

static void technique_unchecked_and_none(void **state)
{
	struct g_spec s = spec("sum");
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&oi, 0, sizeof(oi));
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_NONE);
	assert_int_equal(r.ndetails, 0);
	add_rule(&s, 0, "sass", "HMMA");
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_UNCHECKED);
	assert_contains(joined(&r), "not checked (no SASS");
	assert_string_equal(g_technique_word(G_TECH_UNCHECKED), "unchecked");
	assert_string_equal(g_technique_word(G_TECH_NONE), "-");
}

static void failed_rule_withholds_performance_points(void **state)
{
	struct g_spec s = spec("sum");
	struct g_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.verdict = WB_V_PASS;
	r.points = 100;
	r.tier = 3;
	r.technique = G_TECH_FAILED;
	g_technique_apply(&s, &r);
	assert_near(r.points, 40, 0);
	assert_int_equal(r.tier, 0);
	assert_contains(joined(&r), "performance points withheld");
	/* Not PASS, or no failure: nothing changes. */
	r.points = 0;
	r.verdict = WB_V_WRONG;
	g_technique_apply(&s, &r);
	assert_near(r.points, 0, 0);
	r.verdict = WB_V_PASS;
	r.points = 100;
	r.technique = G_TECH_UNCHECKED;
	g_technique_apply(&s, &r);
	assert_near(r.points, 100, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_object_runs),
		cmocka_unit_test(bad_object_is_rejected_with_reasons),
		cmocka_unit_test(entry_points_kernels_and_device_functions),
		cmocka_unit_test(library_shadows_are_rejected),
		cmocka_unit_test(non_static_host_helper_is_rejected),
		cmocka_unit_test(calls_into_the_grader_or_the_system),
		cmocka_unit_test(nvtx_may_load_its_tool),
		cmocka_unit_test(no_entry_point_is_left_to_the_runner),
		cmocka_unit_test(constructors),
		cmocka_unit_test(nothing_inspected_is_not_rejected),
		cmocka_unit_test(rules_parse),
		cmocka_unit_test(rules_garbled),
		cmocka_unit_test(rules_too_many),
		cmocka_unit_test(technique_on_recorded_objects),
		cmocka_unit_test(technique_must_not_names_what_it_found),
		cmocka_unit_test(technique_unchecked_and_none),
		cmocka_unit_test(failed_rule_withholds_performance_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
