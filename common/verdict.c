/* SPDX-License-Identifier: MIT */
#include "verdict.h"

#include <string.h>

static const char *const keys[WB_V_COUNT] = {
	[WB_V_PASS] = "PASS",
	[WB_V_WRONG] = "WRONG",
	[WB_V_NOT_IMPLEMENTED] = "NOT_IMPLEMENTED",
	[WB_V_COMPILE_ERROR] = "COMPILE_ERROR",
	[WB_V_CRASH] = "CRASH",
	[WB_V_TIMEOUT] = "TIMEOUT",
	[WB_V_OUT_OF_BOUNDS] = "OUT_OF_BOUNDS",
	[WB_V_MEMCHECK] = "MEMCHECK",
	[WB_V_RACE] = "RACE",
	[WB_V_SYNC] = "SYNC",
	[WB_V_BUILT] = "BUILT",
	[WB_V_ERROR] = "GRADER_ERROR",
	[WB_V_SUSPICIOUS] = "SUSPICIOUS",
	[WB_V_REJECTED] = "REJECTED",
	[WB_V_SKELETON] = "SKELETON",
};

static const char *const labels[WB_V_COUNT] = {
	[WB_V_PASS] = "PASS",
	[WB_V_WRONG] = "WRONG",
	[WB_V_NOT_IMPLEMENTED] = "NOT IMPLEMENTED",
	[WB_V_COMPILE_ERROR] = "COMPILE ERROR",
	[WB_V_CRASH] = "CRASH",
	[WB_V_TIMEOUT] = "TIMEOUT",
	[WB_V_OUT_OF_BOUNDS] = "OUT OF BOUNDS",
	[WB_V_MEMCHECK] = "MEMCHECK",
	[WB_V_RACE] = "RACE",
	[WB_V_SYNC] = "SYNC",
	[WB_V_BUILT] = "BUILT",
	[WB_V_ERROR] = "GRADER ERROR",
	[WB_V_SUSPICIOUS] = "SUSPICIOUS",
	[WB_V_REJECTED] = "REJECTED",
	[WB_V_SKELETON] = "SKELETON",
};

const char *wb_verdict_key(enum wb_verdict v)
{
	return (unsigned)v < WB_V_COUNT ? keys[v] : "GRADER_ERROR";
}

const char *wb_verdict_label(enum wb_verdict v)
{
	return (unsigned)v < WB_V_COUNT ? labels[v] : "GRADER ERROR";
}

int wb_verdict_parse(const char *key)
{
	for (int v = 0; v < WB_V_COUNT; v++)
		if (strcmp(key, keys[v]) == 0)
			return v;
	return -1;
}
