/* SPDX-License-Identifier: MIT */
/*
 * settle.c - the verdict's one owner (settle.h).
 */
#include "settle.h"

void g_settle(struct g_result *r, enum wb_verdict v)
{
	r->verdict = v;
}
