/* SPDX-License-Identifier: MIT */
/*
 * resources.c - what a build alone can say of a student's file (the
 * no-GPU report, `make check`): whether it is still the skeleton, and
 * each kernel's registers, static shared memory and spills as ptxas
 * counted them (inspect.sh's RUNNER.resources).
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

/* One RUNNER.resources line as a detail; 0, or -1 when it is garbled. */
static int resource_line(const char *l, const char *arch, struct g_result *r)
{
	char fn[256], a[16];
	long regs, smem, stack, stores, loads;
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
	g_detail(r, "kernel %.*s (%s): %ld registers, %ld B static shared "
		    "memory%s%.0ld%s, %s", len, dem, a, regs, smem,
		 stack ? ", stack frame " : "", stack, stack ? " B" : "",
		 stores || loads ? "" : "no spills");
	if (stores || loads)
		g_detail(r, "  spills: %ld B stored and %ld B loaded per thread "
			    "(registers that did not fit, in local memory)",
			 stores, loads);
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
		if (resource_line(line, arch, r)) {
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
