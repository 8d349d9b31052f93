# The CUDA performance workbook.
#
#   make grade                 build and grade every lab in labs/ (with no GPU
#                              here it says so at once, then does make check)
#   make grade LAB=05 EX=sum   one lab (LAB=05, LAB=reduction or both words),
#                              one exercise of it
#   make check                 no GPU needed: build and check your exercises
#                              (skeleton, compile error, rejected, technique,
#                              registers, spills; no kernel runs, no speed
#                              points) and grade the host exercises (plain C:
#                              sectors, roofline, ...) on the CPU
#   make build-all             make check for every skeleton (and solution)
#   make test                  the test suite (GPU parts skip without a GPU)
#   make doctor                what this machine has, and what is missing
#   make profile LAB=.. EX=..  why: the kernels' Nsight Compute metrics and
#                              hints (WITH=naive,solution adds columns;
#                              SHAPE=1 profiles the second benchmark shape)
#   make report RESULTS=F      draw report.html again from a run's report.run
#                              (or results.tsv), no GPU; HTML= where to
#   make history               every graded attempt of SRC (LAB=, EX=)
#   make help                  this text; V=1 shows the compilers' commands
#
# In the instructor's copy only (make help leaves them out of the handout):
#   make grade-solutions       grade solutions/ the same way
#   make bench                 naive vs solution vs library, benchmark sizes
#   make torch-compare         solutions vs PyTorch (labs that have a script)
#   make docs                  the tables the docs quote, from lab.c
#   make handout | calibrate | gradescope-bundle | batch   (see the end)
#
# Settings (make VAR=value):
#   SRC    submission roots searched in order for <lab>/<exercise>.cu
#          (default labs; "mine solutions" takes mine/ first, then solutions/)
#   LAB    one lab, "05-reduction", "reduction" or "05", or several:
#          LAB="reduction fusion"; EX one exercise in it
#   SEED   reproduce a run's random inputs; SIZE one size alone (the label a
#          WRONG verdict prints: make grade LAB=.. EX=.. SEED=.. SIZE=n=33)
#   TIMEOUT  cap every exercise's time limit at this many seconds
#   SANITIZE=1  also run each passing exercise at its small sizes under
#          compute-sanitizer memcheck, racecheck and synccheck (SANITIZER=
#          its path; default: next to nvcc, else on PATH). Exercises whose
#          lesson is a race (lab 02's lockstep) always run the tools their
#          table names, and earn nothing where compute-sanitizer is missing
#   PROFILE=1  also profile each passing speed exercise under Nsight Compute
#          after it is graded, and attach the metrics and hints to the report
#          (NCU= its path; default: on PATH, else in the CUDA Toolkit)
#   SM     GPU architecture(s), e.g. SM=90 or SM="80 90"; default: the
#          installed GPU's, or with no GPU $(NOGPU_SM) (machine code, plus
#          PTX that the driver compiles for any newer GPU)
#   BUILD  the build folder (default build/); JSON, TSV, HTML: other paths
#          for results.json, results.tsv and report.html (the page to look
#          at: each lab's roofline, each exercise's tiers and attempts)
#   BUILD_JOBS  compiles at once (default: every core; make -jN sets it
#          too); V=1 prints the compilers' command lines
#   HISTORY  the file in each SRC root that keeps every graded attempt
#          (default .workbook-history.tsv; HISTORY= keeps none)
#   LOCKDOWN=0  run the exercises without their seccomp filter, to diagnose
#          a CUDA runtime the filter breaks (docs/grading.md, section 8)
#   LAUNCH a command that runs make grade where the GPU is, from here:
#          LAUNCH="srun --gres=gpu:1" on a Slurm cluster, LAUNCH="ssh host"
#          on a machine you can ssh to (the folder shared, at the same path)
#   COURSE a per-course settings file, if your course gives one (the labs
#          it grades, points, tiers, time limits; make check-course checks
#          one without a GPU); CLASSROOM, JUNIT: where make grade writes
#          GitHub Classroom JSON and JUnit XML (default: beside results.json)

# make grade LAUNCH=... on the other machine reads the settings given here
# from this file (see LAUNCH below).
ifneq ($(LAUNCH_SETTINGS),)
include $(LAUNCH_SETTINGS)
endif

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
ifeq ($(origin CC),default)
CC        := gcc
endif
BUILD     ?= build
SRC       ?= labs
LAB       ?=
EX        ?=
SEED      ?=
NOGPU_SM  ?= 75
SANITIZE  ?=
SANITIZER ?= $(or $(wildcard $(CUDA_HOME)/bin/compute-sanitizer),$(shell command -v compute-sanitizer 2>/dev/null),compute-sanitizer)
PROFILE   ?=
WITH      ?=
SHAPE     ?=
NCU       ?= $(or $(shell command -v ncu 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/ncu),$(lastword $(sort $(wildcard $(CUDA_HOME)/nsight-compute*/ncu /opt/nvidia/nsight-compute/*/ncu))))

# ---- the GPU architecture ----------------------------------------------------
ifeq ($(origin SM),undefined)
SM := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
ifeq ($(SM),)
SM := $(NOGPU_SM)
endif
endif
SM_LIST   := $(sort $(SM))
SM_LOW    := $(firstword $(SM_LIST))
# Hopper's own instructions (wgmma, setmaxnreg, the TMA's tensor loads) exist
# in sm_90a code alone, which runs on compute capability 9.0 and nothing
# else: where SM holds 90, code is built for sm_90a, so that a file may use
# them (lab 08's hgemm solution does); the SASS of everything else is the
# same as sm_90's.
sm_code   = $(if $(filter 90,$(1)),90a,$(1))
ARCH      := $(foreach s,$(SM_LIST),-gencode arch=compute_$(call sm_code,$(s)),code=sm_$(call sm_code,$(s))) \
             -gencode arch=compute_$(call sm_code,$(SM_LOW)),code=compute_$(call sm_code,$(SM_LOW))
empty     :=
space     := $(empty) $(empty)
comma     := ,
B         := $(BUILD)/sm$(subst $(space),-,$(SM_LIST))

# ---- output -------------------------------------------------------------------
# A line per file built ("  nvcc     labs/05-reduction/naive.cu"; what is
# built in the build folder, by its path there); V=1 shows the
# compilers' command lines instead.
ifeq ($(V),1)
Q         :=
say        = :
else
Q         := @
say        = printf '  %-8s %s\n' '$(1)' '$(patsubst $(BUILD)/%,%,$(2))'
endif

# ---- flags --------------------------------------------------------------------
# Host C: C11, warning-clean under -Wall -Wextra (CI adds -Werror).
CFLAGS    ?= -O2 -g
CFLAGS    += -std=c11 -Wall -Wextra $(WERROR) -D_POSIX_C_SOURCE=200809L -MMD -MP
CUDA_INC  := -I$(CUDA_HOME)/include -Icommon
# CUDA C: -lineinfo maps sanitizer and profiler reports to source lines.
NVFLAGS   ?= -O3 -lineinfo
NVFLAGS   += $(ARCH) -std=c++17 -Icommon -Xcompiler -Wall -MMD -MP
LDLIBS    := -lm -ldl -lpthread
# The PTX that technique checks read (grader/inspect/inspect.sh): one architecture.
INSPECT_PTXFLAGS := -O3 -lineinfo -arch=compute_$(call sm_code,$(SM_LOW)) -std=c++17 -Icommon
# A submission's compiles (grader/build.sh): no -Icommon (its include path
# is the lab's staged headers alone), and CUB's NVTX annotations compiled
# out, so that a file's only code is its own and the headers' kernels.
STUDENT_NVFLAGS  = $(filter-out -Icommon,$(NVFLAGS)) -DNVTX_DISABLE
STUDENT_PTXFLAGS = $(filter-out -Icommon,$(INSPECT_PTXFLAGS)) -DNVTX_DISABLE
# What a submission's compile may open besides the lab's headers: the
# toolkit, and the host compiler's own search path (asked of it once).
ifeq ($(origin COMPILE_ALLOW),undefined)
COMPILE_ALLOW   := $(CUDA_HOME) $(shell echo | g++ -xc++ -E -v - 2>&1 | \
                   sed -n '/^\#include <\.\.\.> search starts here:/,/^End of search list/s/^ //p')
endif
# Each compile's limits: a wall-clock limit, and an address-space limit
# per process such that the two compilers of each of nproc parallel jobs
# fit in the memory (at least 1 GiB, at most 4 GiB).
COMPILE_TIMEOUT ?= 60
ifeq ($(origin COMPILE_MEM),undefined)
COMPILE_MEM     := $(shell awk -v j=$$(nproc 2>/dev/null || echo 2) '/^MemTotal:/ { \
                   m = int($$2 / 1024 / (2 * j)); print (m < 1024 ? 1024 : (m > 4096 ? 4096 : m)) }' /proc/meminfo)
endif

# ---- the labs: each folder with a lab.mk plugs in here ----------------------
LABS      := $(patsubst labs/%/lab.mk,%,$(sort $(wildcard labs/*/lab.mk)))
# LAB= names a lab in full (05-reduction), without its number (reduction)
# or by its number alone (05).
lab_num    = $(firstword $(subst -, ,$(1)))
lab_short  = $(patsubst $(call lab_num,$(1))-%,%,$(1))
lab_match  = $(foreach l,$(1),$(if $(filter $(LAB),$(l) $(call lab_short,$(l)) $(call lab_num,$(l))),$(l)))
# LAB= may list several: LAB="reduction fusion". Each must name a lab.
lab_word   = $(strip $(foreach l,$(LABS),$(if $(filter $(1),$(l) $(call lab_short,$(l)) $(call lab_num,$(l))),$(l))))
ifneq ($(LAB),)
LABS_SEL  := $(call lab_match,$(LABS))
LABS_BAD  := $(strip $(foreach w,$(LAB),$(if $(call lab_word,$(w)),,$(w))))
ifneq ($(LABS_BAD),)
$(info no lab named "$(firstword $(LABS_BAD))" (LAB=$(LAB)). LAB= takes one of these,)
$(info whole, by its name or by its number (LAB=05-reduction, reduction or 05):)
$(foreach l,$(LABS),$(info $(space) $(l)))
$(error no such lab)
endif
else
LABS_SEL  := $(LABS)
endif

HARNESS_SRCS := runner.c fate.c tma.c lab_check.c bench.c buffers.c timing.c check.c rng.c stats.c scale.c result.c lockdown.c verdict.c profile_mode.c fresh.c diag.c rules.c probe.cu peak_sm90.cu
HARNESS   := $(patsubst %,$(B)/common/%.o,$(basename $(HARNESS_SRCS)))
# peak_sm90.cu's wgmma probe (the tensor cores' peak on a Hopper GPU)
# exists on sm_90a alone: where SM holds 90, that object is built for
# sm_90a and nothing else; elsewhere as the rest, its kernel empty and
# never launched (wb_wgmma_usable()).
ARCH_90A  := $(if $(filter 90,$(SM_LIST)),-gencode arch=compute_90a$(comma)code=sm_90a)
DEVINFO   := $(B)/devinfo
# The grader's rooms (grader/grade.h lists their floors): the base at the
# top (the run's model, records, processes, the GPU lock), then one folder
# per layer.
GRADER_ROOMS := inspect run score report profile cmd
GRADER_SRCS := main.c proc.c record.c settle.c labfind.c gpulock.c html_text.c
GRADER_SRCS += $(patsubst grader/%,%,$(foreach r,$(GRADER_ROOMS),$(filter-out %/render.c,$(wildcard grader/$(r)/*.c))))
GRADER_INC  := -Igrader $(addprefix -Igrader/,$(GRADER_ROOMS))
# The driver scores from a record's rounds with the runner's statistics.
GRADER_OBJS := $(patsubst %.c,$(BUILD)/host/grader/%.o,$(GRADER_SRCS)) \
               $(BUILD)/host/common/verdict.o $(BUILD)/host/common/scale.o \
               $(BUILD)/host/common/stats.o
$(BUILD)/host/grader/%.o: CFLAGS += $(GRADER_INC)
GRADER    := $(BUILD)/host/grader/grader

# Where a submission's builds go: one folder per SRC search path.
TAG        = $(subst /,_,$(subst $(space),+,$(strip $(SRC))))
T          = $(B)/$(TAG)
# The student file for lab $(1), exercise $(2): the first SRC root that has it.
student_src = $(firstword $(wildcard $(addsuffix /$(1)/$(2).cu,$(SRC))))

# lab_rules(lab): read its lab.mk; define its objects, info binary, runners.
# A student's runner links the lab's own code (its table, naive) and never
# the peers: no library kernel is in a process that runs student code. The
# info binary, which runs no student code, links the peers and their
# libraries: it lists the table and times the grader's reference.
define lab_rules
EXERCISES :=
LAB_SRCS  :=
PEER_SRCS :=
LAB_LIBS  :=
LAB_MIN_SM :=
SHIPS_CODE :=
HEADERS   :=
ANSWERS   :=
HOST_EXERCISES :=
include labs/$(1)/lab.mk
$(1)_EXERCISES := $$(EXERCISES)
$(1)_KEYS      := $$(patsubst %,$(B)/lab/$(1)/%.o,$$(filter $$(ANSWERS),$$(LAB_SRCS)))
$(1)_OBJS      := $$(patsubst %,$(B)/lab/$(1)/%.o,$$(LAB_SRCS))
# make check's host checker links the lab's C objects but its keys (lab.c
# and the exercises' ex_*.c), weakened (host_rule).
$(1)_HOSTOBJS  := $$(patsubst %,$(B)/lab/$(1)/%.o,$$(filter-out $$(ANSWERS),$$(filter %.c,$$(LAB_SRCS))))
$(1)_PEERS     := $$(patsubst %,$(B)/lab/$(1)/%.o,$$(PEER_SRCS))
$(1)_LIBS      := $$(LAB_LIBS)
$(1)_HEADERS   := $$(HEADERS)
ALL_LAB_OBJS   += $$($(1)_OBJS) $$($(1)_PEERS)
$$(eval $$(call lab_arch,$(1),$$(LAB_MIN_SM)))

$(T)/$(1)/info: $$($(1)_OBJS) $$($(1)_PEERS) $(HARNESS)
	@mkdir -p $$(@D)
	@$$(call say,link,$$@)
	$$(Q)$$(NVCC) $$(ARCH) -o $$@ $$^ $$($(1)_LIBS) $$(LDLIBS)

# make check's table: the lab's own code alone, no peer (they are for
# the grade's reference run): what the grader reads its table from in
# build-only mode, without compiling the libraries' kernels.
$(T)/$(1)/table: $$($(1)_OBJS) $(HARNESS)
	@mkdir -p $$(@D)
	@$$(call say,link,$$@)
	$$(Q)$$(NVCC) $$(ARCH) -o $$@ $$^ $$(LDLIBS)

# EX= builds that exercise's runner alone (and the lab's info; make
# check's table instead: CHECK=1).
RUNNERS += $(T)/$(1)/$(if $(CHECK),table,info) $$(foreach e,$$(if $(EX),$$(filter $(EX),$$(EXERCISES)),$$(EXERCISES)),$(T)/$(1)/$$(e))
$$(foreach e,$$(EXERCISES),$$(eval $$(call exercise_rule,$(1),$$(e))))
# make check grades the lab's host exercises on the CPU (host_rule).
HOSTCHECKS += $$(foreach e,$$(if $(EX),$$(filter $(EX),$$(HOST_EXERCISES)),$$(HOST_EXERCISES)),$(T)/$(1)/$$(e).host)
$$(foreach e,$$(HOST_EXERCISES),$$(eval $$(call host_rule,$(1),$$(e))))
$$(eval $$(call lab_headers,$(1)))
endef

# lab_arch(lab, min_sm): a lab whose lab.mk sets LAB_MIN_SM (lab 08: bf16
# mma.sync and cp.async need sm_80) is built for that architecture where SM
# is older, so that its code is compiled and its PTX inspected as it is
# (the driver never runs it on an older GPU: grader/run/trip.c's gpu stage).
# The variables are private: the harness's objects, prerequisites of the
# same runners, keep SM's architecture.
lab_too_old = $(if $(2),$(shell [ "$(SM_LOW)" -lt "$(2)" ] 2>/dev/null && echo y))
define lab_arch
ifneq ($(call lab_too_old,$(1),$(2)),)
$(1)_ARCH := -gencode arch=compute_$(2),code=sm_$(2) \
             -gencode arch=compute_$(2),code=compute_$(2)
$$($(1)_OBJS) $$($(1)_PEERS) $(T)/$(1)/info $(T)/$(1)/table: private ARCH := $$($(1)_ARCH)
$$(foreach e,$$($(1)_EXERCISES),$(T)/$(1)/$$(e)): private ARCH := $$($(1)_ARCH)
$$(foreach e,$$($(1)_EXERCISES),$(T)/$(1)/$$(e)): private INSPECT_PTXFLAGS := \
	$$(subst compute_$(call sm_code,$(SM_LOW)),compute_$(2),$$(INSPECT_PTXFLAGS))
endif
endef

# exercise_rule(lab, exercise): build the submission's runner with
# grader/build.sh, which holds the rules every exercise's build obeys (its
# header says them): the compile sees only the lab's staged public headers
# (lab_headers, below), the toolkit's and the system's; each compile runs
# under COMPILE_TIMEOUT and COMPILE_MEM; the runner links a sealed copy of
# the object, in which nothing but the entry points keeps its name.
# <runner>.src records which file was built, so a runner is rebuilt when
# its file is removed or another SRC root's file takes its place. A failed
# build is not make's failure: it is written to <runner>.log, the runner
# is missing, and the grader reports COMPILE ERROR for this exercise alone.
define exercise_rule
$(T)/$(1)/$(2).src: FORCE
	@mkdir -p $$(@D)
	@echo '$(call student_src,$(1),$(2))' | cmp -s - $$@ || echo '$(call student_src,$(1),$(2))' > $$@

$(T)/$(1)/$(2): $(T)/$(1)/$(2).src $(call student_src,$(1),$(2)) $$($(1)_OBJS) $(HARNESS) \
		grader/build.sh grader/inspect/inspect.sh $(B)/include/$(1)/.staged
	@mkdir -p $$(@D); rm -f $$@
	@if [ -z "$(call student_src,$(1),$(2))" ]; then \
		echo "no $(1)/$(2).cu in SRC=$(SRC)" > $$@.log; \
		echo "  missing  $(1)/$(2).cu"; \
	else \
		NVCC="$$(NVCC)" NVFLAGS="$$(STUDENT_NVFLAGS)" PTXFLAGS="$$(STUDENT_PTXFLAGS)" \
		ARCH="$$(ARCH)" LDLIBS="$$(LDLIBS)" INCDIR=$(B)/include/$(1) \
		ALLOW="$$(COMPILE_ALLOW)" COMPILE_TIMEOUT=$$(COMPILE_TIMEOUT) \
		COMPILE_MEM=$$(COMPILE_MEM) sh grader/build.sh $$@ \
			$(call student_src,$(1),$(2)) $$($(1)_OBJS) -- $(HARNESS); \
	fi
endef

# host_rule(lab, exercise): <runner>.host, the exercise graded on the CPU
# with no GPU and no CUDA driver (common/hostcheck.c), for make check: the
# lab's C objects (lab.c, its ex_*.c) each weakened (the kernels and the
# other exercises' entry points they name stay NULL), the
# submission compiled by the host compiler against the same staged
# headers, and the lab's answer key where this copy has one. Built only
# where the runner was (a file that does not compile is COMPILE ERROR);
# a failure to build it is written to <runner>.host.log.
HOSTCXX   ?= g++
OBJCOPY   ?= objcopy
define host_rule
$(T)/$(1)/$(2).host: $(T)/$(1)/$(2) $(B)/common/hostcheck.o $(B)/common/rng.o $$($(1)_OBJS)
	$$(Q)rm -f $$@; [ -x $(T)/$(1)/$(2) ] || exit 0; \
	{ $$(foreach o,$$($(1)_HOSTOBJS),$(OBJCOPY) --weaken $$(o) $$@.$$(notdir $$(o)) && ) \
	  $(HOSTCXX) -x c++ -std=c++17 -O2 -I$(CUDA_HOME)/include -I$(B)/include/$(1) \
		-c $(call student_src,$(1),$(2)) -o $$@.o && \
	  $(HOSTCXX) -o $$@ $(B)/common/hostcheck.o \
		$$(addprefix $$@.,$$(notdir $$($(1)_HOSTOBJS))) $(B)/common/rng.o \
		$$($(1)_KEYS) $$@.o -lm; } > $$@.log 2>&1 || rm -f $$@
endef

# lab_headers(lab): the lab's public headers (lab.mk's HEADERS) and the
# workbook headers they include, staged alone: the only folder on a
# submission's include path (grader/build.sh --stage).
define lab_headers
$(B)/include/$(1)/.staged: labs/$(1)/lab.mk $$(addprefix labs/$(1)/,$$($(1)_HEADERS)) \
		$$(wildcard common/*.h) grader/build.sh
	@sh grader/build.sh --stage $$(@D) labs/$(1) common $$($(1)_HEADERS)
endef

ALL_LAB_OBJS :=
RUNNERS :=
HOSTCHECKS :=
$(foreach l,$(LABS_SEL),$(eval $(call lab_rules,$(l))))

# ---- compile rules -----------------------------------------------------------
$(B)/common/%.o: common/%.c
	@mkdir -p $(@D)
	@$(call say,cc,$<)
	$(Q)$(CC) $(CFLAGS) $(CUDA_INC) -c $< -o $@

$(B)/common/%.o: common/%.cu
	@mkdir -p $(@D)
	@$(call say,nvcc,$<)
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(BUILD)/host/%.o: %.c
	@mkdir -p $(@D)
	@$(call say,cc,$<)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(B)/lab/%.c.o: labs/%.c
	@mkdir -p $(@D)
	@$(call say,cc,$<)
	$(Q)$(CC) $(CFLAGS) $(CUDA_INC) -I$(dir $<) -c $< -o $@

$(B)/lab/%.cu.o: labs/%.cu
	@mkdir -p $(@D)
	@$(call say,nvcc,$<)
	$(Q)$(NVCC) $(NVFLAGS) -I$(dir $<) -c $< -o $@

$(B)/common/peak_sm90.o: private ARCH := $(or $(ARCH_90A),$(ARCH))

$(DEVINFO): common/devinfo.cu common/probe.cu common/probe.h common/fresh_hash.h common/workbook.h $(B)/common/peak_sm90.o
	@mkdir -p $(@D)
	@$(call say,nvcc,common/devinfo.cu)
	$(Q)$(NVCC) $(NVFLAGS) -o $@ common/devinfo.cu common/probe.cu $(B)/common/peak_sm90.o

$(GRADER): $(GRADER_OBJS)
	@$(call say,link,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

FORCE:
.PHONY: FORCE

# ---- what people run ---------------------------------------------------------
# A runner whose last build failed has no file, so make retries it next time.
JSON      ?= $(T)/results.json
TSV       ?= $(T)/results.tsv
CLASSROOM ?= $(T)/classroom.json
JUNIT     ?= $(T)/junit.xml
HTML      ?= $(T)/report.html
REPORT_DATA ?= $(T)/report.run
HISTORY   ?= .workbook-history.tsv
GRADE_ARGS = --labs labs --build $(T) --source "$(SRC)" --devinfo $(DEVINFO) \
             --reference-cache $(B)/reference $(if $(LOCKDOWN),--lockdown $(LOCKDOWN)) \
             --calibrations calibrations \
             $(if $(LAB),--lab "$(LAB)") $(if $(EX),--ex $(EX)) $(if $(SEED),--seed $(SEED)) \
             $(if $(TIMEOUT),--timeout-cap $(TIMEOUT)) \
             $(if $(SANITIZE),--sanitizer $(SANITIZER),--sanitizer-path $(SANITIZER)) \
             $(if $(SIZE),--size '$(SIZE)') \
             $(if $(PROFILE),--ncu "$(NCU)") \
             $(if $(COURSE),--course $(COURSE)) \
             $(if $(HISTORY),--history $(HISTORY)) \
             $(if $(filter-out solutions,$(SRC)),--solutions-run $(B)/solutions/report.run)

.PHONY: all runners hostchecks tools grade grade-solutions bench bench-run profile doctor build-all test torch-compare \
        test-unit test-deps clean

all: tools runners

tools: $(GRADER) $(DEVINFO)

runners: $(RUNNERS)

# The host exercises graded on the CPU (host_rule), and the grader that
# runs them: what make check needs beside the runners.
hostchecks: $(GRADER) $(HOSTCHECKS)
	@:

# LAUNCH runs make grade on the machine with the GPU, from this one: for
# Slurm, LAUNCH="srun --gres=gpu:1" (add your partition and time); over
# ssh, LAUNCH="ssh gpu-host". The repository must be on a filesystem both
# machines share (a cluster's home folders are), at the same path. The
# settings given here (LAUNCH_VARS, from the command line or the
# environment) travel in $(LAUNCH_FILE), which make reads there: ssh
# passes no environment, and srun and ssh quote arguments differently, so
# the command itself holds no value that needs quoting. The report prints
# here as it is written there. Nothing is built here.
LAUNCH_VARS := SRC LAB EX SEED SIZE TIMEOUT SANITIZE SANITIZER PROFILE NCU \
               WITH SHAPE SM BUILD JSON TSV CLASSROOM JUNIT LOCKDOWN COURSE \
               CUDA_HOME NVCC HTML REPORT_DATA HISTORY
LAUNCH_FILE := $(abspath $(BUILD)/launch-settings.mk)
define newline


endef
launch_given = $(filter command line environment,$(origin $(1)))
launch_settings = $(foreach v,$(LAUNCH_VARS),$(if $(call launch_given,$(v)),$(v) := $(value $(v))$(newline)))
# With no GPU here, make grade does what can be done without one (make
# check: each exercise built and checked, nothing run, no points) and
# fails, since nothing was graded. With COURSE=, only the labs the course
# grades are built. The GPU probe (the driver's start, a CUDA context and
# the bandwidth probes: 0.4 to 0.6 s on an H100 machine, most of the
# grader's own start) runs while the runners build, under the GPU lock a
# grading run takes, so it costs a student's edit-grade loop nothing; the
# grader then reads it (--probe-file). Its one line, where there is no
# GPU, comes after the build's.
COURSE_LABS = $(GRADER) --labs labs --build $(BUILD) --course '$(COURSE)' \
              --check-course labs $(if $(LAB),--lab "$(LAB)")
# course_runners(MAKEVARS, TARGETS): make runners and TARGETS, with
# COURSE= for its labs alone, BUILD_JOBS at once unless make was given -j.
course_runners = $(if $(COURSE),$(MAKE) --no-print-directory $(GRADER) && \
  labs=$$($(COURSE_LABS)) || exit 2; \
  $(MAKE) --no-print-directory $(JOBS_FLAG) runners $(2) $(1) LAB="$$(echo $$labs)",$(MAKE) --no-print-directory $(JOBS_FLAG) runners $(2) $(1))
# Builds run in parallel by default: every core (make -jN picks another
# number, make -j1 one at a time). -j is in MAKEFLAGS only in a recipe.
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
JOBS_FLAG   = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS))
# No GPU at all here: no GPU in nvidia-smi's list and no device file
# (/dev/nvidia0, or WSL's /dev/dxg). Asked before anything is built, so
# that make grade says it at once; a GPU the driver cannot use is found
# by the probe below.
NO_GPU_HERE = ! { nvidia-smi -L 2>/dev/null | grep -q '^GPU' || \
              ls /dev/nvidia[0-9]* /dev/dxg > /dev/null 2>&1; }
ifeq ($(strip $(LAUNCH)),)
grade:
	+@if $(NO_GPU_HERE); then \
		echo "No CUDA GPU here (nvidia-smi lists none, no /dev/nvidia0): make grade"; \
		echo "needs one. Checking what can be checked without it (make check)."; \
		echo "To grade: make grade on a GPU machine, or LAUNCH= (make help)."; \
		$(MAKE) --no-print-directory check; exit $$?; \
	fi; \
	$(MAKE) --no-print-directory $(JOBS_FLAG) tools && \
	$(MAKE) --no-print-directory grade-gpu

.PHONY: grade-gpu
grade-gpu: tools
	+@$(GRADER) --devinfo $(DEVINFO) --probe-only $(B)/probe.out \
		> $(B)/gpu-check.out 2>&1 & gpu=$$!; \
	( $(call course_runners) ); built=$$?; \
	if ! wait $$gpu; then \
		cat $(B)/gpu-check.out; \
		echo "Checking what can be checked without a GPU instead (make check):"; \
		$(MAKE) --no-print-directory check; \
		echo "Nothing was graded: the GPU above cannot be used (make doctor says why)."; \
		exit 2; \
	fi; \
	exit $$built
	@$(GRADER) $(GRADE_ARGS) --probe-file $(B)/probe.out \
		--json $(JSON) --tsv $(TSV) --classroom $(CLASSROOM) --junit $(JUNIT) \
		--report-data $(REPORT_DATA) --html $(HTML)
else
grade:
	@mkdir -p $(dir $(LAUNCH_FILE))
	$(file >$(LAUNCH_FILE),# make grade LAUNCH=: the settings given on the launching side$(newline)$(launch_settings))
	@$(LAUNCH) $(MAKE) --no-print-directory -C $(CURDIR) grade LAUNCH= \
		LAUNCH_SETTINGS=$(LAUNCH_FILE)
endif

grade-solutions:
	@test -d solutions || { echo "no solutions/ here: this is the student handout"; exit 2; }
	+@$(MAKE) --no-print-directory grade SRC=solutions

bench: tools
	@$(DEVINFO) --check
	+@$(MAKE) --no-print-directory $(JOBS_FLAG) runners SRC=solutions
	+@$(MAKE) --no-print-directory bench-run SRC=solutions

bench-run:
	@$(GRADER) $(GRADE_ARGS) --mode bench --tsv $(T)/bench.tsv \
		--report-data $(T)/bench.run --html $(T)/bench.html

# Why, not only how fast: each selected speed exercise's kernels under Nsight
# Compute, one call at the benchmark size, and the hints its numbers justify
# (docs/nsight-compute.md). WITH=naive,solution (or peer) adds columns;
# SHAPE=1 profiles the second benchmark shape; every figure goes to
# PROFILE_TSV. Clocks are left as they are.
PROFILE_TSV ?= $(T)/profile.tsv
profile: tools
	@$(DEVINFO) --check
	+@$(MAKE) --no-print-directory $(JOBS_FLAG) runners
	+@$(if $(findstring solution,$(WITH)),$(MAKE) --no-print-directory $(JOBS_FLAG) runners SRC=solutions,:)
	@$(GRADER) $(GRADE_ARGS) --mode profile --ncu "$(NCU)" --with "$(WITH)" \
		--solutions-build $(B)/solutions --profile-tsv $(PROFILE_TSV) \
		$(if $(SHAPE),--shape $(SHAPE))

# The tiers the docs quote, written from the labs' tables into the marked
# blocks of the READMEs and docs/ (tools/docs.sh); make test checks them.
.PHONY: docs
docs: tools
	$(call instructor_tool,tools/docs.sh)
	+@$(MAKE) --no-print-directory $(foreach l,$(LABS),$(B)/labs/$(l)/info) SRC=labs
	@B=$(B) sh tools/docs.sh write

# SRC's exercises built and checked, nothing run: no GPU needed. Skeletons,
# compile errors, rejected files, technique rules, and each kernel's
# registers, shared memory and spills; no points, tiers or seed.
.PHONY: check
check:
	+@$(call course_runners,CHECK=1,hostchecks)
	@$(GRADER) --labs labs --build $(T) --source "$(SRC)" --mode build-only \
		$(if $(LAB),--lab "$(LAB)") $(if $(EX),--ex $(EX)) $(if $(COURSE),--course $(COURSE))

# Every skeleton and every solution must build, GPU or not.
# (A student handout has no solutions/: its skeletons are built alone.)
build-all: tools
	+@$(MAKE) --no-print-directory $(JOBS_FLAG) runners SRC=labs
	+@$(if $(wildcard solutions),$(MAKE) --no-print-directory $(JOBS_FLAG) runners SRC=solutions,echo "no solutions/ here (the student handout): labs/ only")
	@$(GRADER) --labs labs --build $(B)/labs --source labs --mode build-only $(if $(LAB),--lab "$(LAB)")
	@$(if $(wildcard solutions),$(GRADER) --labs labs --build $(B)/solutions --source solutions --mode build-only $(if $(LAB),--lab "$(LAB)"))

# The solutions against PyTorch, for labs with a compare_torch.py (needs a
# GPU and PyTorch; not needed to grade). Each solution file becomes a shared
# library of its own, since two may define kernels of the same name.
PYTHON    ?= python3
TORCH_LABS = $(foreach l,$(LABS_SEL),$(if $(wildcard labs/$(l)/compare_torch.py),$(l)))
torch-compare: tools
	@$(DEVINFO) --check
	@for l in $(TORCH_LABS); do \
		mkdir -p $(B)/torch/$$l || exit 1; \
		for f in solutions/$$l/*.cu; do \
			$(NVCC) -O3 $(ARCH) -std=c++17 -Icommon -Ilabs/$$l -shared \
				-Xcompiler -fPIC -o $(B)/torch/$$l/$$(basename $$f .cu).so \
				$$f common/standalone.c || exit 1; \
		done; \
		$(PYTHON) labs/$$l/compare_torch.py $(B)/torch/$$l || exit 1; \
	done

# make doctor builds devinfo, which asks the GPU, only where there is one.
doctor:
	+@if $(NO_GPU_HERE); then sh grader/doctor.sh "$(NVCC)" "" "$(B)"; else \
		$(MAKE) --no-print-directory $(DEVINFO) > /dev/null && \
		sh grader/doctor.sh "$(NVCC)" "$(DEVINFO)" "$(B)"; fi

# ---- the report page and the history (docs/grading.md, section 6) ------------
# make report reads a run's report.run, a results.tsv or a calibration's
# all.tsv (SOURCE= picks its rows) and writes HTML= (default: beside it);
# SOLUTIONS= a grade-solutions' report.run adds the solutions' points.
RENDER    := $(BUILD)/host/grader/render
RENDER_OBJS := $(BUILD)/host/grader/report/render.o \
               $(filter-out $(BUILD)/host/grader/main.o,$(GRADER_OBJS))
RESULTS   ?=
REPORT_HTML = $(if $(filter command line,$(origin HTML)),$(HTML),$(dir $(RESULTS))report.html)

$(RENDER): $(RENDER_OBJS)
	@$(call say,link,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: report history
report: $(RENDER)
	@test -n "$(RESULTS)" || { echo "give RESULTS=<a graded run's report.run or results.tsv>:"; \
		if [ -f $(T)/report.run ]; then echo "  make report RESULTS=$(T)/report.run"; \
		else echo "  make grade writes $(T)/report.run (make check writes none)"; fi; exit 2; }
	@mkdir -p $(dir $(REPORT_HTML))
	@$(RENDER) --results $(RESULTS) --html $(REPORT_HTML) $(if $(SOURCE),--source "$(SOURCE)") \
		$(if $(SOLUTIONS),--solutions $(SOLUTIONS))

history: $(RENDER)
	@$(RENDER) --history $(addsuffix /$(HISTORY),$(SRC)) $(if $(LAB),--lab $(LAB)) $(if $(EX),--ex $(EX))

# ---- batch grading of a class (docs/batch-grading.md) --------------------------
# make batch SUBMISSIONS=dir         grade every submission in dir (folders,
#                                    .tar.gz, .zip) into OUT: gradebook.csv,
#                                    summary.txt, students/<id>/; run it again
#                                    to resume where it stopped
# make slurm-script SUBMISSIONS=dir  the same as a Slurm job array: OUT/slurm/
# OUT (default <SUBMISSIONS>-graded; only from the command line), LAB,
# BUILD_ONLY=1 (build and check, run nothing: no GPU), JOBS (builds at once),
# GPUS=0,1 (default: every visible GPU), SEED, TIMEOUT, COURSE; the sandbox:
# SANDBOX=off (grade UNSANDBOXED: without it nothing is graded), SANDBOX_USER
# (run as root: the account student code runs as, default nobody),
# SANDBOX_NPROC, SANDBOX_MEM (e.g. 8G), SANDBOX_CGROUP (a delegated cgroup v2
# folder for pids.max and memory.max); for Slurm: CHUNK (submissions per array task,
# default: enough for at most 100 tasks), PARTITION, SLURM_TIME, SLURM_CPUS, SLURM_ARGS (one #SBATCH
# line per word, e.g. "--account=cs759 --qos=class"), SLURM_PROLOGUE (shell
# lines each job runs first: "module load cuda/12.4"), GPU_TYPE (a100:
# --gres=gpu:a100:1) or SLURM_CONSTRAINT, SLURM_MEM, SLURM_EXCLUSIVE=1,
# MERGE_PARTITION (a CPU partition for the merge job); SM="80 90" builds for
# every GPU the partition has (a task on another GPU grades nothing).
# REGRADE=all (every student again, under new rules: a changed grader, lab
# or course file) or REGRADE=alice,bob; IDS=ids.csv ("entry,login" lines:
# colliding or unusable folder names); TIMES=times.csv ("entry,time": the
# submission times, else each entry's arrival; the course file's deadline);
# BUILD_TIMEOUT (seconds per submission's build, default 900).
# The batch tool's build (its sources, floor by floor, and its program):
# tools/batch/batch.mk, in its own room; the student handout has none.
-include tools/batch/batch.mk

.PHONY: batch batch-prepare slurm-script
# What every submission links against is built once, here, outside the sandbox.
# (The student handout has no tools/batch: there this target says so.)
batch-prepare: tools $(if $(wildcard tools/batch/main.c),$(BATCH))
	@test -f tools/batch/main.c || { echo "make batch is an instructor tool: it is not in the student handout"; exit 2; }
	@test -n "$(SUBMISSIONS)" || { echo "give SUBMISSIONS=<a folder of submissions> (docs/batch-grading.md)"; exit 2; }
	+@$(call course_runners,SRC=labs)

# make exits 2 whenever a command fails: an interrupted batch (status 130)
# interrupts make itself instead, so that make batch ends with 130 too.
# The recipe's shell stays a second after the signal, so that make, which
# waits for it, takes the signal while it waits: a shell gone at once left
# make reaping a child it had already reaped ("wait: No child processes")
# and exiting 2 (29 runs of 40 on a loaded machine; 0 of 40 with the
# second).
batch: batch-prepare
	@$(BATCH) $(BATCH_ARGS) || { rc=$$?; [ $$rc -ne 130 ] || { kill -INT $$PPID; sleep 1; }; exit $$rc; }

slurm-script: batch-prepare
	@$(BATCH) $(BATCH_ARGS) --slurm-script $(if $(CHUNK),--chunk $(CHUNK)) \
		$(if $(PARTITION),--partition $(PARTITION)) $(if $(SLURM_TIME),--time $(SLURM_TIME)) \
		$(if $(SLURM_CPUS),--cpus $(SLURM_CPUS)) $(foreach a,$(SLURM_ARGS),--slurm-arg '$(a)') \
		$(if $(GPU_TYPE),--gpu-type '$(GPU_TYPE)') $(if $(SLURM_CONSTRAINT),--constraint '$(SLURM_CONSTRAINT)') \
		$(if $(SLURM_MEM),--slurm-mem '$(SLURM_MEM)') $(if $(SLURM_EXCLUSIVE),--exclusive) \
		$(if $(MERGE_PARTITION),--merge-partition '$(MERGE_PARTITION)') \
		$(if $(SLURM_PROLOGUE),--slurm-prologue '$(SLURM_PROLOGUE)')

# ---- tests ---------------------------------------------------------------------
# What make test needs, required and optional, and what was found here
# (tests/deps.sh); it stops make test only when a required one is missing.
TEST_DEPS := cmocka jansson
test-deps:
	@$(if $(TEST_DEPS_DONE),:,sh tests/deps.sh)

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/host/tests/%,$(wildcard tests/unit/test_*.c))
UNIT_LIB   := $(filter-out $(BUILD)/host/grader/main.o,$(GRADER_OBJS)) \
              $(patsubst %,$(BUILD)/host/common/%.o,check rng result diag lockdown)

$(BUILD)/host/tests/%: tests/unit/%.c $(UNIT_LIB) | test-deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags $(TEST_DEPS) 2>/dev/null) $(GRADER_INC) -Icommon \
		-o $@ $< $(UNIT_LIB) $(shell pkg-config --libs $(TEST_DEPS) 2>/dev/null) $(LDLIBS)

# The lockdown test starts threads (glibc before 2.34 needs -pthread).
$(BUILD)/host/tests/test_lockdown: LDLIBS += -pthread

# Lab 08 attention's check is tested on the host: the test includes the
# lab's lab.c, whose headers need CUDA's (types only: nothing links CUDA).
$(BUILD)/host/tests/test_lab08_attention: CFLAGS += -I$(CUDA_HOME)/include \
	-Ilabs/08-tensor-cores
$(BUILD)/host/tests/test_lab08_attention: LDLIBS += -lm

$(BUILD)/host/tests/fake_child: tests/unit/fake_child.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# The batch's tests link the batch's objects too.
$(BUILD)/host/tests/test_batch_classpage: tests/unit/test_batch_classpage.c $(UNIT_LIB) $(BATCH_LIB) | test-deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags $(TEST_DEPS) 2>/dev/null) $(GRADER_INC) -Icommon -Itools/batch \
		-o $@ $< $(BATCH_LIB) $(UNIT_LIB) $(shell pkg-config --libs $(TEST_DEPS) 2>/dev/null) $(LDLIBS)

$(BUILD)/host/tests/test_batch: tests/unit/test_batch.c $(UNIT_LIB) $(BATCH_LIB) | test-deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags $(TEST_DEPS) 2>/dev/null) $(GRADER_INC) -Icommon -Itools/batch \
		-o $@ $< $(BATCH_LIB) $(UNIT_LIB) $(shell pkg-config --libs $(TEST_DEPS) 2>/dev/null) $(LDLIBS)

test-unit: test-deps $(UNIT_TESTS) $(BUILD)/host/tests/fake_child

# Objects only the tests link are not intermediates to delete.
.SECONDARY: $(UNIT_LIB)

# make test installs what it needs where it can (tests/deps.sh --install:
# apt-get as root or through sudo -n; TEST_INSTALL=0 installs nothing).
test:
	@sh tests/deps.sh --install
	+@$(MAKE) --no-print-directory $(JOBS_FLAG) test-unit tools TEST_DEPS_DONE=1
	+@BUILD=$(BUILD) B=$(B) GRADER=$(GRADER) DEVINFO=$(DEVINFO) MAKE="$(MAKE)" \
		SANITIZER="$(SANITIZER)" NVCC="$(NVCC)" sh tests/run.sh

# Mutation testing (tests/mutate.sh): each mutant, a small bug in grader/,
# common/ or tools/batch/, planted alone in a copy of the tree, must fail
# the no-GPU tests; MUTANTS= names some. 4 to 6 minutes on 2 cores.
.PHONY: mutate
mutate:
	$(call instructor_tool,tests/mutate.sh)
	@BUILD=$(BUILD) MAKE="$(MAKE)" sh tests/mutate.sh $(MUTANTS)

clean:
	rm -rf $(BUILD)

# ---- instructors (docs/instructors.md) ----------------------------------------
# handout            $(DIST)/cuda-workbook-handout/ and .tar.gz (no solutions/,
#                    no self-test corpus), $(DIST)/cuda-workbook-instructor.tar.gz
# calibrate          naive and solution speedups on this GPU, RUNS times, and
#                    tiers proposed from them: $(CALIBRATE_OUT)/course.conf
# gradescope-bundle  $(DIST)/gradescope/autograder-<assignment>.zip (LAB=,
#                    COURSE=, SM=; it grades in make batch's sandbox:
#                    SANDBOX=off, SANDBOX_*); only for a Gradescope whose
#                    autograders run on GPU machines of the course's own
# check-course       COURSE=file checked, no GPU: what it grades and changes
# mutate             would make test catch a bug? small bugs planted one at a
#                    time in a copy of the tree (tests/mutate.sh; MUTANTS=)
# print-VAR          a make variable's value, for scripts
DIST          ?= dist
RUNS          ?= 5
CALIBRATE_OUT ?= $(BUILD)/calibrate
instructor_tool = @test -f $(1) || { echo "$(1) is an instructor tool: it is not in the student handout"; exit 2; }

.PHONY: handout calibrate gradescope-bundle check-course

handout:
	$(call instructor_tool,tools/handout.sh)
	@sh tools/handout.sh "$(DIST)"

calibrate: tools
	$(call instructor_tool,tools/calibrate.sh)
	@test -d solutions || { echo "make calibrate times solutions/: not in the student handout"; exit 2; }
	@$(DEVINFO) --check
	+@RUNS="$(RUNS)" LAB="$(LAB)" COURSE="$(COURSE)" OUT="$(CALIBRATE_OUT)" \
		GRADER="$(GRADER)" B="$(B)" MAKE="$(MAKE)" sh tools/calibrate.sh

gradescope-bundle: $(GRADER)
	$(call instructor_tool,tools/gradescope/bundle.sh)
	@LAB="$(LAB)" COURSE="$(COURSE)" GRADER="$(GRADER)" \
		BUNDLE_SM="$(if $(filter command line environment,$(origin SM)),$(SM))" \
		SANDBOX="$(SANDBOX)" SANDBOX_USER="$(SANDBOX_USER)" \
		SANDBOX_NPROC="$(SANDBOX_NPROC)" SANDBOX_MEM="$(SANDBOX_MEM)" \
		sh tools/gradescope/bundle.sh "$(DIST)/gradescope"

# A course file checked without a GPU: it parses, every name exists, and
# every exercise it changes is still a valid table (the labs' info
# binaries are built for that: nvcc, no GPU). Says what it grades and
# changes; exit status 2 and file:line: why when it is wrong.
check-course: $(GRADER)
	@test -n "$(COURSE)" || { echo "give COURSE=<a course file> (docs/instructors.md, section 3)"; exit 2; }
	+@labs=$$($(COURSE_LABS)) || exit 2; \
	 $(MAKE) --no-print-directory $$(for l in $$labs; do echo $(B)/labs/$$l/info; done) \
		SRC=labs LAB="$$(echo $$labs)" > $(BUILD)/check-course.log 2>&1 || { \
		cat $(BUILD)/check-course.log; echo "check-course: the labs' own code did not build"; exit 2; }
	@$(GRADER) --labs labs --build $(B)/labs --course '$(COURSE)' --check-course summary \
		$(if $(LAB),--lab "$(LAB)")

print-%:
	@echo '$($*)'

# make help: the comment at the top of this file, then the instructors'.
# In the student handout (no solutions/), neither the instructors' part
# of the top nor their section at the end: what it cannot run.
.PHONY: help
help:
	@awk -v nogpu='$(NOGPU_SM)' -v dist='$(DIST)' -v cal='$(CALIBRATE_OUT)' \
	     -v handout='$(if $(wildcard solutions),,1)' ' \
	     { gsub(/\$$\(NOGPU_SM\)/, nogpu); gsub(/\$$\(DIST\)/, dist); \
	       gsub(/\$$\(CALIBRATE_OUT\)/, cal) } \
	     handout && /^# In the instructor.s copy only/ { skip = 1; next } \
	     skip && /^#$$/ { skip = 0; next } skip { next } \
	     NR == 1, /^$$/ { if (/^#/) { sub(/^# ?/, ""); print }; next } \
	     handout { next } \
	     /^# ---- instructors/ { on = 1; print ""; print "For instructors (make ...):"; next } \
	     on && /^#/ { sub(/^# ?/, "  "); print; next } { on = 0 }' $(firstword $(MAKEFILE_LIST))
