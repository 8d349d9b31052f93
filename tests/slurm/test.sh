# SPDX-License-Identifier: MIT
#
# tests/slurm/test.sh - the "slurm" section of tests/run.sh (sourced: it
# uses run.sh's pass, fail, skip, can_box, $LOGS, $MAKE and $BUILD).
#
# Starts a real one-node Slurm (tests/slurm/cluster.sh: munged, slurmctld
# and slurmd from Debian's packages) on this machine, which has no GPU,
# and grades three generated submissions with make slurm-script in
# build-and-check mode (BUILD_ONLY=1: no --gres, nothing run): a job array
# of two tasks (CHUNK=2) and the merge job after it, submitted with the
# script's own submit.sh; the prologue calls module, a bash function
# (as Lmod's and Environment Modules' are) that a login shell's profile
# defines. Then the gradebook must hold their verdicts.
# What a GPU cluster adds (--gres=gpu:1, CUDA_VISIBLE_DEVICES from Slurm,
# timing) is not tested here: docs/batch-grading.md says so.
#
# The array runs with the default settings, so each task builds in the
# sandbox (SANDBOX=require): the summary must say so. Where no sandbox can
# be made here, that check says SKIP with the reason and the array runs
# with SANDBOX=off, so that the rest is still tested.
#
# Then make grade LAUNCH="srun ...", which runs the grading as a job step
# and prints its report here: with no GPU on the node, the no-GPU line.
#
# SKIP, with the reason, when not root or when the packages are missing;
# CI installs them (.ci/run) and runs as root, so there it runs.

case $BUILD in
/*) sl_dir=$BUILD/test-slurm ;;
*) sl_dir=$(pwd)/$BUILD/test-slurm ;;
esac
sl_out=$sl_dir/graded

sl_main() {
	if [ "$(id -u)" != 0 ]; then
		skip "slurm: starting slurmctld and slurmd needs root (CI runs as root)"
		return
	fi
	for t in munged slurmctld slurmd sbatch squeue sinfo tar zip unzip; do
		if ! command -v $t > /dev/null; then
			skip "slurm: $t is not installed (apt-get install slurmctld slurmd slurm-client munge zip unzip)"
			return
		fi
	done
	sh tests/slurm/cluster.sh stop "$sl_dir" > /dev/null 2>&1
	rm -rf "$sl_dir"
	if ! sh tests/slurm/cluster.sh start "$sl_dir" > "$LOGS/slurm-start.log" 2>&1; then
		fail "slurm: a one-node Slurm starts (munged, slurmctld, slurmd)" "$LOGS/slurm-start.log"
		return
	fi
	sl_grade
	sl_launch
	sh tests/slurm/cluster.sh stop "$sl_dir" >> "$LOGS/slurm-start.log" 2>&1
}

sl_grade() {
	sl_log=$LOGS/slurm.log
	sl_t="slurm/make slurm-script: a job array of 2 tasks grades 3 submissions, the merge job writes the gradebook; each job (bash, a login shell) ran the prologue (SLURM_PROLOGUE), whose module is a bash function as Lmod's"
	sl_off=""
	# can_box runs the batch tool: built first (a fresh clone has none).
	$MAKE --no-print-directory "$BUILD/host/tools/batch/batch" > "$sl_log" 2>&1
	if ! can_box "$sl_dir/check" "$LOGS/slurm-sandbox-check.log"; then
		sl_off=1
		skip "slurm/the array's tasks build in the sandbox (the default): no sandbox here ($box_why); the array runs with SANDBOX=off"
	fi
	sh tests/batch/make-class.sh "$sl_dir/submissions" "$sl_out" 1 alice dave heidi \
		>> "$sl_log" 2>&1
	$MAKE --no-print-directory slurm-script SUBMISSIONS="$sl_dir/submissions" \
		OUT="$sl_out" LAB=05-reduction BUILD_ONLY=1 CHUNK=2 SLURM_CPUS=1 \
		SLURM_TIME=00:10:00 BUILD="$BUILD" ${sl_off:+SANDBOX=off} \
		SLURM_PROLOGUE='echo wb-prologue-ran; module load wb-test/1.0' >> "$sl_log" 2>&1
	if ! grep -q '^#SBATCH --array=0-1$' "$sl_out/slurm/grade.sbatch" 2> /dev/null ||
	   grep -q 'gres' "$sl_out/slurm/grade.sbatch" ||
	   ! grep -q "^	--sandbox '$([ -n "$sl_off" ] && echo off || echo require)'" \
		"$sl_out/slurm/grade.sbatch"; then
		fail "$sl_t (the sbatch script)" "$sl_log"
		return
	fi
	# module as Lmod and Environment Modules define it: a bash function
	# (bash's own syntax in it) that a login shell's profile defines (on
	# a cluster /etc/profile.d/; here the profile of a HOME of the test's
	# own, which sbatch passes on to the jobs). A #!/bin/sh job script
	# (dash) reads no profile and dies with "module: not found"; the
	# generated #!/bin/bash -l one runs it.
	mkdir -p "$sl_dir/home"
	cat > "$sl_dir/home/.bash_profile" << 'EOF'
module() { local -a wb_args=("$@"); echo "wb-module ${wb_args[*]}"; }
EOF
	HOME=$sl_dir/home SLURM_CONF=$sl_dir/slurm.conf sh "$sl_out/slurm/submit.sh" \
		>> "$sl_log" 2>&1
	sl_jobs=$(tr ' ' ',' < "$sl_out/slurm/jobs" 2> /dev/null)
	for _ in $(seq 300); do
		sl_left=$(SLURM_CONF=$sl_dir/slurm.conf squeue -h -j "${sl_jobs:-0}" 2> /dev/null)
		[ -z "$sl_left" ] && break
		sleep 1
	done
	for f in "$sl_out"/slurm/logs/*.log; do
		echo "== $f"
		cat "$f"
	done >> "$sl_log" 2>&1
	sl_tasks=$(ls "$sl_out"/slurm/logs/grade-*_[01].log 2> /dev/null | wc -l)
	if [ -n "$sl_jobs" ] && [ -z "$sl_left" ] && [ "$sl_tasks" -eq 2 ] &&
	   ls "$sl_out"/slurm/logs/merge-*.log > /dev/null 2>&1 &&
	   grep -q '3 submissions: 3 graded' "$sl_out/summary.txt" 2> /dev/null &&
	   [ "$(cat "$sl_out"/slurm/logs/*.log | grep -c '^wb-prologue-ran$')" -eq 3 ] &&
	   [ "$(cat "$sl_out"/slurm/logs/*.log | grep -c '^wb-module load wb-test/1.0$')" -eq 3 ] &&
	   head -n 1 "$sl_out/slurm/grade.sbatch" | grep -qx '#!/bin/bash -l' &&
	   sh tests/batch/compare.sh --build-only tests/batch/expected "$sl_out" \
		alice dave heidi >> "$sl_log" 2>&1; then
		pass "$sl_t"
		if [ -z "$sl_off" ] &&
		   grep -q 'Every submission was built and run in the sandbox' "$sl_out/summary.txt"; then
			pass "slurm/by default each task builds in the sandbox (SANDBOX=require), and the summary says so"
		elif [ -z "$sl_off" ]; then
			fail "slurm/by default each task builds in the sandbox" "$sl_out/summary.txt"
		fi
	else
		echo "jobs: ${sl_jobs:-none}; still queued: ${sl_left:-none}; task logs: $sl_tasks" >> "$sl_log"
		fail "$sl_t" "$sl_log"
	fi
}

# make grade LAUNCH="srun ...": the grading runs as a Slurm job step, and
# what it prints comes back here. This node has no GPU, so what comes back
# is the no-GPU line first, then make check's table, with status 0 (the
# skeletons are nothing wrong); the step says which job it ran in, so the
# lines are known to have come through srun.
sl_launch() {
	sl_t="slurm/make grade LAUNCH=\"srun ...\" grades on the Slurm node and prints here (no GPU there: its no-GPU line and make check's table come back)"
	sl_log=$LOGS/slurm-launch.log
	SLURM_CONF=$sl_dir/slurm.conf $MAKE --no-print-directory grade \
		LAUNCH="srun -N1 -n1 -t 5 sh tests/slurm/in-job.sh" > "$sl_log" 2>&1
	sl_rc=$?
	if [ $sl_rc -eq 0 ] && grep -q '^in Slurm job [0-9]' "$sl_log" &&
	   [ "$(grep -c '^No CUDA GPU here' "$sl_log")" -eq 1 ] &&
	   grep -q '^01-warps/thread_map  *SKELETON' "$sl_log"; then
		pass "$sl_t"
	else
		echo "status $sl_rc" >> "$sl_log"
		fail "$sl_t" "$sl_log"
	fi
}

sl_main
