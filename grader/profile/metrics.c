/* SPDX-License-Identifier: MIT */
/*
 * metrics.c - the metrics asked of Nsight Compute (metrics.h): each one's
 * ncu name, its unit and how it combines over a call's kernels, and the
 * names of the warp stall reasons.
 *
 * It is a table and its look-ups, nothing more: it runs nothing, parses
 * nothing and judges nothing. What a stall reason means to a student is
 * the table's wording (profile_render.c); the hints' names are the hints'
 * (profile_derive.c).
 */
#include "metrics.h"

#include <string.h>

struct metric {
	const char *name;
	enum metric_agg agg;
	enum metric_unit unit;
};

#define STALL(r) "smsp__average_warps_issue_stalled_" r "_per_issue_active.ratio"

const char *const metric_stall_names[PROF_NSTALLS] = {
	"barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss",
	"lg_throttle", "long_scoreboard", "math_pipe_throttle", "membar",
	"mio_throttle", "misc", "no_instruction", "not_selected",
	"short_scoreboard", "sleeping", "tex_throttle", "wait",
};

static const struct metric metrics[PROF_NMETRICS] = {
	[M_TIME_NS] = { "gpu__time_duration.sum", AGG_SUM, UNIT_TIME },
	[M_DRAM_RD] = { "dram__bytes_read.sum", AGG_SUM, UNIT_BYTES },
	[M_DRAM_WR] = { "dram__bytes_write.sum", AGG_SUM, UNIT_BYTES },
	[M_L2_WR_SECTORS] = { "lts__t_sectors_srcunit_tex_op_write.sum", AGG_SUM, UNIT_NONE },
	[M_DRAM_PCT] = { "dram__throughput.avg.pct_of_peak_sustained_elapsed", AGG_TIME, UNIT_NONE },
	[M_L2_PCT] = { "lts__throughput.avg.pct_of_peak_sustained_elapsed", AGG_TIME, UNIT_NONE },
	[M_SM_PCT] = { "sm__throughput.avg.pct_of_peak_sustained_elapsed", AGG_TIME, UNIT_NONE },
	[M_LD_SECTORS] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", AGG_SUM, UNIT_NONE },
	[M_LD_REQUESTS] = { "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", AGG_SUM, UNIT_NONE },
	[M_LD_BYTES] = { "sm__sass_data_bytes_mem_global_op_ld.sum", AGG_SUM, UNIT_BYTES },
	[M_ST_SECTORS] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", AGG_SUM, UNIT_NONE },
	[M_ST_REQUESTS] = { "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", AGG_SUM, UNIT_NONE },
	[M_ST_BYTES] = { "sm__sass_data_bytes_mem_global_op_st.sum", AGG_SUM, UNIT_BYTES },
	[M_SH_LD_INST] = { "smsp__sass_inst_executed_op_shared_ld.sum", AGG_SUM, UNIT_NONE },
	[M_SH_ST_INST] = { "smsp__sass_inst_executed_op_shared_st.sum", AGG_SUM, UNIT_NONE },
	[M_SH_LD_WAVES] = { "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", AGG_SUM, UNIT_NONE },
	[M_SH_ST_WAVES] = { "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", AGG_SUM, UNIT_NONE },
	[M_SH_LD_CONFLICTS] = { "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", AGG_SUM, UNIT_NONE },
	[M_SH_ST_CONFLICTS] = { "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", AGG_SUM, UNIT_NONE },
	[M_BR_TARGETS] = { "smsp__sass_branch_targets.sum", AGG_SUM, UNIT_NONE },
	[M_BR_DIVERGENT] = { "smsp__sass_branch_targets_threads_divergent.sum", AGG_SUM, UNIT_NONE },
	[M_BR_UNIFORM] = { "smsp__sass_branch_targets_threads_uniform.sum", AGG_SUM, UNIT_NONE },
	[M_LANES] = { "smsp__thread_inst_executed_per_inst_executed.ratio", AGG_TIME, UNIT_NONE },
	[M_OCC_ACHIEVED] = { "sm__warps_active.avg.pct_of_peak_sustained_active", AGG_TIME, UNIT_NONE },
	[M_OCC_THEORETICAL] = { "sm__maximum_warps_per_active_cycle_pct", AGG_MAIN, UNIT_NONE },
	[M_LIM_REGS] = { "launch__occupancy_limit_registers", AGG_MAIN, UNIT_NONE },
	[M_LIM_SMEM] = { "launch__occupancy_limit_shared_mem", AGG_MAIN, UNIT_NONE },
	[M_LIM_WARPS] = { "launch__occupancy_limit_warps", AGG_MAIN, UNIT_NONE },
	[M_LIM_BLOCKS] = { "launch__occupancy_limit_blocks", AGG_MAIN, UNIT_NONE },
	[M_REGS] = { "launch__registers_per_thread", AGG_MAIN, UNIT_NONE },
	[M_WAVES] = { "launch__waves_per_multiprocessor", AGG_MAIN, UNIT_NONE },
	[M_SMS] = { "device__attribute_multiprocessor_count", AGG_MAIN, UNIT_NONE },
	[M_LOCAL_LD] = { "smsp__sass_inst_executed_op_local_ld.sum", AGG_SUM, UNIT_NONE },
	[M_LOCAL_ST] = { "smsp__sass_inst_executed_op_local_st.sum", AGG_SUM, UNIT_NONE },
	[M_ISSUE_ACTIVE] = { "smsp__issue_active.avg.pct_of_peak_sustained_active", AGG_TIME, UNIT_NONE },
	[M_WARPS_ACTIVE] = { "smsp__warps_active.avg.per_cycle_active", AGG_TIME, UNIT_NONE },
	[M_WARPS_ELIGIBLE] = { "smsp__warps_eligible.avg.per_cycle_active", AGG_TIME, UNIT_NONE },
	[M_STALL_TOTAL] = { "smsp__average_warp_latency_per_inst_issued.ratio", AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 0] = { STALL("barrier"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 1] = { STALL("branch_resolving"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 2] = { STALL("dispatch_stall"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 3] = { STALL("drain"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 4] = { STALL("imc_miss"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 5] = { STALL("lg_throttle"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 6] = { STALL("long_scoreboard"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 7] = { STALL("math_pipe_throttle"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 8] = { STALL("membar"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 9] = { STALL("mio_throttle"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 10] = { STALL("misc"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 11] = { STALL("no_instruction"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 12] = { STALL("not_selected"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 13] = { STALL("short_scoreboard"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 14] = { STALL("sleeping"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 15] = { STALL("tex_throttle"), AGG_TIME, UNIT_NONE },
	[M_STALL_FIRST + 16] = { STALL("wait"), AGG_TIME, UNIT_NONE },
};

const char *metric_name(int m)
{
	return m >= 0 && m < PROF_NMETRICS ? metrics[m].name : NULL;
}

int metric_index(const char *name)
{
	for (int m = 0; m < PROF_NMETRICS; m++)
		if (strcmp(metrics[m].name, name) == 0)
			return m;
	return -1;
}

enum metric_agg metric_agg(int m)
{
	return metrics[m].agg;
}

enum metric_unit metric_unit(int m)
{
	return metrics[m].unit;
}
