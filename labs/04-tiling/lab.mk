# Lab 04: shared-memory tiling. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# PEER_SRCS: cuBLAS, the bar for transpose (cublasSgeam) and matmul
#            (cublasSgemm, fp32, no TF32); matmul times it when grading too.
# LAB_LIBS:  the peers link cuBLAS.
# roofline:  host C that predicts the roofline of the lab's kernels.
# LAB_SRCS:  ref.cu is matmul's double-precision reference on the GPU, for
#            the products too large to check on the host (see its header).
EXERCISES := transpose matmul roofline
HEADERS   := tiling.h
LAB_SRCS  := lab.c naive.cu ref.cu
PEER_SRCS := peers.cu
LAB_LIBS  := -lcublas
