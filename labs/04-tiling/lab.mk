# Lab 04: shared-memory tiling. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# PEER_SRCS: cuBLAS, the bar for transpose (cublasSgeam) and matmul
#            (cublasSgemm, fp32, no TF32); matmul times it when grading too.
# LAB_LIBS:  the peers link cuBLAS.
# roofline:  host C that predicts the roofline of the lab's kernels.
# LAB_SRCS:  ref.cu is matmul's double-precision reference on the GPU, for
#            the products too large to check on the host (see its header).
EXERCISES := transpose matmul roofline peak
HEADERS   := tiling.h
# ANSWERS:   the answer key of roofline (the rule it is graded against),
#            linked where it is: the instructor's copy. The student
#            handout leaves it out (tools/handout.sh), and there lab.c
#            grades roofline by worked cases and properties instead.
ANSWERS   := answers.c
# HOST_EXERCISES: plain host C, no kernel: make check grades roofline on the
#            CPU, with no GPU (common/hostcheck.c).
HOST_EXERCISES := roofline peak
LAB_SRCS  := lab.c naive.cu ref.cu $(notdir $(wildcard labs/04-tiling/$(ANSWERS)))
PEER_SRCS := peers.cu
LAB_LIBS  := -lcublas
