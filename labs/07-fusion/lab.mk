# Lab 07: kernel fusion. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# No peers: the point is the naive's eager sequence versus one kernel;
# passes is host code that counts the bytes of both.
EXERCISES := gelu bias_gelu add_rmsnorm softmax passes diagnose compare stalls
HEADERS   := fusion.h
# ANSWERS:   the answer key of passes (the rule it is graded against),
#            linked where it is: the instructor's copy. The student
#            handout leaves it out (tools/handout.sh), and there
#            ex_passes.c grades passes by worked cases and properties instead.
ANSWERS   := answers.c
# HOST_EXERCISES: plain host C, no kernel: make check grades passes on the
#            CPU, with no GPU (common/hostcheck.c).
HOST_EXERCISES := passes diagnose compare stalls
# LAB_SRCS:  lab.c is the table; each exercise's hooks are in ex_*.c, and
#            what several share in lab_shared.c, declared in lab_hooks.h
#            (lab code: not in HEADERS).
LAB_SRCS  := lab.c lab_shared.c ex_gelu.c ex_add_rmsnorm.c ex_softmax.c \
             ex_passes.c ex_diagnose.c ex_recordings.c naive.cu $(notdir $(wildcard labs/07-fusion/$(ANSWERS)))
PEER_SRCS :=
LAB_LIBS  :=
