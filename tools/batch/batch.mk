# SPDX-License-Identifier: MIT
#
# tools/batch/batch.mk - how make builds the batch tool (make batch, make
# slurm-script: the top-level Makefile's targets, docs/batch-grading.md).
# Included by the Makefile, which defines BUILD, B, CC, CFLAGS, GRADER,
# DEVINFO, CUDA_HOME and SM_LIST; the student handout has no tools/, and
# so neither this file nor the batch.
#
# tools/batch/, floor by floor (tools/batch/batch.h lists them); the
# program's own floor (BATCH_MAIN) apart: the unit tests link the rest.
BATCH_SRCS := util.c args.c files.c json.c lablist.c match.c sub.c roster.c tsv.c row.c \
              late.c cgroup.c process.c sandbox.c boxstep.c conf.c collect.c finish.c \
              board.c classpage.c summary.c book.c jobs.c schedule.c slurm.c
BATCH_MAIN := main.c setup.c cli.c settings.c selection.c modes.c
BATCH_LIB  := $(patsubst %.c,$(BUILD)/host/tools/batch/%.o,$(BATCH_SRCS))
BATCH      := $(BUILD)/host/tools/batch/batch
SUBMISSIONS ?=
BATCH_OUT   = $(if $(filter command line,$(origin OUT)),$(OUT),$(patsubst %/,%,$(SUBMISSIONS))-graded)
BATCH_ARGS  = --repo . --build $(BUILD) --objs $(B) --grader $(GRADER) --devinfo $(DEVINFO) \
              --cuda $(CUDA_HOME) --sm "$(SM_LIST)" --submissions "$(SUBMISSIONS)" \
              --out "$(BATCH_OUT)" $(if $(LAB),--lab "$(LAB)") $(if $(BUILD_ONLY),--build-only) \
              $(if $(JOBS),--jobs $(JOBS)) $(if $(GPUS),--gpus $(GPUS)) \
              $(if $(SEED),--seed $(SEED)) $(if $(TIMEOUT),--timeout-cap $(TIMEOUT)) \
              $(if $(COURSE),--course $(COURSE)) $(if $(SANDBOX),--sandbox $(SANDBOX)) \
              $(if $(SANDBOX_USER),--sandbox-user $(SANDBOX_USER)) \
              $(if $(SANDBOX_NPROC),--nproc $(SANDBOX_NPROC)) \
              $(if $(SANDBOX_MEM),--mem $(SANDBOX_MEM)) \
              $(if $(SANDBOX_CGROUP),--cgroup $(SANDBOX_CGROUP)) \
              $(if $(REGRADE),--regrade "$(REGRADE)") $(if $(IDS),--ids "$(IDS)") \
              $(if $(TIMES),--times "$(TIMES)") \
              $(if $(BUILD_TIMEOUT),--build-timeout $(BUILD_TIMEOUT))

$(BATCH): $(patsubst %.c,$(BUILD)/host/tools/batch/%.o,$(BATCH_MAIN)) \
	  $(BATCH_LIB) $(BUILD)/host/grader/proc.o $(BUILD)/host/grader/gpulock.o \
	  $(BUILD)/host/grader/html_text.o $(BUILD)/host/grader/labfind.o \
	  $(BUILD)/host/common/stats.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# A file of tools/batch/ calls only what the headers it includes declare,
# so that tests/layers.sh's floors, checked on the includes, hold for the
# calls too.
$(BUILD)/host/tools/batch/%.o: CFLAGS += -Werror=implicit-function-declaration
