/* SPDX-License-Identifier: MIT */
/*
 * inspect.c - the symbol and technique checks on a student's compiled file
 * (see inspect.h). Text in, verdict and details out.
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proc.h"

/* Seconds allowed to `info --rules`. */
#define RULES_TIMEOUT_S 20.0

/* Reasons listed under REJECTED; more are counted. */
#define MAX_REASONS 6

/* ---- reading what inspect.sh left ---- */

static char *load_fresh(const char *runner, const char *ext, time_t since)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", runner, ext);
	if (stat(path, &st) || st.st_mtime < since)
		return NULL; /* missing, or left from an older build */
	return read_file(path, 64u << 20);
}

void g_objinfo_load(const char *runner, struct g_objinfo *oi)
{
	struct stat st;
	time_t since = stat(runner, &st) ? 0 : st.st_mtime;

	memset(oi, 0, sizeof(*oi));
	oi->syms = load_fresh(runner, ".syms", since);
	oi->ctors = load_fresh(runner, ".ctors", since);
	oi->calls = load_fresh(runner, ".calls", since);
	oi->entries = load_fresh(runner, ".entries", since);
	oi->ptx = load_fresh(runner, ".ptx", since);
	oi->sass = load_fresh(runner, ".sass", since);
}

void g_objinfo_free(struct g_objinfo *oi)
{
	free(oi->syms);
	free(oi->ctors);
	free(oi->calls);
	free(oi->entries);
	free(oi->ptx);
	free(oi->sass);
	memset(oi, 0, sizeof(*oi));
}

/* ---- small text helpers ---- */

/* Is word a whole line of text? */
static int has_line(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; p && (p = strstr(p, word)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Does the PTX define name as a kernel (.entry), function (.func) or
 * variable? Definitions end the name with '(', ';', '[' or a space. */
static int ptx_declares(const char *ptx, const char *name, int entry_only)
{
	size_t n = strlen(name);

	for (const char *p = ptx; p && (p = strstr(p, name)); p++) {
		const char *ls = p, *end = p + n;

		if (p > ptx && p[-1] != ' ' && p[-1] != '\t')
			continue;
		if (*end != '(' && *end != ';' && *end != '[' && *end != ' ' &&
		    *end != '\n')
			continue;
		while (ls > ptx && ls[-1] != '\n')
			ls--;
		while (*ls == ' ' || *ls == '\t')
			ls++;
		if (strncmp(ls, ".visible", 8) && strncmp(ls, ".weak", 5) &&
		    strncmp(ls, ".entry", 6) && strncmp(ls, ".func", 5) &&
		    strncmp(ls, ".global", 7) && strncmp(ls, ".const", 6))
			continue; /* a use or an .extern, not a definition */
		if (!entry_only)
			return 1;
		for (const char *q = ls; q + 6 <= p; q++)
			if (!strncmp(q, ".entry", 6))
				return 1;
	}
	return 0;
}

/* ---- symbols ---- */

struct sym {
	char type;
	const char *name;
	const char *dem; /* demangled, for messages */
};

/* Split one "TYPE NAME\tDEMANGLED" line in place; 0 when it is one. */
static int parse_sym(char *line, struct sym *s)
{
	char *sp = strchr(line, ' '), *tab;

	if (!sp || sp - line != 1)
		return -1;
	s->type = line[0];
	s->name = sp + 1;
	tab = strchr(sp + 1, '\t');
	if (tab) {
		*tab = '\0';
		s->dem = tab + 1;
	} else {
		s->dem = s->name;
	}
	return 0;
}

/* A definition visible to the linker (nm's global types, 'u' and 'i'). */
static int defines_global(char t)
{
	return (t >= 'A' && t <= 'Z' && t != 'U') || t == 'u' || t == 'i';
}

static int mangled(const char *name)
{
	return !strncmp(name, "_Z", 2);
}

/* C++ operators new and delete: one definition replaces them everywhere. */
static int is_operator_new_delete(const char *name)
{
	return !strncmp(name, "_Znw", 4) || !strncmp(name, "_Zna", 4) ||
	       !strncmp(name, "_Zdl", 4) || !strncmp(name, "_Zda", 4);
}

/*
 * What nvcc and the CUDA headers define in objects that use them: the
 * compiler's personality reference, kernel launch stubs, and NVTX's weak
 * hooks (CUB's headers include NVTX; the grader does not use it).
 */
static int generated(const struct sym *s)
{
	int weak = s->type == 'W' || s->type == 'V';

	return !strncmp(s->name, "DW.ref.", 7) ||
	       strstr(s->name, "__device_stub__") ||
	       (weak && (!strncmp(s->name, "nvtx", 4) ||
			 !strncmp(s->name, "InitializeInjectionNvtx", 23)));
}

/*
 * May the file define this global symbol? Entry points, kernels, device
 * functions and variables (per the PTX), what nvcc and the headers
 * generate, and weak C++ definitions (inline functions, template
 * instantiations), which never override a strong definition.
 */
static const char *definition_problem(const struct sym *s,
				      const struct g_objinfo *oi)
{
	if (oi->entries && has_line(oi->entries, s->name))
		return NULL;
	if (generated(s))
		return NULL;
	if (mangled(s->name)) {
		if (is_operator_new_delete(s->name))
			return "replaces C++'s operator new or delete";
		if (s->type == 'W' || s->type == 'V' || s->type == 'u')
			return NULL;
		if (!oi->ptx || ptx_declares(oi->ptx, s->name, 0))
			return NULL;
		return "is a host function or variable visible outside the file: "
		       "declare it static";
	}
	if (oi->ptx && ptx_declares(oi->ptx, s->name, 1))
		return NULL; /* an extern "C" kernel */
	return "is not an entry point of this lab: it would replace the CUDA "
	       "runtime's or C library's function of that name for the whole "
	       "program, the grader's timer included (make helpers static)";
}

/* Calls a submission has no business making, with the reason. */
struct banned {
	const char *name; /* exact, after dropping "__" and "_2"/"_chk" */
	const char *why;
};

static const char files[] = "opens, writes or removes files (print with printf)";
static const char procs[] = "starts processes";
static const char threads[] = "starts threads (work left running after the "
			      "entry point returns)";
static const char loader[] = "loads or patches code at run time";

static const struct banned banned_calls[] = {
	{ "open", files }, { "open64", files }, { "openat", files },
	{ "openat64", files }, { "creat", files }, { "creat64", files },
	{ "fopen", files }, { "fopen64", files }, { "freopen", files },
	{ "freopen64", files }, { "fdopen", files }, { "write", files },
	{ "pwrite", files }, { "pwrite64", files }, { "writev", files },
	{ "pwritev", files }, { "dup", files }, { "dup2", files },
	{ "dup3", files }, { "unlink", files }, { "unlinkat", files },
	{ "rename", files }, { "renameat", files }, { "remove", files },
	{ "truncate", files }, { "ftruncate", files }, { "mkstemp", files },
	{ "tmpfile", files },
	{ "fork", procs }, { "vfork", procs }, { "clone", procs },
	{ "system", procs }, { "popen", procs }, { "execl", procs },
	{ "execle", procs }, { "execlp", procs }, { "execv", procs },
	{ "execve", procs }, { "execvp", procs }, { "execvpe", procs },
	{ "fexecve", procs }, { "posix_spawn", procs },
	{ "posix_spawnp", procs }, { "kill", procs }, { "ptrace", procs },
	{ "pthread_create", threads }, { "thrd_create", threads },
	{ "dlopen", loader }, { "dlmopen", loader }, { "dlsym", loader },
	{ "dlvsym", loader }, { "mmap", loader }, { "mmap64", loader },
	{ "mprotect", loader }, { "syscall", loader },
	{ "process_vm_writev", loader },
};

/* Mangled names that do the same from C++. */
static const struct banned banned_cxx[] = {
	{ "basic_ofstream", files }, { "basic_fstream", files },
	{ "basic_filebuf", files }, { "St6thread", threads },
};

/* "__open_2" -> "open", "__fprintf_chk" -> "fprintf". */
static void core_name(const char *name, char *out, size_t n)
{
	size_t len;

	while (*name == '_')
		name++;
	snprintf(out, n, "%s", name);
	len = strlen(out);
	if (len > 2 && !strcmp(out + len - 2, "_2"))
		out[len - 2] = '\0';
	else if (len > 4 && !strcmp(out + len - 4, "_chk"))
		out[len - 4] = '\0';
}

static const char *call_problem(const char *name)
{
	char core[128];

	if (!strncmp(name, "wb_", 3) && strcmp(name, "wb_cuda_fatal") &&
	    strcmp(name, "wb_todo"))
		return "is the grader's own: only CUDA_CHECK and WB_TODO may call "
		       "into the grader (the verdict comes from your outputs, not "
		       "from anything your code says)";
	if (mangled(name)) {
		for (size_t i = 0; i < sizeof(banned_cxx) / sizeof(banned_cxx[0]); i++)
			if (strstr(name, banned_cxx[i].name))
				return banned_cxx[i].why;
		return NULL;
	}
	core_name(name, core, sizeof(core));
	for (size_t i = 0; i < sizeof(banned_calls) / sizeof(banned_calls[0]); i++)
		if (!strcmp(core, banned_calls[i].name))
			return banned_calls[i].why;
	return NULL;
}

/* Why a file is rejected: the first few reasons, and how many in all. */
struct reasons {
	char line[MAX_REASONS][G_DETAIL_LEN];
	int n;
};

/* Is name defined weak ("W name\t...") in the symbol table? */
static int weak_defined(const char *syms, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = syms; p && (p = strstr(p, name)); p++)
		if (p - syms >= 2 && p[-1] == ' ' && p[-2] == 'W' &&
		    (p - syms == 2 || p[-3] == '\n') && p[n] == '\t')
			return 1;
	return 0;
}

/*
 * NVTX's header code (which <cub/cub.cuh> brings) loads its tool library
 * with dlopen and dlsym from its weak nvtx* functions: calls made only
 * from there are the headers', not the submission's.
 */
static int only_nvtx_calls(const struct g_objinfo *oi, const char *callee)
{
	size_t n = strlen(callee);
	int seen = 0;

	if (!oi->calls || !oi->syms)
		return 0;
	for (const char *l = oi->calls; *l; l++) {
		const char *end = strchr(l, '\n'), *caller = l + n + 1;
		char name[256];
		size_t len;

		if (!end)
			end = l + strlen(l);
		if (!strncmp(l, callee, n) && l[n] == ' ') {
			len = (size_t)(end - caller);
			snprintf(name, sizeof(name), "%.*s",
				 (int)(len < sizeof(name) ? len : sizeof(name) - 1),
				 caller);
			if (strncmp(name, "nvtx", 4) || !weak_defined(oi->syms, name))
				return 0;
			seen = 1;
		}
		l = end;
		if (!*l)
			break;
	}
	return seen;
}

static void reject(struct reasons *rs, const char *fmt, const char *a,
		   const char *b)
{
	if (rs->n < MAX_REASONS)
		snprintf(rs->line[rs->n], G_DETAIL_LEN, fmt, a, b);
	rs->n++;
}

/*
 * One symbol line: a definition, or a reference (type U). defs: judge
 * definitions too (not when the file defines no entry point at all: then
 * the runner reports the missing entry point, a COMPILE ERROR).
 */
static void check_sym(const struct sym *s, const struct g_objinfo *oi,
		      int defs, struct reasons *rs)
{
	const char *why;

	if (s->type == 'U' || s->type == 'w' || s->type == 'v') {
		why = call_problem(s->name);
		if (why && !only_nvtx_calls(oi, s->name))
			reject(rs, "  it calls %s, which %s", s->dem, why);
	} else if (defs && defines_global(s->type)) {
		why = definition_problem(s, oi);
		if (why)
			reject(rs, "  it defines %s, which %s", s->dem, why);
	}
}

/* Constructor-table entries nvcc and the C++ library make for themselves. */
static int benign_ctor(const char *table, const char *fn, char *refs)
{
	static const char *const ok_refs[] = {
		"_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitD1Ev",
		"__dso_handle", "__cxa_atexit",
	};
	char *save = NULL;

	if (strcmp(table, ".init_array"))
		return 0;
	if (!strcmp(fn, "_ZL24__sti____cudaRegisterAllv"))
		return 1; /* nvcc's registration of the file's kernels */
	/* <iostream>'s std::ios_base::Init object (CUB includes it): only
	 * that object's constructor and destructor may be referenced. */
	if (strncmp(fn, "_GLOBAL__sub_I_", 15))
		return 0;
	for (char *w = strtok_r(refs, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t i, n = sizeof(ok_refs) / sizeof(ok_refs[0]);

		if (*w == '.')
			continue; /* a section of the file itself */
		for (i = 0; i < n && strcmp(w, ok_refs[i]); i++)
			;
		if (i == n)
			return 0;
	}
	return 1;
}

static void check_ctors(char *text, struct reasons *rs)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char table[32], fn[256], *dem = strchr(l, '\t');
		int off = 0;

		if (dem)
			*dem++ = '\0';
		if (sscanf(l, "%31s %255s %n", table, fn, &off) < 2)
			continue;
		if (benign_ctor(table, fn, l + off))
			continue;
		if (dem && *dem)
			snprintf(fn, sizeof(fn), "%s", dem);
		reject(rs, "  it has a static %s (%.80s): code run before or "
			   "after the grader's; a global object with a "
			   "constructor is one (use plain data, set up on the "
			   "first call)",
		       strcmp(table, ".fini_array") && strcmp(table, ".dtors") ?
		       "constructor" : "destructor",
		       fn);
	}
}

/* Does the file define one of the lab's entry points? */
static int defines_entry(const struct g_objinfo *oi)
{
	const char *l = oi->entries;

	while (l && *l) {
		const char *end = strchr(l, '\n');
		char name[256], pat[300];
		size_t len = end ? (size_t)(end - l) : strlen(l);

		snprintf(name, sizeof(name), "%.*s", (int)(len < 255 ? len : 255), l);
		snprintf(pat, sizeof(pat), "T %s\t", name);
		for (const char *p = oi->syms; *name && (p = strstr(p, pat)); p++)
			if (p == oi->syms || p[-1] == '\n')
				return 1;
		l = end ? end + 1 : NULL;
	}
	return 0;
}

int g_check_symbols(const struct g_objinfo *oi, struct g_result *r)
{
	struct reasons rs = { .n = 0 };
	char *syms, *ctors, *save = NULL;
	int defs;

	if (!oi->syms)
		return 0; /* nothing to go on: said by the technique line */
	defs = defines_entry(oi);
	syms = strdup(oi->syms);
	ctors = oi->ctors ? strdup(oi->ctors) : NULL;
	for (char *l = syms ? strtok_r(syms, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		struct sym s;

		if (!parse_sym(l, &s))
			check_sym(&s, oi, defs, &rs);
	}
	if (ctors)
		check_ctors(ctors, &rs);
	free(syms);
	free(ctors);
	if (!rs.n)
		return 0;
	r->verdict = WB_V_REJECTED;
	g_detail(r, "the file was not run: it may define only its entry "
		    "point(s), kernels and device functions, and call only what "
		    "a kernel launcher needs:");
	for (int i = 0; i < rs.n && i < MAX_REASONS; i++)
		g_detail(r, "%s", rs.line[i]);
	if (rs.n > MAX_REASONS)
		g_detail(r, "  (and %d more)", rs.n - MAX_REASONS);
	return -1;
}

/* ---- technique rules ---- */

static struct g_spec *spec_named(struct g_spec *specs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

/* "rule EX KIND WHERE PATTERN\tWHAT\tWHY": into s's rules; -1 if garbled. */
static int rule_line(char *l, struct g_spec *specs, int n)
{
	char ex[G_NAME_LEN], kind[16], where[8], pattern[160], *what, *why;
	struct g_spec *s;
	struct g_rule *r;
	int off = 0;

	if (sscanf(l, "rule %63s %15s %n", ex, kind, &off) != 2)
		return -1;
	s = spec_named(specs, n, ex);
	if (!s)
		return -1;
	if (!strcmp(kind, "invalid")) {
		s->bad_rules++;
		return 0;
	}
	l += off;
	what = strchr(l, '\t');
	why = what ? strchr(what + 1, '\t') : NULL;
	if (!why || sscanf(l, "%7s %159s", where, pattern) != 2 ||
	    (strcmp(kind, "must") && strcmp(kind, "must_not")) ||
	    (strcmp(where, "ptx") && strcmp(where, "sym") && strcmp(where, "sass")))
		return -1;
	if (s->nrules >= G_MAX_RULES) {
		s->bad_rules++;
		return 0;
	}
	*why++ = '\0';
	what++;
	r = &s->rules[s->nrules++];
	r->must = !strcmp(kind, "must");
	snprintf(r->where, sizeof(r->where), "%s", where);
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->why, sizeof(r->why), "%s", why);
	return 0;
}

int g_parse_rules(const char *text, struct g_spec *specs, int n)
{
	char *copy = strdup(text ? text : ""), *save = NULL;
	int bad = 0, count = 0;

	if (!copy)
		return -1;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (rule_line(l, specs, n))
			bad = 1;
		else
			count++;
	}
	free(copy);
	return bad ? -1 : count;
}

int g_rules_load(const char *build_dir, const char *lab, struct g_spec *specs,
		 int n)
{
	char info[1024], out[1024];
	char *argv[] = { info, "--rules", NULL };
	struct proc_result pr;
	char *text;
	int k;

	snprintf(info, sizeof(info), "%s/%s/info", build_dir, lab);
	snprintf(out, sizeof(out), "%s/%s/info.rules", build_dir, lab);
	/* An info built before rules existed says "usage": no rules. */
	if (proc_run(argv, out, RULES_TIMEOUT_S, &pr) < 0 || !pr.exited ||
	    pr.code)
		return 0;
	text = read_file(out, 1 << 20);
	k = g_parse_rules(text, specs, n);
	free(text);
	return k;
}

/* The text a rule looks at, or NULL (and why) when it is not there. */
static const char *rule_text(const struct g_rule *rule,
			     const struct g_objinfo *oi, const char **missing)
{
	if (!strcmp(rule->where, "ptx")) {
		*missing = "no PTX of the file (nvcc -ptx failed; see the "
			   "runner's .inspect.log)";
		return oi->ptx;
	}
	if (!strcmp(rule->where, "sass")) {
		*missing = "no SASS (cuobjdump is not installed)";
		return oi->sass;
	}
	*missing = "no symbol table of the file (nm failed)";
	return oi->syms;
}

/* Does the line [ls, le) contain one of the exclusions ("!word")? */
static int excluded(const char *pattern, const char *ls, const char *le)
{
	char alt[160], *save = NULL;

	snprintf(alt, sizeof(alt), "%s", pattern);
	for (char *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
		size_t n = strlen(a + 1);

		if (*a != '!' || !n)
			continue;
		for (const char *p = ls; p + n <= le; p++)
			if (!strncmp(p, a + 1, n))
				return 1;
	}
	return 0;
}

/*
 * The first line of text with an alternative of pattern in it and none of
 * its exclusions: that line (a symbol's demangled name, for the symbol
 * table) into found; 1 if any.
 */
static int find_pattern(const char *pattern, const char *text, int syms,
			char *found, size_t n)
{
	char alt[160], *save = NULL;

	snprintf(alt, sizeof(alt), "%s", pattern);
	for (char *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
		const char *p, *ls, *le;

		if (*a == '!')
			continue;
		for (p = strstr(text, a); p; p = strstr(le, a)) {
			for (ls = p; ls > text && ls[-1] != '\n'; ls--)
				;
			le = strchr(p, '\n');
			if (!le)
				le = p + strlen(p);
			if (!excluded(pattern, ls, le))
				break;
		}
		if (!p)
			continue;
		if (syms && memchr(ls, '\t', (size_t)(le - ls)))
			ls = (const char *)memchr(ls, '\t', (size_t)(le - ls)) + 1;
		while (*ls == ' ' || *ls == '\t')
			ls++;
		snprintf(found, n, "%.*s", (int)(le - ls > 120 ? 120 : le - ls), ls);
		return 1;
	}
	return 0;
}

static const char *where_name(const char *where)
{
	return !strcmp(where, "ptx") ? "PTX" : !strcmp(where, "sass") ? "SASS" :
	       "symbols";
}

void g_check_technique(const struct g_spec *s, const struct g_objinfo *oi,
		       struct g_result *r)
{
	char line[G_DETAIL_LEN], found[128];
	int failed = 0, unchecked = 0;
	size_t used = 0;

	r->technique = G_TECH_NONE;
	if (!s->nrules && !s->bad_rules)
		return;
	for (int i = 0; i < s->nrules; i++) {
		const struct g_rule *rule = &s->rules[i];
		const char *missing, *text = rule_text(rule, oi, &missing);
		int hit;

		if (!text) {
			unchecked++;
			g_detail(r, "technique: not checked (%s): %s %s", missing,
				 rule->must ? "must use" : "must not use", rule->what);
			continue;
		}
		hit = find_pattern(rule->pattern, text, !strcmp(rule->where, "sym"),
				   found, sizeof(found));
		if (hit != rule->must) {
			failed++;
			if (rule->must)
				g_detail(r, "technique: FAILED: the file must use %s, "
					    "and its %s show none. %s",
					 rule->what, where_name(rule->where), rule->why);
			else
				g_detail(r, "technique: FAILED: the file must not use "
					    "%s, and its %s show `%s`. %s", rule->what,
					 where_name(rule->where), found, rule->why);
			continue;
		}
		used += snprintf(line + used, used < sizeof(line) ? sizeof(line) - used : 0,
				 "%s%s %s", used ? "; " : "",
				 rule->must ? "uses" : "does not use", rule->what);
	}
	if (s->bad_rules) {
		unchecked++;
		g_detail(r, "technique: %d of the lab's rules could not be read "
			    "(a lab bug; not held against the file)", s->bad_rules);
	}
	if (failed)
		r->technique = G_TECH_FAILED;
	else if (unchecked)
		r->technique = G_TECH_UNCHECKED;
	else
		r->technique = G_TECH_OK;
	if (used && !failed)
		g_detail(r, "technique: ok (%s)", line);
}

int g_inspect_runner(const char *runner, const struct g_spec *s,
		     struct g_result *r)
{
	struct g_objinfo oi;
	int rejected;

	g_objinfo_load(runner, &oi);
	rejected = g_check_symbols(&oi, r) < 0;
	if (!rejected)
		g_check_technique(s, &oi, r);
	if (!oi.syms && !rejected)
		g_detail(r, "symbols: not checked (no %s.syms: rebuild with make "
			    "to inspect the file)", runner);
	g_objinfo_free(&oi);
	return rejected ? -1 : 0;
}

void g_technique_apply(const struct g_spec *s, struct g_result *r)
{
	if (r->technique != G_TECH_FAILED || r->verdict != WB_V_PASS ||
	    !s->speed || r->points <= s->points_correct)
		return;
	r->points = s->points_correct;
	r->tier = 0;
	r->next_target = 0;
	g_detail(r, "performance points withheld: a technique rule failed "
		    "(correctness points kept)");
}

const char *g_technique_word(int technique)
{
	switch (technique) {
	case G_TECH_OK: return "ok";
	case G_TECH_FAILED: return "failed";
	case G_TECH_UNCHECKED: return "unchecked";
	default: return "-";
	}
}
