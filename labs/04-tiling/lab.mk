# Lab 04: shared-memory tiling. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# PEER_SRCS: cuBLAS, the bar for transpose (cublasSgeam) and matmul
#            (cublasSgemm, fp32, no TF32); matmul times it when grading too.
# LAB_LIBS:  the peers link cuBLAS.
# roofline:  host C that predicts the roofline of the lab's kernels;
#            peak and constant, a GPU's roofs and a constant read's cost.
# LAB_SRCS:  ref.cu is matmul's double-precision reference on the GPU, for
#            the products too large to check on the host (see its header).
EXERCISES := transpose matmul roofline peak constant
HEADERS   := tiling.h
# ANSWERS:   the answer key of roofline, peak and constant (the rules they
#            are graded against), linked where it is: the instructor's
#            copy. The student handout leaves it out (tools/handout.sh), and
#            there ex_roofline.c and ex_constant.c grade them by worked
#            cases and properties instead.
ANSWERS   := answers.c
# HOST_EXERCISES: plain host C, no kernel: make check grades roofline on the
#            CPU, with no GPU (common/hostcheck.c).
HOST_EXERCISES := roofline peak constant
# LAB_SRCS:  lab.c is the table; each exercise's hooks are in ex_*.c, and
#            what several share in lab_shared.c, declared in lab_hooks.h
#            (lab code: not in HEADERS).
LAB_SRCS  := lab.c lab_shared.c ex_transpose.c ex_matmul.c ex_roofline.c \
             ex_constant.c naive.cu ref.cu $(notdir $(wildcard labs/04-tiling/$(ANSWERS)))
PEER_SRCS := peers.cu
LAB_LIBS  := -lcublas
