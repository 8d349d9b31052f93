/* SPDX-License-Identifier: MIT */
/*
 * resources.c - what a build alone can say of a student's file (the
 * no-GPU report, `make check`): whether it is still the skeleton, and
 * each kernel's registers, static shared memory and spills as ptxas
 * counted them (inspect.sh's RUNNER.resources), and its launch bounds
 * (RUNNER.ptx).
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "settle.h"

/*
 * A file that still calls WB_TODO() (the skeleton's marker, workbook.h)
 * refers to wb_todo; `fn` gets the function that calls it, from
 * RUNNER.calls ("CALLEE CALLER" lines), or "" when it is not listed.
 * 1 when the file calls it, else 0.
 */
int g_is_skeleton(const struct g_objinfo *oi, char *fn, size_t n)
{
	const char *p;

	if (n)
		fn[0] = '\0';
	if (!oi->syms)
		return 0;
	for (p = oi->syms; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, "U wb_todo\t", 10))
			break;
	}
	if (!p)
		return 0;
	for (p = oi->calls; p && *p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, "wb_todo ", 8)) {
			size_t len = strcspn(p + 8, "\n");

			snprintf(fn, n, "%.*s", (int)len, p + 8);
			break;
		}
	}
	return 1;
}

/*
 * The kernel fn's launch bounds, from its PTX entry (".maxntid X, Y, Z",
 * which __launch_bounds__ writes between the parameters and the body):
 * the most threads a block, or 0 when it has none or there is no PTX.
 * ptxas fits the registers to them; with none, it may give a thread up
 * to 255, and how many blocks fit an SM is known only at the launch.
 */
static long launch_bounds(const char *ptx, const char *fn)
{
	const char *e, *body, *m;
	size_t fl = strlen(fn);
	long x = 1, y = 1, z = 1;

	/* The entry named fn; a static kernel's PTX name (the inspection
	 * compiles with -rdc) has a prefix: __nv_static_..._fn. */
	for (e = ptx; e && (e = strstr(e, ".entry ")); e++) {
		const char *name = e + 7;
		size_t len = strcspn(name, "(\n");

		if (len >= fl && !strncmp(name + len - fl, fn, fl) &&
		    name[len] == '(' && (len == fl || name[len - fl - 1] == '_'))
			break;
	}
	if (!e || !(body = strchr(e, '{')))
		return 0;
	m = strstr(e, ".maxntid");
	if (!m || m > body || sscanf(m, ".maxntid %ld, %ld, %ld", &x, &y, &z) < 1)
		return 0;
	return x * (y > 0 ? y : 1) * (z > 0 ? z : 1);
}

/* One RUNNER.resources line as a detail; 0, or -1 when it is garbled. */
static int resource_line(const char *l, const char *arch, const char *ptx,
			 struct g_result *r)
{
	char fn[256], a[16];
	long regs, smem, stack, stores, loads, bounds;
	const char *dem = strchr(l, '\t');
	int len;

	if (sscanf(l, "%255s %15s %ld %ld %ld %ld %ld", fn, a, &regs, &smem,
		   &stack, &stores, &loads) != 7)
		return -1;
	if (arch[0] && strcmp(a, arch))
		return 0; /* one architecture: the first built */
	/* the demangled name without its parameters */
	if (dem) {
		dem++;
		len = (int)strcspn(dem, "(\n");
	} else {
		dem = fn;
		len = (int)strlen(fn);
	}
	bounds = launch_bounds(ptx, fn);
	/* With spills, their own line follows: no trailing separator. */
	g_detail(r, "kernel %.*s (%s): %ld registers, %ld B static shared "
		    "memory%s%.0ld%s%s", len, dem, a, regs, smem,
		 stack ? ", stack frame " : "", stack, stack ? " B" : "",
		 stores || loads ? "" : ", no spills");
	if (stores || loads)
		g_detail(r, "  spills: %ld B stored and %ld B loaded per thread "
			    "(registers that did not fit, in local memory)",
			 stores, loads);
	if (bounds)
		g_detail(r, "  launch bounds: at most %ld threads a block (lab "
			    "01's occupancy turns these figures into blocks "
			    "an SM)", bounds);
	else
		g_detail(r, "  no launch bounds: how many of its blocks fit an "
			    "SM depends on the launch (lab 01's occupancy)");
	return 0;
}

/* A detail per kernel, for the first architecture in RUNNER.resources. */
void g_resources_details(const struct g_objinfo *oi, struct g_result *r)
{
	char arch[16] = "";
	const char *p = oi->resources;

	if (!p)
		return;
	if (!*p) {
		g_detail(r, "kernels: none (ptxas compiled no kernel)");
		return;
	}
	sscanf(p, "%*s %15s", arch);
	for (; p && *p; p = strchr(p, '\n')) {
		char line[512];
		size_t len;

		p += *p == '\n';
		len = strcspn(p, "\n");
		if (!len)
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		if (resource_line(line, arch, oi->ptx, r)) {
			g_detail(r, "kernels: ptxas's report could not be read");
			return;
		}
	}
}

void g_build_only(const struct g_objinfo *oi, struct g_result *r)
{
	char fn[128];

	if (g_is_skeleton(oi, fn, sizeof(fn))) {
		g_settle(r, WB_V_SKELETON);
		g_detail(r, "still the skeleton: %s%s calls WB_TODO; write it, "
			    "then delete that line (until then a grade says NOT "
			    "IMPLEMENTED)", fn[0] ? fn : "the file",
			 fn[0] ? "()" : "");
		return; /* its kernels are not written yet */
	}
	g_settle(r, WB_V_BUILT);
	g_resources_details(oi, r);
}
