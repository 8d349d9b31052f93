/* SPDX-License-Identifier: MIT */
/*
 * audit.c - g_audit() (inspect.h): words for what a file may do but
 * seldom does (inline PTX, streams, graphs, device-side malloc, ...), for
 * instructors' eyes only. It judges nothing.
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symname.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Does the symbol table hold a reference (U, w, v) matching one of pats? */
static int refers_to(const char *syms, const char *const *pats, size_t n)
{
	for (const char *l = syms; l && *l;) {
		const char *end = strchr(l, '\n');
		char name[256], core[256];
		size_t len = end ? (size_t)(end - l) : strlen(l);

		if (len > 2 && (l[0] == 'U' || l[0] == 'w' || l[0] == 'v') &&
		    l[1] == ' ') {
			snprintf(name, sizeof(name), "%.*s", (int)(len - 2), l + 2);
			name[strcspn(name, "\t")] = '\0';
			symname_core(name, core, sizeof(core));
			if (symname_listed(name, pats, n) ||
			    symname_listed(core, pats, n))
				return 1;
		}
		l = end ? end + 1 : NULL;
	}
	return 0;
}

/* The name a PTX function definition line declares ("" when the line is
 * none): the word before its last '('. */
static void ptx_def_name(const char *line, size_t len, char *out, size_t n)
{
	const char *t = line, *open = NULL, *end;

	out[0] = '\0';
	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, ".visible", 8) && strncmp(t, ".weak", 5) &&
	    strncmp(t, ".entry", 6) && strncmp(t, ".func", 5))
		return;
	for (const char *p = t; p < line + len; p++)
		if (*p == '(')
			open = p;
	if (!open)
		return;
	end = open;
	while (end > t && end[-1] == ' ')
		end--;
	for (t = end; t > line && t[-1] != ' ' && t[-1] != '\t'; t--)
		;
	snprintf(out, n, "%.*s", (int)(end - t), t);
}

/* Does a device function of the file's own (not CUB's, Thrust's or
 * libcu++'s) call the device function name (printf's vprintf, malloc)? */
static int ptx_own_call(const char *ptx, const char *name)
{
	size_t n = strlen(name);
	char fn[256] = "";

	for (const char *l = ptx; l && *l;) {
		const char *end = strchr(l, '\n'), *t = l;
		size_t len = end ? (size_t)(end - l) : strlen(l);
		char def[256];

		ptx_def_name(l, len, def, sizeof(def));
		if (*def)
			snprintf(fn, sizeof(fn), "%s", def);
		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, name, n) && t[n] == ',' && !symname_cccl(fn))
			return 1;
		l = end ? end + 1 : NULL;
	}
	return 0;
}

/* Is PTX file index f (".file f "path"") a .cu file: the submission's? */
static int ptx_own_file(const char *ptx, long f)
{
	char pat[32];
	const char *p, *q;

	snprintf(pat, sizeof(pat), ".file\t%ld \"", f);
	p = strstr(ptx, pat);
	if (!p) {
		snprintf(pat, sizeof(pat), ".file %ld \"", f);
		p = strstr(ptx, pat);
	}
	if (!p)
		return 1; /* no file table: count it as the file's own */
	p += strlen(pat);
	q = strchr(p, '"');
	return q && q - p > 3 && !strncmp(q - 3, ".cu", 3);
}

/*
 * Inline PTX written in the file itself: a "begin inline asm" block whose
 * innermost source line (the .loc before it) is in a .cu file. CUB's and
 * cooperative groups' headers use inline PTX too; that is not counted.
 */
static int ptx_own_inline_asm(const char *ptx)
{
	long file = -1;

	for (const char *l = ptx; l && *l;) {
		const char *t = l;

		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, ".loc", 4) && (t[4] == ' ' || t[4] == '\t'))
			file = strtol(t + 5, NULL, 10);
		else if (!strncmp(t, "// begin inline asm", 19) &&
			 (file < 0 || ptx_own_file(ptx, file)))
			return 1;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return 0;
}

static void audit_word(char *buf, size_t n, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, n > used ? n - used : 0, "%s%s", used ? "," : "",
		 word);
}

void g_audit(const struct g_objinfo *oi, char *buf, size_t n)
{
	static const char *const streams[] = { "cudaStreamCreate*" };
	static const char *const graphs[] = {
		"cudaGraphAdd*", "cudaGraphCreate", "cudaGraphInstantiate*",
		"cudaGraphLaunch", "cudaGraphExec*", "cudaStreamBeginCapture*",
	};
	static const char *const events[] = { "cudaEventCreate*" };
	static const char *const coop[] = { "cudaLaunchCooperativeKernel*" };
	static const char *const host_alloc[] = {
		"malloc", "calloc", "realloc", "reallocarray", "aligned_alloc",
		"posix_memalign", "memalign", "_Znw*", "_Zna*",
		"cudaMallocHost", "cudaHostAlloc",
	};
	static const char *const dev_alloc[] = {
		"cudaMalloc", "cudaMallocAsync", "cudaMallocManaged",
		"cudaMallocPitch", "cudaMalloc3D", "cudaMallocFromPoolAsync",
		"cudaMallocArray", "cudaMalloc3DArray",
	};
	static const char *const func_attr[] = {
		"cudaFuncSetAttribute", "cudaFuncSetCacheConfig",
		"cudaFuncSetSharedMemConfig",
	};
	static const char *const prints[] = {
		"printf", "vprintf", "puts", "putchar", "fputs", "fputc", "putc",
		"fprintf", "vfprintf", "fwrite", "perror", "_ZSt4cout",
		"_ZSt4cerr", "_ZSt4clog",
	};
	const char *syms = oi->syms, *ptx = oi->ptx;

	if (!n)
		return;
	buf[0] = '\0';
	if (ptx && ptx_own_inline_asm(ptx))
		audit_word(buf, n, "inline-ptx");
	if (refers_to(syms, streams, COUNT(streams)))
		audit_word(buf, n, "streams");
	if (refers_to(syms, graphs, COUNT(graphs)))
		audit_word(buf, n, "graphs");
	if (refers_to(syms, events, COUNT(events)))
		audit_word(buf, n, "events");
	if (refers_to(syms, coop, COUNT(coop)))
		audit_word(buf, n, "cooperative");
	if (refers_to(syms, host_alloc, COUNT(host_alloc)))
		audit_word(buf, n, "host-alloc");
	if (refers_to(syms, dev_alloc, COUNT(dev_alloc)) ||
	    (ptx && ptx_own_call(ptx, "malloc")))
		audit_word(buf, n, "device-malloc");
	if (refers_to(syms, func_attr, COUNT(func_attr)))
		audit_word(buf, n, "func-attr");
	if (refers_to(syms, prints, COUNT(prints)) ||
	    (ptx && ptx_own_call(ptx, "vprintf")))
		audit_word(buf, n, "printf");
}
