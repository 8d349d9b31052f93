# Lab 07: kernel fusion. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# No peers: the point is the naive's eager sequence versus one kernel;
# passes is host code that counts the bytes of both.
EXERCISES := gelu bias_gelu add_rmsnorm softmax passes diagnose
HEADERS   := fusion.h
# ANSWERS:   the answer key of passes (the rule it is graded against),
#            linked where it is: the instructor's copy. The student
#            handout leaves it out (tools/handout.sh), and there lab.c
#            grades passes by worked cases and properties instead.
ANSWERS   := answers.c
# HOST_EXERCISES: plain host C, no kernel: make check grades passes on the
#            CPU, with no GPU (common/hostcheck.c).
HOST_EXERCISES := passes diagnose
LAB_SRCS  := lab.c naive.cu $(notdir $(wildcard labs/07-fusion/$(ANSWERS)))
PEER_SRCS :=
LAB_LIBS  :=
